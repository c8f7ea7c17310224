#!/usr/bin/env bash
# check-install.sh: install a build into a temporary DESTDIR and check the installed tree.
#
#   scripts/check-install.sh BUILD [BINDIR MANDIR DATADIR DOCDIR]
#
# The directories are CMake's CMAKE_INSTALL_* (ctest passes the build's; the defaults are the
# GNU ones), and CMAKE names cmake. Checks that the binary runs, that the manual page is the one
# `warptune man` prints and renders (man, else groff or nroff, else a check of its structure),
# and that every bundled space, preset and document is installed unchanged.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 BUILD [BINDIR MANDIR DATADIR DOCDIR]" >&2
    exit 2
fi
build=$(realpath "$1")
cd "$(dirname "$0")/.."
prefix=/opt/warptune
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest=$work/root # DESTDIR

bad=0
fail() {
    local msg="$*"
    echo "check-install: ${msg//"$dest"/}" >&2 # paths as installed, without DESTDIR
    bad=1
}
# an installation directory under DESTDIR: relative ones are under the prefix
under() {
    case $1 in
    /*) echo "$dest$1" ;;
    *) echo "$dest$prefix/$1" ;;
    esac
}
bindir=$(under "${2:-bin}")
mandir=$(under "${3:-share/man}")
datadir=$(under "${4:-share}")
docdir=$(under "${5:-share/doc/warptune}")

DESTDIR=$dest "${CMAKE:-cmake}" --install "$build" --prefix "$prefix" >/dev/null

# the binary
wt=$bindir/warptune
if [ ! -x "$wt" ]; then
    fail "$wt: not installed"
    exit 1
fi
"$wt" version | grep -q '^warptune [0-9]' || fail "$wt version: no version"

# the manual page: the binary's own, with every command of the usage
page=$mandir/man1/warptune.1
if [ ! -s "$page" ]; then
    fail "$page: not installed"
    exit 1
fi
"$wt" man | cmp -s - "$page" || fail "$page: differs from \`warptune man\` (stale?)"
mapfile -t commands < <("$wt" help | sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p')
[ ${#commands[@]} -ge 10 ] || fail "warptune help: expected the list of commands"
head -n 5 "$page" | grep -q '^\.TH WARPTUNE 1 ' || fail "$page: no .TH WARPTUNE 1"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS"; do
    grep -q "^\.SH $section\$" "$page" || fail "$page: no .SH $section"
done
for c in "${commands[@]}"; do
    grep -qxF ".SS ${c//-/\\-}" "$page" || fail "$page: command '$c' not documented"
done

# rendering it: no warning from the formatter, and every section and command in the text
render=() # the formatter and its options
if command -v man >/dev/null; then
    render=(man --warnings=w -P cat -l)
elif command -v groff >/dev/null; then
    render=(groff -man -Tascii -ww)
elif command -v nroff >/dev/null; then
    render=(nroff -man -ww)
fi
if [ ${#render[@]} -gt 0 ]; then
    text=$(LC_ALL=C MANWIDTH=80 "${render[@]}" "$page" 2>"$work/warnings") ||
        fail "$page: ${render[0]} fails"
    if [ -s "$work/warnings" ]; then
        fail "$page: ${render[0]} warns:"
        cat "$work/warnings" >&2
    fi
    text=$(printf '%s\n' "$text" | sed 's/.\x08//g') # no overstriking
    for word in NAME SYNOPSIS COMMANDS "EXIT STATUS" "${commands[@]}"; do
        grep -qF -- "$word" <<<"$text" || fail "$page: '$word' missing from the ${render[0]} output"
    done
else
    echo "check-install: no man, groff or nroff: only the structure of the manual page checked"
fi

# the bundled spaces and presets, and the documentation
for f in spaces/*.json spaces/presets/*.json; do
    cmp -s "$f" "$datadir/warptune/$f" || fail "$datadir/warptune/$f: missing or different"
done
for f in README.md docs/*.md; do
    cmp -s "$f" "$docdir/$(basename "$f")" || fail "$docdir/$(basename "$f"): missing or different"
done

if [ $bad -ne 0 ]; then
    exit 1
fi
rendered=${render[0]:+, the manual page renders (${render[0]})}
echo "check-install: $(find "$dest" -type f | wc -l) files installed$rendered"
