"""Benchmarks of the Python package (not timed tests): docs/python.md reports their figures.

    python python/examples/bench.py [path/to/damelab]

1. `legal_moves` + `push` + `pop` from Python on international middlegame positions (random
   games' positions after 20 to 40 plies): microseconds per call and per round of the three.
2. Random playouts through the bulk call (`damelab.selfplay(random=True)`, one thread) against
   the command line's `damelab selfplay international --random --threads 1`: games per second.
"""

import random
import re
import subprocess
import sys
import time

import damelab


def middlegame_positions(v, count, seed=7):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = v.start()
        plies = rng.randint(20, 40)
        for _ in range(plies):
            moves = p.legal_moves
            if not moves:
                break
            p.push(rng.choice(moves))
        if p.legal_moves:
            out.append(v.position(p.fen()))
    return out


def bench_moves(v, rounds=300):
    """Loops over the positions, timed in this process's CPU time (the machine may be shared):
    `legal_moves` of a position already listed (`pop` finds them again), `push` + `pop` of its
    first move, and `push` + `legal_moves` of the new position (never listed before: generated
    and wrapped) + `pop`."""
    positions = middlegame_positions(v, 100)
    firsts = [p.legal_moves[0] for p in positions]
    clock = time.process_time

    def loop(body):
        t = clock()
        for _ in range(rounds):
            for p, m in zip(positions, firsts):
                body(p, m)
        return (clock() - t) * 1e6 / (rounds * len(positions))

    def listed(p, m):
        p.legal_moves

    def push_pop(p, m):
        p.push(m)
        p.pop()

    def push_list_pop(p, m):
        p.push(m)
        p.legal_moves
        p.pop()

    warm = loop(listed)
    pp = loop(push_pop)
    ppl = loop(push_list_pop)
    mean_moves = sum(len(p.legal_moves) for p in positions) / len(positions)
    print(f"positions: {len(positions)} middlegame positions, {mean_moves:.1f} legal moves on average")
    print(f"push + pop: {pp:.2f} us")
    print(f"push + legal_moves of the new position + pop: {ppl:.2f} us"
          f" (so legal_moves of a new position: {ppl - pp:.2f} us)")
    print(f"legal_moves again (already listed): {warm:.2f} us")


def bench_playouts(v, exe, games=2000):
    t = time.perf_counter()
    damelab.selfplay(v, games=games, random=True, seed=1, threads=1)
    py_rate = games / (time.perf_counter() - t)
    print(f"python bulk call: {games} random games in 1 thread: {py_rate:.0f} games/s")
    if exe:
        t = time.perf_counter()
        out = subprocess.run(
            [exe, "selfplay", "international", "--games", str(games), "--random",
             "--threads", "1"], capture_output=True, text=True, check=True).stdout
        wall = games / (time.perf_counter() - t)
        m = re.search(r"\(([\d.]+) games/s", out)
        cli_rate = float(m.group(1)) if m else wall
        print(f"command line:     {cli_rate:.0f} games/s (its own figure; {wall:.0f} by the wall clock)")
        print(f"python / cli: {100 * py_rate / cli_rate:.0f}%")


if __name__ == "__main__":
    v = damelab.Variant.load("international")
    bench_moves(v)
    bench_playouts(v, sys.argv[1] if len(sys.argv) > 1 else None)
