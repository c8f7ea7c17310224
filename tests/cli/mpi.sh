#!/usr/bin/env bash
# The Open MPI evaluator (docs/cluster.md): `mpirun -n 3 warptune explore --mpi` gives the
# outputs of the OpenMP run, byte for byte (summary.json but for the run's own fields), for a
# grid and for NLopt; a run killed part-way and resumed under MPI simulates nothing twice and
# ends with the same outputs.
# Skipped (exit 77) in a build without WT_MPI (ctest sets WT_MPI=1 when it is on).
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
if [ "${WT_MPI:-0}" != 1 ]; then
    echo "skipped: no MPI in this build"
    exit 77
fi
# Open MPI keeps allocations to the end of the process, which LeakSanitizer would report as
# the library's leaks; every other sanitizer check stays on
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export OMPI_MCA_rmaps_base_oversubscribe=1
asroot=() # mpirun refuses to run as root unless told
if [ "$(id -u)" = 0 ]; then asroot=(--allow-run-as-root); fi
mpi=(mpirun --oversubscribe "${asroot[@]}" -n 3)

cat >"$tmp/small.json" <<'JSON'
{
  "name": "small",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {
    "sched.policy": ["lrr", "gto"],
    "l1d.ways": {"min": 1, "max": 8},
    "sm.max_ctas": [1, 4]
  },
  "constraints": ["l1d.ways >= sm.max_ctas || sched.policy == 'gto'"],
  "workloads": [
    {"name": "kmeans", "params": {"npoints": 128}},
    {"name": "stream", "params": {"n": 1024}, "weight": 2}
  ],
  "objectives": ["ipc", "mpki"]
}
JSON
records() { grep -vc '^#' "$1"; } # complete journal records (a torn line has no newline)

expect 0 "results in" -- "$WT" explore "$tmp/small.json" --out "$tmp/omp" --threads 2

# 1. the same study on two MPI workers: the same outputs
expect 0 "results in" -- "${mpi[@]}" "$WT" explore "$tmp/small.json" --out "$tmp/mpi" --mpi
same_study "$tmp/omp" "$tmp/mpi" "mpirun -n 3"
check "[ $(records "$tmp/mpi/journal") = $(records "$tmp/omp/journal") ]" \
    "MPI journal: $(records "$tmp/mpi/journal") records, expected $(records "$tmp/omp/journal")"

# an adaptive search too: NLopt on rank 0, its points' simulations on the workers
nl=(--set search.strategy=CRS2-LM --set search.evaluations=8)
expect 0 "results in" -- "$WT" explore "$tmp/small.json" --out "$tmp/omp-nl" --threads 2 "${nl[@]}"
expect 0 "results in" -- "${mpi[@]}" "$WT" explore "$tmp/small.json" --out "$tmp/mpi-nl" --mpi \
    "${nl[@]}"
same_study "$tmp/omp-nl" "$tmp/mpi-nl" "CRS2-LM under mpirun -n 3"

# 2. killed part-way (rank 0, SIGKILL: mpirun then ends the workers), then resumed: nothing
# simulated twice
"${mpi[@]}" "$WT" explore "$tmp/small.json" --out "$tmp/kill" --mpi --quiet >"$tmp/kill.log" 2>&1 &
job=$!
rank0() { # the pid of the job's rank 0: mpirun's child with OMPI_COMM_WORLD_RANK=0
    local c
    for c in $(cat /proc/"$job"/task/*/children 2>/dev/null); do
        if { tr '\0' '\n' <"/proc/$c/environ"; } 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=0
        then
            echo "$c"
            return
        fi
    done
}
for _ in $(seq 600); do
    [ -f "$tmp/kill/journal" ] && [ "$(records "$tmp/kill/journal")" -ge 4 ] && break
    sleep 0.02
done
pid=$(rank0)
[ -n "$pid" ] && kill -KILL "$pid"
wait "$job" 2>/dev/null
before=$(records "$tmp/kill/journal")
total=$(records "$tmp/omp/journal")
check "[ $before -lt $total ]" "the job finished before it was killed ($before records)"
expect 0 "$((total - before)) simulated, $before from the journal" -- \
    "${mpi[@]}" "$WT" explore --resume --out "$tmp/kill" --mpi
check "[ -z \"\$(grep -v '^#' '$tmp/kill/journal' | cut -f1 | sort | uniq -d)\" ]" \
    "a simulation is in the journal twice"
same_study "$tmp/omp" "$tmp/kill" "killed and resumed under MPI"

# 3. bad use: one process has no worker; --mpi with --shard
expect 2 "no worker" -- mpirun "${asroot[@]}" -n 1 "$WT" explore "$tmp/small.json" \
    --out "$tmp/one" --mpi
expect 2 "choose one" -- "$WT" explore "$tmp/small.json" --mpi --shard 1/2
finish
