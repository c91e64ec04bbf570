"""Discards with an opponent a card or two from going out: medium's rule against the old one.

    python bench/near_out.py            # Contract Rummy for four, then Basic Rummy for two
    python bench/near_out.py --variant basic --players 2 --states 60 --truth 48
    python bench/near_out.py --quick    # a few decisions (CI)

Four (or two) ``medium`` bots play seeded games.  At every discard decision of a seat while
some opponent holds two cards or fewer, the seat's choice is asked twice: with medium's rule
(a meld in the making keeps only ``KEEP_NEAR`` of its worth, 0.2 with an opponent on one card,
0.5 on two: it may go out before the meld is made) and with the rule before it (the meld's
whole worth, ``KEEP_NEAR`` empty).  Where the two differ, both discards are valued **with the
other hands as they really are** (only the stock re-dealt, ``--truth`` times, each played to
the end of the round by medium bots, ``bench/hard_regret.py``'s ``TrueDeals``): the figure is
the mean gain of medium's choice over the old one, in points against the table's mean, per
decision where they differ, with its standard error.  Figures only: nothing is asserted.

Game ``i`` is seeded ``seed + i``; seat ``s``'s bot ``7 * (seed + i) + s``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hard_regret import TrueDeals  # noqa: E402

import rummykit as rk  # noqa: E402
import rummykit.players.heuristic as heuristic  # noqa: E402
from rummykit.players import HeuristicPlayer  # noqa: E402
from rummykit.players.search import SearchPlayer  # noqa: E402

NOW = dict(heuristic.KEEP_NEAR)


def choice(view: object, acts: list[rk.Action], old: bool) -> rk.Action:
    """Medium's discard with the rule of now, or (``old``) with the rule before it."""
    heuristic.KEEP_NEAR.clear()
    heuristic.KEEP_NEAR.update({} if old else NOW)
    try:
        return HeuristicPlayer(1).choose(view, acts)
    finally:
        heuristic.KEEP_NEAR.clear()
        heuristic.KEEP_NEAR.update(NOW)


def measure(variant: str, players: int, states: int, truth: int, seed: int) -> tuple[int, list[float]]:
    """How many decisions near an opponent's going out were met, and the gains where the
    two rules differ (``states`` of them, or fewer if 3,000 games run out first)."""
    gains: list[float] = []
    met = 0
    i = 0
    while len(gains) < states and i < 3000:
        g = rk.new_game(variant, players=players, seed=seed + i)
        bots = [HeuristicPlayer(7 * (seed + i) + s) for s in range(players)]
        while not g.is_over and len(gains) < states:
            s = g.current_player
            acts = g.legal_actions()
            if (len(acts) > 1 and g.phase == "play" and any(isinstance(a, rk.Discard) for a in acts)
                    and min(len(g.hands[x]) for x in range(players) if x != s) <= 2):
                met += 1
                view = g.observe(s)
                new, old = choice(view, acts, False), choice(view, acts, True)
                if new != old and isinstance(new, rk.Discard) and isinstance(old, rk.Discard):
                    judge = SearchPlayer(10_000 + i, samples=truth, budget=1e9, horizon=1000, screen=0)
                    vals = judge.evaluate(view, [old, new], 0, deals=TrueDeals(view, g))
                    gains.append(sum(b - a for a, b in zip(vals[0], vals[1], strict=True)) / len(vals[0]))
            g.apply(acts[0] if len(acts) == 1 else bots[s].choose_in_game(g, s, acts))
        i += 1
    return met, gains


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", help="one ruleset (default: contract for four, then basic for two)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--states", type=int, default=60, help="decisions where the rules differ, per ruleset")
    ap.add_argument("--truth", type=int, default=48, help="true deals per decision")
    ap.add_argument("--seed", type=int, default=901)
    ap.add_argument("--quick", action="store_true", help="4 decisions, 8 true deals each (CI)")
    a = ap.parse_args()
    states, truth = (4, 8) if a.quick else (a.states, a.truth)
    runs = [(a.variant, a.players)] if a.variant else [("contract", 4), ("basic", 2)]
    t0 = time.process_time()
    print(f"medium's discards with an opponent on two cards or fewer (KEEP_NEAR {NOW}) against the rule "
          f"before; {truth} true deals each, seed {a.seed}")
    for variant, players in runs:
        met, gains = measure(variant, players, states, truth, a.seed)
        if not gains:
            print(f"  {variant} for {players}: {met} such decisions, none where the two rules differ")
            continue
        m = sum(gains) / len(gains)
        se = math.sqrt(sum((x - m) ** 2 for x in gains) / max(1, len(gains) - 1) / len(gains))
        print(f"  {variant} for {players}: {len(gains)} of {met} such decisions differ; medium's choice "
              f"gains {m:+.2f} ± {se:.2f} points each")
    print(f"({time.process_time() - t0:.0f} s of CPU)")


if __name__ == "__main__":
    main()
