#!/usr/bin/env bash
# The self-play study of docs/analysis.md, regenerated: every run of the study, each run's JSON
# (and the command that made it, with the engine's digest) saved under docs/study/, then the
# figure tables of docs/analysis.md rendered from those files (scripts/study_render.py).
#
#   scripts/study.sh                 # the whole study (about an hour of the 2-core machine)
#   scripts/study.sh --quick         # the same runs, a few games each at small budgets (a test)
#   scripts/study.sh --only turkish  # one run (its name as below), then the tables rendered again
#                                    # (after new weights for a variant: --only each run tests/runs/study.rs names)
#   scripts/study.sh --render        # render the tables from the files already saved
#
# Options: --bin PATH (the damelab binary; default target/release/damelab, built if absent),
# --out DIR (default docs/study), --doc FILE (default docs/analysis.md), --threads T (default 2),
# --games N (the draw claims' games a configuration; default 200).
# Every run is seeded, plays balanced openings and no endgame tables (`--no-tables`), so it
# reproduces on any machine with the same engine (the same `damelab version --digest`); each run
# also records the digest of the weights it plays with (`version --digest --weights VARIANT`).
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=target/release/damelab
OUT=docs/study
DOC=docs/analysis.md
THREADS=2
QUICK=0
ONLY=""
GAMES=""
RENDER_ONLY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) QUICK=1 ;;
        --render) RENDER_ONLY=1 ;;
        --bin) BIN="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        --doc) DOC="$2"; shift ;;
        --threads) THREADS="$2"; shift ;;
        --games) GAMES="$2"; shift ;;
        --only) ONLY="$ONLY $2"; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "study.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

if [ ! -x "$BIN" ]; then
    cargo build --release
fi
mkdir -p "$OUT"
# STUDY_DIGEST: the digest to record when BIN predates `damelab version` (the same version and
# weights as a binary that prints it).
DIGEST=${STUDY_DIGEST:-$("$BIN" version --digest)}

# Sizes: the whole study, or a test of the script.
if [ "$QUICK" = 1 ]; then
    LOW=200; MID=400; HIGH=600; DRAW_GAMES=4; HUNT_GAMES=4; TRAIN="--generations 1 --games 8 --nodes 200 --epochs 5 --match-games 0"
else
    LOW=3000; MID=10000; HIGH=30000; DRAW_GAMES=200; HUNT_GAMES=60; TRAIN="--generations 1 --games 200 --nodes 1000 --epochs 100 --match-games 0"
fi
# --games N: the draw claims' games a configuration instead (a smaller study when the machine is busy).
DRAW_GAMES=${GAMES:-$DRAW_GAMES}
SEED=45
COMMON="--seed $SEED --balanced 0.5 --no-tables --threads $THREADS"
# Two evaluations (the rules' derived one, the bundled learned one) at two strengths.
CONFIGS="eval=derived,nodes=$LOW; eval=bundled,nodes=$LOW; eval=derived,nodes=$HIGH; eval=bundled,nodes=$HIGH"
# Damone and the hunt draw most games and play long ones: 3,000 and 10,000 nodes.
DAMONE="eval=derived,nodes=$LOW; eval=bundled,nodes=$LOW; eval=derived,nodes=$MID; eval=bundled,nodes=$MID"

wanted() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }

# The arguments as a shell would take them back: those with spaces or `;` in single quotes.
quoted() {
    local a out=""
    for a in "$@"; do
        case "$a" in
            *[\ \;]*) out="$out '$a'" ;;
            *) out="$out $a" ;;
        esac
    done
    echo "${out# }"
}

# run NAME WEIGHTS COMMAND...: runs the command (its output to OUT/NAME.txt), then records the
# command, the engine's digest, the digest of the bundled weights the run plays with (WEIGHTS: a
# variant's name, or `none` for a run that uses no learned evaluation), the wall time and the load
# beside the files in OUT/NAME.cmd. tests/runs/study.rs finds a run stale when its weights'
# digest is no longer today's: new weights for one variant stale that variant's runs alone.
run() {
    local name="$1" weights="$2"; shift 2
    wanted "$name" || return 0
    echo "== $name: $*" >&2
    local t0 t1
    t0=$(date +%s)
    "$@" > "$OUT/$name.txt.tmp"
    t1=$(date +%s)
    mv "$OUT/$name.txt.tmp" "$OUT/$name.txt"
    {
        echo "command damelab $(quoted "${@:2}")"
        echo "digest $DIGEST"
        echo "weights $weights"
        echo "weights-digest $("$BIN" version --digest --weights "$weights")"
        echo "quick $QUICK"
        echo "wall $((t1 - t0))"
        echo "load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
    } > "$OUT/$name.cmd.tmp"
    mv "$OUT/$name.cmd.tmp" "$OUT/$name.cmd"
}

if [ "$RENDER_ONLY" = 0 ]; then
    # The draw claims: Turkish against international and English, Dameo's few draws.
    for v in turkish international english dameo; do
        run "$v" "$v" "$BIN" selfplay "$v" --games "$DRAW_GAMES" $COMMON --configs "$CONFIGS" \
            --json "$OUT/$v.json"
    done
    # Dameo's game-tree complexity under both conventions needs each game's own record (the
    # configurations' file keeps only their figures): the strongest learned configuration's games
    # again (the same seed: the same games), and random games.
    run dameo-games dameo "$BIN" selfplay dameo --games "$HUNT_GAMES" $COMMON --nodes "$HIGH" --eval bundled \
        --json "$OUT/dameo-games.json"
    run dameo-random none "$BIN" selfplay dameo --games $((HUNT_GAMES * 20)) --seed $SEED --random \
        --threads "$THREADS" --json "$OUT/dameo-random.json"
    # Damone and the hunt; the hunt also with an evaluation trained on its own games, which
    # learns its goal (the capture of every Damone) from their results.
    run damone damone "$BIN" selfplay damone --games "$HUNT_GAMES" $COMMON --configs "$DAMONE" \
        --json "$OUT/damone.json"
    run damone-hunt-train none "$BIN" train damone-hunt --seed 1 $TRAIN --threads "$THREADS" \
        -o "$OUT/damone-hunt.weights"
    HUNT="eval=derived,nodes=$LOW; eval=$OUT/damone-hunt.weights,nodes=$LOW; eval=derived,nodes=$MID; eval=$OUT/damone-hunt.weights,nodes=$MID"
    run damone-hunt none "$BIN" selfplay damone-hunt --games "$HUNT_GAMES" $COMMON --configs "$HUNT" \
        --json "$OUT/damone-hunt.json"
    # The endgame claims: exact tables, independent of the engine.
    TB=$(mktemp -d)
    trap 'rm -rf "$TB"' EXIT
    run endgame-turkish-kk-k none "$BIN" endgame turkish "KK v K" --json --cache "$TB"
    run endgame-dameo-kk-k none "$BIN" endgame dameo "KK v K" --json --cache "$TB"
    run endgame-turkish-no-lone-king-k-m none "$BIN" endgame examples/turkish-no-lone-king.rules "K v M" --json --cache "$TB"
    if [ "$QUICK" = 0 ]; then
        run endgame-international-kkkk-k none "$BIN" endgame international "KKKK v K" --json --cache "$TB"
    fi
fi

WEIGHTS_DIGESTS=()
for w in turkish international english dameo damone none; do
    WEIGHTS_DIGESTS+=(--weights-digest "$w=$("$BIN" version --digest --weights "$w")")
done
python3 scripts/study_render.py --dir "$OUT" --doc "$DOC" --digest "$DIGEST" "${WEIGHTS_DIGESTS[@]}"
