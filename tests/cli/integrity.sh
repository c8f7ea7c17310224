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
expect 0 "2 failed" -- "$WT" explore "$tmp/small.json" --out "$tmp/capped" \
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

finish
