#!/usr/bin/env bash
# Smoke test of the reproduction studies: `bench/repro/run-all --quick` into a temporary folder
# (few workloads, small inputs: the scripts, not the numbers), then each study's outputs and its
# section of the generated document. Run from the repository root: bash tests/cli/repro.sh WARPTUNE
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"

bash bench/repro/run-all --quick --threads 2 --warptune "$WT" --out "$tmp/out" >"$tmp/log" 2>&1
rc=$?
check '[ $rc = 0 ]' "run-all --quick exited $rc: $(tail -5 "$tmp/log")"
doc=$tmp/out/reproduction.md
check '[ -s "$doc" ]' "no reproduction.md"
if [ "$rc" != 0 ] || [ ! -s "$doc" ]; then echo "$passed passed, $failed failed"; exit 1; fi
check 'grep -q "Quick mode" "$doc"' "the quick document does not say it is quick"
# the committed reference results and docs/reproduction.md are untouched by --quick
check '! grep -q "$tmp" docs/reproduction.md 2>/dev/null' "docs/reproduction.md points into the temporary folder"

# study: its CSVs and SVGs
expect_files() {
    local s=$1; shift
    for f in "$@"; do check '[ -s "$tmp/out/$s/$f" ]' "$s: missing $f"; done
}
expect_files ccws diagnostics.csv schedulers.csv ipc_norm.csv mpki.csv kthrottle.csv vta.csv swl_sweep.csv fig7-10-ipc.svg fig8-10-mpki.svg fig13-vta.svg fig16-kthrottle-ipc.svg fig17-swl.svg
expect_files dyncta n_over_time.csv fig8-n-over-time.svg static.csv compare.csv tlp.csv fig1-tlp.svg fig9-n.svg fig10-ipc.svg
expect_files cawa configs.csv ipc_norm.csv mpki.csv cacp_ipc_norm.csv disparity_max.csv cpl_accuracy.csv critical_ways.csv fig9-13-ipc.svg fig1-disparity.svg
expect_files dacache diagnostics.csv policies.csv ipc_norm.csv mpki_norm.csv partitions_mean.csv promotion_wide.csv fig8-ipc.svg fig13-promotion.svg
expect_files caws schedulers.csv speedup.csv inversions.csv latency_rr.csv speedup.svg inversions.svg

for s in ccws dyncta cawa dacache caws; do
    d=$tmp/out/$s
    check '[ -s "$d/claims.csv" ] && [ "$(head -1 "$d/claims.csv")" = "id,claim,paper,warptune,verdict,why" ]' "$s: claims.csv missing or malformed"
    # every claim has a verdict, and every verdict is one of the two
    check '[ "$(awk -F, "NR > 1" "$d/claims.csv" | wc -l)" -ge 3 ]' "$s: fewer than 3 claims"
    check '! awk -F, "NR > 1 && \$5 != \"holds\" && \$5 != \"does not hold\"" "$d/claims.csv" | grep -q .' "$s: a claim without a plain verdict: $(awk -F, 'NR > 1 && $5 != "holds" && $5 != "does not hold"' "$d/claims.csv")"
    # every claim that does not hold carries its measured reason, and the document shows it
    check '! awk -F, "NR > 1 && \$5 != \"holds\" && \$6 == \"\"" "$d/claims.csv" | grep -q .' "$s: a miss without a measured reason: $(awk -F, 'NR > 1 && $5 != "holds" && $6 == ""' "$d/claims.csv" | head -2)"
    check '! grep -q "(no measured reason)" "$doc"' "$s: the document shows a miss without its reason"
    # no claim computed from missing numbers
    check '! grep -qiE ",(nan|inf|)(,|$)|-nan" <(cut -d, -f4 "$d/claims.csv" | tail -n +2)' "$s: a claim with a missing number: $(grep -iE 'nan|inf' "$d/claims.csv" | head -2)"
    check 'grep -q "\"study\": \"$s\"" "$d/summary.json" && grep -q "\"quick\": true" "$d/summary.json"' "$s: summary.json"
    for svg in "$d"/*.svg; do check 'head -c 5 "$svg" | grep -q "<svg" && tail -1 "$svg" | grep -q "</svg>"' "$s: malformed $(basename "$svg")"; done
    check 'grep -q "<a id=\"$s\"></a>" "$doc"' "$s: no section in the document"
    check 'grep -q "claims hold\." <(sed -n "/<a id=\"$s\"><\/a>/,/<a id=/p" "$doc")' "$s: its section has no claims summary"
    check 'grep -q "^| \[$s\](#$s) | [0-9]* of [0-9]* |" "$doc"' "$s: not in the summary table"
done
# the run stays deterministic: a second quick run of one study gives the same CSVs
bash bench/repro/run-all --quick --threads 2 --warptune "$WT" --out "$tmp/again" caws >/dev/null 2>&1
check 'cmp -s "$tmp/out/caws/speedup.csv" "$tmp/again/caws/speedup.csv"' "caws: a second quick run differs"

finish
