#!/usr/bin/env bash
# End-to-end tests of `warptune front`: the non-dominated rows of a CSV, the hypervolume line,
# --out, and the messages and exit status of bad input.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"

cat >"$tmp/p.csv" <<'EOF'
name,ipc,mpki,energy_j,note
a,1.0,10,5,"x, y"
b,2.0,20,5,plain
c,2.0,20,5,dup
d,0.5,30,6,dominated
e,1.5,5,7,"multi
line"
f,nan,1,1,failed
EOF

# default objectives: ipc max, mpki min, energy_j min
"$WT" front "$tmp/p.csv" >"$tmp/out.csv" 2>"$tmp/err.txt"
if [ $? = 0 ]; then ok; else bad "default objectives: exit status"; fi
printf 'name,ipc,mpki,energy_j,note\na,1.0,10,5,"x, y"\nb,2.0,20,5,plain\nc,2.0,20,5,dup\ne,1.5,5,7,"multi\nline"\n' >"$tmp/want.csv"
if cmp -s "$tmp/out.csv" "$tmp/want.csv"; then ok; else bad "default front: $(cat "$tmp/out.csv")"; fi
# 3D volume by hand: 20 + 30 - 10 (e lies on the energy reference and adds nothing)
if grep -q '^hypervolume 40 against the reference point (ipc=0.5, mpki=30, energy_j=7)' "$tmp/err.txt"; then ok; else bad "3D hypervolume: $(cat "$tmp/err.txt")"; fi
if grep -q 'worst value of each objective' "$tmp/err.txt"; then ok; else bad "reference point not explained"; fi

# two objectives, to a file
expect 0 '^hypervolume 30 ' -- "$WT" front "$tmp/p.csv" --objective ipc:max --objective mpki:min --out "$tmp/f.csv"
if [ "$(cut -c1 "$tmp/f.csv" | tr -d '\n')" = "nbcel" ]; then ok; else bad "--out rows: $(cat "$tmp/f.csv")"; fi
# --out through a symbolic link writes the file the link names and keeps the link
echo old >"$tmp/target.csv"
ln -s target.csv "$tmp/link.csv"
expect 0 '^hypervolume 30 ' -- "$WT" front "$tmp/p.csv" --objective ipc:max --objective mpki:min --out "$tmp/link.csv"
check '[ -L "$tmp/link.csv" ] && cmp -s "$tmp/f.csv" "$tmp/target.csv"' "--out through a link"
if ! ls "$tmp" | grep -q '\.tmp'; then ok; else bad "temporary file left behind"; fi
expect 0 '^hypervolume 29 against the reference point \(mpki=1\)' -- "$WT" front "$tmp/p.csv" --objective mpki:max

# a UTF-8 byte order mark before the header does not rename its first column
printf '\357\273\277ipc,mpki\n1,2\n2,3\n' >"$tmp/bom.csv"
expect 0 '^1 of 2 rows on the front' -- "$WT" front "$tmp/bom.csv" --objective ipc:max --objective mpki:max
expect 0 'reference point \(ipc=1, mpki=3\)' -- "$WT" front "$tmp/bom.csv"

# errors: exit 2, file and line named
expect 2 'nope.csv: cannot open' -- "$WT" front "$tmp/nope.csv"
printf 'a,b\n1,2\n3,"x"y\n' >"$tmp/quote.csv"
expect 2 'quote.csv:3: bad CSV' -- "$WT" front "$tmp/quote.csv" --objective a:min
printf 'a,b\n1,2\n3\n' >"$tmp/rag.csv"
expect 2 'rag.csv:3: bad CSV: 1 fields where the header has 2' -- "$WT" front "$tmp/rag.csv" --objective a:min
printf 'a,b\n1,2\n3,"open\n4,5\n' >"$tmp/open.csv"
expect 2 'open.csv:3: bad CSV: a quoted field is never closed' -- "$WT" front "$tmp/open.csv" --objective a:min
expect 2 "unknown column 'foo'; the columns are: name ipc mpki energy_j note" -- "$WT" front "$tmp/p.csv" --objective foo:min
expect 2 'expected COLUMN:min or COLUMN:max' -- "$WT" front "$tmp/p.csv" --objective ipc
expect 2 'expected COLUMN:min or COLUMN:max' -- "$WT" front "$tmp/p.csv" --objective ipc:up
# a column is one objective: given twice, in either direction, it is refused before the file is read
expect 2 '^warptune front: --objective ipc:min: column ipc is already an objective \(--objective ipc:max; expected each column once\)$' \
    -- "$WT" front "$tmp/p.csv" --objective ipc:max --objective ipc:min
expect 2 'column mpki is already an objective' -- "$WT" front "$tmp/nope.csv" --objective mpki:min --objective ipc:max --objective mpki:min
printf 'a,b\n1,2\n\n3,zz\n' >"$tmp/num.csv"
expect 2 "num.csv:4: column 2 \(b\): 'zz' is not a number" -- "$WT" front "$tmp/num.csv" --objective a:min --objective b:max
printf 'x,y\n1,2\n' >"$tmp/nodef.csv"
expect 2 'none of the default objectives' -- "$WT" front "$tmp/nodef.csv"
: >"$tmp/empty.csv"
expect 2 'empty.csv:1: empty file' -- "$WT" front "$tmp/empty.csv"
# a NUL byte would end its cell silently ('2<NUL>9' read as 2)
printf 'a,b\n1,2\n3,2\0009\n' >"$tmp/nul.csv"
expect 2 'nul.csv:3: NUL byte \(expected CSV text\)' -- "$WT" front "$tmp/nul.csv" --objective b:min
# a line that never ends stops at the line limit instead of filling memory
head -c 17000000 /dev/zero | tr '\0' 1 >"$tmp/longline.csv"
expect 2 'longline.csv:1: line longer than 16777216 bytes' -- "$WT" front "$tmp/longline.csv"
rm -f "$tmp/longline.csv"
# a device or a FIFO is refused before it is read (a FIFO would wait for a writer at its open)
expect 2 '^/dev/zero: cannot open: not a regular file$' -- "$WT" front /dev/zero
mkfifo "$tmp/fifo.csv"
expect 2 'fifo.csv: cannot open: not a regular file$' -- timeout 10 "$WT" front "$tmp/fifo.csv"
expect 2 'usage: warptune front' -- "$WT" front
expect 2 '^warptune front: --out: expected a file name' -- "$WT" front "$tmp/p.csv" --out ""
expect 2 "unknown or incomplete option '--bogus'" -- "$WT" front "$tmp/p.csv" --bogus

finish
