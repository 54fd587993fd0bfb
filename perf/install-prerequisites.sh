#!/usr/bin/env bash
# Installs what the reports' browser tests need on a Debian machine: Chromium, which renders the
# runner's report.html and the results dashboard headless (tests/RpcCompare.Perf.Reporting.Tests).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "install-prerequisites: need root to apt-get install chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
