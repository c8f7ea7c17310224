#!/usr/bin/env bash
# The integrity of a study's output folder: what each output says is true of the study, and
# nothing in the folder contradicts it.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
col() { # col CSV NAME: the values of a column, one a line
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$1"
}

# a small study: 2 tiny workloads, two objectives
cat >"$tmp/small.json" <<'JSON'
{
  "name": "small",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {
    "sched.policy": ["lrr", "gto"],
    "l1d.ways": {"min": 1, "max": 8, "log": true},
    "sm.max_ctas": [1, 4]
  },
  "workloads": [
    {"name": "kmeans", "params": {"npoints": 128}},
    {"name": "stream", "params": {"n": 1024}}
  ],
  "objectives": ["ipc", "mpki"]
}
JSON

# failed points carry no numbers: a run cut by the cycle cap has nan objectives
expect 0 "3 points \(0 on the front, 0 infeasible, 3 failed\)" -- "$WT" explore "$tmp/small.json" --out "$tmp/capped" \
    --set sim.max_cycles=1000 --set search.strategy=random --set search.evaluations=2
check "grep -q ',failed,' '$tmp/capped/points.csv'" "capped: no failed point"
check "! grep ',failed,' '$tmp/capped/points.csv' | grep -qvE '^([^,]*,){6}nan,nan,failed,'" \
    "capped: a failed point has numbers: $(grep ',failed,' "$tmp/capped/points.csv" | head -2)"

# no stale plot: a single-objective study into a folder that holds a two-objective front.svg
expect 0 "results in" -- "$WT" explore "$tmp/small.json" --out "$tmp/plot" \
    --set search.strategy=random --set search.evaluations=2
check "[ -s '$tmp/plot/front.svg' ]" "plot: no front.svg for two objectives"
sed 's/"objectives": \["ipc", "mpki"\]/"objectives": ["ipc"]/' "$tmp/small.json" >"$tmp/one.json"
expect 0 "results in" -- "$WT" explore "$tmp/one.json" --out "$tmp/plot" \
    --set search.strategy=random --set search.evaluations=2
check "[ ! -e '$tmp/plot/front.svg' ]" "plot: a single-objective study left the old front.svg"

# every command answers --help with its usage and exit 0
for c in explore sim front characterize export-trace params workloads presets policies version man; do
    expect 0 "^usage: warptune $c" -- "$WT" $c --help
done
expect 0 "^usage: warptune sim" -- "$WT" sim --workload stream -h
# sim without a workload says what it runs
expect 0 "no --workload or --trace given: simulating kmeans" -- "$WT" sim --set gpu.sms=1 \
    --wparam npoints=64
# an output that cannot be written is named as given, never as its temporary
printf 'a,b\n1,2\n' >"$tmp/t.csv"
expect 1 "^warptune front: $tmp/none/f.csv: write failed: No such file or directory\$" -- \
    "$WT" front "$tmp/t.csv" --objective a:min --objective b:min --out "$tmp/none/f.csv"

# input that was accepted silently
# a study where every point breaks the constraints: exit 2, as --validate
sed 's/"workloads"/"constraints": ["l1d.ways > 100"],\n  "workloads"/' "$tmp/small.json" >"$tmp/none.json"
expect 2 "none.json: constraints: no point the search found satisfies them" -- \
    "$WT" explore "$tmp/none.json" --out "$tmp/none" --set search.strategy=random \
    --set search.evaluations=2
expect 2 "none.json: constraints: no point the search found satisfies them \(17 infeasible" -- \
    "$WT" explore "$tmp/none.json" --out "$tmp/none"
# a parameter set twice on the command line
expect 2 "^warptune explore: --set l1d.ways=4: l1d.ways is already set by --set l1d.ways=2" -- \
    "$WT" explore "$tmp/small.json" --validate --set l1d.ways=2 --set l1d.ways=4
expect 2 "^warptune sim: --set gpu.sms=2: gpu.sms is already set by --set gpu.sms=1" -- \
    "$WT" sim --workload stream --set gpu.sms=1 --set gpu.sms=2
# front: infinities, a repeated column, a million-digit number
printf 'a,b\n1,2\ninf,1\n' >"$tmp/inf.csv"
expect 2 "inf.csv:3: column 1 \(a\): 'inf' is not a finite number" -- \
    "$WT" front "$tmp/inf.csv" --objective a:min --objective b:min
printf 'a,b\n1,2\n1e999,1\n' >"$tmp/big.csv"
expect 2 "big.csv:3: column 1 \(a\): '1e999' is not a finite number" -- \
    "$WT" front "$tmp/big.csv" --objective a:min --objective b:min
printf 'a,b,a\n1,2,3\n' >"$tmp/dup.csv"
expect 2 "dup.csv:1: column 'a' appears twice \(columns 1 and 3\)" -- \
    "$WT" front "$tmp/dup.csv" --objective a:min --objective b:min
{ printf 'a,b\n1,2\n'; head -c 1000000 /dev/zero | tr '\0' 1; printf ',1\n'; } >"$tmp/long.csv"
expect 2 "long.csv:3: column 1 \(a\): '1{64}\.\.\.' is longer than 64 characters" -- \
    "$WT" front "$tmp/long.csv" --objective a:min --objective b:min

# a bar on a divergent path: the simulation fails naming the workload's file and line
printf '.kernel k block=64\n        mov     r0, %%tid\n        setp.lt p0, r0, 16\n    @p0 bra     skip\n        bar\nskip:   exit\n.host\n        launch k grid=1\n' >"$tmp/div.wl"
expect 1 "$tmp/div.wl:5: bar on a divergent path" -- "$WT" sim --workload "$tmp/div.wl"
printf '.kernel k block=64\n        mov     r0, %%tid\n        setp.lt p0, r0, 16\n    @p0 bar\n        exit\n.host\n        launch k grid=1\n' >"$tmp/div2.wl"
expect 1 "$tmp/div2.wl:4: bar on a divergent path" -- "$WT" sim --workload "$tmp/div2.wl"

# the reference configuration is point 0 of the study: a front it dominates is no front
cat >"$tmp/worse.json" <<'JSON'
{
  "name": "worse",
  "preset": "gtx480-cawa",
  "settings": {"gpu.sms": 1, "l2.partitions": 2, "l1d.sets": 16},
  "parameters": {"l1d.ways": [1, 2]},
  "workloads": [{"name": "kmeans", "params": {"npoints": 256}}],
  "objectives": ["ipc", "mpki"]
}
JSON
expect 0 "worse: 3 points \(1 on the front" -- "$WT" explore "$tmp/worse.json" --out "$tmp/worse"
# point 0: the reference, l1d.ways at its default (16)
check "[ \"\$(sed -n 2p '$tmp/worse/points.csv' | cut -d, -f1,4,7)\" = 0,16,ok ]" \
    "worse: point 0 is not the reference: $(sed -n 2p "$tmp/worse/points.csv")"
check "[ \"\$(cut -d, -f1 '$tmp/worse/pareto.csv' | tail -n +2)\" = 0 ]" \
    "worse: the front is not the reference alone: $(cat "$tmp/worse/pareto.csv")"

# an output folder has one owner: a second run at once is refused naming the first's pid
cat >"$tmp/slow.json" <<'JSON'
{
  "name": "slow",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {"l1d.ways": {"min": 1, "max": 16}, "sm.max_ctas": [1, 2, 4]},
  "workloads": [{"name": "kmeans", "params": {"npoints": 256}}],
  "objectives": ["ipc", "mpki"]
}
JSON
"$WT" explore "$tmp/slow.json" --threads 1 --quiet --out "$tmp/owned" &
pid=$!
for _ in $(seq 1 600); do [ -s "$tmp/owned/journal" ] && break; sleep 0.05; done
expect 2 "owned: in use by another run of the study \(pid $pid\)" -- \
    "$WT" explore "$tmp/slow.json" --threads 1 --quiet --out "$tmp/owned"
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
# the killed run's lock is no lock: the next run takes the folder over
expect 0 "results in $tmp/owned" -- "$WT" explore --resume --threads 2 --out "$tmp/owned"
dups=$(cut -f1 "$tmp/owned/journal" | sort | uniq -d | wc -l)
check "[ $dups = 0 ]" "owned: the journal holds $dups simulations twice"

# --resume continues only the same study
"$WT" explore "$tmp/small.json" --quiet --out "$tmp/same" --set search.strategy=random \
    --set search.evaluations=3
expect 0 "0 simulated" -- "$WT" explore --resume --out "$tmp/same"
expect 0 "0 simulated" -- "$WT" explore "$tmp/small.json" --resume --out "$tmp/same" \
    --set search.evaluations=3 --set search.strategy=random
cp "$tmp/same/study.json" "$tmp/study.before"
expect 2 "same: --resume: not the study in .*study.json: the --set list differs: the study has \[search.evaluations=3, search.strategy=random\], this run \[\]" -- \
    "$WT" explore "$tmp/small.json" --resume --out "$tmp/same"
expect 2 "same: --resume: not the study .*: the space differs" -- \
    "$WT" explore "$tmp/one.json" --resume --out "$tmp/same" --set search.strategy=random \
    --set search.evaluations=3
expect 2 "the --set list differs: .* this run \[search.evaluations=4, search.strategy=random\]" -- \
    "$WT" explore --resume --out "$tmp/same" --set search.evaluations=4
same "$tmp/same/study.json" "$tmp/study.before" "a refused resume left study.json"
expect 2 "^warptune explore: --force: expected with --resume" -- \
    "$WT" explore "$tmp/small.json" --force --out "$tmp/same"
# --force starts the changed study there and keeps the journal's simulations
expect 0 " [1-9][0-9]* from the journal" -- \
    "$WT" explore "$tmp/small.json" --resume --force --out "$tmp/same"

# orphan temporaries of a killed run are removed by the next run; a live process's are kept
mkdir -p "$tmp/orph"
printf 'x' >"$tmp/orph/points.csv.tmp.999999999"
printf 'x' >"$tmp/orph/summary.json.tmp.99999999"
printf 'y' >"$tmp/orph/mine.tmp.$$"
expect 0 "results in" -- "$WT" explore "$tmp/small.json" --out "$tmp/orph" \
    --set search.strategy=random --set search.evaluations=2
check "[ ! -e '$tmp/orph/points.csv.tmp.999999999' ] && [ ! -e '$tmp/orph/summary.json.tmp.99999999' ]" \
    "orphans: a dead run's temporary was left: $(ls "$tmp/orph")"
check "[ -e '$tmp/orph/mine.tmp.$$' ]" "orphans: a live process's temporary was removed"
# summary.json, written last, names the size and FNV-1a hash of every file of its set
fnv() { # fnv FILE: FNV-1a 64 of the file's bytes, as 16 hex digits
    local h=$((0xcbf29ce484222325)) b
    for b in $(od -An -v -tu1 "$1"); do h=$(((h ^ b) * 0x100000001b3)); done
    printf '%016x' "$h"
}
for f in evaluations.csv points.csv pareto.csv front.svg report.html; do
    want=$(tr -d '\n\t ' <"$tmp/orph/summary.json" | grep -o "\"$f\":{\"bytes\":[0-9]*,\"fnv1a64\":\"[0-9a-f]*\"")
    got="\"$f\":{\"bytes\":$(wc -c <"$tmp/orph/$f"),\"fnv1a64\":\"$(fnv "$tmp/orph/$f")\""
    check "[ '$want' = '$got' ]" "summary.json: $f is [$want], the file [$got]"
done

# counts that are true
field() { # field SUMMARY NAME: a number from summary.json
    grep -o "\"$2\":[[:space:]]*[0-9.e+-]*" "$1" | head -1 | sed 's/.*:[[:space:]]*//'
}
# memo hits do not depend on timing: CRS2-LM at 2 threads, three times
for k in 1 2 3; do
    "$WT" explore "$tmp/small.json" --quiet --threads 2 --out "$tmp/crs$k" \
        --set search.strategy=CRS2-LM --set search.evaluations=12
done
h1=$(field "$tmp/crs1/summary.json" memo_hits)
h2=$(field "$tmp/crs2/summary.json" memo_hits)
h3=$(field "$tmp/crs3/summary.json" memo_hits)
check "[ '$h1' = '$h2' ] && [ '$h2' = '$h3' ]" "memo_hits varies between runs: $h1, $h2, $h3"
# replayed counts the journal's simulations the study used, not the lines it read
"$WT" explore "$tmp/small.json" --quiet --out "$tmp/used"
"$WT" explore "$tmp/small.json" --quiet --out "$tmp/used" --set search.strategy=random \
    --set search.evaluations=2
check "[ '$(field "$tmp/used/summary.json" replayed)' = 6 ] && [ '$(field "$tmp/used/summary.json" simulated)' = 0 ] && [ '$(field "$tmp/used/summary.json" journal_records)' = 34 ]" \
    "replayed: $(grep -E '"(replayed|simulated|journal_records)"' "$tmp/used/summary.json" | tr -d '\n\t')"
# the progress ends at its total: infeasible points are not in it
sed 's/"workloads"/"constraints": ["l1d.ways >= sm.max_ctas || sched.policy == '"'"'gto'"'"'"],\n  "workloads"/' \
    "$tmp/small.json" >"$tmp/cons.json"
expect 0 "finished ([0-9]+)/\1 \(100%\)" -- "$WT" explore "$tmp/cons.json" --out "$tmp/cons"

# a budget of N is N distinct feasible configurations, whatever the strategy: 37 points with
# the reference (a 48-point space, the reference off its grid)
cat >"$tmp/budget.json" <<'JSON'
{
  "name": "budget",
  "preset": "gtx480-cawa",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {"l1d.ways": {"min": 1, "max": 8}, "sm.max_ctas": [1, 2, 4],
                 "sched.policy": ["lrr", "gto"]},
  "workloads": [{"name": "stream", "params": {"n": 512}}],
  "objectives": ["ipc", "mpki"]
}
JSON
for strat in lhs random MLSL-LDS CRS2-LM; do
    expect 0 "budget: 37 points" -- "$WT" explore "$tmp/budget.json" --out "$tmp/budget-$strat" \
        --set search.strategy=$strat --set search.evaluations=36
done
expect 0 "budget: 16 points" -- "$WT" explore "$tmp/budget.json" --out "$tmp/budget-lhs15" \
    --set search.strategy=lhs --set search.evaluations=15
# with constraints, infeasible proposals do not count against it
sed 's/"workloads"/"constraints": ["l1d.ways >= sm.max_ctas"],\n  "workloads"/' \
    "$tmp/budget.json" >"$tmp/budgetc.json"
for strat in lhs CRS2-LM; do
    "$WT" explore "$tmp/budgetc.json" --quiet --out "$tmp/budgetc-$strat" \
        --set search.strategy=$strat --set search.evaluations=20
    n=$(grep -c ',ok,' "$tmp/budgetc-$strat/points.csv")
    check "[ $n = 21 ]" "budget with constraints ($strat): $n feasible points, expected 20 and the reference"
done

# hypervolume across studies: also against a point fixed by the space, in the objectives' units
expect 0 "results in" -- "$WT" explore "$tmp/one.json" --out "$tmp/hv1" \
    --set search.strategy=random --set search.evaluations=4
abs1=$(tr -d '\n\t ' <"$tmp/hv1/summary.json" | grep -o '"absolute":{"value":[0-9.e+-]*' | sed 's/.*://')
best1=$(tr -d '\n\t ' <"$tmp/hv1/summary.json" | grep -o '"best":{"ipc":{"point":[0-9]*,"value":[0-9.e+-]*' | sed 's/.*://')
check "[ -n '$abs1' ] && [ '$abs1' = '$best1' ]" "one objective: absolute hypervolume $abs1, best ipc $best1"
sed 's/"objectives": \["ipc", "mpki"\]/"objectives": ["ipc", {"metric": "mpki", "hv_reference": 100000}]/' \
    "$tmp/small.json" >"$tmp/hvref.json"
expect 0 "results in" -- "$WT" explore "$tmp/hvref.json" --out "$tmp/hv2" \
    --set search.strategy=random --set search.evaluations=4
check "tr -d '\n\t ' <'$tmp/hv2/summary.json' | grep -qE '\"absolute\":\\{\"value\":[1-9][0-9.e+-]*,\"reference_point\":\\[0,100000\\]'" \
    "two objectives: $(tr -d '\n\t ' <"$tmp/hv2/summary.json" | grep -o '"absolute":{[^}]*')"
# the study's space is named relative to the output folder (or as given), never absolute
check "grep -q '^	\"space\":	\"../hvref.json\",' '$tmp/hv2/summary.json'" \
    "space: $(grep -m1 '"space"' "$tmp/hv2/summary.json")"
wt_abs=$(cd "$(dirname "$WT")" && pwd)/$(basename "$WT")
(cd "$tmp" && "$wt_abs" explore hvref.json --quiet --out rel --set search.strategy=random \
    --set search.evaluations=2)
check "grep -q '^	\"space\":	\"hvref.json\",' '$tmp/rel/summary.json'" \
    "space as given: $(grep -m1 '"space"' "$tmp/rel/summary.json")"

# the host program launches conditionally on a parameter: one file, two variants
cat >"$tmp/variant.wl" <<'WL'
.param tiled 0
.param n 64
.array a f32 [n] zero
.kernel naive block=32
        exit
.kernel tiled block=32
        exit
.host
    if tiled
        launch tiled grid=2
    else
        launch naive grid=1
    end
    if n >= 64
        launch naive grid=4
    end
    if n < 64
        launch tiled grid=8
    end
WL
expect 0 '"ctas":[[:space:]]*5,' -- "$WT" sim --workload "$tmp/variant.wl" --json
expect 0 '"ctas":[[:space:]]*6,' -- "$WT" sim --workload "$tmp/variant.wl" --wparam tiled=1 --json
expect 0 '"ctas":[[:space:]]*10,' -- "$WT" sim --workload "$tmp/variant.wl" --wparam tiled=1 \
    --wparam n=32 --json
printf '.kernel k block=32\n        exit\n.host\n    else\n        launch k grid=1\n' >"$tmp/else.wl"
expect 2 "else.wl:4: else without a matching if" -- "$WT" sim --workload "$tmp/else.wl"
printf '.kernel k block=32\n        exit\n.host\n    if 1\n        launch k grid=1\n' >"$tmp/noend.wl"
expect 2 "noend.wl:4: if without a matching end" -- "$WT" sim --workload "$tmp/noend.wl"
printf '.kernel k block=32\n        exit\n.host\n    if 1\n    do max=2\n    end\n    while x[0] != 0\n' >"$tmp/cross.wl"
expect 2 "cross.wl:6: end inside a do ... while loop" -- "$WT" sim --workload "$tmp/cross.wl"
printf '.kernel k block=32\n        exit\n.host\n    if 0\n        launch nope grid=1\n    end\n    launch k grid=1\n    if 1 2\n    end\n' >"$tmp/junk.wl"
expect 2 "junk.wl:8: unexpected" -- "$WT" sim --workload "$tmp/junk.wl"

# the seed chooses MLSL-LDS's points too (one objective: one run, from the reference)
sed 's/"objectives": \["ipc", "mpki"\]/"objectives": ["ipc"]/' "$tmp/budget.json" >"$tmp/budget1.json"
for sd in 1 2; do
    "$WT" explore "$tmp/budget1.json" --quiet --out "$tmp/lds$sd" --set search.strategy=MLSL-LDS \
        --set search.evaluations=10 --set search.seed=$sd
    cut -d, -f3 "$tmp/lds$sd/points.csv" | sort >"$tmp/lds$sd.set"
done
check "! cmp -s '$tmp/lds1.set' '$tmp/lds2.set'" "MLSL-LDS: seeds 1 and 2 evaluate the same points"

# cross-parameter limits of the params docs are checked when a configuration is built
tiny=(--preset gtx480-cawa --workload stream --wparam n=256 --set gpu.sms=1)
expect 2 "dip.duel_sets = 3 exceeds l1d.sets/4 = 2 \(l1d.sets = 8; expected at most 2\)" -- \
    "$WT" sim "${tiny[@]}" --set l1d.policy=dip --set dip.duel_sets=3
expect 2 "rrip.duel_sets = 5 exceeds l1d.sets/4 = 4" -- \
    "$WT" sim "${tiny[@]}" --set l1d.policy=rrip --set l1d.sets=16 --set rrip.duel_sets=5
expect 2 "dacache.wmax = 60 exceeds sm.max_warps = 48" -- \
    "$WT" sim "${tiny[@]}" --set l1d.policy=dacache --set dacache.wmax=60
expect 0 "^ipc " -- "$WT" sim "${tiny[@]}" --set l1d.policy=dip --set dip.duel_sets=2

finish
