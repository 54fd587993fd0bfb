#!/usr/bin/env bash
# Installs what the container path needs on a Debian machine with no Docker engine:
# podman, runc (crun refuses hybrid cgroups on these machines), debootstrap (local base images)
# and podman-compose (runs docker/compose.yaml).
set -euo pipefail
missing=()
for tool in podman runc debootstrap podman-compose; do
  command -v "$tool" >/dev/null 2>&1 || [[ -x "/usr/sbin/$tool" ]] || missing+=("$tool")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "install-prerequisites: need root to apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
