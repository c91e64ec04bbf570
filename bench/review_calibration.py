"""Are a review's losses real, or an artefact of dealing the unseen cards at random?

    python bench/review_calibration.py                 # the review bench's game, seat 0 (easy)
    python bench/review_calibration.py --seat 1 --samples 64

Plays the review bench's game (Contract Rummy, seed 1, easy at seat 0 and medium at the
others), reviews the seat (``rummykit.review``: the unseen cards dealt at random, consistently
with the seat's view), then, for every decision with points lost, runs the same rollouts from
the true position instead — the other players' real hands, only the stock shuffled — and
prints both differences (the better move's expected points less the move made's) side by
side, and their sums.  Figures only: nothing is asserted.  This script reads the game's hidden
cards on purpose: it measures the review, it is not one.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from review_bench import play  # noqa: E402

import rummykit as rk  # noqa: E402
from rummykit.players.review import FAR, _play_out  # noqa: E402
from rummykit.players.search import SearchPlayer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lineup", default="easy,medium,medium,medium")
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--samples", type=int, default=32, help="stock shuffles per decision")
    ap.add_argument("--horizon", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    rec = play(a.seed, [x.strip() for x in a.lineup.split(",")], None)
    r = rk.review(rec, a.seat, horizon=a.horizon, workers=a.workers)
    flagged = {x.step: x for d in r.deals for x in d.decisions if x.lost > 0}
    g = rk.replay(dict(rec, actions=[]))
    bot = SearchPlayer(1, samples=a.samples, budget=math.inf, horizon=a.horizon or FAR, screen=0,
                       variant=g.variant)
    sign = 1 if g.spec.high_wins else -1
    said = reviewed = true = 0.0
    print(f"seat {a.seat}: {len(flagged)} decisions with points lost")
    for step, text in enumerate(rec["actions"]):
        x = flagged.get(step)
        if x is not None:
            rng = random.Random(step)
            vals: dict[str, list[float]] = {x.best: [], x.taken: []}
            for _ in range(a.samples):
                base = g.copy()
                rng.shuffle(base.state.stock)  # the stock's order: the only thing left to chance
                seed = rng.getrandbits(32)
                for move, out in vals.items():
                    out.append(_play_out(bot, base.copy(), rk.parse_action(move), a.seat, seed, sign)[0])
            d = [p - q for p, q in zip(vals[x.best], vals[x.taken], strict=True)]
            ev = {c.action: c.ev or 0.0 for c in x.choices}
            diff = ev[x.best] - ev[x.taken]
            t, se = statistics.mean(d), statistics.stdev(d) / math.sqrt(len(d))
            said, reviewed, true = said + x.lost, reviewed + diff, true + t
            print(f"  deal {x.deal} turn {x.turn}: {x.taken} -> {x.best}: review lost {x.lost:.1f} "
                  f"(difference {diff:.1f}), true position {t:.1f} +- {se:.1f}")
        g.apply(text)
    print(f"sums: review lost {said:.1f}, review difference {reviewed:.1f}, true positions {true:.1f}")


if __name__ == "__main__":
    main()
