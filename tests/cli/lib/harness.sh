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

# the closing line ctest reads, and the exit status
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}
