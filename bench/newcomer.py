"""Is `easy` beatable by a newcomer?  A stand-in for one, measured against the levels.

    python bench/newcomer.py                 # Contract Rummy and Basic Rummy for four, 80 games each
    python bench/newcomer.py --games 200 --variants contract,liverpool,basic
    python bench/newcomer.py --quick         # a few games (CI)

No person was measured: `Newcomer` below plays the rules of thumb a person learns in a first
game, from the seat's view and the legal actions alone, as every player does.  It reads the
contract and looks for its melds (sets, runs, or both: both where there is no contract, or
once down); goes down and lays off as soon as it can; takes the discard when it is wild or
makes a pair (sets) or sits next to a card of its suit (runs); buys (May I) only a card that
makes three of a rank for a set, twice a deal at most; never calls Shanghai or Rummy, never
swaps; discards the card with the fewest partners in hand (copies of its rank for sets,
cards of its suit one or two apart for runs), the highest in points among those, and never a
wild card while it holds a natural one.  That is a newcomer who keeps pairs and follows
suit, without counting what the others pick up or throw.

For each level it plays two newcomers against two of the level, seated N L N L, on duplicate
deals with every rotation (`rummykit arena`'s protocol: game ``deal`` of seed ``seed`` is dealt
``seed * 1_000_003 + deal``, the four rotations of one deal are one cluster).  It prints each
side's share of the wins (ties split) with its 95% interval, clustered by deal, and the mean
final score.  Parity is 50%: a level a newcomer can beat is one against which the newcomers'
share is near a half or above.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hard_regret import mean_se  # noqa: E402

import rummykit as rk  # noqa: E402
from rummykit.cards import Card, parse_card  # noqa: E402
from rummykit.engine.actions import (  # noqa: E402
    Action,
    Buy,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Take,
)
from rummykit.players import make_player  # noqa: E402


class Newcomer:
    """A player's first games: see the module docstring."""

    name = "newcomer"

    def __init__(self, ruleset: str):
        spec = rk.get_variant(ruleset).spec
        self.twos_wild = spec.twos_wild
        self.values = spec.values_table()

    def wild(self, c: Card) -> bool:
        return c.is_joker or (self.twos_wild and c.rank == 2)

    def partners(self, c: Card, hand: Sequence[Card], sets: bool, runs: bool) -> int:
        """Cards of the hand besides one ``c`` that go with it toward the melds wanted:
        copies of its rank (``sets``), cards of its suit one or two apart (``runs``; an ace
        beside both the two and the king)."""
        if self.wild(c):
            return 99
        n = 0
        own = 1  # the card itself, once
        for h in hand:
            if self.wild(h):
                continue
            if h == c and own:
                own = 0
            elif sets and h.rank == c.rank:
                n += 1
            elif runs and h.suit == c.suit and h.rank != c.rank and \
                    min((h.rank - c.rank) % 13, (c.rank - h.rank) % 13) <= 2:
                n += 1
        return n

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        hand = [parse_card(c) for c in view["hand"]]
        melds = [a for a in legal_actions if isinstance(a, Meld)]
        if melds:  # down at once, with as many cards as it can
            return max(melds, key=lambda a: len(a.cards()))
        layoffs = [a for a in legal_actions if isinstance(a, LayOff)]
        if layoffs:
            return layoffs[0]
        # the melds it looks for: the contract's, until down (no contract: sets and runs)
        contract = "" if view["down"][view["seat"]] else str(view.get("contract") or "")
        sets = "set" in contract or "run" not in contract
        runs = "run" in contract or "set" not in contract
        top = parse_card(view["discard_top"]) if view.get("discard_top") else None
        if top is not None and any(isinstance(a, Take) for a in legal_actions):
            if self.wild(top) or (sets and any(h.rank == top.rank for h in hand if not self.wild(h))) or (
                    runs and any(h.suit == top.suit and abs(h.rank - top.rank) == 1 for h in hand)):
                return Take()
        if top is not None and any(isinstance(a, Buy) for a in legal_actions):  # May I: a set, twice a deal
            if sets and not self.wild(top) and view["buys"][view["seat"]] < 2 and \
                    sum(1 for h in hand if h.rank == top.rank) >= 2:
                return Buy()
        for a in legal_actions:
            if isinstance(a, Draw) and not a.both:
                return a
        discards = [a for a in legal_actions if isinstance(a, Discard)]
        if discards:
            naturals = [a for a in discards if not self.wild(a.card)] or discards
            return min(naturals, key=lambda a: (self.partners(a.card, hand, sets, runs),
                                                -self.values[int(a.card)]))
        for a in legal_actions:
            if isinstance(a, Pass):
                return a
        return legal_actions[0]  # a cut, or a turn's one move


def play(variant: str, line_up: Sequence[str], deal: int, rotation: int,
         seed: int) -> tuple[list[float], list[float]]:
    """One game: seat s plays entry (s + rotation) % 4 of the line-up.  (Final scores, share
    of the win: each by entry.)"""
    n = len(line_up)
    entries = [(s + rotation) % n for s in range(n)]
    game_seed = seed * 1_000_003 + deal
    players = [Newcomer(variant) if line_up[e] == "newcomer"
               else make_player(line_up[e], seed=game_seed * 31 + e) for e in entries]
    g = rk.new_game(variant, players=n, seed=game_seed)
    while not g.is_over:
        s = g.current_player
        g.apply(players[s].choose(g.observe(s), g.legal_actions()))
    by_entry = [0.0] * n
    share = [0.0] * n
    for s, e in enumerate(entries):
        by_entry[e] = float(g.scores[s])
        if s in g.winners:
            share[e] = 1 / len(g.winners)
    return by_entry, share


def clustered(xs_by_deal: list[list[float]]) -> tuple[float, float]:
    """Mean and standard error, each deal's rotations one cluster (one deal: no error)."""
    means = [sum(v) / len(v) for v in xs_by_deal]
    return mean_se(means) if len(means) > 1 else (means[0], float("nan"))


def share_text(x: float, lo: float, hi: float, se: float) -> str:
    """``x`` as a percentage with its interval (one deal has no spread to measure)."""
    spread = "(one deal)   " if math.isnan(se) else f"({100 * lo:4.1f}-{100 * hi:5.1f}%)"
    return f"{100 * x:6.1f}% {spread}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="contract,basic")
    ap.add_argument("--levels", default="easy,medium", help="the levels the newcomers play against")
    ap.add_argument("--games", type=int, default=80,
                    help="games per ruleset and level (whole rotations of 4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="4 games of each")
    args = ap.parse_args()
    games = 4 if args.quick else max(4, args.games - args.games % 4)
    print(f"two newcomers (N) against two of a level (L), seated N L N L, {games} games per line, "
          f"seed {args.seed}: share of the wins (ties split), 95% interval clustered by deal")
    print(f"{'ruleset':<12} {'level':<7} {'newcomers win':>22} {'level wins':>22} "
          f"{'mean score N / L':>18} {'s':>6}")
    for variant in args.variants.split(","):
        for level in args.levels.split(","):
            t0 = time.perf_counter()
            line_up = ["newcomer", level, "newcomer", level]
            share: list[list[float]] = []
            score_n: list[float] = []
            score_l: list[float] = []
            for deal in range(games // 4):
                per = []
                for rotation in range(4):
                    scores, won = play(variant, line_up, deal, rotation, args.seed)
                    per.append(won[0] + won[2])
                    score_n += scores[0::2]
                    score_l += scores[1::2]
                share.append(per)
            m, se = clustered(share)
            lo, hi = max(0.0, m - 1.96 * se), min(1.0, m + 1.96 * se)
            print(f"{variant:<12} {level:<7} {share_text(m, lo, hi, se)}"
                  f" {share_text(1 - m, 1 - hi, 1 - lo, se)}"
                  f" {sum(score_n) / len(score_n):8.1f} / {sum(score_l) / len(score_l):<7.1f}"
                  f" {time.perf_counter() - t0:6.1f}", flush=True)


if __name__ == "__main__":
    main()
