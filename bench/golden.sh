#!/bin/bash
# golden.sh: write a broad set of simulator outputs, to prove a change leaves results alone.
#
#   bench/golden.sh WARPTUNE OUTDIR [--quick | --small]
#   diff -r OLD_OUTDIR NEW_OUTDIR        # no output: byte-identical
#
# Covers every built-in workload on the default preset, ten workloads on every preset, every
# warp scheduler, L1D and CTA policy on memory-bound and criticality workloads, stepping every
# cycle (sim.skip_idle=false), the Belady bound, the --l1-trace/--cta-trace/--per-sm files and
# a workload replayed from its exported Accel-Sim trace, and every mode of the timing model on
# the two calibrated presets (modes_list). Runs two simulations at a time.
# --quick keeps one workload per group (a smoke check, about a tenth of the time).
# GOLDEN_SIM_THREADS=N steps each simulation's SMs on N threads: the outputs must not change.
# --small runs each kind of run above on inputs shrunk to at most twenty thousand warp
# instructions (55 runs, 380 KB, seconds even in a sanitizer build): the set committed in
# tests/golden/small and compared by tests/golden/check.sh, the ctest test `golden`.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 WARPTUNE OUTDIR [--quick | --small]" >&2
    exit 2
fi
W=$(realpath "$1")
OUT=$2
QUICK=${3:-}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
JOBS=${GOLDEN_JOBS:-2}

mapfile -t ALL < <("$W" workloads | awk 'NF {print $1}')
WIDE=(kmeans bfs stream matmul gesummv needle srad memcached spmv imbalance)
POLWL=(kmeans bfs gesummv imbalance)
if [ "$QUICK" = "--quick" ]; then
    ALL=(kmeans bfs stream)
    WIDE=(kmeans)
    POLWL=(kmeans)
fi
mapfile -t PRESETS < <("$W" presets | awk 'NF {print $1}')
POLICIES=(
    "sched.policy=lrr" "sched.policy=gto" "sched.policy=two_level" "sched.policy=two_level_active"
    "sched.policy=swl"
    "sched.policy=ccws" "sched.policy=caws" "sched.policy=gcaws"
    "l1d.policy=rrip" "l1d.policy=dip" "l1d.policy=ship" "l1d.policy=cacp"
    "l1d.policy=dacache" "l1d.policy=dacache_stall" "l1d.policy=dacache_uncon"
    "cta.policy=static_limit" "cta.policy=dyncta"
    "sched.policy=gcaws l1d.policy=cacp" "sched.policy=ccws cta.policy=dyncta")

# One line per run: output name, then the arguments of `warptune sim`.
jobs_list() {
    for w in "${ALL[@]}"; do echo "default_$w --workload $w"; done
    for w in "${WIDE[@]}"; do
        for p in "${PRESETS[@]}"; do echo "preset_${w}_$p --workload $w --preset $p"; done
        echo "noskip_$w --workload $w --set sim.skip_idle=false --set gpu.sms=4"
    done
    for w in "${POLWL[@]}"; do
        for pol in "${POLICIES[@]}"; do
            local name=${pol//[. =]/_} sets=""
            for kv in $pol; do sets+=" --set $kv"; done
            echo "policy_${w}_$name --workload $w$sets"
        done
    done
    echo "belady_kmeans --workload kmeans --belady --set gpu.sms=4"
    echo "files_bfs --workload bfs --set gpu.sms=4 --l1-trace @l1 --cta-trace @cta --per-sm @sm"
    echo "files_kmeans --workload kmeans --set gpu.sms=2 --set l1d.policy=dacache --l1-trace @l1"
    echo "corner_sms1 --workload bfs --set gpu.sms=1 --set l1d.ways=1"
    echo "corner_l1off --workload kmeans --set l1d.enabled=false"
    [ "$QUICK" = "--quick" ] || modes_list
}

# The timing model's modes on the two calibrated presets, each switched away from the preset's
# setting, and every scheduler and the criticality- and priority-reading L1D policies on them:
# shared memory and barriers (matmul), atomics (gc), several kernels (hotspot).
MODES=(
    "sm.mem_queue_order=collector sm.mem_queue_collectors=true" "l1d.fill_drain=true"
    "sm.issue_rotate_active=true" "gpu.cta_dispatch_late=true gpu.cta_per_cycle=1"
    "gpu.cta_rr_carry=false" "sm.oc_dispatch=issue" "l1d.tag_pipeline=false" "l1d.banks=2"
    "l1d.access_order=lane" "sm.fetch=false" "l1i.enabled=false" "sm.fetch_throughput=2"
    "sm.mem_queue=0" "sm.mem_queue=2" "sm.operand_collector=false" "sm.sub_core=false"
    "sm.shared_path=bypass" "sm.atomic_path=line sm.atomic_wait=false" "sm.store_acks=false"
    "l1d.sectored=false l1d.sector_accesses=false" "sm.exit_on_int=false" "sm.result_delay=0"
    "sm.branch_unit_ii=2" "sim.skip_idle=false" "l1d.unified_kb=0" "l1d.kernel_flush=false"
    "l1d.recency=fill" "sm.schedulers=2"
    "sched.policy=lrr" "sched.policy=gto" "sched.policy=two_level"
    "sched.policy=two_level_active" "sched.policy=swl" "sched.policy=ccws" "sched.policy=caws"
    "sched.policy=gcaws" "l1d.policy=dacache" "l1d.policy=cacp" "cta.policy=dyncta")
modes_list() {
    local wl=("matmul --wparam n=64" "gc --wparam nobj=1024" "hotspot --wparam rows=64 --wparam cols=64")
    for preset in fermi-gtx480 qv100-accelsim; do
        for mode in "${MODES[@]}"; do
            local name=${mode//[. =]/_} sets=""
            for kv in $mode; do sets+=" --set $kv"; done
            for w in "${wl[@]}"; do
                echo "mode_${preset}_${w%% *}_$name --workload $w --preset $preset --set gpu.sms=4$sets"
            done
        done
    done
}

# --small: the same kinds of run, shrunk.
small_jobs_list() {
    local k="--workload kmeans --wparam npoints=512" i="--workload imbalance --wparam nodes=1024"
    echo "default_kmeans $k"
    echo "default_bfs --workload bfs --wparam nodes=256"
    echo "default_stream --workload stream --wparam n=4096"
    echo "default_matmul --workload matmul --wparam n=32"
    echo "default_memcached --workload memcached --wparam nkeys=256"
    echo "default_gesummv --workload gesummv --wparam n=64"
    echo "default_imbalance $i"
    for p in "${PRESETS[@]}"; do echo "preset_kmeans_$p $k --preset $p"; done
    echo "noskip_kmeans $k --set sim.skip_idle=false --set gpu.sms=4"
    for pol in "${POLICIES[@]}"; do
        local name=${pol//[. =]/_} sets=""
        for kv in $pol; do sets+=" --set $kv"; done
        # one SM, so that the CTA schedulers have CTAs to hold back
        echo "policy_kmeans_$name $k --set gpu.sms=1$sets"
        echo "policy_imbalance_$name $i --set gpu.sms=1$sets"
    done
    echo "belady_kmeans $k --belady --set gpu.sms=4"
    echo "files_bfs --workload bfs --wparam nodes=128 --set gpu.sms=4" \
        "--l1-trace @l1 --cta-trace @cta --per-sm @sm"
    echo "files_kmeans --workload kmeans --wparam npoints=128 --wparam nfeatures=8" \
        "--set gpu.sms=2 --set l1d.policy=dacache --l1-trace @l1"
    echo "corner_sms1 --workload bfs --wparam nodes=256 --set gpu.sms=1 --set l1d.ways=1"
    echo "corner_l1off $k --set l1d.enabled=false"
}

run_one() {
    local name=$1
    shift
    local args=()
    for a in "$@"; do
        case $a in
        @l1) args+=("$OUT/$name.l1.csv") ;;
        @cta) args+=("$OUT/$name.cta.csv") ;;
        @sm) args+=("$OUT/$name.sm.csv") ;;
        *) args+=("$a") ;;
        esac
    done
    # The exit status is part of the output: a run that fails must fail the same way.
    local rc=0
    "$W" sim --json --threads "$SIM_THREADS" "${args[@]}" >"$OUT/$name.json" 2>"$OUT/$name.err" || rc=$?
    echo "$rc" >"$OUT/$name.rc"
}
export -f run_one
SIM_THREADS=${GOLDEN_SIM_THREADS:-1}
export W OUT SIM_THREADS

if [ "$QUICK" = "--small" ]; then
    small_jobs_list | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
    TRACE_POINTS=256
else
    jobs_list | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
    TRACE_POINTS=2048
fi

# A workload replayed from its own exported trace (a relative path: the JSON names it).
cd "$OUT"
rm -rf trace_kmeans.dir
"$W" export-trace --workload kmeans --wparam npoints=$TRACE_POINTS --out trace_kmeans.dir \
    >/dev/null 2>&1 || true
run_one trace_kmeans --trace trace_kmeans.dir/kernelslist.g --set gpu.sms=2
rm -rf trace_kmeans.dir
echo "$(ls "$OUT"/*.json | wc -l) runs written to $OUT"
