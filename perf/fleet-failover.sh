#!/usr/bin/env bash
# Failover measured on the fleet (issue 21, item 3): docker/fleet/run.sh up, then the load command's
# --chaos kill-replica through HAProxy, killing one replica's container with SIGKILL partway, then the
# fleet taken down again. Every binding writes numbered records through the balancer into the shared
# data root (read back here from the volume), and push subscribers on every replica follow one topic.
#
#   perf/fleet-failover.sh [--replica host-2] [--rounds N] [--output results/fleet-failover] [-- load options]
#
# Load options, e.g. -- --duration-seconds 30 --kill-after-seconds 10 --users 4. A fresh fleet per round.
# Needs podman, podman-compose and the images docker/fleet/run.sh builds, and a Release build
# (dotnet build -c Release perf/RpcCompare.Load). Run as root: the volume's folder is read directly.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

replica=host-2
rounds=1
output=results/fleet-failover
load_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --replica) replica=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    --) shift; load_options=("$@"); break ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fleet-failover: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

source docker/fleet/podman.sh
load=perf/RpcCompare.Load/bin/Release/net10.0/RpcCompare.Load.dll
[[ -f "$load" ]] || { echo "fleet-failover: no Release build of the load command; dotnet build -c Release perf/RpcCompare.Load" >&2; exit 1; }
trap 'docker/fleet/run.sh down >/dev/null 2>&1 || true' EXIT

status=0
for round in $(seq 1 "$rounds"); do
  echo "== round $round of $rounds: fleet up"
  docker/fleet/run.sh up
  container=$("${PODMAN[@]}" ps -q --filter "label=io.podman.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$replica")
  [[ -n "$container" ]] || { echo "fleet-failover: no running container for $replica" >&2; exit 1; }
  data=$("${PODMAN[@]}" volume inspect "${PROJECT}_data" --format "{{.Mountpoint}}")/data  # the replicas' DataRoot__Path, /srv/rpccompare/data
  echo "== killing $replica ($container) under load; data root $data"
  dotnet "$load" --chaos kill-replica --host docker/fleet/endpoints.json --data-root "$data" \
    --kill-command "${PODMAN[*]} kill -s KILL $container" --output "$output" "${load_options[@]}" || status=1
  docker/fleet/run.sh down
done
exit $status
