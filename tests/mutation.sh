#!/usr/bin/env bash
# Mutation testing (Stryker.NET, the local tool in .config/dotnet-tools.json): mutates each core
# project, runs the test projects its stryker-config.json names against every mutant, and prints
# one table. Exits 1 when a project scores below its config's "break" threshold.
# Usage: tests/mutation.sh [PROJECT_DIR ...]     (default: every project with a stryker-config.json)
#        tests/mutation.sh --ci                  (what .ci/run checks: the service and the contract model)
# Reports (HTML, JSON, Markdown) stay under each project's StrykerOutput/ (git-ignored).
# docs/testing.md says how the suite is organised and the scores last measured.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

ci_projects=(src/RpcCompare.Service src/RpcCompare.Description)
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 0
elif [[ "${1:-}" == "--ci" ]]; then
  projects=("${ci_projects[@]}")
elif [[ $# -gt 0 ]]; then
  projects=("$@")
else
  mapfile -t projects < <(git ls-files '*stryker-config.json' | xargs -n1 dirname | sort)
fi

# The tool restores from the package source; where that lacks it, from the same extra folder as
# the framework packages (Directory.Build.props).
extra="${RPCCOMPARE_EXTRA_NUGET_SOURCE:-$repo/../shared/nuget}"
if [[ -d "$extra" ]]; then
  dotnet tool restore --add-source "$extra" >/dev/null || exit 1
else
  dotnet tool restore >/dev/null || exit 1
fi

rows=()
failed=0
for project in "${projects[@]}"; do
  if [[ ! -f "$project/stryker-config.json" ]]; then
    echo "mutation: $project has no stryker-config.json" >&2
    exit 2
  fi
  echo "mutation: $project (this takes minutes; progress below)"
  output="$project/StrykerOutput/latest"
  rm -rf "$output"
  started=$SECONDS
  # A mutant can turn a bounded write into an endless one (a loop bound or a repeat count
  # mutated): before its timeout it filled the disk with a 10 GB file in the temp directory, and
  # the killed test host never deleted it. Each project's run therefore gets its own temp
  # directory, removed afterwards, and no file it writes may pass 2 GiB (ulimit -f, in KiB):
  # such a mutant dies of SIGXFSZ instead, which counts as detected.
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/m-XXXXXX") # short: socket paths go under it
  (cd "$project" && ulimit -f 2097152 && TMPDIR="$scratch" dotnet stryker --output StrykerOutput/latest) | grep -E '^\[|Killed|Survived|Timeout|score' || true
  rm -rf "$scratch"
  report="$output/reports/mutation-report.json"
  if [[ ! -f "$report" ]]; then
    echo "mutation: $project produced no report (see the output above)" >&2
    failed=1
    continue
  fi
  row=$(python3 - "$report" "$project/stryker-config.json" "$project" $((SECONDS - started)) <<'PY'
import json, sys
report, config, project, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
counts = {}
for file in json.load(open(report))['files'].values():
    for mutant in file['mutants']:
        counts[mutant['status']] = counts.get(mutant['status'], 0) + 1
detected = counts.get('Killed', 0) + counts.get('Timeout', 0)
valid = detected + counts.get('Survived', 0) + counts.get('NoCoverage', 0)
score = 100.0 * detected / valid if valid else 0.0
threshold = json.load(open(config))['stryker-config'].get('thresholds', {}).get('break', 0)
verdict = 'ok' if score >= threshold else 'BELOW'
print(f"| {project} | {score:.1f}% | {threshold}% {verdict} | {detected} | {counts.get('Survived', 0)} | {counts.get('NoCoverage', 0)} | {counts.get('Ignored', 0)} | {seconds} s |")
PY
)
  rows+=("$row")
  [[ "$row" == *BELOW* ]] && failed=1
done

echo
echo "| project mutated | mutation score | break at | killed + timeout | survived | not covered | ignored | time |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
if [[ $failed -ne 0 ]]; then
  echo "mutation: a project scored below its break threshold or produced no report"
  exit 1
fi
