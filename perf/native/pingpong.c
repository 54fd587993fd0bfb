/*
 * The native floor for RpcCompare's ping-pong suite: two processes bouncing a message of SIZE
 * bytes over a Unix domain socket, as Chromium's IPC perftests do. No framing beyond the known
 * size, no allocation in the loop: the least any binding could cost on this machine.
 * With "tcp" the two processes talk over a TCP connection on 127.0.0.1 instead (Nagle off, as
 * every RPC binding sets it): the floor for the bindings that travel over TCP, which pay the
 * loopback TCP stack a Unix socket does not have.
 *
 * usage: pingpong SIZE MILLISECONDS [pin|split] [spin] [tcp]
 * prints: roundtrips=N seconds=S
 * By default both sides block in read() and write(), so every hop sleeps and is woken (on a VM,
 * across cores: slower than a runtime that spins briefly before sleeping). With "spin" both sides
 * poll the non-blocking socket (MSG_DONTWAIT) in a loop instead and never sleep: the least a hop
 * can cost, paid for with a busy core per side.
 * With "pin", blocking processes are bound to CPU 0 (same-core ping-pong, as Chromium measures);
 * spinning ones to CPUs 0 and 1 (two spinners on one core would only take turns). With "split",
 * either mode runs on CPUs 0 and 1 (the runner's --pin: runner and host on a core each).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int spinning;

static int transfer(int fd, char *buffer, size_t size, int writing)
{
    size_t done = 0;
    int flags = spinning ? MSG_DONTWAIT : 0;
    while (done < size) {
        ssize_t n = writing ? send(fd, buffer + done, size - done, flags) : recv(fd, buffer + done, size - done, flags);
        if (n < 0 && spinning && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n <= 0) {
            if (n == 0) {
                errno = 0; /* the end of the stream, not an error of the call */
            }
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pin_to_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(3);
    }
}

/* A connected pair of TCP sockets on 127.0.0.1 (an ephemeral port), Nagle off on both: fds[0] connected, fds[1] accepted. */
static int tcp_pair(int fds[2])
{
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) {
        perror("socket");
        return -1;
    }
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0
        || getsockname(listener, (struct sockaddr *)&address, &length) != 0) {
        perror("bind, listen or getsockname on 127.0.0.1");
        close(listener);
        return -1;
    }
    fds[0] = socket(AF_INET, SOCK_STREAM, 0);
    if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&address, sizeof address) != 0) {
        perror("connect to 127.0.0.1");
        if (fds[0] >= 0) {
            close(fds[0]);
        }
        close(listener);
        return -1;
    }
    fds[1] = accept(listener, NULL, NULL);
    close(listener);
    if (fds[1] < 0) {
        perror("accept");
        close(fds[0]);
        return -1;
    }
    if (setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0
        || setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        perror("TCP_NODELAY");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    return 0;
}

/* The measuring side's send or receive failed: the echo side went away (or the socket failed). */
static int echo_side_failed(void)
{
    int saved = errno;
    fprintf(stderr, "the round trip failed (%s): the echo side closed or died\n", saved != 0 ? strerror(saved) : "end of stream");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIZE MILLISECONDS [pin|split] [spin] [tcp]\n", argv[0]);
        return 2;
    }
    size_t size = (size_t)strtoul(argv[1], NULL, 10);
    double limit = strtod(argv[2], NULL) / 1000.0;
    int pin = 0;
    int split = 0;
    int tcp = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "pin") == 0) {
            pin = 1;
        } else if (strcmp(argv[i], "split") == 0) {
            pin = 1;
            split = 1;
        } else if (strcmp(argv[i], "spin") == 0) {
            spinning = 1;
        } else if (strcmp(argv[i], "tcp") == 0) {
            tcp = 1;
        } else {
            fprintf(stderr, "unknown option %s (expected pin, split, spin or tcp)\n", argv[i]);
            return 2;
        }
    }
    if (size == 0 || limit <= 0) {
        fprintf(stderr, "SIZE and MILLISECONDS must be positive\n");
        return 2;
    }

    int fds[2];
    if (tcp) {
        if (tcp_pair(fds) != 0) {
            return 1;
        }
    } else if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        perror("socketpair");
        return 1;
    }
    char *buffer = malloc(size);
    if (buffer == NULL) {
        return 1;
    }
    memset(buffer, 'x', size);
    if (pin) {
        pin_to_cpu(0);
    }

    /* A send to an echo side that died fails with EPIPE and is reported, instead of killing this process without a word. */
    signal(SIGPIPE, SIG_IGN);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        /* The echo side: returns every message until the other end closes. */
        close(fds[0]);
        if (pin && (spinning || split)) {
            pin_to_cpu(1);
        }
        while (transfer(fds[1], buffer, size, 0) == 0 && transfer(fds[1], buffer, size, 1) == 0) {
        }
        _exit(0);
    }
    close(fds[1]);

    /* Warm-up, then count round trips until the time is up (checking the clock every 64). */
    for (int i = 0; i < 1000; i++) {
        if (transfer(fds[0], buffer, size, 1) != 0 || transfer(fds[0], buffer, size, 0) != 0) {
            return echo_side_failed();
        }
    }
    long roundtrips = 0;
    double start = now_seconds();
    double elapsed = 0;
    while (elapsed < limit) {
        for (int i = 0; i < 64; i++) {
            if (transfer(fds[0], buffer, size, 1) != 0 || transfer(fds[0], buffer, size, 0) != 0) {
                return echo_side_failed();
            }
        }
        roundtrips += 64;
        elapsed = now_seconds() - start;
    }
    close(fds[0]);
    waitpid(child, NULL, 0);
    printf("roundtrips=%ld seconds=%.6f\n", roundtrips, elapsed);
    free(buffer);
    return 0;
}
