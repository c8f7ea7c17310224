#!/usr/bin/env bash
# Checks the formatting of the C sources, builds warptune with AddressSanitizer and
# UndefinedBehaviorSanitizer and -Werror, and runs every test. This is the command CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/check-format.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DWT_SANITIZE=ON -DWT_WERROR=ON -DWT_BENCH=OFF \
    -DWT_MPI=ON
cmake --build build-test -j"$(nproc)"
ctest --test-dir build-test --output-on-failure -j"$(nproc)"
