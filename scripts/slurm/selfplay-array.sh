#!/usr/bin/env bash
# Self-play on a Slurm cluster: an array job of N shards, then a merge job that runs once every
# shard has ended (well or not) and refuses, naming them, if any shard is missing.
#
#   scripts/slurm/selfplay-array.sh OUTDIR N VARIANT [selfplay options...]
#
# e.g. scripts/slurm/selfplay-array.sh runs/dameo 32 dameo --games 100000 --depth 6 --seed 7
#
# A ladder of strengths the same way: each task plays its shard of every rung (and the rating
# matches that fall to it), and the merge job merges the ladder files into the single machine's
# ladder, e.g.
#   scripts/slurm/selfplay-array.sh runs/dameo-ladder 64 dameo --games 10000 \
#     --ladder nodes=1000,10000,100000 --rate-against nodes=1000
#
# OUTDIR (on a file system every node sees) receives shard-ID.json, shard-ID.pdn and shard-ID.log
# per array task, then merged.json, merged.pdn, merged.svg and merged.log (the report). Do not give
# --shard, --threads, --json, --pdn or --svg: the script sets them.
#
# Environment: DAMELAB (the binary; default: `damelab` on the PATH, resolved now), CPUS (cores per
# shard, default 1: the shard plays on that many threads), PDN=0 (no PDN files), SBATCH_OPTS (more
# sbatch options for both jobs, e.g. "--partition=long --time=04:00:00"; sbatch's own SBATCH_*
# variables work too). Prints the two job ids on its last line: `array=ID merge=ID`.
#
# The script is its own batch script: sbatch runs it again with `--task` (one shard) or `--merge`.
set -euo pipefail

usage() {
  echo "usage: $0 OUTDIR N VARIANT [selfplay options...]" >&2
  exit 2
}

case "${1:-}" in
--task)
  # One array task: the scheduler's variables say which shard (`--shard auto`).
  shift
  out=$1
  shift
  id=${SLURM_ARRAY_TASK_ID:?not inside a Slurm array task}
  pdn=()
  if [ "${PDN:-1}" != 0 ]; then
    pdn=(--pdn "$out/shard-$id.pdn")
  fi
  exec "$DAMELAB" selfplay "$@" --shard auto --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --json "$out/shard-$id.json" "${pdn[@]}"
  ;;
--merge)
  shift
  out=$1
  shopt -s nullglob
  files=("$out"/shard-*.json)
  pdn=()
  if [ "${PDN:-1}" != 0 ]; then
    pdn=("$out"/shard-*.pdn --pdn "$out/merged.pdn")
  fi
  if [ ${#files[@]} -eq 0 ]; then
    echo "merge: no shard finished: no $out/shard-*.json (see $out/shard-*.log)" >&2
    exit 1
  fi
  exec "$DAMELAB" selfplay merge "${files[@]}" "${pdn[@]}" --json "$out/merged.json" \
    --svg "$out/merged.svg"
  ;;
esac

[ $# -ge 3 ] || usage
out=$1
n=$2
shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || {
  echo "selfplay-array: N must be a number of shards from 1, not \`$n\`" >&2
  exit 2
}
for a in "$@"; do
  case "$a" in
  --shard | --shard=* | --shards | --shards=* | --threads | --threads=* | --json | --json=* | \
    --pdn | --pdn=* | --svg | --svg=*)
    echo "selfplay-array: \`$a\` is set by the script; leave it out" >&2
    exit 2
    ;;
  esac
done
DAMELAB=${DAMELAB:-$(command -v damelab || true)}
[ -n "$DAMELAB" ] && [ -x "$DAMELAB" ] || {
  echo "selfplay-array: no damelab binary: put it on the PATH or set DAMELAB" >&2
  exit 2
}
export DAMELAB=$(realpath "$DAMELAB")
export PDN=${PDN:-1}
mkdir -p "$out"
out=$(realpath "$out")
self=$(realpath "$0")
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name=damelab-selfplay --array=0-$((n - 1)) \
  --cpus-per-task="${CPUS:-1}" --output="$out/shard-%a.log" \
  "$self" --task "$out" "$@")
array=${array%%;*}
# afterany: the merge runs even when a shard failed, and says which shards are missing.
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --job-name=damelab-merge \
  --dependency=afterany:"$array" --output="$out/merged.log" "$self" --merge "$out")
merge=${merge%%;*}
echo "selfplay-array: array job $array ($n shards) and merge job $merge; results in $out"
echo "array=$array merge=$merge"
