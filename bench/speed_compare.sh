#!/bin/bash
# speed_compare.sh: two builds' single-thread simulation rate, side by side in one sitting.
#
#   bench/speed_compare.sh OLD_SIM_THROUGHPUT NEW_SIM_THROUGHPUT [options]
#     --preset P      a preset to measure (repeatable; default qv100-accelsim and fermi-gtx480)
#     --list FILE     the workloads (default bench/accelsim/workloads.txt)
#     --rounds R      measurements of each build per workload, alternating which goes first;
#                     the best of each build's is kept (default 3)
#     --seconds S     CPU seconds of each measurement (default 1: short runs are repeated)
#
# Both arguments are bench/sim_throughput binaries, each built in its own tree: the program
# builds against earlier trees too. Prints, per preset, each workload's warp instructions per
# CPU second with both builds and their ratio (new / old), then the geometric mean, the lowest
# and the highest ratio. The simulations must agree: a workload whose warp instructions or
# cycles differ between the builds is flagged (results are meant to be byte-identical).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
OLD=$1
NEW=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
presets=()
LIST=$root/bench/accelsim/workloads.txt
ROUNDS=3
SECONDS_EACH=1
while [ $# -gt 0 ]; do
    case $1 in
    --preset) presets+=("$2"); shift 2 ;;
    --list) LIST=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    *) echo "speed_compare: unknown option $1" >&2; exit 2 ;;
    esac
done
[ ${#presets[@]} -gt 0 ] || presets=(qv100-accelsim fermi-gtx480)
mapfile -t workloads < <(grep -v '^[[:space:]]*#' "$LIST" | grep -v '^[[:space:]]*$')

# one measurement: "warp_insts cycles rate" of workload $3 on preset $2 with binary $1; a
# built-in the binary does not have (an older build) runs from its file in workloads/
measure() {
    local out
    out=$("$1" --preset "$2" --repeat 1 --seconds "$SECONDS_EACH" "$3" 2>/dev/null |
        awk 'NR == 2 && $2 != "failed" {print $2, $3, $10}') || true
    local name=${3%% *}
    if [ -z "$out" ] && [ -f "$root/workloads/$name.wl" ]; then
        out=$("$1" --preset "$2" --repeat 1 --seconds "$SECONDS_EACH" \
            "$root/workloads/$name.wl${3#"$name"}" |
            awk 'NR == 2 && $2 != "failed" {print $2, $3, $10}')
    fi
    echo "$out"
}

table=$(mktemp)
trap 'rm -f "$table"' EXIT
for preset in "${presets[@]}"; do
    echo "preset $preset: warp instructions per CPU second, best of $ROUNDS, ${SECONDS_EACH}s each"
    printf '%-24s %14s %14s %7s\n' workload old new new/old
    for w in "${workloads[@]}"; do
        best_old=0 best_new=0 same=yes
        for ((r = 0; r < ROUNDS; r++)); do
            if ((r % 2 == 0)); then order=(old new); else order=(new old); fi
            for who in "${order[@]}"; do
                bin=$OLD
                [ "$who" = new ] && bin=$NEW
                read -r insts cycles rate < <(measure "$bin" "$preset" "$w") || true
                if [ -z "${rate:-}" ]; then
                    echo "speed_compare: $who failed on $preset $w" >&2
                    exit 1
                fi
                key="$insts $cycles"
                if [ "$who" = old ]; then
                    old_key=$key
                    awk -v a="$rate" -v b="$best_old" 'BEGIN {exit !(a > b)}' && best_old=$rate
                else
                    new_key=$key
                    awk -v a="$rate" -v b="$best_new" 'BEGIN {exit !(a > b)}' && best_new=$rate
                fi
            done
            [ "$old_key" = "$new_key" ] || same=no
        done
        label=${w// /,}
        awk -v w="$label" -v o="$best_old" -v n="$best_new" -v same="$same" 'BEGIN {
            printf "%-24s %14.0f %14.0f %7.3f%s\n", w, o, n, n / o,
                   same == "yes" ? "" : "  (results differ)" }'
    done >"$table"
    cat "$table"
    awk '{ r = $4; s += log(r); k++; if (k == 1 || r < lo) lo = r; if (k == 1 || r > hi) hi = r }
        END { printf "geomean %.3f, lowest %.3f, highest %.3f over %d workloads\n\n",
                     exp(s / k), lo, hi, k }' "$table"
done
