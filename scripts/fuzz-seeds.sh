#!/usr/bin/env bash
# Seed corpus of one fuzz target from the repository's own files: scripts/fuzz-seeds.sh TARGET DIR.
# Run from anywhere; uses the release binary (built when missing) for moves, runs and tables.
set -euo pipefail
trap 'echo "scripts/fuzz-seeds.sh: stopped at line $LINENO (exit $?)" >&2' ERR
target=${1:?usage: scripts/fuzz-seeds.sh TARGET DIR}
dir=${2:?usage: scripts/fuzz-seeds.sh TARGET DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p "$dir"
bin=${DAMELAB_BIN:-target/release/damelab}
[ -x "$bin" ] || nice -n 10 cargo build --release --quiet
n=0
# A seed from stdin (`seed < FILE`), or from its argument (`put TEXT`: a pipe into `seed` would run
# it in a subshell and lose the count).
seed() { n=$((n + 1)); cat > "$dir/seed-$n"; }
put() { n=$((n + 1)); printf '%s' "$1" > "$dir/seed-$n"; }
# `variant<TAB>fen` of every case with a FEN (at most $1). No `head` in a pipeline: under
# `pipefail` the writer it closes early dies of SIGPIPE (141) and the script stopped silently.
fens() {
  local limit=$1 count=0 f v fen
  for f in tests/cases/*.yaml; do
    v=$(sed -n 's/^variant: *//p' "$f" | sed -n 1p)
    while read -r fen; do
      printf '%s\t%s\n' "$v" "$fen"
      count=$((count + 1))
      [ "$count" -lt "$limit" ] || return 0
    done < <(sed -n 's/^ *fen: *"\(.*\)".*/\1/p' "$f" | sed -n 1,3p)
  done
}
# A file's text as a JSON string (quotes, backslashes, tabs, carriage returns escaped; lines
# joined with \n).
json() {
  printf '"'
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "\\n" } 1'
  printf '"'
}
case "$target" in
  rules) for f in variants/*.rules examples/*.rules tests/rules_errors/*.rules; do seed < "$f"; done ;;
  fen) fens 200 | while IFS=$'\t' read -r v fen; do put "$v"$'\n'"$fen"; done ;;
  move)
    fens 80 | while IFS=$'\t' read -r v fen; do
      mv=$("$bin" moves "$v" --fen "$fen" 2>/dev/null | sed -n 1p || true)
      put "$v"$'\n'"$fen"$'\n'"$mv"
    done ;;
  case) for f in tests/cases/*.yaml tests/verify/*.yaml tests/verify_errors/*.yaml examples/*.yaml; do
          [ -f "$f" ] && seed < "$f"; done ;;
  pdn) for f in tests/pdn/*.pdn tests/fuzz_regressions/*.pdn; do [ -f "$f" ] && seed < "$f"; done ;;
  repl)
    for f in tests/repl/*.txt; do
      v=$(sed -n 's/^# variant: *//p' "$f" | head -1)
      put "$v"$'\n'"$(grep -v '^#' "$f")"
    done ;;
  merge)
    tmp=$(mktemp -d)
    "$bin" selfplay dameo --games 3 --random --json "$tmp/a.json" >/dev/null
    "$bin" selfplay english --games 4 --depth 1 --shard 1/2 --json "$tmp/b.json" >/dev/null
    seed < "$tmp/a.json"; seed < "$tmp/b.json"
    rm -rf "$tmp" ;;
  table)
    tmp=$(mktemp -d)
    "$bin" endgame english "K v K" --cache "$tmp" >/dev/null 2>&1
    for f in "$tmp"/*.dlt; do seed < "$f"; done
    rm -rf "$tmp" ;;
  pdnvar)
    for f in tests/pdn/*.pdn tests/fuzz_regressions/*.pdn; do [ -f "$f" ] && seed < "$f"; done
    put '[GameType "20"]'$'\n\n''1. 32-28 (1. 33-29 19-23 (1... 18-23 2. 29x18) 2. 28x19) 1... 19-23 (1... 18-23) 2. 28x19 14x23 *'
    put '1. 32-28 (1. 31-27 (1. 33-29 (1. 34-30))) 1... 17-21 *' ;;
  web)
    tmp=$(mktemp -d)
    for f in tests/pdn/*.pdn; do
      { printf 'pdn/import\n{"text": '; json "$f"; printf ', "game": 0}'; } > "$tmp/p"; seed < "$tmp/p"
      { printf 'pdn/import\n{"text": '; json "$f"; printf '}\n%%%%\ngoto\n{"node": 3}\n%%%%\nundo\n{}\n%%%%\npdn/export\n'; } > "$tmp/p"
      seed < "$tmp/p"
    done
    for f in variants/*.rules examples/*.rules tests/rules_errors/*.rules; do
      { printf 'rules/check\n{"text": '; json "$f"; printf '}'; } > "$tmp/r"; seed < "$tmp/r"
    done
    for f in variants/international.rules variants/frisian.rules; do
      { printf 'rules/apply\n{"text": '; json "$f"; printf '}'; } > "$tmp/r"; seed < "$tmp/r"
    done
    fens 40 | while IFS=$'\t' read -r v fen; do
      put "variant"$'\n'"{\"name\": \"$v\"}"$'\n%%\n'"fen"$'\n'"{\"fen\": \"$fen\"}"$'\n%%\nstate\n'
    done
    put 'play'$'\n''{"moves": ["32-28", "19-23", "28x19"]}'$'\n%%\n''undo'$'\n''{}'$'\n%%\n''redo'$'\n''{}'
    put 'play'$'\n''{"node": 0, "index": 3}'$'\n%%\n''explain'$'\n''{"text": "19-23"}'
    put 'setup'$'\n''{"sq": 5, "piece": [0, 1]}'$'\n%%\n''setup'$'\n''{"turn": 1}'$'\n%%\n''setup'$'\n''{"clear": true}'
    put 'variants'$'\n%%\n''variant'$'\n''{"name": "../x.rules"}'$'\n%%\n''rules'
    put 'new'$'\n''{}'$'\n%%\n''goto'$'\n''{"node": 99}'$'\n%%\n''fen'$'\n''{"fen": 3}'
    rm -rf "$tmp" ;;
  *) echo "unknown target \`$target\`: rules fen move case pdn repl merge table web pdnvar" >&2; exit 1 ;;
esac
echo "$(ls "$dir" | wc -l) seeds in $dir"
