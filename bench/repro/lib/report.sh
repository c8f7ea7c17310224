# Helpers of the studies' `report` scripts (sourced): report OUTDIR RELDIR prints a markdown section.
set -euo pipefail
REPRO_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: report OUTDIR RELDIR}
REL=${2:?}
# md_csv FILE: a CSV of the study as a markdown table
md_csv() { awk -f "$REPRO_LIB/md_table.awk" "$OUT/$1"; echo; echo "Data: [\`$1\`]($REL/$1)"; echo; }
# fig FILE CAPTION
fig() { echo "![$2]($REL/$1)"; echo; }
# claims_table: the study's claims, with a verdict per claim
claims_table() {
    echo "| # | claim (paper) | paper | warptune | verdict |"
    echo "|---|---|---|---|---|"
    awk -F, 'NR > 1 { v = ($5 == "holds" ? "**holds**" : "**does not hold**"); printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, v }' "$OUT/claims.csv"
    echo
    awk -F, 'NR > 1 { n++; if ($5 == "holds") h++ } END { printf "%d of %d claims hold.\n\n", h, n }' "$OUT/claims.csv"
    if awk -F, 'NR > 1 && $5 != "holds" { f = 1 } END { exit !f }' "$OUT/claims.csv"; then
        echo "Why the others do not, measured:"
        echo
        awk -F, 'NR > 1 && $5 != "holds" { printf "- **%s**: %s\n", $1, ($6 != "" ? $6 : "(no measured reason)") }' "$OUT/claims.csv"
        echo
    fi
}
