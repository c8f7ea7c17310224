#!/usr/bin/env bash
# check-layers.sh: includes and calls point only down the layers of docs/architecture.md, a
# policy sees the core only through its seam headers, and the core names no policy.
#
#   scripts/check-layers.sh                 check every #include in the tree
#   scripts/check-layers.sh LIB.a ...       also check the libraries' symbols, given bottom
#                                           layer first: no library may use a symbol that
#                                           only a library above it defines, and no two
#                                           files of libwtsim.a (the simulator) call each
#                                           other
#
# A file may include a header of its own layer or of any layer below; a file under policies/
# includes of core/ only the seam headers (core/*.h). A header named *_internal.h belongs to its
# folder: only files in that folder may include it. No file of core/ holds the name of a
# registered policy as a string.
# WT_LAYERS_ROOT names another tree to check (the test of this script uses it).
set -euo pipefail
libs=()
for lib in "$@"; do libs+=("$(realpath "$lib")"); done
cd "${WT_LAYERS_ROOT:-$(dirname "$0")/..}"

sources() {
    if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        git ls-files 'core/*.[ch]' 'policies/*.[ch]' 'explorer/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]' \
            'fuzz/*.[ch]'
    else
        find core policies explorer tests bench fuzz -name '*.[ch]' 2> /dev/null | sort
    fi
}

# The layers, bottom first: the top-level folders, with core's and explorer's inner folders in
# their order ("core" itself holds the seam headers, policy.h and isource.h). Folders on one
# line are one layer. A file belongs to the nearest folder above it that is listed.
LAYERS=(
    "core/util"
    "core/mem"
    "core/config"
    "core"
    "core/workload core/trace"
    "core/sim"
    "core/analysis"
    "policies"
    "explorer"
    "explorer/cli"
    "tests bench fuzz"
)
declare -A rank=() name=()
for i in "${!LAYERS[@]}"; do
    for dir in ${LAYERS[$i]}; do
        rank[$dir]=$i
        name[$dir]=$dir
    done
done

# "RANK NAME" of a path's layer; "" for paths outside the layers.
layer_of() {
    local d
    d=$(dirname "$1")
    while [ "$d" != . ] && [ -z "${rank[$d]+x}" ]; do d=$(dirname "$d"); done
    [ "$d" != . ] && echo "${rank[$d]} ${name[$d]}"
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
        # a plug-in sees the core through its seam headers only (core/*.h)
        case $file:$inc in
        policies/*:core/*/*)
            echo "$file:$line: includes $inc: a policy includes only the seam headers core/*.h" >&2
            bad=1
            ;;
        esac
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

# The core names no policy: no string in it is the name of a registered one (the composition
# above it picks the policies; policies/list.h names them).
if [ -f policies/list.h ]; then
    names=$(sed -n 's/^WT_\(SCHED\|L1\|CTA\)(\([a-z0-9_]*\))$/\2/p' policies/list.h | paste -sd'|')
    if [ -n "$names" ]; then
        while IFS= read -r hit; do
            echo "$hit: the core names a policy (the composition above it picks policies)" >&2
            bad=1
        done < <(sources | grep '^core/' | xargs grep -nE "\"($names)\"" 2>/dev/null || true)
    fi
fi

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

# The simulator's files are components: no two of them call each other (a circle of calls is
# one responsibility cut in two). In libwtsim.a, no two members each use a symbol the other
# defines.
for lib in "${libs[@]}"; do
    [ "$(basename "$lib")" = libwtsim.a ] || continue
    while IFS= read -r pair; do
        echo "$(basename "$lib"): $pair call each other (one responsibility in two files?)" >&2
        bad=1
    done < <(nm -A "$lib" 2>/dev/null | awk '
        { n = split($0, f, ":"); member = f[2]; rest = f[n]; m = split(rest, w, " ")
          if (m == 3 && w[2] ~ /^[TDBR]$/) def[w[3]] = member
          else if (m == 2 && w[1] == "U") use[member, w[2]] = 1 }
        END { for (k in use) { split(k, p, SUBSEP); d = def[p[2]]
                  if (d != "" && d != p[1]) calls[p[1], d] = 1 }
              for (k in calls) { split(k, p, SUBSEP)
                  if (p[1] < p[2] && ((p[2], p[1]) in calls)) print p[1] " and " p[2] } }')
done

if [ $bad -ne 0 ]; then
    echo "check-layers: includes or calls point up or in a circle (docs/architecture.md, Layers)" >&2
    exit 1
fi
echo "check-layers: every include${1:+ and call} points down"
