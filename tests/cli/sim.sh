#!/usr/bin/env bash
# End-to-end tests of `warptune sim` and the listing commands: output, exit codes, messages.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"

small=(--set gpu.sms=2 --wparam npoints=512)
expect 0 '^ipc ' -- "$WT" sim --workload kmeans "${small[@]}"
expect 0 '"workload":[[:space:]]*"kmeans"' -- "$WT" sim --workload kmeans "${small[@]}" --json
expect 0 '"status":[[:space:]]*"ok"' -- "$WT" sim --workload kmeans "${small[@]}" --json
expect 2 "l1d.ways: expected a value in" -- "$WT" sim --set l1d.ways=0
expect 2 "did you mean: l1d.ways" -- "$WT" sim --set l1d.wayz=4
expect 2 "sched.policy: expected one of lrr, gto" -- "$WT" sim --set sched.policy=fifo
expect 2 "expected name=value" -- "$WT" sim --set gpu.sms
# no name, no '=', or a name too long: the same words for --set and --wparam
expect 2 "^warptune sim: --set =4: expected name=value$" -- "$WT" sim --set =4
long=$(printf 'a%.0s' {1..300})
expect 2 "^warptune sim: --set $long=1: expected name=value$" -- "$WT" sim --set "$long=1"
expect 2 "^warptune sim: --wparam n: expected name=value$" -- "$WT" sim --workload stream --wparam n
expect 2 "^warptune sim: --wparam =4: expected name=value$" -- "$WT" sim --workload stream --wparam =4
# a --wparam value is taken whole, however long
pad=$(printf '%260s' '')
expect 2 "override n=$pad[0-9]*zz: expected a number" -- "$WT" sim --workload stream --wparam "n=$pad"256zz
expect 0 '^ipc ' -- "$WT" sim --workload stream --set gpu.sms=1 --wparam "n=$pad"256
# each parameter once, as --set
expect 2 "^warptune sim: --set gpu.sms=2: gpu.sms is already set by --set gpu.sms=1 \(expected each parameter once\)$" \
    -- "$WT" sim --workload stream --set gpu.sms=1 --set gpu.sms=2
expect 2 "^warptune sim: --wparam n=128: n is already set by --wparam n=64 \(expected each parameter once\)$" \
    -- "$WT" sim --workload stream --wparam n=64 --wparam n=128
expect 2 "^warptune characterize: --wparam n=128: n is already set" \
    -- "$WT" characterize --workload stream --wparam n=64 --wparam n=128
expect 2 "^warptune export-trace: --wparam n=128: n is already set" \
    -- "$WT" export-trace --workload stream --wparam n=64 --wparam n=128 --out "$tmp/twice"
expect 2 "unknown preset 'nope'" -- "$WT" sim --preset nope
expect 2 "unknown or incomplete option" -- "$WT" sim --frobnicate
expect 2 "no-such-workload" -- "$WT" sim --workload no-such-workload
expect 2 "unknown command" -- "$WT" frobnicate

# a preset file with a bad value names its line
printf '{\n  "name": "x",\n  "settings": {\n    "gpu.sms": 0\n  }\n}\n' >"$tmp/bad.json"
expect 2 "bad.json:4: settings.\"gpu.sms\"" -- "$WT" sim --preset "$tmp/bad.json"
# a combination the preset's values cannot make is the preset's fault, not the workload's
printf '{\n  "name": "x",\n  "settings": {\n    "l1d.line": 100\n  }\n}\n' >"$tmp/line.json"
printf '{\n  "name": "x",\n  "settings": {\n    "l1d.hash": "fermi",\n    "l1d.sets": 16\n  }\n}\n' >"$tmp/fermi.json"
printf '.kernel k block=32\n exit\n.host\n launch k grid=1\n' >"$tmp/tiny.wl"
expect 2 "^warptune sim: $tmp/line.json: l1d.line and l2.line must be powers of two \(got 100 and 128\)$" \
    -- "$WT" sim --preset "$tmp/line.json" --workload "$tmp/tiny.wl"
expect 2 "^warptune sim: $tmp/fermi.json: l1d.hash=fermi needs 32 or 64 l1d.sets of 128-byte lines \(got 16 sets of 128\)$" \
    -- "$WT" sim --preset "$tmp/fermi.json" --workload "$tmp/tiny.wl"
expect 2 "^warptune export-trace: $tmp/line.json: l1d.line and l2.line must be powers of two" \
    -- "$WT" export-trace --preset "$tmp/line.json" --workload "$tmp/tiny.wl" --out "$tmp/ex-line"
expect 2 "^warptune characterize: $tmp/line.json: l1d.line and l2.line must be powers of two" \
    -- "$WT" characterize --preset "$tmp/line.json" --workload "$tmp/tiny.wl"
# --set's own fault is --set's; a preset's combination that --set mends runs
expect 2 "^warptune sim: --set: l1d.line and l2.line must be powers of two \(got 100 and 128\)$" \
    -- "$WT" sim --set l1d.line=100 --workload "$tmp/tiny.wl"
expect 2 "^warptune sim: $tmp/fermi.json with --set: l1d.hash=fermi needs .*\(got 16 sets of 64\)$" \
    -- "$WT" sim --preset "$tmp/fermi.json" --set l1d.line=64 --workload "$tmp/tiny.wl"
expect 0 '"status":[[:space:]]*"ok"' -- "$WT" sim --preset "$tmp/fermi.json" --set l1d.sets=32 --workload "$tmp/tiny.wl" --json
# a CTA that no SM can hold is bad input from the start, named with its kernel and the limit
printf '.kernel big block=32 shared=65536\n exit\n.host\n launch big grid=1\n' >"$tmp/shared.wl"
expect 2 "^warptune sim: $tmp/shared.wl: kernel big \($tmp/shared.wl:1\): a CTA needs 65536 bytes of shared memory, more than an SM's 49152 \(sm.shared_bytes\)$" \
    -- "$WT" sim --workload "$tmp/shared.wl"
printf '.kernel k block=1024 regs=64\n exit\n.host\n launch k grid=1\n' >"$tmp/regs.wl"
expect 2 "kernel k \($tmp/regs.wl:1\): a CTA of 1024 threads with 64 registers each needs 65536 registers, more than an SM's 32768 \(sm.registers\)$" \
    -- "$WT" sim --workload "$tmp/regs.wl"
expect 2 "kernel k \($tmp/regs.wl:1\): a CTA of 1024 threads with 64 registers each" \
    -- "$WT" sim --workload "$tmp/regs.wl" --sample
expect 2 "kernel k \($tmp/regs.wl:1\): a CTA of 1024 threads is more than an SM's 32 \(sm.max_threads\)$" \
    -- "$WT" sim --workload "$tmp/regs.wl" --set sm.max_threads=32
expect 2 "a CTA of 1024 threads is 32 warps, more than an SM's 8 \(sm.max_warps\)$" \
    -- "$WT" sim --workload "$tmp/regs.wl" --set sm.max_warps=8
# a folder where a file is expected says so
mkdir -p "$tmp/adir"
expect 2 "adir: cannot open: Is a directory" -- "$WT" sim --trace "$tmp/adir"
printf '.graph g edgelist("adir")\n.kernel k block=32\n exit\n.host\n launch k grid=1\n' >"$tmp/dirg.wl"
expect 2 "dirg.wl:1: cannot open edge list .*: Is a directory" -- "$WT" sim --workload "$tmp/dirg.wl"
mkdir -p "$tmp/p.json" "$tmp/w.wl"
expect 2 "p.json: cannot read: Is a directory" -- "$WT" sim --preset "$tmp/p.json"
expect 2 "w.wl: cannot read workload file: Is a directory" -- "$WT" sim --workload "$tmp/w.wl"
expect 2 "p.json: cannot read the space file: Is a directory" -- "$WT" explore "$tmp/p.json" --validate
# a FIFO or a device is refused before it is read: opening a FIFO would wait for a writer
mkfifo "$tmp/fifo.wl" "$tmp/fifo.json"
expect 2 "fifo.wl: cannot read workload file: not a regular file" -- timeout 10 "$WT" sim --workload "$tmp/fifo.wl"
expect 2 "fifo.json: cannot read: not a regular file" -- timeout 10 "$WT" sim --preset "$tmp/fifo.json"
mkdir -p "$tmp/fifotrace"
mkfifo "$tmp/fifotrace/kernel-1.traceg"
echo kernel-1.traceg >"$tmp/fifotrace/kernelslist.g"
expect 2 "kernelslist.g:1: cannot open kernel trace .*kernel-1.traceg: not a regular file" -- \
    timeout 10 "$WT" sim --trace "$tmp/fifotrace/kernelslist.g"
expect 2 "/dev/null: cannot open: not a regular file" -- timeout 10 "$WT" sim --trace /dev/null
# a workload file with an error names its line
printf '.kernel k block=32\n    frob r0, r1\n' >"$tmp/bad.wl"
expect 2 "bad.wl:2:" -- "$WT" sim --workload "$tmp/bad.wl"
# a NUL byte is an error naming its line, not the silent end of the file
printf '.array a i32 [64] zero\n.kernel k block=32\n exit\n.host\n launch k grid=1\0\n launch k grid=1\n' \
    >"$tmp/nul.wl"
expect 2 "nul.wl:5: NUL byte \(expected text\)" -- "$WT" sim --workload "$tmp/nul.wl"
printf '{"name": "x",\n "settings": {"gpu.sms": 2}}\0{"x":' >"$tmp/nul.json"
expect 2 "nul.json:2: NUL byte at offset 42 \(expected JSON text\)" -- \
    "$WT" sim --preset "$tmp/nul.json"

# the L1D trace: header, one row per attempted access, the run's own counts
"$WT" sim --workload kmeans "${small[@]}" --l1-trace "$tmp/l1.csv" --json >"$tmp/out.json" 2>&1
if [ "$(head -n 1 "$tmp/l1.csv")" = "sm,cycle,warp,pc,line,kind,outcome" ]; then ok; else bad "trace header"; fi
hits=$(grep -c ',load,hit$' "$tmp/l1.csv")
want=$(sed -n 's/.*"l1d_hits":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/out.json")
if [ "$hits" = "$want" ]; then ok; else bad "trace hits $hits != metric l1d_hits $want"; fi
if [ ! -e "$tmp/l1.csv.tmp" ]; then ok; else bad "temporary trace left behind"; fi

# the issue trace: header, one row per warp instruction issued
"$WT" sim --workload kmeans "${small[@]}" --issue-trace "$tmp/issue.csv" --json >"$tmp/out.json" 2>&1
if [ "$(head -n 1 "$tmp/issue.csv")" = "sm,cycle,warp,pc,scheduler" ]; then ok; else bad "issue trace header"; fi
rows=$(($(grep -c . "$tmp/issue.csv") - 1))
want=$(sed -n 's/.*"warp_insts":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/out.json")
if [ "$rows" = "$want" ]; then ok; else bad "issue trace rows $rows != metric warp_insts $want"; fi

# a trace that cannot be written (its temporary is a link to a full device) is an error, exit
# 1, and nothing is left behind; the same for the standard output
ln -s /dev/full "$tmp/full.csv.tmp"
expect 1 "full.csv: write failed: No space left on device" -- "$WT" sim --workload kmeans \
    "${small[@]}" --l1-trace "$tmp/full.csv"
check '[ ! -e "$tmp/full.csv" ] && [ ! -L "$tmp/full.csv.tmp" ]' "a failed trace left a file"
out=$("$WT" sim --workload kmeans "${small[@]}" 2>&1 >/dev/full); rc=$?
check '[ $rc = 1 ] && grep -q "cannot write the standard output" <<<"$out"' "sim >/dev/full: exit $rc: $out"
out=$("$WT" export-trace --workload stream --wparam n=256 --out "$tmp/ex" 2>&1 >/dev/full); rc=$?
check '[ $rc = 1 ] && grep -q "cannot write the standard output" <<<"$out"' \
    "export-trace >/dev/full: exit $rc: $out"
out=$("$WT" params l1d. 2>&1 >/dev/full); rc=$?
check '[ $rc = 1 ] && grep -q "cannot write the standard output" <<<"$out"' "params >/dev/full: exit $rc: $out"
# characterize's CSV through a link lands in the linked file, and a failed write is reported
mkdir -p "$tmp/chdir"
ln -s chdir/ch.csv "$tmp/ch-link.csv"
"$WT" characterize --workload stream --wparam n=256 --set gpu.sms=1 --csv "$tmp/ch-link.csv" >/dev/null 2>&1
check '[ -L "$tmp/ch-link.csv" ] && head -n 1 "$tmp/chdir/ch.csv" | grep -q "^workload,"' \
    "characterize --csv through a link"
ln -s /dev/full "$tmp/chfull.csv" # written in place through the link (a rename would only replace the link)
expect 1 "write failed" -- "$WT" characterize --workload stream --wparam n=256 --set gpu.sms=1 \
    --csv "$tmp/chfull.csv"

# an output named through a symbolic link replaces the file the link names, not the link
mkdir "$tmp/sub"
ln -s sub/target.csv "$tmp/link.csv"
expect 0 '^ipc ' -- "$WT" sim --workload kmeans "${small[@]}" --l1-trace "$tmp/link.csv"
check '[ -L "$tmp/link.csv" ] && [ "$(head -n 1 "$tmp/sub/target.csv")" = "sm,cycle,warp,pc,line,kind,outcome" ]' \
    "--l1-trace through a link: link.csv $(ls -l "$tmp/link.csv")"
check '[ ! -e "$tmp/sub/target.csv.tmp" ] && [ ! -e "$tmp/link.csv.tmp" ]' "a temporary was left"
# a destination that is not a regular file (here a FIFO) is written in place, not replaced
mkfifo "$tmp/fifo.csv"
cat "$tmp/fifo.csv" >"$tmp/fifo.out" &
reader=$!
expect 0 '^ipc ' -- "$WT" sim --workload kmeans "${small[@]}" --per-sm "$tmp/fifo.csv"
if [ -p "$tmp/fifo.csv" ]; then wait $reader; else kill $reader; wait $reader 2>/dev/null; fi
check '[ -p "$tmp/fifo.csv" ] && [ "$(grep -c . "$tmp/fifo.out")" = 3 ]' "--per-sm into a FIFO"

# the CTA limit over time and the per-SM statistics
"$WT" sim --workload kmeans "${small[@]}" --set cta.policy=dyncta --cta-trace "$tmp/cta.csv" \
    --per-sm "$tmp/sm.csv" >/dev/null 2>&1
if [ "$(head -n 1 "$tmp/cta.csv")" = "sm,cycle,n,n_max,ctas,c_idle,c_mem" ]; then ok; else bad "cta trace header"; fi
if [ "$(grep -c . "$tmp/sm.csv")" = 3 ]; then ok; else bad "per-SM table: one row per SM (2) and a header"; fi
expect 2 "record one workload" -- "$WT" sim --workload kmeans --workload bfs --per-sm "$tmp/x.csv"
# an empty file name is refused before simulating (it used to run, then fail to rename '.tmp')
for opt in --l1-trace --issue-trace --cta-trace --per-sm; do
    expect 2 "^warptune sim: $opt: expected a file name" -- "$WT" sim --workload stream "$opt" ""
done
expect 2 "^warptune characterize: --csv: expected a file name" -- \
    "$WT" characterize --workload stream --wparam n=256 --csv ""

# listings
expect 0 '^l1d.ways +int +16' -- "$WT" params l1d.
expect 2 "no parameter name starts with 'zzz'" -- "$WT" params zzz
expect 0 'fermi-gtx480 .*\[default\]' -- "$WT" presets
expect 0 'dyncta-pact13' -- "$WT" presets
expect 0 '^kmeans ' -- "$WT" workloads
expect 0 'gto' -- "$WT" policies
# the listing commands take no options, and no operand beyond params' PREFIX
for c in workloads presets policies version man params; do
    expect 2 "^warptune $c: unknown or incomplete option '--foo'$" -- "$WT" $c --foo
done
for c in workloads presets policies version --version man; do
    name=${c#--}
    expect 2 "^warptune $name: unexpected argument 'extra' \(expected none\)$" -- "$WT" $c extra
done
expect 2 "^warptune params: unexpected argument 'extra' \(expected at most 1\)$" -- "$WT" params l1d. extra
expect 0 '^usage: warptune workloads' -- "$WT" workloads --help

# --json: "settings" holds the parameters --set changes against the preset, in catalogue order,
# as a space file's settings; one set to the preset's own value (fermi-gtx480: 4 L1D ways) and
# one never set are not there, and only --config lists every parameter
block() { sed -n "/^\t\"$1\":/,/^\t}/p" "$2"; }
"$WT" sim --workload kmeans "${small[@]}" --set l1d.hash=xor --set l1d.ways=4 --json >"$tmp/s.json"
block settings "$tmp/s.json" >"$tmp/settings"
check "grep -qE '^\\s+\"gpu.sms\":\\s+2,?$' '$tmp/settings'" "settings: gpu.sms (--set) missing"
check "grep -qE '^\\s+\"l1d.hash\":\\s+\"xor\"$' '$tmp/settings'" "settings: l1d.hash (--set) missing"
# the block's own line, gpu.sms and l1d.hash
check "[ \$(grep -c ':' '$tmp/settings') = 3 ]" "settings: expected gpu.sms and l1d.hash only"
check "! grep -q 'l1d.ways' '$tmp/settings'" "settings: l1d.ways, the preset's value, listed"
check "! grep -q '\"config\":' '$tmp/s.json'" "--json without --config lists the configuration"
"$WT" sim --workload kmeans "${small[@]}" --set l1d.hash=xor --json --config >"$tmp/c.json"
block config "$tmp/c.json" >"$tmp/config"
# the block's own line and every parameter but dacache.variant (folded: at its default, and
# l1d.policy is not dacache)
nparams=$("$WT" params | tail -n +2 | wc -l)
check "[ \$(grep -c ':' '$tmp/config') = $nparams ]" "--config: expected every parameter once"
check "grep -qE '^\\s+\"l1d.ways\":\\s+4,$' '$tmp/config'" "--config: l1d.ways missing"
check "grep -qE '^\\s+\"sim.skip_idle\":\\s+true,$' '$tmp/config'" "--config: a boolean"
same "$tmp/settings" <(block settings "$tmp/c.json") "--config: settings as without it"
expect 2 "^warptune sim: --config lists the configuration in the JSON output: it needs --json$" \
    -- "$WT" sim --config
# an alias shows for its implied parameter; against a preset that sets an alias, a setting that
# folds (dacache.variant back at its default) is listed, so the settings give the run again
printf '{"name": "s", "settings": {"l1d.policy": "dacache_stall"}}\n' >"$tmp/stall.json"
"$WT" sim --workload kmeans "${small[@]}" --set l1d.policy=dacache_uncon --json >"$tmp/a.json"
check "block settings '$tmp/a.json' | grep -q '\"l1d.policy\":.\"dacache_uncon\"'" \
    "settings: the alias"
check "! block settings '$tmp/a.json' | grep -q 'dacache.variant'" "settings: the implied parameter"
"$WT" sim --workload kmeans "${small[@]}" --preset "$tmp/stall.json" --set dacache.variant=full \
    --json >"$tmp/f.json"
block settings "$tmp/f.json" >"$tmp/fs"
check "grep -q '\"l1d.policy\":.\"dacache\"' '$tmp/fs' && grep -q '\"dacache.variant\":.\"full\"' '$tmp/fs'" \
    "settings against an alias preset: l1d.policy and dacache.variant"

# the same run twice gives the same bytes
"$WT" sim --workload bfs --wparam nodes=8192 --set gpu.sms=2 --json >"$tmp/a.json"
"$WT" sim --workload bfs --wparam nodes=8192 --set gpu.sms=2 --json >"$tmp/b.json"
if cmp -s "$tmp/a.json" "$tmp/b.json"; then ok; else bad "two runs differ"; fi

# sampled simulation: a projected result says so, with its detailed share, in the table and the
# JSON; without --sample (or with nothing projected) neither says anything
expect 0 '^fdtd2d: projected: [0-9]+ of its [0-9]+ warp instructions simulated in detail' -- \
    "$WT" sim --preset gtx480-cawa --workload fdtd2d --sample
expect 0 '"detailed_share":[[:space:]]*0\.[0-9]' -- \
    "$WT" sim --preset gtx480-cawa --workload fdtd2d --sample --json
"$WT" sim --preset gtx480-cawa --workload fdtd2d --json >"$tmp/full.json" 2>&1
check '! grep -q "sampled\|projected" "$tmp/full.json"' "an unsampled result says nothing of sampling"
"$WT" sim --preset gtx480-cawa --workload kmeans --sample >"$tmp/ks.txt" 2>&1
check '! grep -q "projected" "$tmp/ks.txt"' "a sampled run that projected nothing says nothing"

finish
