#!/usr/bin/env bash
# CMake's choice of the MPI evaluator (docs/cluster.md): by default (WT_MPI=AUTO) it is on when
# find_package(MPI) finds an MPI, off when none is found, and -DWT_MPI=OFF leaves it out; the
# configure output says which way it went. Configures the source tree into temporary folders
# (no build). CMAKE names cmake (ctest passes its own).
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
cmake=${CMAKE:-cmake}
conf() { # conf NAME [cmake options]: configure into $tmp/NAME, print its output
    local dir=$tmp/$1
    shift
    "$cmake" -S . -B "$dir" -DWT_TESTS=OFF -DWT_BENCH=OFF -DWT_LTO=OFF "$@" 2>&1
}
line='MPI evaluator \(--mpi\): '
if command -v mpicc >/dev/null; then # an MPI is installed: the default build takes --mpi
    expect 0 "${line}on \(WT_MPI=AUTO" -- conf auto
    check 'grep -q "^WT_MPI:STRING=AUTO$" "$tmp/auto/CMakeCache.txt"' "WT_MPI defaults to AUTO"
    check 'grep -rq -- "-DWT_MPI" "$tmp/auto/CMakeFiles/wtexplorer.dir/flags.make"' \
        "the default build with MPI compiles the MPI evaluator"
else
    expect 0 "${line}off \(WT_MPI=AUTO and no MPI found" -- conf auto
fi
# no MPI to be found: off, and said
expect 0 "${line}off \(WT_MPI=AUTO and no MPI found" -- conf none \
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=TRUE
check '! grep -rq -- "-DWT_MPI" "$tmp/none/CMakeFiles/wtexplorer.dir/flags.make"' \
    "a build without MPI does not compile the MPI evaluator"
# asked for by name: off stays off; on without an MPI is an error
expect 0 "${line}off \(WT_MPI=OFF\)" -- conf off -DWT_MPI=OFF
expect 1 "WT_MPI=ON: no MPI for C found" -- conf required -DWT_MPI=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=TRUE
finish
