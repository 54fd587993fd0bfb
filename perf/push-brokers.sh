#!/usr/bin/env bash
# The brokers compared on the push suite (issue 21, item 2): one host on loopback with no broker, with
# --push-redis and with --push-nats, the runner measuring each through --host, in alternating rounds.
# Each broker durable as the fleet runs it: Redis with its append-only file (everysec), NATS JetStream
# with file storage. Reports go to OUTPUT/<timestamp>/ as for any runner run; this prints which is which
# and the CPU time the host, redis-server and nats-server used during each (from /proc; the idle broker
# uses a little too).
#
#   perf/push-brokers.sh [--rounds N] [--bindings pipes] [--broker-timing] [--output results/push-brokers] [-- runner options]
#
# --broker-timing: every host (the one without a broker too, for a fair pairing) serves its metrics
# (--metrics-port, which turns telemetry on), and after each run this prints the publishing host's broker
# histograms (rpccompare.push.broker.publish.duration, .feed.delay): count, mean and the median read from
# the buckets. Nearly all publications are the 2,000 x 2 collaboration row's. Telemetry on costs every
# configuration alike: a span per call and per delivery, a traceparent in every notification.
#
# Needs a Release build (dotnet build -c Release), redis-server and nats-server (tests/install-prerequisites.sh).
# About 7 minutes per configuration and round with the default push suite on one binding.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=1
bindings=pipes
output=results/push-brokers
broker_timing=0
runner_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --bindings) bindings=$2; shift 2 ;;
    --broker-timing) broker_timing=1; shift ;;
    --output) output=$2; shift 2 ;;
    --) shift; runner_options=("$@"); break ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "push-brokers: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

host=hosts/RpcCompare.Host/bin/Release/net10.0/RpcCompare.Host.dll
runner=perf/RpcCompare.Runner/bin/Release/net10.0/RpcCompare.Runner.dll
for built in "$host" "$runner"; do
  [[ -f $built ]] || { echo "push-brokers: $built is missing: dotnet build -c Release first" >&2; exit 2; }
done
for program in /usr/bin/redis-server /usr/sbin/nats-server; do
  [[ -x $program ]] || { echo "push-brokers: $program is missing: bash tests/install-prerequisites.sh" >&2; exit 2; }
done

work=$(mktemp -d /tmp/rc-brokers-XXXXXX)
pids=()
host_pid=
cleanup() {
  # The host of a run that failed half-way too, or the wait below would wait for it.
  for pid in "${pids[@]}" $host_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# utime + stime of a process, in seconds.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 100); do eval "$1" && return 0; sleep 0.1; done; echo "push-brokers: $2 did not start" >&2; exit 1; }

redis_port=$(free_port)
mkdir -p "$work/redis" "$work/nats"
/usr/bin/redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$work/redis" --appendonly yes --appendfsync everysec --save "" >"$work/redis.log" 2>&1 &
pids+=($!)
redis_pid=$!
nats_port=$(free_port)
/usr/sbin/nats-server --addr 127.0.0.1 --port "$nats_port" --jetstream --store_dir "$work/nats" >"$work/nats.log" 2>&1 &
pids+=($!)
nats_pid=$!
wait_for "redis-cli -p $redis_port ping >/dev/null 2>&1 || (exec 3<>/dev/tcp/127.0.0.1/$redis_port) 2>/dev/null" "redis-server"
wait_for "(exec 3<>/dev/tcp/127.0.0.1/$nats_port) 2>/dev/null" "nats-server"

declare -A broker_arguments=(
  [none]=""
  [redis]="--push-redis 127.0.0.1:$redis_port"
  [nats]="--push-nats nats://127.0.0.1:$nats_port"
)

# The broker histograms of one scrape: count, mean and bucket-interpolated median, in ms.
broker_histograms() {
  python3 -c '
import re, sys
text = sys.stdin.read()
for name in ("rpccompare_push_broker_publish_duration_seconds", "rpccompare_push_broker_feed_delay_seconds"):
    count = re.search(name + r"_count(?:\{[^}]*\})? (\S+)", text)
    total = re.search(name + r"_sum(?:\{[^}]*\})? (\S+)", text)
    if not count or float(count.group(1)) == 0:
        print(f"{name}: none"); continue
    n = float(count.group(1))
    buckets = [(float("inf") if le == "+Inf" else float(le), float(c)) for le, c in re.findall(name + r"_bucket\{[^}]*le=\"([^\"]+)\"[^}]*\} (\S+)", text)]
    buckets.sort()
    median, below, lower = None, 0.0, 0.0
    for upper, cumulative in buckets:
        if cumulative >= n / 2 and median is None:
            median = upper if upper == float("inf") else lower + (upper - lower) * (n / 2 - below) / max(cumulative - below, 1)
        below, lower = cumulative, upper
    print(f"{name}: {int(n)} publications, mean {1000 * float(total.group(1)) / n:.2f} ms, median ~{1000 * median:.2f} ms (from buckets)")
'
}

measure() {
  local name=$1 round=$2
  local endpoints="$work/$name-$round.json"
  local metrics=()
  if (( broker_timing )); then metrics_port=$(free_port); metrics=(--metrics-port "$metrics_port"); fi
  # shellcheck disable=SC2086 # the broker's arguments are words
  dotnet "$host" --bindings "$bindings" ${broker_arguments[$name]} "${metrics[@]}" --endpoints-file "$endpoints" \
    --socket-dir "$work/sockets-$name-$round" >"$work/host-$name-$round.log" 2>&1 &
  host_pid=$!
  wait_for "[[ -s $endpoints ]]" "the host ($name)"
  local before redis_before nats_before
  before=$(ls "$output" 2>/dev/null | sort | tail -n 1 || true)
  redis_before=$(cpu_seconds "$redis_pid"); nats_before=$(cpu_seconds "$nats_pid")
  echo "push-brokers: round $round, $name: measuring"
  dotnet "$runner" --host "$endpoints" --suite push --bindings "$bindings" --output "$output" "${runner_options[@]}" >"$work/runner-$name-$round.log" 2>&1 \
    || { echo "push-brokers: the runner failed ($name); its output:" >&2; tail -n 30 "$work/runner-$name-$round.log" >&2; exit 1; }
  if (( broker_timing )) && [[ $name != none ]]; then
    if curl -fsS "http://127.0.0.1:$metrics_port/metrics" >"$work/metrics-$name-$round.txt"; then
      broker_histograms <"$work/metrics-$name-$round.txt" | sed "s/^/push-brokers: round $round, $name: /" || true
    else
      echo "push-brokers: round $round, $name: the host's metrics could not be read" >&2
      rm -f "$work/metrics-$name-$round.txt"
    fi
  fi
  local cpu
  cpu="host $(cpu_seconds "$host_pid") s, redis-server $(awk -v a="$redis_before" -v b="$(cpu_seconds "$redis_pid")" 'BEGIN{printf "%.2f", b - a}') s, nats-server $(awk -v a="$nats_before" -v b="$(cpu_seconds "$nats_pid")" 'BEGIN{printf "%.2f", b - a}') s"
  kill "$host_pid"; wait "$host_pid" 2>/dev/null || true
  host_pid=
  local report
  report=$(ls "$output" | sort | grep -v '^index.html$' | tail -n 1)
  [[ $report != "$before" ]] || { echo "push-brokers: no new report for $name" >&2; exit 1; }
  # The host's scrape beside the report it goes with.
  [[ -f $work/metrics-$name-$round.txt ]] && cp "$work/metrics-$name-$round.txt" "$output/$report/host-metrics.txt"
  echo "push-brokers: round $round, $name: $output/$report (CPU: $cpu)"
}

mkdir -p "$output"
configurations=(none redis nats)
for round in $(seq 1 "$rounds"); do
  # Alternate the order: round 2 runs nats, redis, none; round 3 as round 1.
  if (( round % 2 == 0 )); then order=(nats redis none); else order=("${configurations[@]}"); fi
  for name in "${order[@]}"; do measure "$name" "$round"; done
done
