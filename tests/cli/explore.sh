#!/usr/bin/env bash
# End-to-end tests of `warptune explore`: identical CSVs with 1 and 2 threads, a study killed
# with SIGKILL and resumed gives the outputs of an uninterrupted one and re-simulates nothing
# that finished, SIGINT stops cleanly with outputs, failed simulations are recorded, every
# bundled space validates, bad input exits 2 with file, JSON path and expectation.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
field() { # field SUMMARY NAME: a number from summary.json
    grep -o "\"$2\":[[:space:]]*[0-9.e+-]*" "$1" | head -1 | sed 's/.*:[[:space:]]*//'
}

# a small study (tests/cli/lib/small.json, shared with shard.sh): 2 tiny workloads, 16
# configurations, two objectives
cp "$(dirname "$0")/lib/small.json" "$tmp/small.json"

# 1. byte-identical CSVs with 1 and 2 threads: the grid, and a two-objective NLopt sweep
for strat in grid CRS2-LM; do
    for t in 1 2; do
        expect 0 "results in $tmp/$strat-t$t" -- "$WT" explore "$tmp/small.json" --threads $t \
            --out "$tmp/$strat-t$t" --set search.strategy=$strat --set search.evaluations=12
    done
    for f in evaluations.csv points.csv pareto.csv; do
        same "$tmp/$strat-t1/$f" "$tmp/$strat-t2/$f" "$strat $f with 1 and 2 threads"
    done
done
[ -s "$tmp/grid-t1/front.svg" ] && ok || bad "no front.svg"
grep -q '"hypervolume"' "$tmp/grid-t1/summary.json" && ok || bad "no hypervolume in summary"
grep -q ',infeasible,' "$tmp/grid-t1/points.csv" && ok || bad "no infeasible point in points.csv"
[ "$(wc -l <"$tmp/grid-t1/points.csv")" = 18 ] && ok || bad "grid: expected 16 points and the reference"

# a rerun simulates nothing: everything comes from the journal
expect 0 "0 simulated" -- "$WT" explore "$tmp/small.json" --threads 2 --out "$tmp/grid-t1"
same "$tmp/grid-t1/points.csv" "$tmp/grid-t2/points.csv" "rerun points.csv"

# 2. SIGKILL mid-run, then --resume: same outputs, nothing simulated twice
cat >"$tmp/long.json" <<'EOF'
{
  "name": "long",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {
    "sched.policy": ["lrr", "gto"],
    "l1d.ways": {"min": 1, "max": 16},
    "sm.max_ctas": [1, 2, 4]
  },
  "workloads": [
    {"name": "kmeans", "params": {"npoints": 256}},
    {"name": "stream", "params": {"n": 2048}}
  ],
  "objectives": ["ipc", "mpki"],
  "search": {"strategy": "DIRECT-L", "budget": {"evaluations": 40}, "scalarisations": 3}
}
EOF
"$WT" explore "$tmp/long.json" --threads 2 --quiet --out "$tmp/whole"
whole_sims=$(field "$tmp/whole/summary.json" simulated)
"$WT" explore "$tmp/long.json" --threads 2 --quiet --out "$tmp/killed" &
pid=$!
for _ in $(seq 1 600); do
    n=$(($(cat "$tmp/killed/journal" 2>/dev/null | wc -l) - 1))
    [ "$n" -ge 12 ] && break
    sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
done_before=$(($(wc -l <"$tmp/killed/journal") - 1))
if [ "$done_before" -ge 12 ] && [ "$done_before" -lt "$whole_sims" ]; then ok; else
    bad "kill: $done_before of $whole_sims simulations had finished (expected a mid-run kill)"
fi
expect 0 "results in $tmp/killed" -- "$WT" explore --resume --threads 1 --out "$tmp/killed"
for f in evaluations.csv points.csv pareto.csv; do
    same "$tmp/whole/$f" "$tmp/killed/$f" "resumed $f"
done
resumed_sims=$(field "$tmp/killed/summary.json" simulated)
replayed=$(field "$tmp/killed/summary.json" replayed)
if [ "$replayed" = "$done_before" ] && [ $((resumed_sims + done_before)) = "$whole_sims" ]; then
    ok
else
    bad "resume: $done_before finished before the kill, $replayed replayed, $resumed_sims" \
        "simulated after, $whole_sims in an uninterrupted run"
fi
dups=$(cut -f1 "$tmp/killed/journal" | sort | uniq -d | wc -l)
[ "$dups" = 0 ] && ok || bad "the journal holds $dups simulations twice"

# 3. SIGINT: a clean stop with outputs for what finished, exit 130
"$WT" explore "$tmp/long.json" --threads 2 --quiet --out "$tmp/int" \
    --set search.strategy=random --set search.evaluations=60 &
pid=$!
for _ in $(seq 1 600); do
    n=$(($(cat "$tmp/int/journal" 2>/dev/null | wc -l) - 1))
    [ "$n" -ge 6 ] && break
    sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] && ok || bad "SIGINT: exit $rc, expected 130"
grep -q '"interrupted":[[:space:]]*true' "$tmp/int/summary.json" && ok || bad "SIGINT: summary"
[ -s "$tmp/int/points.csv" ] && ok || bad "SIGINT: no points.csv"
ls "$tmp/int" | grep -q tmp && bad "SIGINT: a temporary file was left" || ok

# 4. a failing simulation is recorded with its reason and the study goes on
expect 0 "3 failed" -- "$WT" explore "$tmp/small.json" --out "$tmp/fail" --threads 2 \
    --set sim.max_cycles=1000 --set search.strategy=random --set search.evaluations=2
grep -q 'failed,.*cycle' "$tmp/fail/evaluations.csv" && ok || bad "no failure reason in evaluations.csv"

# 5. every bundled space validates; the default one too by name
expect 0 "default.json: ok" -- "$WT" explore --validate
expect 0 "default.json: ok" -- "$WT" explore default --validate
# --set applies when validating, named space or all of them; an empty output folder is refused
expect 2 "gpu.sms: expected a value in" -- "$WT" explore --validate --set gpu.sms=0
expect 2 "output: expected a folder name" -- "$WT" explore default --validate --set output=
expect 2 "^warptune explore: --set =1: expected name=value$" -- "$WT" explore default --validate --set =1
# constraints no grid point satisfies: an error; otherwise the feasible count is reported
expect 0 "88 of 96 points feasible" -- "$WT" explore default --validate
printf '{"workloads": ["stream"], "parameters": {"l1d.ways": [2, 4]},
 "constraints": ["l1d.ways / 0 <= 4"]}' >"$tmp/nofeasible.json"
expect 2 "nofeasible.json: constraints: no point of the 2-point grid satisfies them" -- \
    "$WT" explore "$tmp/nofeasible.json" --validate

# 6. bad input: exit 2, naming the file, the JSON path and what was expected
printf '{"workloads": ["stream"], "parameters": {"l1d.wayz": [1, 2]}}' >"$tmp/bad1.json"
expect 2 "bad1.json: parameters.\"l1d.wayz\": unknown parameter \(did you mean: l1d.ways" -- \
    "$WT" explore "$tmp/bad1.json"
printf '{"workloads": ["stream"], "search": {"budget": {"evaluations": "many"}}}' >"$tmp/bad2.json"
expect 2 "bad2.json: search.budget.evaluations: expected an integer" -- "$WT" explore "$tmp/bad2.json"
printf '{"workloads": ["stream"],\n' >"$tmp/bad3.json"
expect 2 "bad3.json:2: malformed JSON" -- "$WT" explore "$tmp/bad3.json"
expect 2 "cannot read the space file" -- "$WT" explore "$tmp/none.json"
expect 2 "unknown space 'nope'" -- "$WT" explore nope
# a device or a FIFO is refused before it is read (a FIFO would wait for a writer at its open)
expect 2 "/dev/zero: cannot read the space file: not a regular file" -- "$WT" explore /dev/zero --validate
mkfifo "$tmp/fifo.json"
expect 2 "fifo.json: cannot read the space file: not a regular file" -- timeout 10 "$WT" explore "$tmp/fifo.json" --validate
mkdir -p "$tmp/fifotrace"
mkfifo "$tmp/fifotrace/kernel-1.traceg"
echo kernel-1.traceg >"$tmp/fifotrace/kernelslist.g"
printf '{"workloads": ["%s"], "parameters": {"l1d.ways": [4, 8]}}' "$tmp/fifotrace/kernelslist.g" >"$tmp/fifotrace.json"
expect 2 "kernelslist.g:1: cannot open kernel trace .*kernel-1.traceg: not a regular file" -- \
    timeout 10 "$WT" explore "$tmp/fifotrace.json" --validate
expect 2 "unknown or incomplete option" -- "$WT" explore --frobnicate
expect 2 "expected an integer in \[0, 1024\] \(0: every core\)" -- "$WT" explore --threads -1
expect 2 "nothing to resume" -- "$WT" explore --resume --out "$tmp/empty"
# a damaged study.json: the line of the damage, a NUL byte, text after the object
mkdir -p "$tmp/torn" "$tmp/nulstudy" "$tmp/junk"
printf '{"space_file": "s.json",\n "space": {"workloads": ["stream"]' >"$tmp/torn/study.json"
expect 2 "torn/study.json:2: malformed JSON \(expected \{space_file, space, set\}\)" -- \
    "$WT" explore --resume --out "$tmp/torn"
printf '{"space_file": "s.json",\n "space": {"workloads": ["stream"]}, \0"set": []}' \
    >"$tmp/nulstudy/study.json"
expect 2 "nulstudy/study.json:2: NUL byte at offset 62" -- \
    "$WT" explore --resume --out "$tmp/nulstudy"
printf '{"space_file": "s.json", "space": {"workloads": ["stream"]}, "set": []}\n}{' \
    >"$tmp/junk/study.json"
expect 2 "junk/study.json:2: malformed JSON" -- "$WT" explore --resume --out "$tmp/junk"
# a study.json that exists but cannot be read is not "nothing to resume"
mkdir -p "$tmp/dirstudy/study.json"
expect 2 "dirstudy/study.json: cannot read: Is a directory" -- \
    "$WT" explore --resume --out "$tmp/dirstudy"
expect 2 "did you mean: l1d.ways" -- "$WT" explore "$tmp/small.json" --set l1d.wayz=2
# a NUL byte is an error, not the silent end of the file
printf '{"workloads": ["stream"]}\0{"x":' >"$tmp/nul.json"
expect 2 "nul.json:1: NUL byte at offset 25 \(expected JSON text\)" -- \
    "$WT" explore "$tmp/nul.json" --validate
printf '.kernel k block=32\n exit\n.host\n launch k grid=1\0\n' >"$tmp/nul.wl"
printf '{"workloads": ["%s"]}' "$tmp/nul.wl" >"$tmp/nulwl.json"
expect 2 "workloads\[0\]: .*nul.wl:4: NUL byte" -- "$WT" explore "$tmp/nulwl.json" --validate

# a study that samples says which results were projected, in every output, and keeps it through
# the journal: a resumed study writes the same files
cat >"$tmp/sampled.json" <<'JSON'
{
  "name": "sampled",
  "preset": "gtx480-cawa",
  "settings": {"sample.kernels": true},
  "parameters": {"sched.policy": ["lrr", "gto"]},
  "workloads": ["fdtd2d"],
  "objectives": ["ipc", "mpki"]
}
JSON
expect 0 "results in $tmp/smp" -- "$WT" explore "$tmp/sampled.json" --threads 1 --out "$tmp/smp"
head -1 "$tmp/smp/evaluations.csv" | grep -q ',detailed_share$' && ok ||
    bad "evaluations.csv of a sampled study lacks detailed_share"
head -1 "$tmp/smp/points.csv" | grep -q ',detailed_share$' && ok ||
    bad "points.csv of a sampled study lacks detailed_share"
grep -q '"projected_results":[[:space:]]*2' "$tmp/smp/summary.json" && ok ||
    bad "summary.json of a sampled study does not count its projected results"
head -1 "$tmp/smp/journal" | grep -q 'detailed_warp_insts,projected_warp_insts' && ok ||
    bad "the journal of a sampled study lacks the sampling columns"
cp -r "$tmp/smp" "$tmp/smp2"
expect 0 "results in $tmp/smp2" -- "$WT" explore --resume --threads 1 --out "$tmp/smp2"
for f in evaluations.csv points.csv; do same "$tmp/smp/$f" "$tmp/smp2/$f" "resumed sampled $f"; done
! grep -q detailed_share "$tmp/grid-t1/evaluations.csv" "$tmp/grid-t1/points.csv" && ok ||
    bad "a study without sampling has a detailed_share column"
! grep -q '"sampled"' "$tmp/grid-t1/summary.json" && ok || bad "an unsampled summary says sampled"

# a study that screens (search.screen): every configuration sampled first, in full detail only
# the ones that may still reach the front. Its front is the full-detail study's, a ruled-out
# point says so, and the outputs are the same at 1 and 2 threads and on --resume.
cat >"$tmp/screen.json" <<'JSON'
{
  "name": "screen",
  "settings": {"gpu.sms": 4},
  "parameters": {"sched.policy": ["lrr", "gto"], "l1d.ways": {"values": [2, 16]},
                 "sm.max_ctas": {"values": [1, 2, 8]}},
  "workloads": [{"name": "kmeans", "params": {"npoints": 4096}}],
  "objectives": ["ipc", {"metric": "mpki", "goal": "min"}],
  "search": {"strategy": "grid", "screen": 0.1}
}
JSON
expect 0 "ruled out by screening" -- "$WT" explore "$tmp/screen.json" --threads 1 --out "$tmp/scr1"
expect 0 "ruled out by screening" -- "$WT" explore "$tmp/screen.json" --threads 2 --out "$tmp/scr2"
for f in evaluations.csv points.csv pareto.csv; do
    same "$tmp/scr1/$f" "$tmp/scr2/$f" "screened $f with 1 and 2 threads"
done
expect 0 "results in $tmp/scrf" -- "$WT" explore "$tmp/screen.json" --threads 2 --out "$tmp/scrf" \
    --set search.screen=0
cut -d, -f1-12 "$tmp/scr1/pareto.csv" >"$tmp/scr1.front"
same "$tmp/scrf/pareto.csv" "$tmp/scr1.front" "the screened study's front"
grep -q ',screened,' "$tmp/scr1/points.csv" && ok || bad "no point of points.csv says screened"
! grep -q ',screened,' "$tmp/scr1/pareto.csv" && ok || bad "a screened point on the front"
screened=$(field "$tmp/scr1/summary.json" screened)
in_full=$(field "$tmp/scr1/summary.json" simulated_in_full)
ruled=$(field "$tmp/scr1/summary.json" ruled_out)
[ -n "$screened" ] && [ "$screened" = 13 ] && [ $((in_full + ruled)) = "$screened" ] && ok ||
    bad "summary.json's screening: $screened screened, $in_full in full, $ruled ruled out"
cp -r "$tmp/scr1" "$tmp/scr3"
expect 0 "0 simulated" -- "$WT" explore --resume --threads 1 --out "$tmp/scr3"
for f in evaluations.csv points.csv pareto.csv; do same "$tmp/scr1/$f" "$tmp/scr3/$f" "resumed screened $f"; done
expect 2 "search.screen: expected a value in \[0, 0.999" -- \
    "$WT" explore "$tmp/screen.json" --validate --set search.screen=1
expect 2 "search.strategy: expected grid, random or lhs: the study screens" -- \
    "$WT" explore "$tmp/screen.json" --validate --set search.strategy=CRS2-LM
sed 's/"grid"/"CRS2-LM"/' "$tmp/screen.json" >"$tmp/screen-nlopt.json"
expect 2 "screen-nlopt.json: search.screen: expected a grid, random or lhs search" -- \
    "$WT" explore "$tmp/screen-nlopt.json" --validate
expect 2 "cannot be split into shards" -- \
    "$WT" explore "$tmp/screen.json" --shard 1/2 --out "$tmp/scrs"

finish
