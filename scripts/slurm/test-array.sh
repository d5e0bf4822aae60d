#!/usr/bin/env bash
# The Slurm array-job test: on a single-node cluster on this machine (local-cluster.sh), submit a
# small self-play run as an array job of four shards with the merge job after it
# (selfplay-array.sh), wait for both (bounded), and compare the merged JSON and PDN with the same
# run played in one go, field by field. Then merge three of the four shards and expect the missing
# one named and a non-zero exit. Then a two-generation training run as two array jobs of four
# shards, each followed by its merge (train-array.sh): the last merge's weights file must be the
# single run's, byte for byte. Then a rated ladder of two rungs as an array of four shards
# (selfplay-array.sh with --ladder): the merged ladder file and PDN must be the single ladder's,
# byte for byte. Then an exploration of two combinations as an array of four shards
# (explore-array.sh): the merged JSON must be the single run's, byte for byte. Exits non-zero on
# any difference, failure or time-out.
#
#   scripts/slurm/test-array.sh [path/to/damelab]   (default target/release/damelab)
#
# Installs Debian's slurm-wlm and munge when they are missing (as root). Takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
BIN=$(realpath "${1:-target/release/damelab}")
[ -x "$BIN" ] || {
  echo "test-array: no binary at $BIN: run \`cargo build --release\` first" >&2
  exit 1
}
# The whole test, waits included, in seconds.
LIMIT=${DAMELAB_SLURM_TEST_LIMIT:-300}
start=$SECONDS

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "test-array: installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/damelab-slurm-test.XXXXXX)
export DAMELAB_SLURM_DIR=$work/cluster
cleanup() {
  local rc=$?
  if [ $rc -ne 0 ] && [ -d "$DAMELAB_SLURM_DIR/log" ]; then
    echo "--- cluster logs (last lines)" >&2
    tail -n 15 "$DAMELAB_SLURM_DIR"/log/*.log >&2 || true
    for f in "$work"/run/*.log; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
    done
  fi
  bash "$root/scripts/slurm/local-cluster.sh" stop || true
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
bash scripts/slurm/local-cluster.sh start
export SLURM_CONF=$DAMELAB_SLURM_DIR/slurm.conf

# A small run: English at depth 3, 24 games, two of them through each code path that matters
# (wins, draws by repetition, the length cap at 120 plies).
args=(english --games 24 --depth 3 --seed 11 --max-plies 120)

ids=$(DAMELAB=$BIN bash scripts/slurm/selfplay-array.sh "$work/run" 4 "${args[@]}" | tail -n 1)
array=$(sed -n 's/^array=\([0-9]*\) merge=.*/\1/p' <<<"$ids")
merge=$(sed -n 's/^array=[0-9]* merge=\([0-9]*\)$/\1/p' <<<"$ids")
[ -n "$array" ] && [ -n "$merge" ] || {
  echo "test-array: no job ids from selfplay-array.sh: \`$ids\`" >&2
  exit 1
}
echo "test-array: array job $array, merge job $merge"

# Meanwhile, the same run in one go (outside Slurm: --shard is not given).
"$BIN" selfplay "${args[@]}" --threads 1 --json "$work/whole.json" --pdn "$work/whole.pdn" \
  >"$work/whole.txt"

# Wait until the merge job has left the queue (it runs after every shard has ended).
while [ -n "$(squeue -h -j "$merge" -o %i 2>/dev/null)" ]; do
  if [ $((SECONDS - start)) -ge "$LIMIT" ]; then
    echo "test-array: the jobs did not finish within ${LIMIT}s" >&2
    squeue >&2 || true
    exit 1
  fi
  sleep 1
done

# Every array task and the merge completed with exit code 0.
states=$(scontrol -o show job "$array" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p')
mstate=$(scontrol -o show job "$merge" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p')
echo "test-array: array tasks: $(tr '\n' ',' <<<"$states") merge: $mstate"
[ "$(grep -c '^COMPLETED 0:0$' <<<"$states")" = 4 ] || {
  echo "test-array: not every array task completed" >&2
  exit 1
}
[ "$mstate" = "COMPLETED 0:0" ] || {
  echo "test-array: the merge job did not complete" >&2
  exit 1
}

# Each task found its own shard from Slurm's variables.
for id in 0 1 2 3; do
  grep -q "shard $((id + 1))/4" "$work/run/shard-$id.log" || {
    echo "test-array: task $id did not play shard $((id + 1))/4" >&2
    exit 1
  }
done

# Field by field: the JSON files hold no timings and put every field on a line of its own, so
# the merged file must equal the whole run's line for line.
fail=0
if ! diff -u "$work/whole.json" "$work/run/merged.json" >"$work/json.diff"; then
  echo "test-array: the merged JSON differs from the whole run's in $(grep -c '^[-+] ' "$work/json.diff") fields:" >&2
  head -n 40 "$work/json.diff" >&2
  fail=1
else
  echo "test-array: JSON: $(grep -c '"i": ' "$work/whole.json") games, $(wc -l <"$work/whole.json") lines, equal"
fi
if ! cmp -s "$work/whole.pdn" "$work/run/merged.pdn"; then
  echo "test-array: the merged PDN differs from the whole run's:" >&2
  diff "$work/whole.pdn" "$work/run/merged.pdn" | head -n 20 >&2 || true
  fail=1
else
  echo "test-array: PDN: $(grep -c '^\[Event ' "$work/whole.pdn") games, byte for byte equal"
fi
# The report printed by the merge job is the whole run's (its time line aside).
if ! diff <(grep -v '^time ' "$work/whole.txt") "$work/run/merged.log" >/dev/null; then
  echo "test-array: the merge job's report differs from the whole run's:" >&2
  diff <(grep -v '^time ' "$work/whole.txt") "$work/run/merged.log" >&2 || true
  fail=1
fi
# The merged games replay.
"$BIN" replay "$work/run/merged.pdn" >/dev/null || {
  echo "test-array: the merged PDN does not replay" >&2
  fail=1
}

# A shard that died: merging the other three names it and fails.
set +e
"$BIN" selfplay merge "$work"/run/shard-{0,2,3}.json >/dev/null 2>"$work/missing.txt"
rc=$?
set -e
if [ $rc -eq 0 ] || ! grep -q "shard 2 of 4 is missing" "$work/missing.txt"; then
  echo "test-array: merging three of four shards did not name the missing one (exit $rc):" >&2
  cat "$work/missing.txt" >&2
  fail=1
fi

# Training: two generations of four shards each, each generation merged before the next plays
# with its weights (train-array.sh); the last merge's weights file must be the single run's, byte
# for byte.
targs=(english --generations 2 --games 8 --nodes 200 --epochs 5 --match-games 2 --seed 3)
tids=$(DAMELAB=$BIN bash scripts/slurm/train-array.sh "$work/train" 4 "${targs[@]}" | tail -n 1)
tarrays=$(sed -n 's/^arrays=\([0-9,]*\) merges=.*/\1/p' <<<"$tids")
tmerges=$(sed -n 's/^arrays=[0-9,]* merges=\([0-9,]*\)$/\1/p' <<<"$tids")
[ -n "$tarrays" ] && [ -n "$tmerges" ] || {
  echo "test-array: no job ids from train-array.sh: \`$tids\`" >&2
  exit 1
}
echo "test-array: training arrays $tarrays, merges $tmerges"
"$BIN" train "${targs[@]}" --threads 1 --out "$work/train-whole.weights" >"$work/train-whole.txt"
last=${tmerges##*,}
while [ -n "$(squeue -h -j "$last" -o %i 2>/dev/null)" ]; do
  if [ $((SECONDS - start)) -ge "$LIMIT" ]; then
    echo "test-array: the training jobs did not finish within ${LIMIT}s" >&2
    squeue >&2 || true
    exit 1
  fi
  sleep 1
done
for j in ${tarrays//,/ } ${tmerges//,/ }; do
  st=$(scontrol -o show job "$j" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p')
  if [ "$(grep -vc '^COMPLETED 0:0$' <<<"$st")" != 0 ]; then
    echo "test-array: training job $j did not complete: $(tr '\n' ',' <<<"$st")" >&2
    fail=1
  fi
done
if ! cmp -s "$work/train-whole.weights" "$work/train/gen2.weights"; then
  echo "test-array: the merged training weights differ from the single run's" >&2
  diff "$work/train-whole.weights" "$work/train/gen2.weights" | head -n 10 >&2 || true
  fail=1
else
  echo "test-array: training: 2 generations of 4 shards merged, weights byte for byte equal"
fi

# A ladder: two rated rungs as an array of four shards with selfplay-array.sh (each task plays its
# shard of both rungs, rung r's rating match falls to shard r); the merged ladder file and PDN must
# be the single ladder's, byte for byte.
largs=(english --games 8 --ladder nodes=100,300 --rate-against nodes=50 --rate-games 4 --seed 5 \
  --max-plies 120)
lids=$(DAMELAB=$BIN bash scripts/slurm/selfplay-array.sh "$work/ladder" 4 "${largs[@]}" | tail -n 1)
larray=$(sed -n 's/^array=\([0-9]*\) merge=.*/\1/p' <<<"$lids")
lmerge=$(sed -n 's/^array=[0-9]* merge=\([0-9]*\)$/\1/p' <<<"$lids")
[ -n "$larray" ] && [ -n "$lmerge" ] || {
  echo "test-array: no job ids from selfplay-array.sh for the ladder: \`$lids\`" >&2
  exit 1
}
echo "test-array: ladder array job $larray, merge job $lmerge"
"$BIN" selfplay "${largs[@]}" --threads 1 --json "$work/ladder-whole.json" \
  --pdn "$work/ladder-whole.pdn" >/dev/null 2>&1
while [ -n "$(squeue -h -j "$lmerge" -o %i 2>/dev/null)" ]; do
  if [ $((SECONDS - start)) -ge "$LIMIT" ]; then
    echo "test-array: the ladder jobs did not finish within ${LIMIT}s" >&2
    squeue >&2 || true
    exit 1
  fi
  sleep 1
done
for j in "$larray" "$lmerge"; do
  st=$(scontrol -o show job "$j" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p')
  if [ "$(grep -vc '^COMPLETED 0:0$' <<<"$st")" != 0 ]; then
    echo "test-array: ladder job $j did not complete: $(tr '\n' ',' <<<"$st")" >&2
    fail=1
  fi
done
if ! diff -u "$work/ladder-whole.json" "$work/ladder/merged.json" >"$work/ladder.diff"; then
  echo "test-array: the merged ladder differs from the single ladder's:" >&2
  head -n 40 "$work/ladder.diff" >&2
  fail=1
elif ! cmp -s "$work/ladder-whole.pdn" "$work/ladder/merged.pdn"; then
  echo "test-array: the merged ladder's PDN differs from the single ladder's" >&2
  fail=1
else
  echo "test-array: ladder: 2 rungs of 4 shards merged, JSON and PDN byte for byte equal"
fi

# An exploration: two combinations of Turkish (king: slide | step) of four games each at 300 nodes
# a move, as an array of four shards with explore-array.sh (each task plays one game of each
# combination); the merged JSON must be the single run's byte for byte, and the merge job's table
# the single run's.
eargs=(variants/turkish.rules --vary 'king: slide | step' --games 4 --nodes 300 --seed 3)
eids=$(DAMELAB=$BIN bash scripts/slurm/explore-array.sh "$work/explore" 4 "${eargs[@]}" | tail -n 1)
earray=$(sed -n 's/^array=\([0-9]*\) merge=.*/\1/p' <<<"$eids")
emerge=$(sed -n 's/^array=[0-9]* merge=\([0-9]*\)$/\1/p' <<<"$eids")
[ -n "$earray" ] && [ -n "$emerge" ] || {
  echo "test-array: no job ids from explore-array.sh: \`$eids\`" >&2
  exit 1
}
echo "test-array: explore array job $earray, merge job $emerge"
"$BIN" explore "${eargs[@]}" --threads 1 --json "$work/explore-whole.json" >"$work/explore-whole.txt"
while [ -n "$(squeue -h -j "$emerge" -o %i 2>/dev/null)" ]; do
  if [ $((SECONDS - start)) -ge "$LIMIT" ]; then
    echo "test-array: the explore jobs did not finish within ${LIMIT}s" >&2
    squeue >&2 || true
    exit 1
  fi
  sleep 1
done
for j in "$earray" "$emerge"; do
  st=$(scontrol -o show job "$j" | sed -n 's/.*JobState=\([A-Z_]*\).*ExitCode=\([0-9:]*\).*/\1 \2/p')
  if [ "$(grep -vc '^COMPLETED 0:0$' <<<"$st")" != 0 ]; then
    echo "test-array: explore job $j did not complete: $(tr '\n' ',' <<<"$st")" >&2
    fail=1
  fi
done
for id in 0 1 2 3; do
  # Each task found its own shard from Slurm's variables: its file holds shard id+1 of 4.
  grep -A1 '"held": \[' "$work/explore/shard-$id.json" | grep -qx " *$((id + 1))" || {
    echo "test-array: explore task $id did not play shard $((id + 1))/4" >&2
    fail=1
  }
done
if ! cmp -s "$work/explore-whole.json" "$work/explore/merged.json"; then
  echo "test-array: the merged exploration differs from the single run's:" >&2
  diff -u "$work/explore-whole.json" "$work/explore/merged.json" | head -n 40 >&2 || true
  fail=1
elif ! diff <(tail -n +2 "$work/explore-whole.txt") "$work/explore/merged.log" >/dev/null; then
  echo "test-array: the explore merge job's table differs from the single run's:" >&2
  diff <(tail -n +2 "$work/explore-whole.txt") "$work/explore/merged.log" >&2 || true
  fail=1
else
  echo "test-array: explore: 2 combinations of 4 shards merged, JSON byte for byte equal, same table"
fi

[ $fail -eq 0 ] || exit 1
echo "test-array: 4 shards on Slurm merged equal the single run, for self-play, training, a ladder and an exploration ($((SECONDS - start)) s)"
