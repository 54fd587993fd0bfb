#!/usr/bin/env bash
# What a call costs in the fleet, and what three replicas give over one (issue 21, items 5 and 6):
# docs/scaling.md's check. Brings the podman fleet up and, for each binding and operation, runs the
# load command's closed model through HAProxy while reading from /proc the CPU time of HAProxy, each
# replica, Redis and the whole machine; then stops host-2 and host-3 and does it again with one
# replica behind the same balancer. Prints one table row per run (and keeps them in OUTPUT/costs.tsv):
# calls/s, the machine's busy share, and CPU microseconds per call (machine, HAProxy, replicas).
#
#   perf/fleet-cost.sh [--bindings wcf-nettcp,fast-tcp,wcf-http,grpc-tcp] [--operations ping,read-directory,write-at]
#                      [--users 16] [--seconds 15] [--output results/fleet-cost]
#
# Needs podman, the fleet's images (docker/fleet/run.sh builds them) and a Release build of the load
# command (dotnet build -c Release perf/RpcCompare.Load). Run as root (podman, /proc of the containers).
# About 25 s per binding and operation and fleet size: 12 runs twice, ~10 minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bindings=wcf-nettcp,fast-tcp,wcf-http,grpc-tcp
operations=ping,read-directory,write-at
users=16
seconds=15
output=results/fleet-cost
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bindings) bindings=$2; shift 2 ;;
    --operations) operations=$2; shift 2 ;;
    --users) users=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fleet-cost: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

source docker/fleet/podman.sh
load=perf/RpcCompare.Load/bin/Release/net10.0/RpcCompare.Load.dll
[[ -f "$load" ]] || { echo "fleet-cost: no Release build of the load command; dotnet build -c Release perf/RpcCompare.Load" >&2; exit 1; }
mkdir -p "$output"
costs=$output/costs.tsv
trap 'docker/fleet/run.sh down >/dev/null 2>&1 || true' EXIT

# CPU ticks (user + system, all threads) of a container's main process, from /proc/PID/stat.
pid_of() { "${PODMAN[@]}" inspect -f '{{.State.Pid}}' "${PROJECT}_$1_1"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }   # user nice system irq softirq
HZ=$(getconf CLK_TCK)

measure() {  # $1: label (3 or 1 replicas), $2: replicas measured
  local label=$1; shift
  local replicas=("$@")
  for binding in ${bindings//,/ }; do
    for operation in ${operations//,/ }; do
      local haproxy redis before_h before_r before_busy before_wall
      haproxy=$(pid_of haproxy); redis=$(pid_of redis)
      declare -A before=()
      for r in "${replicas[@]}"; do before[$r]=$(ticks "$(pid_of "$r")"); done
      before_h=$(ticks "$haproxy"); before_r=$(ticks "$redis"); before_busy=$(busy); before_wall=$(date +%s.%N)
      local out="$output/$label-$binding-$operation"
      dotnet "$load" --host docker/fleet/endpoints.json -b "$binding" --operations "$operation" --models closed \
        --users "$users" --duration-seconds "$seconds" --warmup-seconds 0.5 --output "$out" >"$out.log" 2>&1 || true
      local after_busy after_wall replica_ticks=0
      after_busy=$(busy); after_wall=$(date +%s.%N)
      for r in "${replicas[@]}"; do replica_ticks=$((replica_ticks + $(ticks "$(pid_of "$r")") - before[$r])); done
      python3 - "$out" "$label" "$binding" "$operation" "$HZ" "$((after_busy - before_busy))" "$before_wall" "$after_wall" \
        "$(( $(ticks "$haproxy") - before_h ))" "$replica_ticks" "$(( $(ticks "$redis") - before_r ))" <<'PY' | tee -a "$costs"
import glob, json, os, sys
out, label, binding, operation, hz, busy, t0, t1, haproxy, replicas, redis = sys.argv[1:]
hz = int(hz); wall = float(t1) - float(t0); cpus = os.cpu_count()
reports = glob.glob(f"{out}/*/load/report.json")
if not reports:
    print(f"{label}\t{binding}\t{operation}\tno report (see {out}.log)"); sys.exit()
report = json.load(open(reports[0]))
def get(d, k): return next(v for kk, v in d.items() if kk.lower() == k.lower())
result = get(report, "results")[0]
ok, failed, rps = get(result, "ok"), get(result, "failed"), get(result, "requestsPerSecond")
# CPU over the whole invocation (the load command's start-up and JIT, the warm-up pass, NBomber's start and close)
# per measured call: high by the cost of those, most for the slowest operations.
us = lambda t: int(t) / hz * 1e6 / ok if ok else float("nan")
print(f"{label}\t{binding}\t{operation}\t{rps:.0f}\t{failed}\t{int(busy) / hz / wall / cpus:.2f}\t{us(busy):.1f}\t{us(haproxy):.1f}\t{us(replicas):.1f}\t{us(redis):.2f}")
PY
    done
  done
}

printf 'replicas\tbinding\toperation\tcalls/s\tfailed\tmachine busy (share of all CPUs)\tmachine us/call\tHAProxy us/call\treplicas us/call\tRedis us/call\n' | tee "$costs"
docker/fleet/run.sh up
measure 3 host-1 host-2 host-3
"${PODMAN[@]}" stop -t 5 "${PROJECT}_host-2_1" "${PROJECT}_host-3_1" >/dev/null
# HAProxy takes them out (two failed checks) before the single replica is measured.
down=0
for _ in $(seq 1 30); do
  down=$(curl -fs http://127.0.0.1:8404/metrics | grep '^haproxy_server_status{' | grep -E 'server="host-[23]"' | grep -c 'state="DOWN"} 1' || true)
  [[ "$down" -eq 8 ]] && break
  sleep 1
done
[[ "$down" -eq 8 ]] || { echo "fleet-cost: HAProxy did not take host-2 and host-3 out within 30 s ($down of 8 servers DOWN)" >&2; exit 1; }
measure 1 host-1
echo "fleet-cost: rows in $costs"
