#!/usr/bin/env bash
# Perft speed of this checkout against the generator before its redesign (commit 8e4cadb, the
# last commit with the 128-bit padded layout), measured on the same machine in the same run:
# both release builds run each position in turn, alternating, and the best of ROUNDS runs of each
# is kept (the least disturbed by other work). One thread, bulk counting.
#
#   bash benches/baseline.sh            # builds both (the baseline once, in target/baseline)
#   ROUNDS=5 bash benches/baseline.sh
#
# Prints one line per position: nodes, best time of each, and the speed-up.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-8e4cadb}
ROUNDS=${ROUNDS:-3}
root=$PWD
basedir=$root/target/baseline
if [ ! -x "$basedir/bin/damelab" ]; then
    rm -rf "$basedir/src"
    mkdir -p "$basedir"
    git worktree add --detach "$basedir/src" "$BASE" >/dev/null 2>&1 ||
        { git worktree prune && git worktree add --detach "$basedir/src" "$BASE" >/dev/null; }
    (cd "$basedir/src" && cargo build --release --quiet --target-dir "$basedir/target")
    mkdir -p "$basedir/bin"
    cp "$basedir/target/release/damelab" "$basedir/bin/damelab"
    git worktree remove --force "$basedir/src"
fi
cargo build --release --quiet
now=$root/target/release/damelab
then_=$basedir/bin/damelab

# variant, depth, FEN (empty: the start position)
cases=(
    "turkish|8|"
    "english|11|"
    "russian|10|"
    "international|9|"
    "international|14|W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
    "international|6|W:WK46,K47,K48,K49:BK2,K3,K4,K5"
    "frisian|8|"
    "dameo|5|"
    "big-dameo-4|4|"
    "damone|8|"
    "thai|9|"
)

# The seconds one perft took (from damelab's own "N nodes in T s" line).
run() {
    local bin=$1 v=$2 d=$3 fen=$4
    local args=(perft "$v" "$d" --threads 1)
    [ -n "$fen" ] && args+=(--fen "$fen")
    "$bin" "${args[@]}" 2>&1 | awk '/nodes in/ { print $1, $4 }'
}

printf '%-14s %3s %-10s %14s %10s %10s %8s\n' variant d position nodes before now speed-up
for c in "${cases[@]}"; do
    IFS='|' read -r v d fen <<<"$c"
    best_then=999999
    best_now=999999
    nodes=0
    for _ in $(seq "$ROUNDS"); do
        read -r n t < <(run "$then_" "$v" "$d" "$fen")
        best_then=$(awk -v a="$best_then" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
        read -r n2 t2 < <(run "$now" "$v" "$d" "$fen")
        best_now=$(awk -v a="$best_now" -v b="$t2" 'BEGIN { print (b < a ? b : a) }')
        if [ "$n" != "$n2" ]; then
            echo "$v $d: node counts differ: $n before, $n2 now" >&2
            exit 1
        fi
        nodes=$n
    done
    pos=${fen:+${fen:0:10}…}
    printf '%-14s %3s %-10s %14s %9ss %9ss %7.2fx\n' "$v" "$d" "${pos:-start}" "$nodes" \
        "$best_then" "$best_now" "$(awk -v a="$best_then" -v b="$best_now" 'BEGIN { print a / b }')"
done
