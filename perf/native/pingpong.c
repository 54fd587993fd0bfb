/*
 * The native floor for RpcCompare's ping-pong suite: two processes bouncing a message of SIZE
 * bytes over a Unix domain socket, as Chromium's IPC perftests do. No framing beyond the known
 * size, no allocation in the loop: the least any binding could cost on this machine.
 *
 * usage: pingpong SIZE MILLISECONDS [pin]
 * prints: roundtrips=N seconds=S
 * With "pin", both processes are bound to CPU 0 (same-core ping-pong, as Chromium measures).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int transfer(int fd, char *buffer, size_t size, int writing)
{
    size_t done = 0;
    while (done < size) {
        ssize_t n = writing ? write(fd, buffer + done, size - done) : read(fd, buffer + done, size - done);
        if (n <= 0) {
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

static void pin_to_cpu0(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(3);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIZE MILLISECONDS [pin]\n", argv[0]);
        return 2;
    }
    size_t size = (size_t)strtoul(argv[1], NULL, 10);
    double limit = strtod(argv[2], NULL) / 1000.0;
    int pin = argc > 3 && strcmp(argv[3], "pin") == 0;
    if (size == 0 || limit <= 0) {
        fprintf(stderr, "SIZE and MILLISECONDS must be positive\n");
        return 2;
    }

    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        perror("socketpair");
        return 1;
    }
    char *buffer = malloc(size);
    if (buffer == NULL) {
        return 1;
    }
    memset(buffer, 'x', size);
    if (pin) {
        pin_to_cpu0();
    }

    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        /* The echo side: returns every message until the other end closes. */
        close(fds[0]);
        while (transfer(fds[1], buffer, size, 0) == 0 && transfer(fds[1], buffer, size, 1) == 0) {
        }
        _exit(0);
    }
    close(fds[1]);

    /* Warm-up, then count round trips until the time is up (checking the clock every 64). */
    for (int i = 0; i < 1000; i++) {
        if (transfer(fds[0], buffer, size, 1) != 0 || transfer(fds[0], buffer, size, 0) != 0) {
            return 1;
        }
    }
    long roundtrips = 0;
    double start = now_seconds();
    double elapsed = 0;
    while (elapsed < limit) {
        for (int i = 0; i < 64; i++) {
            if (transfer(fds[0], buffer, size, 1) != 0 || transfer(fds[0], buffer, size, 0) != 0) {
                return 1;
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
