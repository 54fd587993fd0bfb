#!/usr/bin/env bash
# Installs the servers the tests start for themselves on a Debian machine: redis-server and nats-server,
# the brokers hosts share push topics through (tests/RpcCompare.Push.Brokers.Tests, EndToEnd
# HostPushAcrossReplicasTests), and HAProxy, the fleet's balancer (EndToEnd Fleet/). Only the programs are needed: each test runs its
# own server on free loopback ports, keeping nothing on disk. (On a machine with systemd, Debian's
# packages also enable and start their services, redis on 127.0.0.1:6379, nats on 4222; the tests do not use them.)
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[[ -x /usr/sbin/nats-server ]] || missing+=(nats-server)
[[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "install-prerequisites: need root to apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
