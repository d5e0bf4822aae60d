#!/usr/bin/env bash
# Run one coverage-guided fuzz target (AFL++ through cargo-afl) for a fixed time, then print its
# executions, edges covered and findings: scripts/fuzz.sh TARGET SECONDS.
# Targets: rules fen move case pdn repl merge table web pdnvar (see docs/fuzzing.md). Every crash and hang is
# copied to tests/fuzz_afl/TARGET/, which `cargo test --test it fuzz_afl::` replays.
set -euo pipefail
trap 'echo "scripts/fuzz.sh: stopped at line $LINENO (exit $?)" >&2' ERR
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
secs=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v cargo-afl >/dev/null; then
  echo "cargo-afl is not installed: run \`cargo install cargo-afl\` (it builds AFL++ itself)" >&2
  exit 1
fi
cd "$root/fuzz"
nice -n 10 cargo afl build --release --quiet --bin "$target"
corpus=corpus/$target
if [ ! -d "$corpus" ] || [ -z "$(ls -A "$corpus")" ]; then
  "$root/scripts/fuzz-seeds.sh" "$target" "$root/fuzz/$corpus" ||
    { echo "scripts/fuzz.sh: could not seed the corpus of \`$target\`" >&2; exit 1; }
fi
out=out/$target
mkdir -p out
# AFL_NO_CMPLOG: the targets are built without CmpLog instrumentation (its forkserver fails to start).
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_AUTORESUME=1 \
  AFL_NO_AFFINITY=1 AFL_NO_CMPLOG=1
# -V: stop after SECONDS; -t: a run over 20 s is a hang (the first one compiles the bundled
# variants); -m none: the targets bound their own memory.
nice -n 10 cargo afl fuzz -i "$corpus" -o "$out" -V "$secs" -t 20000 -m none \
  -- "target/release/$target" > "$out.log" 2>&1 || { tail -20 "$out.log" >&2; exit 1; }
stats=$out/default/fuzzer_stats
get() { sed -n "s/^$1 *: *//p" "$stats"; }
keep=$root/tests/fuzz_afl/$target
found=0
for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
  [ -f "$f" ] || continue
  mkdir -p "$keep"
  cp "$f" "$keep/$(basename "$(dirname "$f")")-$(sha1sum "$f" | cut -c1-12)"
  found=$((found + 1))
done
echo "target $target: $(get execs_done) execs in $(get run_time) s, $(get edges_found) edges of $(get total_edges), corpus $(get corpus_count), $(get saved_crashes) crashes, $(get saved_hangs) hangs"
[ "$found" -eq 0 ] || echo "kept $found findings in $keep: replay them with \`cargo test --test it fuzz_afl::\`"
