"""How long does a review take, and what does it find?  A whole game, reviewed for one seat.

    python bench/review_bench.py                    # Contract Rummy, 7 deals, seat 0, 2 processes
    python bench/review_bench.py --quick            # two deals, 16 deals of the unseen cards (CI)
    python bench/review_bench.py --seats 0,1,2,3 --games 3 --seed 1

Plays a seeded game of Contract Rummy (4 players: ``--lineup``, easy at seat 0 and medium at
the others by default), then reviews it with ``rummykit.review`` as ``rummykit review``
does (32 deals of the unseen cards per decision, rollouts 4 rounds of the table ahead, by
default), and prints, per seat reviewed: the time on the clock, the CPU time of the worker
processes (what an idle machine with ``--workers`` cores would take is about that divided by
the workers), the decisions reviewed and searched (played out), the agreement with the best
move, the expected points lost, and the deal results split into the cards' share and the
choices'.  The load average at the start is printed too: on a shared machine the clock
time grows with it.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.players import make_player  # noqa: E402


def play(seed: int, lineup: list[str], deals: int | None) -> dict:
    g = rk.new_game("contract", len(lineup), seed=seed, options={"deals": deals} if deals else None)
    bots = [make_player(b, seed * 10 + s, variant=g.variant) for s, b in enumerate(lineup)]
    while not g.is_over:
        s = g.current_player
        acts = g.legal_actions()
        g.apply(acts[0] if len(acts) == 1 else bots[s].choose(g.observe(s), acts))
    return g.record()


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="two deals, 16 deals of the unseen cards (CI)")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lineup", default="easy,medium,medium,medium")
    ap.add_argument("--seats", default="0", help="seats to review, comma-separated")
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--horizon", type=int, default=4, help="0: to the deal's end")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    deals = 2 if a.quick else None
    samples = 16 if a.quick else a.samples
    lineup = [x.strip() for x in a.lineup.split(",")]
    seats = [int(x) for x in a.seats.split(",")]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"review bench: contract, {lineup}, {deals or 7} deals, {samples} deals of the unseen cards per "
          f"decision, horizon {a.horizon or 'the deal end'}, {a.workers} workers, {os.cpu_count()} cores, "
          f"load average {load:.2f} at the start")
    rows = []
    for k in range(a.games):
        seed = a.seed + k
        t = time.perf_counter()
        rec = play(seed, lineup, deals)
        print(f"game seed {seed}: {len(rec['actions'])} actions, played in {time.perf_counter() - t:.1f} s")
        for seat in seats:
            c0 = children_cpu()
            t0 = time.perf_counter()
            r = rk.review(rec, seat, samples=samples, horizon=a.horizon or None, workers=a.workers)
            wall = time.perf_counter() - t0
            cpu = children_cpu() - c0 if a.workers > 1 else time.process_time()
            x = r.totals()
            rows.append((seed, seat, lineup[seat], wall, cpu, x))
            print(f"  seat {seat} ({lineup[seat]}): {len(r.deals)} deals reviewed in {wall:.1f} s on the "
                  f"clock, {cpu:.1f} s of CPU in the workers; {x['reviewed']} decisions ({x['searched']} "
                  "played out), "
                  f"{100 * (x['agreement'] or 0):.1f}% as the best move, {x['points_lost']:.1f} points lost; "
                  f"result {x['result']:+.1f} = cards {x['cards']:+.1f} + choices {x['choices']:+.1f}")
    if len(rows) > 1:
        print("\nper level (all games, seats reviewed):")
        for level in dict.fromkeys(r[2] for r in rows):
            mine = [r for r in rows if r[2] == level]
            n = sum(r[5]["reviewed"] for r in mine)
            agreed = sum(r[5]["agreed"] for r in mine)
            lost = sum(r[5]["points_lost"] for r in mine) / len(mine)
            print(f"  {level}: {n} decisions, {100 * agreed / max(1, n):.1f}% as the best move, "
                  f"{lost:.1f} points lost per game; clock {max(r[3] for r in mine):.1f} s at most")


if __name__ == "__main__":
    main()
