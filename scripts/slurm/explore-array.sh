#!/usr/bin/env bash
# An exploration of rules (`damelab explore`) on a Slurm cluster: an array job of N shards (each
# plays its slice of every combination's games), then a merge job that runs once every shard has
# ended (well or not) and refuses, naming them, if any shard is missing.
#
#   scripts/slurm/explore-array.sh OUTDIR N BASE.rules [explore options...]
#
# e.g. scripts/slurm/explore-array.sh runs/turkish-space 32 turkish.rules \
#        --vary 'king: slide | step' --vary 'captures: priority most pieces | free' \
#        --games 400 --nodes 30000 --seed 7
#
# OUTDIR (on a file system every node sees) receives shard-ID.json and shard-ID.log per array
# task, then merged.json and merged.log (the ranked table). BASE.rules and any --vary-file must be
# readable from every node (the jobs run in the directory the script was called from). Do not
# give --shard, --shards, --threads or --json: the script sets them.
#
# Environment: DAMELAB (the binary; default: `damelab` on the PATH, resolved now), CPUS (cores per
# shard, default 1: the shard plays on that many threads), SBATCH_OPTS (more sbatch options for
# both jobs, e.g. "--partition=long --time=04:00:00"; sbatch's own SBATCH_* variables work too).
# Prints the two job ids on its last line: `array=ID merge=ID`.
#
# The script is its own batch script: sbatch runs it again with `--task` (one shard) or `--merge`.
set -euo pipefail

usage() {
  echo "usage: $0 OUTDIR N BASE.rules [explore options...]" >&2
  exit 2
}

case "${1:-}" in
--task)
  # One array task: the scheduler's variables say which shard (`--shard auto`).
  shift
  out=$1
  shift
  id=${SLURM_ARRAY_TASK_ID:?not inside a Slurm array task}
  exec "$DAMELAB" explore "$@" --shard auto --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --json "$out/shard-$id.json"
  ;;
--merge)
  shift
  out=$1
  shopt -s nullglob
  files=("$out"/shard-*.json)
  if [ ${#files[@]} -eq 0 ]; then
    echo "merge: no shard finished: no $out/shard-*.json (see $out/shard-*.log)" >&2
    exit 1
  fi
  exec "$DAMELAB" explore merge "${files[@]}" --json "$out/merged.json"
  ;;
esac

[ $# -ge 3 ] || usage
out=$1
n=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || {
  echo "explore-array: N must be a number of shards from 1, not \`$n\`" >&2
  exit 2
}
for a in "$@"; do
  case "$a" in
  --shard | --shard=* | --shards | --shards=* | --threads | --threads=* | --json | --json=*)
    echo "explore-array: \`$a\` is set by the script; leave it out" >&2
    exit 2
    ;;
  esac
done
[ -f "$1" ] || {
  echo "explore-array: no base rules file \`$1\`" >&2
  exit 2
}
DAMELAB=${DAMELAB:-$(command -v damelab || true)}
[ -n "$DAMELAB" ] && [ -x "$DAMELAB" ] || {
  echo "explore-array: no damelab binary: put it on the PATH or set DAMELAB" >&2
  exit 2
}
export DAMELAB=$(realpath "$DAMELAB")
mkdir -p "$out"
out=$(realpath "$out")
self=$(realpath "$0")
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name=damelab-explore --array=0-$((n - 1)) \
  --cpus-per-task="${CPUS:-1}" --output="$out/shard-%a.log" \
  "$self" --task "$out" "$@")
array=${array%%;*}
# afterany: the merge runs even when a shard failed, and says which shards are missing.
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name=damelab-explore-merge \
  --dependency=afterany:"$array" --output="$out/merged.log" "$self" --merge "$out")
merge=${merge%%;*}
echo "explore-array: array job $array ($n shards) and merge job $merge; results in $out"
echo "array=$array merge=$merge"
