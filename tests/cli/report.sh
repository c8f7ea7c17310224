#!/usr/bin/env bash
# End-to-end tests of report.html: explore writes it and names it in summary.json, `warptune
# report` writes the same bytes again, the page loads nothing from outside and escapes what the
# study names, and, when chromium is installed, it renders without errors and a selected point
# shows its configuration.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
small="$(dirname "$0")/lib/small.json"
study=(--set search.strategy=random --set search.evaluations=12 --quiet)

expect 0 '' -- "$WT" explore "$small" --out "$tmp/s" "${study[@]}"
check "[ -s '$tmp/s/report.html' ]" "explore wrote no report.html"
check "grep -q '\"report.html\"' '$tmp/s/summary.json'" "summary.json does not name report.html"

# self-contained: nothing fetched, no script, style or font from elsewhere
html="$tmp/s/report.html"
check "! grep -qiE 'https?://' '$html'" "a URL in the page: $(grep -oiE 'https?://[^ ]*' "$html" | head -3)"
check "! grep -qiE '(src|href)=|<link|@import|url\(' '$html'" \
    "the page refers to another file: $(grep -oiE '(src|href)=[^ ]*|<link[^>]*|@import|url\(' "$html" | head -3)"
check "[ \$(grep -c '<script' '$html') = 2 ]" "expected two inline scripts (data and code)"
# the page shows fermi-gtx480's cycles error as docs/validation.md states it
mape=$(awk -F'|' '/^\| cycles, mean absolute % error/ { gsub(/ /, "", $5); print $5 }' docs/validation.md)
check "[ -n '$mape' ] && grep -q 'cycles MAPE $mape against' '$html'" \
    "fermi-gtx480's validation error ($mape in docs/validation.md) is not shown"
check "grep -q '<code>search.evaluations=12</code>' '$html'" "the --set list is not shown"

# report writes the page again, byte for byte, from the folder's files
cp "$html" "$tmp/first.html"
rm "$html"
expect 0 '' -- "$WT" report "$tmp/s"
same "$tmp/first.html" "$html" "report after explore"

# bad input: exit 2 with the reason; a page that cannot be written: exit 1, no temporary left
expect 2 'usage: warptune report' -- "$WT" report
expect 2 'unexpected argument' -- "$WT" report "$tmp/s" "$tmp/s"
expect 2 'unknown or incomplete option' -- "$WT" report --bogus
expect 2 "$tmp/none/summary.json: no such file" -- "$WT" report "$tmp/none"
mkdir "$tmp/empty"
expect 2 'summary.json: no such file' -- "$WT" report "$tmp/empty"
cp -r "$tmp/s" "$tmp/mixed"
sed -i '$d' "$tmp/mixed/points.csv"
expect 2 'points.csv: does not match the size and hash summary.json names' -- "$WT" report "$tmp/mixed"
cp -r "$tmp/s" "$tmp/nostudy"
rm "$tmp/nostudy/study.json"
expect 2 'study.json: cannot open' -- "$WT" report "$tmp/nostudy"
cp -r "$tmp/s" "$tmp/badsens"
printf 'objective,parameter\nipc,l1d.ways\n' >"$tmp/badsens/sensitivity.csv"
expect 2 'sensitivity.csv: no column method' -- "$WT" report "$tmp/badsens"
# explore leaves such a file out of the page rather than fail the study
expect 0 '' -- "$WT" explore "$small" --out "$tmp/badsens" "${study[@]}"
check "[ -s '$tmp/badsens/report.html' ] && ! grep -q 'id=\"sens\"' '$tmp/badsens/report.html'" \
    "explore with an ill-formed sensitivity.csv"
cp -r "$tmp/s" "$tmp/unwritable"
rm "$tmp/unwritable/report.html"
mkdir -p "$tmp/unwritable/report.html/x"
expect 1 'report.html' -- "$WT" report "$tmp/unwritable"
check "! ls '$tmp/unwritable' | grep -q '\.tmp\.'" "a temporary was left: $(ls "$tmp/unwritable")"

# sensitivity.csv, when the folder has one, is shown; without it there is no such section
check "! grep -q 'id=\"sens\"' '$html'" "a sensitivity section without sensitivity.csv"
cp -r "$tmp/s" "$tmp/sens"
cat >"$tmp/sens/sensitivity.csv" <<'CSV'
objective,parameter,method,index,value,ci_low,ci_high,evaluations
ipc,l1d.ways,sobol,S1,0.42,0.3,0.55,64
ipc,sm.max_ctas,sobol,S1,0.2,0.1,0.31,64
mpki,l1d.ways,sobol,S1,0.7,0.61,0.8,64
CSV
expect 0 '' -- "$WT" report "$tmp/sens"
check "grep -q 'id=\"sens\"' '$tmp/sens/report.html'" "sensitivity.csv is not shown"

# what the study names is text, never markup: its name and description (in the page's HTML)
# and a parameter of sensitivity.csv (in its JSON data)
sed -e 's|"name": "small"|"name": "<script>document.title=\\"pwned\\"<b>x\&amp;y'"'"'", "description": "</script><script>document.title=\\"pwned\\"</script>"|' \
    "$small" >"$tmp/hostile.json"
expect 0 '' -- "$WT" explore "$tmp/hostile.json" --out "$tmp/h" "${study[@]}"
cat >"$tmp/h/sensitivity.csv" <<'CSV'
objective,parameter,method,index,value,ci_low,ci_high,evaluations
ipc,"</script><script>document.title=""pwned""</script>",sobol,S1,0.5,0.4,0.6,8
CSV
expect 0 '' -- "$WT" report "$tmp/h"
hh="$tmp/h/report.html"
check "! grep -qiE '<script>document|<b>x' '$hh'" "what the study names went into the page as markup"
check "grep -q '<h1 id=\"study\">&lt;script&gt;document.title=&quot;pwned&quot;&lt;b&gt;x&amp;amp;y&#39;</h1>' '$hh'" \
    "the study's name is not in the page, escaped: $(grep -o '<h1.*</h1>' "$hh")"
check "grep -qF '\\u003c/script\\u003e\\u003cscript\\u003edocument' '$hh'" \
    "sensitivity.csv's parameter is not escaped in the data: $(grep -o '.\{20\}script.\{0,20\}document' "$hh" | head -3)"
check "[ \$(grep -c '<script' '$hh') = 2 ] && [ \$(grep -c '</script' '$hh') = 2 ]" \
    "what the study names opened or closed a script"

# the page in a browser: no error, and ?select=N shows point N's configuration as a click would
if ! command -v chromium >/dev/null; then
    echo "chromium not installed: the page is not rendered"
    finish
    exit
fi
render() { # render URL OUT: the page's DOM after its script ran, the browser's log in OUT.log
    timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium" \
        --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$1" >"$2" 2>"$2.log"
}
console_errors() { # the page's console messages that are errors, from a log of render
    grep 'CONSOLE' "$1" | grep -iE 'error|uncaught|warn' || true
}
point=$(sed -n 2p "$tmp/s/pareto.csv" | cut -d, -f1)
row=$(grep "^$point," "$tmp/s/points.csv")
ways=$(cut -d, -f5 <<<"$row") policy=$(cut -d, -f4 <<<"$row")
render "file://$html?select=$point" "$tmp/dom.html"
check "grep -q 'data-ready=\"1\"' '$tmp/dom.html'" "the page's script did not finish: $(grep -o 'data-error="[^"]*"' "$tmp/dom.html")"
check "[ -z \"\$(console_errors '$tmp/dom.html.log')\" ]" "console errors: $(console_errors "$tmp/dom.html.log")"
check "grep -q '<h3 id=\"sel-title\">point $point (pinned)</h3>' '$tmp/dom.html'" \
    "?select=$point does not select point $point: $(grep -o '<aside id="sel">.\{0,200\}' "$tmp/dom.html")"
check "grep -q '<td>sched.policy</td><td>$policy</td>' '$tmp/dom.html' && grep -q '<td>l1d.ways</td><td>$ways</td>' '$tmp/dom.html'" \
    "point $point's configuration ($policy, $ways ways) is not shown: $(grep -o '<table class="cfg".\{0,300\}' "$tmp/dom.html")"
check "grep -q 'id=\"wl-table\"' '$tmp/dom.html' && grep -q '<td>kmeans</td><td>cycles</td>' '$tmp/dom.html'" \
    "point $point's metrics per workload are not shown"
check "[ \$(grep -o 'class=\"pt front\"' '$tmp/dom.html' | wc -l) -ge 1 ]" "no front point drawn"
# a click on the point's mark, and a hover, through the page's own listeners
render "file://$html?click=$point" "$tmp/click.html"
check "grep -q '<h3 id=\"sel-title\">point $point (pinned)</h3>' '$tmp/click.html' && grep -q '<td>l1d.ways</td><td>$ways</td>' '$tmp/click.html'" \
    "a click on point $point does not show its configuration: $(grep -o '<aside id="sel">.\{0,200\}' "$tmp/click.html")"
render "file://$html?hover=$point" "$tmp/hover.html"
check "grep -q '<h3 id=\"sel-title\">point $point</h3>' '$tmp/hover.html' && grep -q '<td>sched.policy</td><td>$policy</td>' '$tmp/hover.html'" \
    "hovering point $point does not show its configuration: $(grep -o '<aside id="sel">.\{0,200\}' "$tmp/hover.html")"
check "[ -z \"\$(console_errors '$tmp/click.html.log')\$(console_errors '$tmp/hover.html.log')\" ]" "console errors on click or hover"
# without a selection, a hint; the hostile name stays text; the sensitivity bars are drawn
render "file://$html" "$tmp/plain.html"
check "grep -q '<p class=\"hint\">Hover over a point' '$tmp/plain.html' && ! grep -q '<h3 id=\"sel-title' '$tmp/plain.html'" "no hint without a selection"
render "file://$hh" "$tmp/hostile.html"
check "grep -q 'data-ready=\"1\"' '$tmp/hostile.html' && ! grep -q '<title>pwned' '$tmp/hostile.html'" \
    "the hostile study's page: $(grep -o '<title>[^<]*' "$tmp/hostile.html")"
check "[ -z \"\$(console_errors '$tmp/hostile.html.log')\" ]" "console errors: $(console_errors "$tmp/hostile.html.log")"
render "file://$tmp/sens/report.html" "$tmp/sens.html"
check "[ \$(grep -o 'class=\"bar\"' '$tmp/sens.html' | wc -l) = 3 ]" "expected three sensitivity bars"
check "[ -z \"\$(console_errors '$tmp/sens.html.log')\" ]" "console errors: $(console_errors "$tmp/sens.html.log")"
finish
