#!/usr/bin/env bash
# check-layers.sh: includes and calls point only down the layers of docs/architecture.md.
#
#   scripts/check-layers.sh                 check every #include in the tree
#   scripts/check-layers.sh LIB.a ...       also check the libraries' symbols, given bottom
#                                           layer first: no library may use a symbol that
#                                           only a library above it defines
#
# A file may include a header of its own layer or of any layer below. A header named
# *_internal.h belongs to its folder: only files in that folder may include it.
# WT_LAYERS_ROOT names another tree to check (the test of this script uses it).
set -euo pipefail
libs=()
for lib in "$@"; do libs+=("$(realpath "$lib")"); done
cd "${WT_LAYERS_ROOT:-$(dirname "$0")/..}"

sources() {
    if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        git ls-files 'core/*.[ch]' 'policies/*.[ch]' 'explorer/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]'
    else
        find core policies explorer tests bench -name '*.[ch]' 2> /dev/null | sort
    fi
}

# The layer of a path, bottom first; "" for paths outside the layers.
layer_of() {
    case $1 in
    core/util/*) echo "0 util" ;;
    core/mem/*) echo "1 mem" ;;
    core/config/*) echo "2 config" ;;
    core/policy.h | core/isource.h) echo "3 seam" ;;
    policies/*) echo "4 policies" ;;
    core/workload/* | core/trace/*) echo "5 workload" ;;
    core/sim/* | core/catalog.h) echo "6 sim" ;;
    core/analysis/*) echo "7 analysis" ;;
    explorer/cli/*) echo "9 cli" ;;
    explorer/*) echo "8 explorer" ;;
    tests/* | bench/*) echo "10 tools" ;;
    *) echo "" ;;
    esac
}

bad=0
while IFS= read -r file; do
    from=$(layer_of "$file")
    if [ -z "$from" ]; then
        echo "$file: not in any layer (add it to scripts/check-layers.sh)" >&2
        bad=1
        continue
    fi
    while IFS=: read -r line inc; do
        to=$(layer_of "$inc")
        [ -n "$to" ] || continue
        if [ "${to%% *}" -gt "${from%% *}" ]; then
            echo "$file:$line: includes $inc: layer '${from#* }' must not include layer '${to#* }'" >&2
            bad=1
        fi
        case $inc in
        *_internal.h)
            if [ "$(dirname "$inc")" != "$(dirname "$file")" ]; then
                echo "$file:$line: includes $inc, which is private to $(dirname "$inc")/" >&2
                bad=1
            fi
            ;;
        esac
    done < <(awk '/^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
        sub(/^[^"]*"/, ""); sub(/".*/, ""); print FNR ":" $0 }' "$file")
done < <(sources)

if [ ${#libs[@]} -gt 0 ]; then
    declare -A owner=()
    for i in "${!libs[@]}"; do
        while read -r sym; do
            [ -n "${owner[$sym]+x}" ] || owner[$sym]=$i
        done < <(nm -g --defined-only "${libs[$i]}" 2>/dev/null | awk 'NF == 3 {print $3}')
    done
    for i in "${!libs[@]}"; do
        while read -r sym; do
            j=${owner[$sym]-}
            if [ -n "$j" ] && [ "$j" -gt "$i" ]; then
                echo "$(basename "${libs[$i]}") uses $sym, defined above it in $(basename "${libs[$j]}")" >&2
                bad=1
            fi
        done < <(nm -u "${libs[$i]}" 2>/dev/null | awk 'NF == 2 {print $2}' | sort -u)
    done
fi

if [ $bad -ne 0 ]; then
    echo "check-layers: includes or calls point up (docs/architecture.md, Layers)" >&2
    exit 1
fi
echo "check-layers: every include${1:+ and call} points down"
