"""Does the medium bot hand the next player the card it goes out with?

    python bench/feeds.py                      # every ruleset, 20 games of four medium bots
    python bench/feeds.py --quick              # 3 games each, as CI runs it
    python bench/feeds.py --rulesets contract --games 100 --players 4 --show 3

Four ``medium`` bots play seeded games.  A deal counts as **fed** when its winner went out on
the turn it took the previous player's discard from the pile; **avoidable** when that card
fitted a meld on the table (the winner could lay it off) while the discarder had another
legal discard that fitted none.  The usability tester saw medium feed the next player this
way; a player of these games holds such a card back once the next player is nearly out.

Game ``i`` of a ruleset is seeded ``seed + i``; seat ``s``'s bot ``10 * (seed + i) + s``.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.engine.actions import Discard, Take  # noqa: E402
from rummykit.players import HeuristicPlayer  # noqa: E402


def fits(st: rk.engine.state.State, c: rk.Card) -> bool:
    """Whether ``c`` may be laid off on some meld on the table."""
    return st.rules is not None and any(m.layoff_meanings(c, st.rules) for m in st.table)


def run(vid: str, games: int, players: int, seed: int, show: int) -> tuple[int, int, int, list[str]]:
    """(deals, fed, avoidable, examples) over ``games`` games of ``vid``."""
    deals = fed = avoidable = 0
    examples: list[str] = []
    lo, hi = rk.get_variant(vid).spec.players
    n = min(max(players, lo), hi)
    for i in range(games):
        g = rk.new_game(vid, players=n, seed=seed + i)
        bots = [HeuristicPlayer(10 * (seed + i) + s) for s in range(n)]
        # the last discard: who, the card, whether it fitted the table, whether another legal
        # discard fitted none, the next player's cards
        last: tuple[int, rk.Card, bool, bool, int] | None = None
        fed_by: tuple[int, rk.Card, bool, bool, int] | None = None  # the discard the seat to play took
        taker: int | None = None
        while not g.is_over:
            rounds = len(g.history)
            who = g.current_player
            acts = g.legal_actions()
            a = acts[0] if len(acts) == 1 else bots[who].choose_in_game(g, who, acts)
            st = g.state
            if g.phase == "draw" and who != taker:
                taker = who if isinstance(a, Take) and last is not None else None
                fed_by = last if taker is not None else None
            if isinstance(a, Discard):
                other = any(isinstance(b, Discard) and not fits(st, b.card) for b in acts)
                last = (who, a.card, fits(st, a.card), other, len(st.hands[(who + 1) % n]))
            g.apply(a)
            if len(g.history) > rounds:
                deals += 1
                if taker is not None and fed_by is not None and g.history[-1].get("winner") == taker:
                    fed += 1
                    if fed_by[2] and fed_by[3]:
                        avoidable += 1
                        if len(examples) < show:
                            examples.append(f"{vid} game {i} deal {rounds + 1}: seat {fed_by[0]} discarded "
                                            f"{fed_by[1]} (fits the table) to seat {taker}, who held "
                                            f"{fed_by[4]} cards")
                last = fed_by = taker = None
    return deals, fed, avoidable, examples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="3 games per ruleset (CI)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4, help="(within each ruleset's range)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default=",".join(rk.variant_ids()))
    ap.add_argument("--show", type=int, default=0, help="print this many avoidable feeds per ruleset")
    args = ap.parse_args()
    games = 3 if args.quick else args.games
    print(f"medium bots, {games} games per ruleset, seed {args.seed}: deals won on the turn the winner took "
          "the previous discard")
    print(f"{'ruleset':<18}{'deals':>7}{'fed':>7}{'avoidable':>11}{'rate':>8}{'s':>6}")
    tot = [0, 0, 0]
    examples = []
    for vid in args.rulesets.split(","):
        t = time.monotonic()
        deals, fed, avoid, ex = run(vid, games, args.players, args.seed, args.show)
        examples += ex
        for k, x in enumerate((deals, fed, avoid)):
            tot[k] += x
        rate = avoid / max(1, deals)
        print(f"{vid:<18}{deals:>7}{fed:>7}{avoid:>11}{rate:>8.1%}{time.monotonic() - t:>6.0f}", flush=True)
    print(f"{'all':<18}{tot[0]:>7}{tot[1]:>7}{tot[2]:>11}{tot[2] / max(1, tot[0]):>8.1%}")
    print("fed: the winner took the previous player's discard and went out that turn; avoidable: that card "
          "fitted a\nmeld on the table while the discarder had a legal discard that fitted none; rate: "
          "avoidable per deal.")
    for e in examples:
        print(e)


if __name__ == "__main__":
    main()
