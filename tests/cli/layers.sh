#!/usr/bin/env bash
# scripts/check-layers.sh passes on the tree and its libraries, and catches each kind of edge
# that points up or across a seam: an include of a higher layer, a policy including more of the
# core than its seam headers, a folder's private header included from elsewhere, the core
# naming a policy, and a library calling a function that only a library above it defines.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
B=$(dirname "$WT")
LIBS=()
for l in util mem config workload sim analysis policies explorer cli; do LIBS+=("$B/libwt$l.a"); done
expect 0 "every include and call points down" -- scripts/check-layers.sh "${LIBS[@]}"

fake() { # fake DIR FILE INCLUDE: a tree of one file that includes one header
    mkdir -p "$1/$(dirname "$2")" "$1/core/sim" "$1/core/workload" "$1/core/util"
    touch "$1/core/sim/sm.h" "$1/core/workload/wl_internal.h" "$1/core/util/rng.c"
    printf '#include "%s"\n' "$3" >"$1/$2"
}
fake "$tmp/up" core/sim/x.c policies/registry.h
expect 1 "core/sim/x.c:1: includes policies/registry.h: layer 'core/sim' must not include layer 'policies'" \
    -- env WT_LAYERS_ROOT="$tmp/up" scripts/check-layers.sh
fake "$tmp/seam" policies/sched/x.c core/sim/sm.h
expect 1 "policies/sched/x.c:1: includes core/sim/sm.h: a policy includes only the seam headers core/\\*\\.h" \
    -- env WT_LAYERS_ROOT="$tmp/seam" scripts/check-layers.sh
fake "$tmp/named" core/sim/w.c core/util/rng.h
mkdir -p "$tmp/named/policies"
printf 'WT_SCHED(gto)\n' >"$tmp/named/policies/list.h"
printf 'static const char *pick = "gto";\n' >>"$tmp/named/core/sim/w.c"
expect 1 "core/sim/w.c:2:.*: the core names a policy" \
    -- env WT_LAYERS_ROOT="$tmp/named" scripts/check-layers.sh
fake "$tmp/private" core/sim/y.c core/workload/wl_internal.h
expect 1 "core/sim/y.c:1: includes core/workload/wl_internal.h, which is private to core/workload/" \
    -- env WT_LAYERS_ROOT="$tmp/private" scripts/check-layers.sh
fake "$tmp/down" core/sim/z.c core/util/rng.h
expect 0 "points down" -- env WT_LAYERS_ROOT="$tmp/down" scripts/check-layers.sh

# a call upward: the sim library given below the config library it calls is flagged
expect 1 "libwtsim.a uses param_[a-z_]*, defined above it in libwtconfig.a" \
    -- env WT_LAYERS_ROOT="$tmp/down" scripts/check-layers.sh "$B/libwtsim.a" "$B/libwtconfig.a"
# two files of the simulator that call each other: a circle, one responsibility in two files
mkdir -p "$tmp/circle"
printf 'int pong(int);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' >"$tmp/circle/ping.c"
printf 'int ping(int);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' >"$tmp/circle/pong.c"
(cd "$tmp/circle" && cc -c ping.c pong.c && ar qc libwtsim.a ping.o pong.o)
expect 1 "libwtsim.a: ping.o and pong.o call each other" \
    -- env WT_LAYERS_ROOT="$tmp/down" scripts/check-layers.sh "$tmp/circle/libwtsim.a"
finish
