#!/usr/bin/env bash
# The brokers compared on the push suite (issue 21, item 2): one host on loopback with no broker, with
# --push-redis and with --push-nats, the runner measuring each through --host, in alternating rounds.
# Each broker durable as the fleet runs it: Redis with its append-only file (everysec), NATS JetStream
# with file storage. Reports go to OUTPUT/<timestamp>/ as for any runner run; this prints which is which
# and the CPU time the host, redis-server and nats-server used during each (from /proc; the idle broker
# uses a little too).
#
#   perf/push-brokers.sh [--rounds N] [--bindings pipes] [--output results/push-brokers] [-- runner options]
#
# Needs a Release build (dotnet build -c Release), redis-server and nats-server (tests/install-prerequisites.sh).
# About 7 minutes per configuration and round with the default push suite on one binding.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rounds=1
bindings=pipes
output=results/push-brokers
runner_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --bindings) bindings=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    --) shift; runner_options=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
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

measure() {
  local name=$1 round=$2
  local endpoints="$work/$name-$round.json"
  # shellcheck disable=SC2086 # the broker's arguments are words
  dotnet "$host" --bindings "$bindings" ${broker_arguments[$name]} --endpoints-file "$endpoints" \
    --socket-dir "$work/sockets-$name-$round" >"$work/host-$name-$round.log" 2>&1 &
  local host_pid=$!
  wait_for "[[ -s $endpoints ]]" "the host ($name)"
  local before redis_before nats_before
  before=$(ls "$output" 2>/dev/null | sort | tail -n 1 || true)
  redis_before=$(cpu_seconds "$redis_pid"); nats_before=$(cpu_seconds "$nats_pid")
  echo "push-brokers: round $round, $name: measuring"
  dotnet "$runner" --host "$endpoints" --suite push --bindings "$bindings" --output "$output" "${runner_options[@]}" >"$work/runner-$name-$round.log" 2>&1 \
    || { echo "push-brokers: the runner failed ($name); its output:" >&2; tail -n 30 "$work/runner-$name-$round.log" >&2; exit 1; }
  local cpu
  cpu="host $(cpu_seconds "$host_pid") s, redis-server $(awk -v a="$redis_before" -v b="$(cpu_seconds "$redis_pid")" 'BEGIN{printf "%.2f", b - a}') s, nats-server $(awk -v a="$nats_before" -v b="$(cpu_seconds "$nats_pid")" 'BEGIN{printf "%.2f", b - a}') s"
  kill "$host_pid"; wait "$host_pid" 2>/dev/null || true
  local report
  report=$(ls "$output" | sort | grep -v '^index.html$' | tail -n 1)
  [[ $report != "$before" ]] || { echo "push-brokers: no new report for $name" >&2; exit 1; }
  echo "push-brokers: round $round, $name: $output/$report (CPU: $cpu)"
}

mkdir -p "$output"
configurations=(none redis nats)
for round in $(seq 1 "$rounds"); do
  # Alternate the order: round 2 runs nats, redis, none; round 3 as round 1.
  if (( round % 2 == 0 )); then order=(nats redis none); else order=("${configurations[@]}"); fi
  for name in "${order[@]}"; do measure "$name" "$round"; done
done
