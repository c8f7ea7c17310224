#!/usr/bin/env bash
# `warptune explore` replays a journalled result only while every file the workload reads is
# unchanged: an edited edge list, matrix or trace kernel file is simulated again.
set -u
. "$(dirname "$0")/lib/harness.sh" "$@"
field() { # field SUMMARY NAME: a number from summary.json
    grep -o "\"$2\":[[:space:]]*[0-9.e+-]*" "$1" | head -1 | sed 's/.*:[[:space:]]*//'
}
run() { # run SPACE OUT SIMULATED WHAT: explore, then the count of simulations it ran
    "$WT" explore "$1" --out "$2" --quiet >/dev/null 2>&1
    local n
    n=$(field "$2/summary.json" simulated)
    if [ "$n" = "$3" ]; then ok; else bad "$4: $n simulated, expected $3"; fi
}
space() { # space FILE WORKLOAD: a one-point study of the workload
    printf '{"name": "stale", "settings": {"gpu.sms": 1, "l2.partitions": 2},
 "parameters": {"l1d.ways": [8]}, "workloads": ["%s"], "objectives": ["ipc"]}\n' "$2" >"$1"
}

# an edge-list graph: bfs reading e.txt
mkdir -p "$tmp/g"
sed 's/^\.graph g rmat(.*/.graph g edgelist("e.txt")/' workloads/bfs.wl >"$tmp/g/bfs.wl"
for i in $(seq 0 199); do echo "$i $(((i * 7 + 1) % 200))"; done >"$tmp/g/e.txt"
space "$tmp/g/space.json" "$tmp/g/bfs.wl"
run "$tmp/g/space.json" "$tmp/g/o" 2 "first run"
run "$tmp/g/space.json" "$tmp/g/o" 0 "rerun"
for i in $(seq 0 199); do echo "$i $(((i * 3 + 5) % 200))"; echo "$i $(((i + 1) % 200))"; done \
    >"$tmp/g/e.txt"
run "$tmp/g/space.json" "$tmp/g/o" 2 "edited edge list"

# a Matrix Market matrix: spmv reading m.mtx
mkdir -p "$tmp/m"
sed 's/^\.matrix A random(.*/.matrix A mtx("m.mtx")/' workloads/spmv.wl >"$tmp/m/spmv.wl"
mtx() { # mtx VALUE: a 64x64 matrix
    printf '%%%%MatrixMarket matrix coordinate real general\n64 64 128\n'
    for i in $(seq 1 64); do echo "$i $i $1"; echo "$i $(((i * 5) % 64 + 1)) 1"; done
}
mtx 2 >"$tmp/m/m.mtx"
space "$tmp/m/space.json" "$tmp/m/spmv.wl"
run "$tmp/m/space.json" "$tmp/m/o" 2 "matrix: first run"
run "$tmp/m/space.json" "$tmp/m/o" 0 "matrix: rerun"
mtx 3 >"$tmp/m/m.mtx"
run "$tmp/m/space.json" "$tmp/m/o" 2 "edited matrix"

# a trace: an edited kernel file
expect 0 "kernelslist.g" -- "$WT" export-trace --workload stream --wparam n=1024 --set gpu.sms=1 \
    --out "$tmp/tr"
space "$tmp/tr.json" "$tmp/tr/kernelslist.g"
run "$tmp/tr.json" "$tmp/tro" 2 "trace: first run"
run "$tmp/tr.json" "$tmp/tro" 0 "trace: rerun"
printf '\n' >>"$tmp/tr/kernel-1.traceg" # other bytes, the same trace: simulated again all the same
run "$tmp/tr.json" "$tmp/tro" 2 "edited kernel file"

finish
