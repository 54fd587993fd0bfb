#!/usr/bin/env bash
# The fleet (docker/fleet/compose.yaml) with podman on a machine without a registry, in one command:
#
#   docker/fleet/run.sh up      # builds the images it lacks (docker/offline.sh), starts three host replicas,
#                               # Redis, HAProxy and Prometheus, and waits until HAProxy has every replica UP
#   docker/fleet/run.sh down    # stops and removes them, with their volumes and network
#
# The replicas run the image localhost/rpccompare/host:latest as it is: after changing the code,
# `docker/offline.sh build` makes it again. With Docker and a registry: docker compose -f docker/fleet/compose.yaml up -d.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

source docker/fleet/podman.sh
COMPOSE=(podman-compose --podman-args="--runtime /usr/sbin/runc --cgroup-manager=cgroupfs" -p "$PROJECT" -f docker/fleet/compose.yaml)

case "${1:-}" in
  up)
    if [[ -n "$("${PODMAN[@]}" ps -a -q --filter "label=io.podman.compose.project=$PROJECT" 2>/dev/null)" ]]; then
      echo "fleet: already created; docker/fleet/run.sh down first (it would otherwise keep running the old containers)" >&2
      exit 1
    fi
    "${PODMAN[@]}" image exists localhost/rpccompare/host:latest || docker/offline.sh build
    for part in haproxy redis prometheus; do
      if ! "${PODMAN[@]}" image exists "localhost/rpccompare/$part:latest"; then
        docker/offline.sh build fleet
        break
      fi
    done
    log=${TMPDIR:-/tmp}/rpccompare-fleet-up.log
    # podman-compose 1.0.3 ignores compose.yaml's pids_limit, and podman gives a container 2,048 tasks:
    # fast-tcp serves a connection on a thread of its own and takes no more than the tasks allow (1,536
    # of 2,048), so with podman's default the fleet holds about 4,600 fast-tcp subscribers, not 8,000.
    "${COMPOSE[@]}" --podman-run-args="--pids-limit=30000" up -d --no-build >"$log" 2>&1
    # podman-compose 1.0.3 exits 0 even when a container did not start (a port already taken): all six must run.
    running=$("${PODMAN[@]}" ps -q --filter "label=io.podman.compose.project=$PROJECT" --filter status=running 2>/dev/null | grep -c . || true)
    if [[ "$running" -ne 6 ]]; then
      echo "fleet: $running of 6 containers running; podman-compose said (also in $log):" >&2
      tail -20 "$log" >&2
      exit 1
    fi
    # Three replicas in four backends: twelve servers whose gRPC health check passed (L7OK; a server starts UP before its first check).
    for _ in $(seq 1 90); do
      healthy=$(curl -fs http://127.0.0.1:8404/metrics 2>/dev/null | grep '^haproxy_server_check_status{' | grep -c 'state="L7OK"} 1' || true)
      if [[ "$healthy" -eq 12 ]]; then
        echo "fleet: 3 replicas UP behind HAProxy on 127.0.0.1 (wcf-nettcp 8808, fast-tcp 8809, wcf-http 8080, grpc-tcp 50051;"
        echo "       endpoints file docker/fleet/endpoints.json); HAProxy http://127.0.0.1:8404/stats, Prometheus http://127.0.0.1:9090"
        exit 0
      fi
      sleep 1
    done
    echo "fleet: HAProxy did not report every replica healthy within 90 s; see: ${COMPOSE[*]} logs" >&2
    exit 1
    ;;
  down)
    # podman-compose 1.0.3's down leaves the replicas' anonymous volumes (the image's VOLUMEs): remove the
    # containers with theirs first, then what down may leave, the named volumes and the network.
    containers=$("${PODMAN[@]}" ps -a -q --filter "label=io.podman.compose.project=$PROJECT" 2>/dev/null || true)
    [[ -z "$containers" ]] || "${PODMAN[@]}" rm -f -v $containers >/dev/null 2>&1 || true
    "${COMPOSE[@]}" down -v >/dev/null 2>&1 || true
    "${PODMAN[@]}" volume rm -f "${PROJECT}_data" "${PROJECT}_redis" >/dev/null 2>&1 || true
    "${PODMAN[@]}" network rm -f "${PROJECT}_default" >/dev/null 2>&1 || true
    echo "fleet: stopped and removed"
    ;;
  *)
    echo "usage: docker/fleet/run.sh up | down" >&2
    exit 2
    ;;
esac
