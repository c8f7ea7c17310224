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
expect 2 'usage: warptune export-trace' -- "$WT" export-trace --workload kmeans
expect 2 "cannot open" -- "$WT" sim --trace "$tmp/none/kernelslist.g"
printf 'kernel-1.traceg\nbogus line\n' >"$tmp/km/kernelslist.g"
expect 2 "kernelslist.g:2: unknown command 'bogus'" -- "$WT" sim --trace "$tmp/km/kernelslist.g"

finish
