#!/usr/bin/env bash
# End-to-end tests of `warptune export-trace` and `warptune sim --trace` (docs/traces.md).
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"

small=(--set gpu.sms=2 --wparam npoints=512)
expect 0 'kernelslist.g: 1 kernels, 2 thread blocks' -- "$WT" export-trace --workload kmeans \
    --out "$tmp/km" "${small[@]}"
if [ -f "$tmp/km/kernelslist.g" ] && grep -q '^kernel-1.traceg$' "$tmp/km/kernelslist.g" &&
    grep -q '^-binary version = 70$' "$tmp/km/kernel-1.traceg"; then ok; else bad "export files"; fi
# the trace runs like the workload: the same cycles and L1D hits
direct=$("$WT" sim --workload kmeans "${small[@]}" | grep -E '^(cycles|l1d_hits) ')
traced=$("$WT" sim --trace "$tmp/km/kernelslist.g" --set gpu.sms=2 | grep -E '^(cycles|l1d_hits) ')
if [ -n "$direct" ] && [ "$direct" = "$traced" ]; then ok; else bad "direct '$direct' trace '$traced'"; fi
expect 0 '^ipc ' -- "$WT" sim --trace "$tmp/km/kernelslist.g" --preset qv100-accelsim

# a failed export leaves no partial file, and an earlier export in the folder intact: the
# second kernel stores out of bounds when sh=20
cat >"$tmp/two.wl" <<'EOF'
.param sh 2
.array a i32 [64] zero
.kernel one block=32
        mov     r0, %gtid
        shl     r1, r0, 2
        st.i32  [a + r1], 1
        exit
.kernel two block=32
        mov     r0, %gtid
        shl     r1, r0, sh
        st.i32  [a + r1], 2
        exit
.host
        launch one grid=2
        launch two grid=2
EOF
expect 1 'outside every array' -- "$WT" export-trace --workload "$tmp/two.wl" --wparam sh=20 \
    --out "$tmp/fresh"
check '[ -z "$(ls -A "$tmp/fresh")" ]' "failed export left files: $(ls "$tmp/fresh" | tr '\n' ' ')"
expect 0 '2 kernels' -- "$WT" export-trace --workload "$tmp/two.wl" --out "$tmp/two"
cp -r "$tmp/two" "$tmp/two.before"
expect 1 'outside every array' -- "$WT" export-trace --workload "$tmp/two.wl" --wparam sh=20 \
    --out "$tmp/two"
check 'diff -r "$tmp/two.before" "$tmp/two" >/dev/null' "a failed export changed an earlier one"
# another export's temporaries in the same folder are not this one's
printf 'another run\n' >"$tmp/two/kernel-1.traceg.tmp"
printf 'another run\n' >"$tmp/two/kernelslist.g.tmp"
expect 0 '2 kernels' -- "$WT" export-trace --workload "$tmp/two.wl" --out "$tmp/two"
check 'grep -q "^another run$" "$tmp/two/kernel-1.traceg.tmp" &&
    grep -q "^another run$" "$tmp/two/kernelslist.g.tmp"' "an export wrote into another's temporaries"
expect 2 'usage: warptune export-trace' -- "$WT" export-trace --workload kmeans
expect 2 "cannot open" -- "$WT" sim --trace "$tmp/none/kernelslist.g"
# a trace run stopped by the cycle cap is a failed simulation, not bad input
expect 1 'simulation failed' -- "$WT" sim --trace "$tmp/km/kernelslist.g" --set gpu.sms=2 \
    --set sim.max_cycles=1000
printf 'kernel-1.traceg\nbogus line\n' >"$tmp/km/kernelslist.g"
expect 2 "kernelslist.g:2: unknown command 'bogus'" -- "$WT" sim --trace "$tmp/km/kernelslist.g"

# a malformed kernel file is bad input (exit 2) for sim and explore, naming file and line
expect 0 'kernelslist.g' -- "$WT" export-trace --workload stream --wparam n=1024 --set gpu.sms=1 \
    --out "$tmp/st"
broken() { # broken NAME SED-SCRIPT: a copy of the stream trace with kernel-1.traceg edited
    cp -r "$tmp/st" "$tmp/$1"
    sed -i "$2" "$tmp/$1/kernel-1.traceg"
}
broken g0 's/^-grid dim = .*/-grid dim = (0,1,1)/'
expect 2 'g0/kernel-1.traceg:3: -grid dim: expected' -- "$WT" sim --trace "$tmp/g0/kernelslist.g"
broken bv 's/^-binary version = .*/-binary version = x/'
expect 2 'bv/kernel-1.traceg:7: -binary version' -- "$WT" sim --trace "$tmp/bv/kernelslist.g"
broken nh '/^-block dim/d'
expect 2 'nh/kernel-1.traceg:[0-9]+: the kernel header has no -block dim' -- \
    "$WT" sim --trace "$tmp/nh/kernelslist.g"
broken op '0,/LDG.E.SYS/s/LDG.E.SYS/FROB.E/'
expect 2 "op/kernel-1.traceg:[0-9]+: unknown opcode 'FROB.E'" -- \
    "$WT" sim --trace "$tmp/op/kernelslist.g" --set gpu.sms=1
printf '{"workloads": ["%s"], "parameters": {"l1d.ways": [4]}}\n' "$tmp/op/kernelslist.g" \
    >"$tmp/op.json"
expect 2 "unknown opcode 'FROB.E'" -- "$WT" explore "$tmp/op.json" --out "$tmp/op-out"

# a kernel whose CTA no SM can hold is bad input (exit 2), named with its file and the limit
mkdir -p "$tmp/bigshared"
printf -- '-kernel name = big\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 65536\n-binary version = 70\n-accelsim tracer version = 5\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 0\n#END_TB\n' \
    >"$tmp/bigshared/kernel-1.traceg"
echo kernel-1.traceg >"$tmp/bigshared/kernelslist.g"
expect 2 "kernel big \($tmp/bigshared/kernel-1.traceg\): a CTA needs 65536 bytes of shared memory, more than an SM's 49152 \(sm.shared_bytes\)$" \
    -- "$WT" sim --trace "$tmp/bigshared/kernelslist.g"
expect 0 '^ipc ' -- "$WT" sim --trace "$tmp/bigshared/kernelslist.g" --set sm.shared_bytes=65536

finish
