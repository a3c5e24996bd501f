#!/usr/bin/env bash
# Instructions per agent run, plain and with the telemetry decorator, counted by callgrind:
# a figure that does not move with the machine's load, unlike the benchmark's times.
#   bench/instructions_per_run.sh [build/release]
set -euo pipefail
bench="${1:-build/release}/bench/forma_bench_telemetry"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
count() { # $1: benchmark name
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --benchmark_filter="^$1\$" 2>&1 |
        awk '/Collected/ { print $4 }'
}
for mode in 0 1; do
    small=$(count "BM_run/mode:$mode/batch:512/iterations:1000")
    large=$(count "BM_run/mode:$mode/batch:512/iterations:2000")
    echo "mode $mode ($([ $mode = 0 ] && echo plain || echo telemetry)): $(( (large - small) / 1000 )) instructions per run"
done
