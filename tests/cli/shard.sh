#!/usr/bin/env bash
# Sharded studies (docs/cluster.md): N shards run one after another, then merged with --resume,
# give the outputs of one run on one machine, byte for byte (summary.json but for the fields
# that describe the run rather than the study); the Slurm scripts do the same with the job
# array's environment (a stand-in sbatch runs each task here); an adaptive search, a folder of
# another study or another shard count, and a malformed K/N are refused with exit 2.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
root=$(cd "$(dirname "$0")/../.." && pwd)

cp "$(dirname "$0")/lib/small.json" "$tmp/small.json"

expect 0 "results in" -- "$WT" explore "$tmp/small.json" --out "$tmp/plain" --threads 2

# 1. three shards one after another, then the merge
for k in 1 2 3; do
    expect 0 "shard $k of 3: [0-9]+ simulated" -- \
        "$WT" explore "$tmp/small.json" --out "$tmp/sh" --shard "$k/3" --threads 1
done
for k in 1 2 3; do check "[ -s '$tmp/sh/journal.$k-of-3' ]" "no journal.$k-of-3"; done
check "[ ! -e '$tmp/sh/points.csv' ]" "a shard wrote the study's outputs"
expect 0 " 0 simulated" -- "$WT" explore --resume --out "$tmp/sh" --threads 2
same_study "$tmp/plain" "$tmp/sh" "3 shards merged"
# every simulation of the study ran in exactly one shard (the reference in each)
sims=$(cat "$tmp/sh"/journal.*-of-3 | grep -vc '^#')
plain=$(grep -vc '^#' "$tmp/plain/journal")
check "[ '$sims' = $((plain + 2 * 2)) ]" "shards simulated $sims, expected $plain + the reference twice more"
# longest first (one thread: the journal's order is the run's): after the reference's two
# records, every kmeans simulation (the longer workload here) before every stream one
for k in 1 2 3; do
    order=$(grep -v '^#' "$tmp/sh/journal.$k-of-3" | tail -n +3 | cut -f3 | uniq | tr '\n' ' ')
    check "[ '$order' = 'kmeans stream ' ] || [ '$order' = 'kmeans ' ]" \
        "shard $k: not longest first: $order"
done
# a shard run again simulates nothing: its journal has it all
expect 0 "shard 2 of 3: 0 simulated" -- \
    "$WT" explore "$tmp/small.json" --out "$tmp/sh" --shard 2/3 --threads 1

# 2. refusals, exit 2 with the reason
expect 2 "adaptive.*grid, random, lhs, morris or sobol" -- "$WT" explore "$tmp/small.json" --out "$tmp/sh" \
    --shard 1/3 --set search.strategy=CRS2-LM
expect 2 "split into 3 shards, not 2" -- "$WT" explore "$tmp/small.json" --out "$tmp/sh" --shard 1/2
expect 2 "journals of another study" -- "$WT" explore "$tmp/small.json" --out "$tmp/sh" \
    --shard 1/3 --set l1d.ways=2
for bad in 0/3 4/3 3 a/b 1/0 1/3x; do
    expect 2 "--shard $bad: expected K/N" -- "$WT" explore "$tmp/small.json" --shard "$bad"
done

# 3. the Slurm scripts: a stand-in sbatch runs each task of the array with the variables Slurm
# sets, then the merge once the dependency names the array
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'SH'
#!/bin/bash
set -eu
array= dep=
while [[ $1 == --* ]]; do
    case $1 in
    --array=*) array=${1#--array=} ;;
    --dependency=*) dep=${1#--dependency=} ;;
    esac
    shift
done
if [ -n "$array" ]; then
    lo=${array%-*} hi=${array#*-}
    for ((i = lo; i <= hi; i++)); do
        SLURM_ARRAY_JOB_ID=100 SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=$lo \
            SLURM_ARRAY_TASK_MAX=$hi SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \
            SLURM_CPUS_PER_TASK=1 bash "$@" >>"$SBATCH_LOG" 2>&1
    done
    echo 100
else
    [ "$dep" = afterok:100 ] || { echo "sbatch: unexpected dependency '$dep'" >&2; exit 1; }
    SLURM_JOB_ID=101 SLURM_CPUS_PER_TASK=2 bash "$@" >>"$SBATCH_LOG" 2>&1
    echo 101
fi
SH
chmod +x "$tmp/bin/sbatch"
expect 0 "shards: job 100 \(array 1-2\); merge: job 101" -- env PATH="$tmp/bin:$PATH" \
    WARPTUNE="$WT" SBATCH_LOG="$tmp/sbatch.log" \
    bash "$root/scripts/slurm/submit.sh" "$tmp/small.json" "$tmp/slurm" 2
check "[ -s '$tmp/slurm/journal.1-of-2' ] && [ -s '$tmp/slurm/journal.2-of-2' ]" \
    "the array did not write both shard journals: $(cat "$tmp/sbatch.log")"
same_study "$tmp/plain" "$tmp/slurm" "the Slurm array merged"
# outside an array the shard script says so
expect 2 "job array" -- bash "$root/scripts/slurm/explore-array.sbatch" "$tmp/small.json" "$tmp/x"

# The shards of an array run at the same time: each locks only its own part of the folder.
# While one runs, the other shard starts, the same shard is refused, and so is the merge.
sed 's/"npoints": 128/"npoints": 4096/; s/"n": 1024/"n": 65536/' "$tmp/small.json" >"$tmp/big.json"
"$WT" explore "$tmp/big.json" --out "$tmp/co" --shard 1/2 --threads 1 --quiet >/dev/null 2>&1 &
bg=$!
for _ in $(seq 1 200); do
    [ "$(cat "$tmp/co/lock.1-of-2" 2>/dev/null)" = "$bg" ] && break
    sleep 0.05
done
check "[ \"\$(cat '$tmp/co/lock.1-of-2' 2>/dev/null)\" = $bg ]" "shard 1 of 2 did not take its lock"
out_same=$("$WT" explore "$tmp/big.json" --out "$tmp/co" --shard 1/2 --threads 1 2>&1)
rc_same=$?
out_merge=$("$WT" explore --resume --out "$tmp/co" --threads 1 2>&1)
rc_merge=$?
if kill -0 "$bg" 2>/dev/null; then # still running through both tries: both were refused
    check "[ $rc_same = 2 ] && grep -q 'shard 1 of 2 is already running (pid $bg)' <<<\"\$out_same\"" \
        "a second run of a running shard: exit $rc_same: $out_same"
    check "[ $rc_merge = 2 ] && grep -q 'shard 1 of 2 of the study is still running (pid $bg)' <<<\"\$out_merge\"" \
        "the merge beside a running shard: exit $rc_merge: $out_merge"
fi
expect 0 "shard 2 of 2" -- "$WT" explore "$tmp/big.json" --out "$tmp/co" --shard 2/2 --threads 1
wait "$bg"
check "[ $? = 0 ]" "shard 1 of 2, run beside shard 2, failed"
expect 0 " 0 simulated" -- "$WT" explore --resume --out "$tmp/co" --threads 2
finish
