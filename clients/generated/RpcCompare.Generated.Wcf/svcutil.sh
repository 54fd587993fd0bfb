#!/usr/bin/env bash
# Generates this project's WCF client code from clients/wsdl/*.wsdl with dotnet-svcutil, the local
# tool pinned in .config/dotnet-tools.json: one file and one namespace per service, as a team
# adding one service reference per service would get.
# Usage: svcutil.sh [OUTPUT_DIRECTORY]   (default: the folder of this script)
#
# The tool restores from the package source; where that lacks it (this project's build machines)
# it comes from the same extra folder as the framework packages (see Directory.Build.props).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
output="$(realpath -m "${1:-$here}")"
extra="${RPCCOMPARE_EXTRA_NUGET_SOURCE:-$repo/../shared/nuget}"

cd "$repo"
if [[ -d "$extra" ]]; then
  dotnet tool restore --add-source "$extra" >/dev/null
else
  dotnet tool restore >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$output"
for wsdl in clients/wsdl/rpccompare.v1.*.wsdl; do
  service="$(basename "$wsdl" .wsdl)"
  service="${service#rpccompare.v1.}"
  # --noTypeReuse: this client knows only the WSDL, not RpcCompare's contracts assembly.
  # Run from the repository root, where no project file is: svcutil then edits no project.
  if ! DOTNET_SVCUTIL_TELEMETRY_OPTOUT=1 dotnet tool run dotnet-svcutil \
      --noLogo --verbosity Minimal --noTypeReuse --targetFramework net10.0 \
      --namespace "*,RpcCompare.Generated.Wcf.$service" \
      --outputDir "$work" --outputFile "$service.cs" "$wsdl" >"$work/svcutil.log" 2>&1; then
    cat "$work/svcutil.log" >&2
    exit 1
  fi
  cp "$work/$service.cs" "$output/$service.cs"
  echo "wrote $output/$service.cs"
done
