"""How much hard's choices lose against the truth, by setting.

    python bench/hard_regret.py                     # 100 decisions, 96 true deals each
    python bench/hard_regret.py --states 10 --truth 16   # a quick look (CI)

Four ``medium`` bots play seeded Contract Rummy.  At some of the discard decisions hard would
search (each with chance 0.15, while some other seat has discarded this deal), hard's choice
is asked under each setting below (two bot seeds each), and every candidate any of them
chose, or hard would compare, is valued **with the other hands as they really are** (only
the stock re-dealt, ``--truth`` times, each played to the end of the round by medium bots):
what the seat would expect if it could see the hands.  A choice's regret is the best
candidate's value less its own, in points against the table's mean.  Settings: ``even`` —
medium's three best discards, 32 deals of the unseen cards, two rounds of the table, then
the leaf (the default before the screen);
``lean`` — ``infer=1`` (deals leaning on the discards, ``bench/discard_signal.py``);
``even64`` — 64 deals; ``width5``, ``wide`` — five of medium's discards compared, or
every one; ``screen8`` — every discard over 8 deals, the best three of them on to 32
(``screen8w5``: the best five).  ``--settings`` picks some (``even`` is always one).
Also the hint's (medium's) choice.  Paired differences over the
same decisions are the figures to read; figures only, nothing is asserted.

Decision ``k`` comes from game ``seed + i`` (seat ``s``'s bot ``7 * (seed + i) + s``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.engine.game import Game  # noqa: E402
from rummykit.engine.sample import Determinizer  # noqa: E402
from rummykit.players import HeuristicPlayer  # noqa: E402
from rummykit.players.search import SearchPlayer  # noqa: E402

SETTINGS = {"even": {"samples": 32, "screen": 0}, "lean": {"samples": 32, "infer": 1, "screen": 0},
            "even64": {"samples": 64, "screen": 0},
            "width5": {"samples": 32, "width": 5, "screen": 0},
            "wide": {"samples": 32, "width": 99, "screen": 0},
            "screen8": {"samples": 32, "screen": 8}, "screen8w5": {"samples": 32, "screen": 8, "width": 5}}


class TrueDeals(Determinizer):
    """The other hands as they really are in ``real``; only the stock's order re-dealt."""

    def __init__(self, view: object, real: Game):
        super().__init__(view, real.variant)  # type: ignore[arg-type]
        self.real = real

    def sample(self, rng: random.Random) -> Game:
        st = self.known.copy(rng=random.Random(rng.getrandbits(63)))
        left = Counter(self.pool)
        for s, need in enumerate(self.need):
            if need:
                mine = Counter(self.real.hands[s]) - Counter(st.hands[s])
                st.hands[s].extend(mine.elements())
                left -= mine
        rest = list(left.elements())
        rng.shuffle(rest)
        st.stock = rest[:self.view.stock_size]
        return Game.from_state(self.setup, st)


def decisions(states: int, seed: int, truth: int,
              settings: dict[str, dict[str, int]]) -> list[dict[str, object]]:
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    i = 0
    while len(rows) < states:
        g = rk.new_game("contract", players=4, seed=seed + i)
        bots = [HeuristicPlayer(7 * (seed + i) + s) for s in range(4)]
        probe = SearchPlayer(0, infer=1, screen=0)
        while not g.is_over and len(rows) < states:
            s = g.current_player
            acts = g.legal_actions()
            v = g.observe(s)
            if len(acts) > 1 and g.phase == "play" and rng.random() < 0.15:
                lean = probe.leaning(v, g.variant)
                hint = probe.heuristic.explain(v, acts)[0]
                cands = probe.candidates(v, acts, hint)
                if len(cands) > 1 and lean and any(lean):
                    chose = {}
                    for name, kw in settings.items():
                        picks = [SearchPlayer(31 * k + i, budget=1e9, **kw).choose(v, acts) for k in range(2)]
                        chose[name] = picks
                        cands += [a for a in picks if a not in cands]
                    if hint not in cands:
                        cands.insert(0, hint)
                    oracle = SearchPlayer(10_000 + i, samples=truth, budget=1e9, horizon=1000, screen=0)
                    vals = oracle.evaluate(v, cands, cands.index(hint), deals=TrueDeals(v, g))
                    value = {a: sum(x) / len(x) for a, x in zip(cands, vals, strict=True)}
                    best = max(value.values())
                    row: dict[str, object] = {"hint": best - value[hint]}
                    for name, picks in chose.items():
                        row[name] = sum(best - value[a] for a in picks) / len(picks)
                    rows.append(row)
            g.apply(acts[0] if len(acts) == 1 else bots[s].choose_in_game(g, s, acts))
        i += 1
    return rows


def mean_se(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
    return m, sd / math.sqrt(len(xs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--states", type=int, default=100)
    ap.add_argument("--truth", type=int, default=96, help="true deals per decision")
    ap.add_argument("--seed", type=int, default=500)
    ap.add_argument("--settings", default=",".join(SETTINGS), help="among " + ", ".join(SETTINGS))
    a = ap.parse_args()
    names = ["even", *(n for n in a.settings.split(",") if n and n != "even")]
    unknown = [n for n in names if n not in SETTINGS]
    if unknown:
        ap.error(f"unknown settings {', '.join(unknown)}: choose among {', '.join(SETTINGS)}")
    settings = {n: SETTINGS[n] for n in names}
    t0 = time.process_time()
    rows = decisions(a.states, a.seed, a.truth, settings)
    print(f"hard's regret against the true hands: {len(rows)} discard decisions of Contract Rummy for four, "
          f"{a.truth} true deals each, seed {a.seed}")
    for name in ("hint", *settings):
        m, se = mean_se([float(r[name]) for r in rows])  # type: ignore[arg-type]
        print(f"  {name:7s} regret {m:5.2f} ± {se:.2f} points")
    for name in (*names[1:], "hint"):
        m, se = mean_se([float(r[name]) - float(r["even"]) for r in rows])  # type: ignore[arg-type]
        print(f"  {name} - even: {m:+.2f} ± {se:.2f}")
    print(f"({time.process_time() - t0:.0f} s of CPU)")


if __name__ == "__main__":
    main()
