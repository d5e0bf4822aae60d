"""Bulk calls let go of the interpreter lock: other Python threads run while they count."""

import threading
import time

import damelab


def largest_gap_while(work):
    """Run `work` in a thread; the longest pause of this thread's loop meanwhile, and how long
    the work took."""
    started = threading.Event()

    def run():
        started.set()
        work()

    t = threading.Thread(target=run)
    t0 = time.perf_counter()
    t.start()
    started.wait()
    last, gap = time.perf_counter(), 0.0
    while t.is_alive():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    t.join()
    return gap, time.perf_counter() - t0


def test_perft_runs_without_the_lock(international):
    p = international.start()
    gap, took = largest_gap_while(lambda: p.perft(8))
    # Holding the lock, the loop would stop for the whole count (0.3 s or more).
    assert took > 0.1
    assert gap < took / 2, (gap, took)


def test_selfplay_runs_without_the_lock():
    v = damelab.Variant.load("international")
    gap, took = largest_gap_while(lambda: damelab.selfplay(v, games=3000, random=True, threads=1))
    assert took > 0.05
    assert gap < took / 2, (gap, took)
