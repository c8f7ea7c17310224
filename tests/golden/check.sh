#!/bin/bash
# check.sh: the simulator's outputs on `bench/golden.sh --small` against the set committed in
# tests/golden/small (the ctest test `golden`, label behaviour).
#
#   tests/golden/check.sh WARPTUNE            run the set and compare, byte for byte
#   tests/golden/check.sh WARPTUNE --update   run the set and replace tests/golden/small
#
# The set is deterministic and the same in every build (Release, Debug, sanitizers): it holds
# no path, time or host. A difference means that a change altered what the simulator computes
# or prints. When that is intended (a new parameter shows in every run's config, a model or
# bug fix changes results), regenerate with --update, read `git diff tests/golden` and commit
# the new set together with the change that explains it.
set -euo pipefail
if [ $# -lt 1 ] || { [ $# -eq 2 ] && [ "$2" != --update ]; } || [ $# -gt 2 ]; then
    echo "usage: $0 WARPTUNE [--update]" >&2
    exit 2
fi
W=$1
UPDATE=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
want=$root/tests/golden/small
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$root/bench/golden.sh" "$W" "$tmp/out" --small >"$tmp/log" 2>&1; then
    echo "golden: bench/golden.sh $W --small failed:"
    cat "$tmp/log"
    exit 1
fi

if [ "$UPDATE" = --update ]; then
    rm -rf "$want"
    cp -R "$tmp/out" "$want"
    echo "golden: wrote $(find "$want" -type f | wc -l) files to tests/golden/small;" \
        "review them with: git diff --stat tests/golden"
    exit 0
fi

if [ ! -d "$want" ]; then
    echo "golden: FAIL: no committed set in tests/golden/small; create it with: $0 $W --update"
    exit 1
fi
if diff -r "$want" "$tmp/out" >"$tmp/diff"; then
    echo "golden: $(find "$want" -name '*.json' | wc -l) runs identical to tests/golden/small"
    exit 0
fi
diff -rq "$want" "$tmp/out" | sed "s|$want|tests/golden/small|g; s|$tmp/out|new|g" >"$tmp/files" || true
changed=$(wc -l <"$tmp/files")
echo "golden: FAIL: $changed files differ from the committed set tests/golden/small."
echo "The simulator's results changed. The files (tests/golden/small: committed; new: this build):"
head -20 "$tmp/files"
[ "$changed" -le 20 ] || echo "  ... and $((changed - 20)) more"
echo "The first differences (<: committed, >: this build):"
sed "s|$want|tests/golden/small|g; s|$tmp/out|new|g" "$tmp/diff" | head -40
echo "If the change is meant to alter results, regenerate the set and commit it with the change:"
echo "  tests/golden/check.sh PATH/TO/warptune --update && git diff tests/golden"
exit 1
