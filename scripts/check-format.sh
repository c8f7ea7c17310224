#!/usr/bin/env bash
# check-format.sh: every tracked .c and .h file is formatted as .clang-format says.
#
#   scripts/check-format.sh         list the files clang-format would change; exit 1 if any
#   scripts/check-format.sh --fix   format every tracked .c and .h file in place
#
# CLANG_FORMAT names the program (default: clang-format). CI runs Debian 12's, clang-format 14;
# another version may lay out a few constructs differently.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null; then
    echo "check-format: $cf not found (Debian: apt-get install clang-format, as" \
        "scripts/setup-debian.sh does)" >&2
    exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = "--fix" ]; then
    "$cf" -i -- "${files[@]}"
    exit 0
fi
if ! "$cf" --dry-run --Werror -- "${files[@]}" >/dev/null 2>&1; then
    bad=() # which files, one at a time
    for f in "${files[@]}"; do
        "$cf" --dry-run --Werror -- "$f" >/dev/null 2>&1 || bad+=("$f")
    done
    if [ ${#bad[@]} -eq 0 ]; then # it failed on them together only: show why
        "$cf" --dry-run --Werror -- "${files[@]}" >/dev/null
        exit 1
    fi
    {
        echo "check-format: not formatted as .clang-format says ($("$cf" --version)):"
        printf '  %s\n' "${bad[@]}"
        echo "fix with: scripts/check-format.sh --fix   (or: $cf -i FILE...)"
    } >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"
