#!/bin/bash
# sim_threads.sh: one simulation's wall time with its SMs on 1, 2, ... threads (warptune sim
# --threads N), and a proof that the outputs do not change.
#
#   bench/sim_threads.sh WARPTUNE [options]
#     --threads "1 2 4"  thread counts to time (default "1 2")
#     --rounds R         runs of each count per workload, interleaved; the best is kept (default 5)
#     --preset P         (default qv100-accelsim)
#     --run "W k=v ..."  a workload and its parameters (repeatable; default the two of
#                        docs/performance.md: kmeans npoints=65536, fdtd2d nx=512 ny=512)
#
# Prints per workload the best wall seconds at each count and the speedup over the first count,
# and fails if any run's JSON output differs from the first count's.
set -euo pipefail
if [ $# -lt 1 ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
W=$(realpath "$1")
shift
THREADS="1 2" ROUNDS=5 PRESET=qv100-accelsim RUNS=()
while [ $# -gt 0 ]; do
    case $1 in
    --threads) THREADS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --preset) PRESET=$2; shift 2 ;;
    --run) RUNS+=("$2"); shift 2 ;;
    *) echo "sim_threads: unknown option $1" >&2; exit 2 ;;
    esac
done
[ ${#RUNS[@]} -gt 0 ] || RUNS=("kmeans npoints=65536" "fdtd2d nx=512 ny=512")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -ra TL <<<"$THREADS"
status=0
printf '%-28s' "workload ($PRESET)"
for t in "${TL[@]}"; do printf ' %9s' "$t thr (s)"; done
for t in "${TL[@]:1}"; do printf ' %8s' "x at $t"; done
printf '\n'
for run in "${RUNS[@]}"; do
    read -ra words <<<"$run"
    args=(--workload "${words[0]}")
    for kv in "${words[@]:1}"; do args+=(--wparam "$kv"); done
    declare -A best=()
    for ((r = 0; r < ROUNDS; r++)); do
        for t in "${TL[@]}"; do
            TIMEFORMAT=%R
            s=$({ time "$W" sim --json --threads "$t" --preset "$PRESET" "${args[@]}" \
                >"$tmp/out.$t" 2>/dev/null; } 2>&1)
            if [ -z "${best[$t]:-}" ] || awk -v a="$s" -v b="${best[$t]}" 'BEGIN { exit !(a < b) }'; then
                best[$t]=$s
            fi
            if ! cmp -s "$tmp/out.${TL[0]}" "$tmp/out.$t"; then
                echo "sim_threads: $run: the output at $t threads differs from ${TL[0]} thread(s)" >&2
                status=1
            fi
        done
    done
    printf '%-28s' "$run"
    for t in "${TL[@]}"; do printf ' %9s' "${best[$t]}"; done
    for t in "${TL[@]:1}"; do
        printf ' %8s' "$(awk -v a="${best[${TL[0]}]}" -v b="${best[$t]}" 'BEGIN { printf "%.2f", a / b }')"
    done
    printf '\n'
    unset best
done
exit $status
