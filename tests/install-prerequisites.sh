#!/usr/bin/env bash
# Installs the servers the tests start for themselves on a Debian machine: redis-server, the broker
# hosts share push topics through (tests/RpcCompare.Push.Redis.Tests, EndToEnd HostPushAcrossReplicasTests).
# Only the program is needed: each test runs its own server on a free loopback port, keeping nothing on disk.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "install-prerequisites: need root to apt-get install redis-server" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# --no-install-recommends: no service is started or enabled; the tests start their own.
apt-get install -y -qq --no-install-recommends redis-server >/dev/null
