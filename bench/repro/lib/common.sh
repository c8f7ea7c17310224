# Shared helpers of the reproduction studies (sourced by each study's `run`).
# A study's run is called as: run WARPTUNE OUTDIR QUICK(0|1) THREADS
set -euo pipefail
REPRO_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WT=${1:?usage: run WARPTUNE OUTDIR QUICK THREADS}
OUT=${2:?}
QUICK=${3:-0}
THREADS=${4:-2}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# sim_jobs FILE: each line "NAME ARGS..." runs `warptune sim --json ARGS...` into $WORK/raw/NAME.json,
# THREADS at a time. A failed simulation is named on stderr and fails the study (returns 1) once
# every job has run: a claim is never computed from a missing run.
sim_jobs() {
    mkdir -p "$WORK/raw"
    : >"$WORK/failed"
    WT="$WT" RAW="$WORK/raw" FAILED="$WORK/failed" xargs -P "$THREADS" -d '\n' -n1 bash -c '
        read -ra a <<<"$1"; name=${a[0]}; args=("${a[@]:1}")
        if "$WT" sim --json "${args[@]}" >"$RAW/$name.tmp" 2>"$RAW/$name.err"; then mv "$RAW/$name.tmp" "$RAW/$name.json"
        else echo "simulation $name failed: $(tail -1 "$RAW/$name.err")" >&2; echo "$name" >>"$FAILED"; fi' _ <"$1"
    if [ -s "$WORK/failed" ]; then
        echo "sim_jobs: $(wc -l <"$WORK/failed") simulations failed: $(tr '\n' ' ' <"$WORK/failed")" >&2
        return 1
    fi
}

# metrics NAME m1 m2 ...: the metrics of $WORK/raw/NAME.json, comma-separated (nan if missing)
metrics() {
    local name=$1; shift
    local f="$WORK/raw/$name.json"
    if [ ! -f "$f" ]; then local IFS=,; local r=(); for m in "$@"; do r+=(nan); done; echo "${r[*]}"; return; fi
    awk -v want="$*" '
        BEGIN { n = split(want, w, " ") }
        /"metrics"/ { m = 1; next }
        m && /^[ \t]*}/ { m = 0 }
        m { line = $0; gsub(/[ \t",]/, "", line); split(line, kv, ":"); v[kv[1]] = kv[2] }
        END { for (i = 1; i <= n; i++) printf "%s%s", (w[i] in v ? v[w[i]] : "nan"), (i < n ? "," : "\n") }' "$f"
}

# explore SPACE OUTDIR [--set k=v]...: a study of warptune's explorer
explore() {
    local space=$1 dir=$2; shift 2
    "$WT" explore "$space" --threads "$THREADS" --out "$dir" --quiet "$@" >"$dir.log" 2>&1 || {
        echo "explore $space failed:" >&2; tail -5 "$dir.log" >&2; return 1; }
}

# csv_cols FILE col...: those columns (by header name) of a simple CSV, header included
csv_cols() {
    local f=$1; shift
    awk -F, -v want="$*" '
        NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) idx[$i] = i
                  for (i = 1; i <= n; i++) if (!(w[i] in idx)) { print "csv_cols: no column " w[i] > "/dev/stderr"; exit 2 } }
        { for (i = 1; i <= n; i++) printf "%s%s", $(idx[w[i]]), (i < n ? "," : "\n") }' "$f"
}

# claim ID CLAIM PAPER WARPTUNE VERDICT WHY: one row of the study's claims.csv (fields without
# commas). WHY is the measured reason, from the study's own numbers, that explains the outcome; the
# report shows it for every claim that does not hold, and run-all refuses a miss without one.
claim() {
    [ -f "$OUT/claims.csv" ] || echo "id,claim,paper,warptune,verdict,why" >"$OUT/claims.csv"
    printf '%s,%s,%s,%s,%s,%s\n' "$1" "${2//,/;}" "${3//,/;}" "${4//,/;}" "$5" "${6//,/;}" >>"$OUT/claims.csv"
}
reset_claims() { rm -f "$OUT/claims.csv"; }

# cell FILE ROW COLUMN: the value in the row whose first field is ROW, under the header COLUMN,
# of the study's CSV $OUT/FILE
cell() { awk -F, -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } $1 == r { print $k }' "$OUT/$1"; }
# pct RATIO [DECIMALS]: a ratio as a signed percentage change (1.25 -> +25.0%)
pct() { awk -v x="$1" -v d="${2:-1}" 'BEGIN { printf "%+." d "f%%", (x - 1) * 100 }'; }

# holds COND: "holds" if the awk condition is true, else "does not hold"
holds() { awk "BEGIN { exit !($1) }" && echo holds || echo "does not hold"; }

# svg_bars CSV SVG TITLE YLABEL [REFLINE]: grouped bars, first column the groups, the others the series
svg_bars() { awk -F, -v title="$3" -v ylabel="$4" -v ref="${5:-}" -f "$REPRO_LIB/svg_bars.awk" "$1" >"$2"; }
# svg_lines CSV SVG TITLE XLABEL YLABEL: one line per series column over the first column (numeric x)
svg_lines() { awk -F, -v title="$3" -v xlabel="$4" -v ylabel="$5" -f "$REPRO_LIB/svg_lines.awk" "$1" >"$2"; }
