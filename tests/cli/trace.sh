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
expect 2 'usage: warptune export-trace' -- "$WT" export-trace --workload kmeans
expect 2 "cannot open" -- "$WT" sim --trace "$tmp/none/kernelslist.g"
printf 'kernel-1.traceg\nbogus line\n' >"$tmp/km/kernelslist.g"
expect 2 "kernelslist.g:2: unknown command 'bogus'" -- "$WT" sim --trace "$tmp/km/kernelslist.g"

finish
