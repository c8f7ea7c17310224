#!/usr/bin/env bash
# `warptune explore` given hostile input and a hostile output folder: names that would leave
# results/, text that is not UTF-8, sizes that grow the work, output that cannot be written and
# a journal that fills up mid-study. Every case ends with a message naming the file and what
# was expected, the documented exit status, and nothing half-written.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
WT=$(cd "$(dirname "$WT")" && pwd)/$(basename "$WT") # the cases below change folder

# 1. the name of a study without "output" names results/NAME, inside results/
mkdir -p "$tmp/a/b/c"
printf '{"name": "../../../somewhere/escape", "workloads": [{"name": "stream", "params": {"n": 256}}]}' \
    >"$tmp/a/b/c/escape.json"
cd "$tmp/a/b/c" || exit 1
expect 2 'escape.json: name: "\.\./\.\./\.\./somewhere/escape" would name a folder outside results/ \(expected a name without' -- \
    "$WT" explore escape.json --quiet
check "[ ! -e '$tmp/a/somewhere' ] && [ ! -e results ]" "escape: a folder was created"
cd - >/dev/null || exit 1
printf '{"name": "ab\xff\xfe", "workloads": ["stream"]}' >"$tmp/latin1.json"
expect 2 'latin1.json: name: byte 3 \(0xff\) is not UTF-8 \(expected UTF-8 text\)' -- \
    "$WT" explore "$tmp/latin1.json" --validate
printf '{"workloads": [{"name": "stream", "params": {"n": 256}}], "description": "\xe9t\xe9"}' \
    >"$tmp/desc.json"
expect 2 'desc.json: description: byte 1 \(0xe9\) is not UTF-8' -- "$WT" explore "$tmp/desc.json" --validate
python3 -c 'import json, sys; json.dump({"name": "x" * 10000000, "workloads": ["stream"]}, sys.stdout)' \
    >"$tmp/huge.json"
expect 2 'huge.json: name: 10000000 bytes long \(expected at most 128\)' -- \
    "$WT" explore "$tmp/huge.json" --validate
expect 2 '--out: expected a folder name of 1 to 1024 bytes, got 2000' -- \
    "$WT" explore "$tmp/desc.json" --validate --out "$(printf 'd%.0s' $(seq 2000))"

# 2. 0 means the same in a space file and on the command line: search.threads 0 and --threads 0
# are every core (OMP_NUM_THREADS says how many here), budget.seconds 0 is no time limit
printf '{"name": "zero", "parameters": {"l1d.ways": [1, 2, 4]}, "workloads": [{"name": "stream", "params": {"n": 256}}],
 "search": {"threads": 1, "budget": {"seconds": 0}}}' >"$tmp/zero.json"
threads() { grep -o '"threads":[[:space:]]*[0-9]*' "$1/summary.json" | grep -o '[0-9]*$'; }
OMP_NUM_THREADS=3 expect 0 "3 points .*results in" -- "$WT" explore "$tmp/zero.json" --out "$tmp/zero-cli" --threads 0
check "[ \"$(threads "$tmp/zero-cli")\" = 3 ]" "--threads 0: $(threads "$tmp/zero-cli") threads, expected every core (3)"
sed 's/"threads": 1/"threads": 0/' "$tmp/zero.json" >"$tmp/zero0.json"
OMP_NUM_THREADS=3 expect 0 "3 points .*results in" -- "$WT" explore "$tmp/zero0.json" --out "$tmp/zero-space"
check "[ \"$(threads "$tmp/zero-space")\" = 3 ]" "search.threads 0: $(threads "$tmp/zero-space") threads, expected 3"
OMP_NUM_THREADS=3 expect 0 "3 points .*results in" -- "$WT" explore "$tmp/zero0.json" --out "$tmp/zero-one" --threads 1
check "[ \"$(threads "$tmp/zero-one")\" = 1 ]" "--threads 1 over search.threads 0: $(threads "$tmp/zero-one") threads"
check "grep -q '\"skipped\":[[:space:]]*0' '$tmp/zero-cli/summary.json'" "budget.seconds 0 skipped simulations"
expect 2 "explore: --threads 1025: expected an integer in \[0, 1024\]" -- "$WT" explore "$tmp/zero.json" --threads 1025
expect 2 "sim: --threads 0: expected an integer in \[1, 1024\]" -- "$WT" sim --workload stream --threads 0

# 3. a dimension of a million levels, listed or a range, validates in linear time (seconds,
# not the minutes a pairwise check of distinct values took)
python3 -c 'import json, sys; json.dump({"parameters": {"sim.seed": {"values": list(range(1000000))}},
  "constraints": ["sim.seed >= 0"], "workloads": ["stream"]}, sys.stdout)' >"$tmp/million.json"
expect 0 "million.json: ok \(1 parameters, grid of 1000000 points, 100000 of 100000 sampled grid points feasible" -- \
    timeout 60 "$WT" explore "$tmp/million.json" --validate
printf '{"parameters": {"sim.seed": {"min": 0, "max": 999999, "step": 1}}, "constraints": ["sim.seed >= 0"],
 "workloads": ["stream"]}' >"$tmp/range.json"
expect 0 "range.json: ok \(1 parameters, grid of 1000000 points" -- timeout 60 "$WT" explore "$tmp/range.json" --validate
python3 -c 'import json, sys; json.dump({"parameters": {"sim.seed": {"values": list(range(999999)) + [5]}},
  "workloads": ["stream"]}, sys.stdout)' >"$tmp/repeat.json"
expect 2 'repeat.json: parameters."sim.seed"\.values\[999999\]: expected distinct values \(this one repeats \[5\]\)' -- \
    timeout 60 "$WT" explore "$tmp/repeat.json" --validate

# 4. an output folder whose lock or journal cannot be written is output that cannot be written
# (exit 1, the file and the reason), not bad input; a folder held by another run, a journal
# that is no journal and an output that names a file stay bad input (exit 2)
small='{"name": "w", "workloads": [{"name": "stream", "params": {"n": 256}}]}'
printf '%s' "$small" >"$tmp/w.json"
mkdir -p "$tmp/lockdir/lock" "$tmp/jdir/journal"
expect 1 "lockdir/lock: cannot open the folder's lock: Is a directory" -- \
    "$WT" explore "$tmp/w.json" --out "$tmp/lockdir" --quiet
expect 1 "jdir/journal: not a regular file \(expected a journal\)" -- \
    "$WT" explore "$tmp/w.json" --out "$tmp/jdir" --quiet
: >"$tmp/plain"
expect 1 "plain/sub: cannot create the folder: Not a directory" -- \
    "$WT" explore "$tmp/w.json" --out "$tmp/plain/sub" --quiet
expect 2 "plain: not a folder" -- "$WT" explore "$tmp/w.json" --out "$tmp/plain" --quiet
mkdir -p "$tmp/garbage"
echo 'point,workload' >"$tmp/garbage/journal"
expect 2 "garbage/journal: not a warptune journal" -- "$WT" explore "$tmp/w.json" --out "$tmp/garbage" --quiet
if [ "$(id -u)" != 0 ]; then # permissions bind everyone but root
    mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
    expect 1 "ro/lock: cannot open the folder's lock: Permission denied" -- \
        "$WT" explore "$tmp/w.json" --out "$tmp/ro" --quiet
    mkdir -p "$tmp/roj" && : >"$tmp/roj/journal" && chmod 444 "$tmp/roj/journal"
    expect 1 "roj/journal: cannot write the journal: Permission denied" -- \
        "$WT" explore "$tmp/w.json" --out "$tmp/roj" --quiet
    chmod 755 "$tmp/ro"
fi

# 5. a journal that fills up mid-study (the file size limit stands for a full disk; its signal
# ignored, the write fails with EFBIG): the study stops at once, names the file and the reason,
# exits 1 and writes no outputs; every record before the failure is kept, and the rerun
# simulates only the rest and gives the outputs of a study never stopped
cat >"$tmp/fill.json" <<'JSON'
{
  "name": "fill",
  "settings": {"gpu.sms": 1, "l2.partitions": 2},
  "parameters": {"sched.policy": ["lrr", "gto"], "l1d.ways": {"min": 1, "max": 16}, "sm.max_ctas": [1, 2, 4]},
  "workloads": [{"name": "kmeans", "params": {"npoints": 256}}, {"name": "stream", "params": {"n": 2048}}],
  "objectives": ["ipc", "mpki"],
  "search": {"strategy": "random", "budget": {"evaluations": 12}}
}
JSON
"$WT" explore "$tmp/fill.json" --out "$tmp/fill-whole" --threads 2 --quiet
field() { grep -o "\"$2\":[[:space:]]*[0-9]*" "$1" | head -1 | grep -o '[0-9]*$'; }
total=$(field "$tmp/fill-whole/summary.json" simulated)
out=$( (trap '' XFSZ; ulimit -f 16; "$WT" explore "$tmp/fill.json" --out "$tmp/fill" --threads 1) 2>&1)
rc=$?
kept=$(($(wc -l <"$tmp/fill/journal") - 1)) # complete records, after the header
if [ "$rc" = 1 ] && [ "$kept" -gt 0 ] && [ "$kept" -lt "$total" ]; then ok; else
    bad "full journal: exit $rc, $kept of $total records kept (expected exit 1 mid-study): $out"
fi
grep -qE "fill/journal: cannot append to the journal: File too large; the study stopped, keeping the journal's records \($kept of them from this run\)" <<<"$out" &&
    ok || bad "full journal: the message lacks the file, reason or count: $out"
# one thread: the simulation whose record failed is the last that ran
grep -q "finished $((kept + 1))/" <<<"$out" && ok || bad "full journal: simulations went on after the failure: $out"
! grep -q "warning" <<<"$out" && ok || bad "full journal: a warning instead of an error: $out"
check "[ ! -e '$tmp/fill/summary.json' ] && [ ! -e '$tmp/fill/points.csv' ]" "full journal: outputs written"
expect 0 "$((total - kept)) simulated, $kept from the journal" -- \
    "$WT" explore "$tmp/fill.json" --out "$tmp/fill" --threads 2
for f in evaluations.csv points.csv pareto.csv; do same "$tmp/fill-whole/$f" "$tmp/fill/$f" "after a full journal: $f"; done

# a study none of whose configurations can be simulated (its preset's lines are no power of two)
# measured nothing: exit 2, saying why and naming the preset, as sim does
sed 's/"l1d.line": 128/"l1d.line": 100/' spaces/presets/fermi-gtx480.json >"$tmp/badline.json"
grep -q '"l1d.line": 100' "$tmp/badline.json" && ok || bad "the test preset did not change l1d.line"
printf '{"name": "badline", "preset": "%s", "parameters": {"l1d.ways": [4, 8]}, "workloads": ["stream"]}\n' \
    "$tmp/badline.json" >"$tmp/badline-space.json"
expect 2 "no configuration of the study can be simulated: l1d.line and l2.line must be powers of two \(got 100 and 128\) \(preset .*badline.json" -- \
    "$WT" explore "$tmp/badline-space.json" --out "$tmp/badline" --quiet
# one configuration that can be simulated is a study: exit 0, the others recorded as bad-config
printf '{"name": "someline", "preset": "%s", "parameters": {"l1d.line": [100, 128]}, "workloads": ["stream"]}\n' \
    "$tmp/badline.json" >"$tmp/someline.json"
expect 0 "results in" -- "$WT" explore "$tmp/someline.json" --out "$tmp/someline" --threads 1
grep -q ',bad-config,' "$tmp/someline/evaluations.csv" && ok || bad "the impossible points are not recorded as bad-config"

finish
