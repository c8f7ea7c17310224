#!/bin/bash
# Submits a sharded study: a job array of N shards, and the merge once every shard succeeded.
#   scripts/slurm/submit.sh SPACE OUT N [explore options for the shards...]
# OUT must be a folder every node sees (a shared file system). Prints the two job ids.
set -euo pipefail
if [ $# -lt 3 ] || ! [[ $3 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 SPACE OUT N [explore options...]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
space=$1 out=$2 n=$3
shift 3
mkdir -p "$out"
array=$(sbatch --parsable --array="1-$n" "$here/explore-array.sbatch" "$space" "$out" "$@")
array=${array%%;*} # --parsable prints JOB or JOB;CLUSTER
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/explore-merge.sbatch" "$out")
echo "shards: job $array (array 1-$n); merge: job ${merge%%;*} (after every shard)"
