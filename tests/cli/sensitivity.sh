#!/usr/bin/env bash
# Sensitivity studies (docs/spaces.md): a tiny Morris and a tiny Sobol study write
# sensitivity.csv and summary.json's "sensitivity", byte-identical at 1 and 2 threads, with
# --shard 1/2 and 2/2 merged, and under MPI (in a build with it); a study of another strategy
# in the folder removes the earlier indices; --resume of a grid study as a morris one is
# refused; --validate shows the design and refuses what a design cannot be.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"

cat >"$tmp/sens.json" <<'JSON'
{
  "name": "sens",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {
    "sched.policy": ["lrr", "gto"],
    "l1d.ways": {"min": 1, "max": 8, "log": true},
    "sm.max_ctas": [1, 2, 4]
  },
  "workloads": [{"name": "kmeans", "params": {"npoints": 128}}],
  "objectives": ["ipc", "mpki"],
  "search": {"strategy": "morris", "budget": {"evaluations": 4}, "seed": 3}
}
JSON

for strategy in morris sobol; do
    set_s=(--set "search.strategy=$strategy")
    expect 0 "results in" -- "$WT" explore "$tmp/sens.json" "${set_s[@]}" --out "$tmp/$strategy-1" \
        --threads 1
    expect 0 "results in" -- "$WT" explore "$tmp/sens.json" "${set_s[@]}" --out "$tmp/$strategy-2" \
        --threads 2
    same "$tmp/$strategy-1/sensitivity.csv" "$tmp/$strategy-2/sensitivity.csv" \
        "$strategy at 1 and 2 threads"
    same_study "$tmp/$strategy-1" "$tmp/$strategy-2" "$strategy at 1 and 2 threads"
    for k in 1 2; do
        expect 0 "shard $k of 2" -- "$WT" explore "$tmp/sens.json" "${set_s[@]}" \
            --out "$tmp/$strategy-sh" --shard "$k/2" --threads 1
    done
    expect 0 " 0 simulated" -- "$WT" explore --resume --out "$tmp/$strategy-sh" --threads 2
    same "$tmp/$strategy-1/sensitivity.csv" "$tmp/$strategy-sh/sensitivity.csv" \
        "$strategy: shards 1/2 and 2/2 merged"
    same_study "$tmp/$strategy-1" "$tmp/$strategy-sh" "$strategy: shards merged"
    # summary.json names the file in its set and holds the same method
    check "grep -q '\"sensitivity.csv\"' '$tmp/$strategy-1/summary.json'" \
        "$strategy: summary.json does not name sensitivity.csv"
    check "grep -q '\"method\":[[:space:]]*\"$strategy\"' '$tmp/$strategy-1/summary.json'" \
        "$strategy: summary.json has no sensitivity method"
done

# the rows: 3 parameters x 2 objectives x (3 Morris, 2 Sobol) indices, each with its interval
check "[ \$(tail -n +2 '$tmp/morris-1/sensitivity.csv' | wc -l) = 18 ]" "morris: not 18 rows"
check "[ \$(tail -n +2 '$tmp/sobol-1/sensitivity.csv' | wc -l) = 12 ]" "sobol: not 12 rows"
check "head -1 '$tmp/morris-1/sensitivity.csv' | grep -qx \
'objective,parameter,method,index,value,ci_low,ci_high,evaluations'" "sensitivity.csv header"
# Morris: every trajectory of 4 gives each parameter one effect (no constraints, nothing
# fails): 8 design rows behind every index; Sobol: 4 base samples, 3 rows each
check "awk -F, 'NR > 1 && \$8 != 8 { bad = 1 } END { exit bad }' '$tmp/morris-1/sensitivity.csv'" \
    "morris: an index not on 8 evaluations"
check "awk -F, 'NR > 1 && \$8 != 12 { bad = 1 } END { exit bad }' '$tmp/sobol-1/sensitivity.csv'" \
    "sobol: an index not on 12 evaluations"
# mu* is the mean of |EE| and mu that of EE: mu* >= |mu|, and the interval holds mu*
check "awk -F, '\$4 == \"mu_star\" { s = \$5; lo = \$6; hi = \$7 } \$4 == \"mu\" { m = \$5 < 0 ? -\$5 : \$5;
    if (s + 1e-12 < m || lo > s || s > hi) bad = 1 } END { exit bad }' '$tmp/morris-1/sensitivity.csv'" \
    "morris: mu* below |mu| or outside its interval"
# the design: r(d+1) = 16 rows, N(d+2) = 20
check "grep -q '\"design_points\":[[:space:]]*16' '$tmp/morris-1/summary.json'" "morris: design"
check "grep -q '\"design_points\":[[:space:]]*20' '$tmp/sobol-1/summary.json'" "sobol: design"

if [ "${WT_MPI:-0}" = 1 ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
    export OMPI_MCA_rmaps_base_oversubscribe=1
    asroot=()
    if [ "$(id -u)" = 0 ]; then asroot=(--allow-run-as-root); fi
    for strategy in morris sobol; do
        expect 0 "results in" -- mpirun --oversubscribe "${asroot[@]}" -n 3 "$WT" explore \
            "$tmp/sens.json" --set "search.strategy=$strategy" --out "$tmp/$strategy-mpi" --mpi
        same "$tmp/$strategy-1/sensitivity.csv" "$tmp/$strategy-mpi/sensitivity.csv" \
            "$strategy under MPI"
    done
fi

# another strategy in the folder: its outputs have no indices, and the earlier ones go
expect 0 "results in" -- "$WT" explore "$tmp/sens.json" --set search.strategy=random \
    --set search.evaluations=3 --out "$tmp/morris-2" --threads 2
check "[ ! -e '$tmp/morris-2/sensitivity.csv' ]" "a random study left the Morris indices"
check "! grep -q '\"sensitivity' '$tmp/morris-2/summary.json'" "a random study's summary has indices"

# a grid study cannot be resumed as a sensitivity study: its design is not the grid's
expect 0 "results in" -- "$WT" explore "$tmp/sens.json" --set search.strategy=grid --out "$tmp/grid" \
    --threads 2
expect 2 "not the study in" -- "$WT" explore "$tmp/sens.json" --out "$tmp/grid" --resume
expect 2 "not the study in" -- "$WT" explore --set search.strategy=morris --out "$tmp/grid" --resume

# --validate: the design's size, and what a design cannot be
expect 0 "morris: 4 trajectories, 16 design points" -- "$WT" explore "$tmp/sens.json" --validate
expect 0 "sobol: 4 base samples, 20 design points" -- "$WT" explore "$tmp/sens.json" \
    --set search.strategy=sobol --validate
expect 2 "search.screen 0 with sobol" -- "$WT" explore "$tmp/sens.json" \
    --set search.strategy=sobol --set search.screen=0.1 --validate
expect 2 "at most 10000000 points" -- "$WT" explore "$tmp/sens.json" \
    --set search.evaluations=1000000000 --validate
expect 2 "none to explore" -- "$WT" explore "$tmp/sens.json" --set sched.policy=gto \
    --set l1d.ways=4 --set sm.max_ctas=2 --validate
finish
