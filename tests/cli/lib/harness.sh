# The harness the CLI tests share: source it with the script's arguments.
#   . "$(dirname "$0")/lib/harness.sh" "$@"
# It sets WT (the warptune binary, the first argument) and tmp (a folder removed on exit), and
# gives ok/bad counters, expect, same and check. A script ends with: finish
WT=${1:?usage: bash SCRIPT PATH/TO/warptune}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect CODE PATTERN -- command...: exit status and an extended regex in stdout+stderr
expect() {
    local code=$1 pattern=$2; shift 3
    local out rc
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" != "$code" ]; then bad "$* -> exit $rc, expected $code: $out"; return; fi
    if ! grep -qE -- "$pattern" <<<"$out"; then bad "$* -> output lacks /$pattern/: $out"; return; fi
    ok
}

# same FILE1 FILE2 WHAT: the two files are byte-identical
same() {
    if cmp -s "$1" "$2"; then ok; else bad "$3: $1 and $2 differ"; diff "$1" "$2" | head -5; fi
}

# check 'SHELL CONDITION' WHAT
check() { if eval "$1"; then ok; else bad "$2"; fi; }

# summary.json without what describes the run rather than the study: how many simulations
# this process ran, replayed, read from journals or found in its memo, its threads, wall time
# and rate
study_summary() {
    grep -vE '"(simulated|replayed|journal_records|memo_hits|threads|wall_seconds|simulations_per_second)"' "$1"
}

# same_study DIR1 DIR2 WHAT: two output folders describe the same study, byte for byte but for
# the run's own fields of summary.json (a merged or distributed run against one machine's)
same_study() {
    for f in points.csv pareto.csv evaluations.csv front.svg report.html; do
        same "$1/$f" "$2/$f" "$3: $f"
    done
    if diff <(study_summary "$1/summary.json") <(study_summary "$2/summary.json") >/dev/null; then
        ok
    else
        bad "$3: summary.json differs beyond the run's own fields"
        diff <(study_summary "$1/summary.json") <(study_summary "$2/summary.json") | head -5
    fi
}

# the closing line ctest reads, and the exit status
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}
