#!/usr/bin/env bash
# Training on a Slurm cluster: for each generation, an array job of N shards that plays the
# generation's self-play games, then a merge job that fits the generation's weights from every
# generation's data so far. Generation g's array waits for generation g-1's merge (its shards play
# with those weights); each merge waits for its array to end (well or not) and refuses, naming
# them, if shards are missing, and the later jobs are then cancelled by Slurm.
#
#   scripts/slurm/train-array.sh OUTDIR N VARIANT [train options...]
#
# e.g. scripts/slurm/train-array.sh runs/dameo-train 64 dameo --generations 4 --games 20000 --seed 7
#
# OUTDIR (on a file system every node sees) receives genG-shard-ID.json (the positions) and
# genG-shard-ID.log per array task, then genG.weights, genG.json and genG.log per merge. The last
# generation's weights file is the run's: the same bytes as `damelab train` on one machine with
# the same options. Do not give --generation, --shard, --threads, --data, --from, --out, --svg or
# --json: the script sets them.
#
# Environment: DAMELAB (the binary; default: `damelab` on the PATH, resolved now), CPUS (cores per
# task, default 1), SBATCH_OPTS (more sbatch options for every job). Prints the job ids on its last
# line: `arrays=ID,ID,… merges=ID,ID,…`.
#
# The script is its own batch script: sbatch runs it again with `--task` or `--merge`.
set -euo pipefail

usage() {
  echo "usage: $0 OUTDIR N VARIANT [train options...]" >&2
  exit 2
}

case "${1:-}" in
--task)
  # One array task of generation G: the scheduler's variables say which shard (`--shard auto`).
  shift
  out=$1
  g=$2
  shift 2
  id=${SLURM_ARRAY_TASK_ID:?not inside a Slurm array task}
  from=()
  if [ "$g" -gt 1 ]; then
    from=(--from "$out/gen$((g - 1)).weights")
  fi
  exec "$DAMELAB" train "$@" --generation "$g" --shard auto --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --data "$out/gen$g-shard-$id.json" "${from[@]}"
  ;;
--merge)
  shift
  out=$1
  g=$2
  shopt -s nullglob
  files=()
  for i in $(seq 1 "$g"); do
    files+=("$out"/gen"$i"-shard-*.json)
  done
  from=()
  if [ "$g" -gt 1 ]; then
    from=(--from "$out/gen$((g - 1)).weights")
  fi
  if [ ${#files[@]} -eq 0 ]; then
    echo "merge: no shard finished: no $out/gen$g-shard-*.json (see $out/gen$g-shard-*.log)" >&2
    exit 1
  fi
  exec "$DAMELAB" train merge "${files[@]}" "${from[@]}" --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --out "$out/gen$g.weights" --json "$out/gen$g.json"
  ;;
esac

[ $# -ge 3 ] || usage
out=$1
n=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || {
  echo "train-array: N must be a number of shards from 1, not \`$n\`" >&2
  exit 2
}
# The number of generations, as `train` reads it (default 3).
gens=3
prev=
for a in "$@"; do
  case "$a" in
  --generation | --generation=* | --shard | --shard=* | --shards | --shards=* | --threads | \
    --threads=* | --data | --data=* | --from | --from=* | --out | --out=* | -o | --svg | --svg=* | \
    --json | --json=*)
    echo "train-array: \`$a\` is set by the script; leave it out" >&2
    exit 2
    ;;
  --generations=*) gens=${a#--generations=} ;;
  esac
  if [ "$prev" = --generations ]; then
    gens=$a
  fi
  prev=$a
done
[[ "$gens" =~ ^[1-9][0-9]*$ ]] || {
  echo "train-array: --generations must be a number from 1, not \`$gens\`" >&2
  exit 2
}
DAMELAB=${DAMELAB:-$(command -v damelab || true)}
[ -n "$DAMELAB" ] && [ -x "$DAMELAB" ] || {
  echo "train-array: no damelab binary: put it on the PATH or set DAMELAB" >&2
  exit 2
}
export DAMELAB=$(realpath "$DAMELAB")
mkdir -p "$out"
out=$(realpath "$out")
self=$(realpath "$0")
arrays=()
merges=()
after=()
for g in $(seq 1 "$gens"); do
  # shellcheck disable=SC2086
  array=$(sbatch --parsable ${SBATCH_OPTS:-} "${after[@]}" --kill-on-invalid-dep=yes \
    --job-name="damelab-train-g$g" --array=0-$((n - 1)) --cpus-per-task="${CPUS:-1}" \
    --output="$out/gen$g-shard-%a.log" "$self" --task "$out" "$g" "$@")
  array=${array%%;*}
  # afterany: the merge runs even when a shard failed, and says which shards are missing.
  # shellcheck disable=SC2086
  merge=$(sbatch --parsable ${SBATCH_OPTS:-} --kill-on-invalid-dep=yes \
    --job-name="damelab-train-merge-g$g" --dependency=afterany:"$array" \
    --cpus-per-task="${CPUS:-1}" --output="$out/gen$g.log" "$self" --merge "$out" "$g")
  merge=${merge%%;*}
  arrays+=("$array")
  merges+=("$merge")
  # The next generation plays with this merge's weights: only after it succeeded.
  after=(--dependency=afterok:"$merge")
done
echo "train-array: $gens generations of $n shards; the weights of generation $gens will be $out/gen$gens.weights"
echo "arrays=$(IFS=,; echo "${arrays[*]}") merges=$(IFS=,; echo "${merges[*]}")"
