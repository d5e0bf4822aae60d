"""Bulk calls let go of the interpreter lock: other Python threads run while they count.

The check does not depend on the machine's speed: the call is made again and again for a while,
and this thread's longest pause is compared with the longest single call. Holding the lock, a
call would stop this thread's loop for the whole call."""

import threading
import time

import damelab

# How long the calls are repeated (seconds), and the shortest longest-call for which the
# comparison means something (well above the interpreter's 5 ms switch interval).
REPEAT_FOR = 0.4
MEANINGFUL_CALL = 0.02


def largest_gap_while(call):
    """Run `call` again and again in a thread for REPEAT_FOR seconds; the longest pause of
    this thread's loop meanwhile, and the longest single call."""
    started = threading.Event()
    calls = []

    def run():
        started.set()
        until = time.perf_counter() + REPEAT_FOR
        while True:
            t0 = time.perf_counter()
            call()
            t1 = time.perf_counter()
            calls.append(t1 - t0)
            if t1 >= until:
                break

    t = threading.Thread(target=run)
    t.start()
    started.wait()
    last, gap = time.perf_counter(), 0.0
    while t.is_alive():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    t.join()
    return gap, max(calls)


def test_perft_runs_without_the_lock(international):
    p = international.start()
    gap, longest = largest_gap_while(lambda: p.perft(8))
    assert longest > MEANINGFUL_CALL, longest
    assert gap < longest / 2, (gap, longest)


def test_selfplay_runs_without_the_lock():
    v = damelab.Variant.load("international")
    gap, longest = largest_gap_while(
        lambda: damelab.selfplay(v, games=10000, random=True, threads=1)
    )
    assert longest > MEANINGFUL_CALL, longest
    assert gap < longest / 2, (gap, longest)
