#!/usr/bin/env bash
# Run the default suite RUNS times in a row (default 10) while two busy loops keep both
# cores of the machine loaded: how the tests are checked to depend on no clock. One line
# a run (time, load, pytest's summary), then any failed test with its assertion lines.
#
#   scripts/loaded_suite.sh [RUNS]       (from a fresh clone, after `uv sync --locked`)
set -u
runs=${1:-10}
cd "$(dirname "$0")/.."
python3 -c 'while 1: pass' & first=$!
python3 -c 'while 1: pass' & second=$!
trap 'kill $first $second 2>/dev/null' EXIT
for i in $(seq 1 "$runs"); do
    start=$(date +%s)
    out=$(uv run pytest -p no:cacheprovider 2>&1)
    end=$(date +%s)
    summary=$(echo "$out" | grep -E 'passed|failed' | tail -1)
    echo "run $i: $(date -u +%H:%M:%S) UTC, $((end - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg): $summary"
    # A failure's test name and its assertion lines: a race seen once must be readable.
    echo "$out" | grep -E '^(FAILED|ERROR)|^E ' | head -40
done
