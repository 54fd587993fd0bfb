#!/usr/bin/env bash
# What one HAProxy hop costs each TCP binding (issue 21, item 5; docs/measurements/balancer-hop-*.md):
# one host on fixed loopback ports, HAProxy on docker/fleet/haproxy.cfg with its three servers pointed
# at that host (so only the hop differs), and the runner's ops suite alternating between the host's own
# endpoints and HAProxy's, in pairs. Each run's report is kept under OUTPUT/<round>-direct and
# OUTPUT/<round>-through; compare them pairwise (through ÷ direct), or see results/index.html.
#
#   perf/balancer-hop.sh [--pairs 3] [--bindings wcf-nettcp,fast-tcp,wcf-http,grpc-tcp] [--output results/balancer-hop]
#                        [-- more runner options]
#
# Needs HAProxy (tests/install-prerequisites.sh installs it) and Release builds of the host and the
# runner (dotnet build -c Release hosts/RpcCompare.Host; dotnet build -c Release perf/RpcCompare.Runner). About 100 s per run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

pairs=3
bindings=wcf-nettcp,fast-tcp,wcf-http,grpc-tcp
output=results/balancer-hop
runner_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --pairs) pairs=$2; shift 2 ;;
    --bindings) bindings=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    --) shift; runner_options=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "balancer-hop: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

host=hosts/RpcCompare.Host/bin/Release/net10.0/RpcCompare.Host.dll
runner=perf/RpcCompare.Runner/bin/Release/net10.0/RpcCompare.Runner.dll
for built in "$host" "$runner"; do
  [[ -f "$built" ]] || { echo "balancer-hop: no Release build of $built; dotnet build -c Release hosts/RpcCompare.Host; dotnet build -c Release perf/RpcCompare.Runner" >&2; exit 1; }
done
command -v haproxy >/dev/null || { echo "balancer-hop: haproxy not found; bash tests/install-prerequisites.sh" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/balancer-hop-XXXXXX")
mkdir -p "$output"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# The host on the fleet's ports (plaintext, as the replicas behind HAProxy are).
dotnet "$host" --bindings "$bindings" --endpoints-file "$work/direct.json" \
  --WcfNetTcp:Port 8808 --FastTcp:Port 8809 --WcfHttp:Port 8080 --GrpcTcp:Port 50051 >"$work/host.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do [[ -s "$work/direct.json" ]] && break; sleep 1; done
[[ -s "$work/direct.json" ]] || { echo "balancer-hop: the host did not start; its log:" >&2; tail -20 "$work/host.log" >&2; exit 1; }

# HAProxy's frontends 10,000 ports up (60051 for gRPC), its servers at the host, health checks on its gRPC port.
sed -E -e 's/bind :8404/bind 127.0.0.1:18404/' -e 's/bind :50051/bind 127.0.0.1:60051/' \
  -e 's/bind :(8808|8809|8080)/bind 127.0.0.1:1\1/' -e 's/host-[0-9]+:([0-9]+)/127.0.0.1:\1/' \
  docker/fleet/haproxy.cfg >"$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=($!)
cat >"$work/balancer.json" <<JSON
{ "wcf-nettcp": "net.tcp://127.0.0.1:18808", "fast-tcp": "tcp://127.0.0.1:18809", "wcf-http": "http://127.0.0.1:18080", "grpc-tcp": "http://127.0.0.1:60051" }
JSON
for _ in $(seq 1 60); do
  healthy=$(curl -fs http://127.0.0.1:18404/metrics 2>/dev/null | grep '^haproxy_server_check_status{' | grep -c 'state="L7OK"} 1' || true)
  [[ "$healthy" -eq 12 ]] && break
  sleep 1
done
[[ "$healthy" -eq 12 ]] || { echo "balancer-hop: HAProxy's checks did not pass ($healthy of 12); its log:" >&2; tail -20 "$work/haproxy.log" >&2; exit 1; }

for round in $(seq 1 "$pairs"); do
  for side in direct through; do
    endpoints=$work/direct.json
    [[ $side == through ]] && endpoints=$work/balancer.json
    echo "balancer-hop: pair $round of $pairs, $side ($(date -u +%H:%M:%S))"
    dotnet "$runner" --host "$endpoints" --suite ops --bindings "$bindings" --output "$output/$round-$side" "${runner_options[@]}" >"$output/$round-$side.log" 2>&1 \
      || { echo "balancer-hop: the runner failed; see $output/$round-$side.log" >&2; exit 1; }
  done
done
echo "balancer-hop: reports under $output (<pair>-direct, <pair>-through)"
