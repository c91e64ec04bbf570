"""The most meld actions `legal_actions()` lists in one position, in medium-bot games of every
ruleset at its smallest and largest table (the RL encoding holds 64: docs/rl.md).

    python bench/meld_options.py [--seconds 12] [RULESET ...]
"""

from __future__ import annotations

import argparse
import time

import rummykit as rk
from rummykit.engine.actions import Meld
from rummykit.players.base import make_player


def most_meld_options(vid: str, players: int, seconds: float) -> tuple[int, str, int, int]:
    """(most meld actions in one position, where, positions seen, games finished)."""
    start = time.monotonic()
    most, where, positions, games, seed = 0, "", 0, 0, 0
    while time.monotonic() - start < seconds:
        g = rk.new_game(vid, players=players, seed=seed)
        bots = [make_player("medium", seed=seed * 10 + s) for s in range(players)]
        while not g.is_over and time.monotonic() - start < seconds:
            legal = g.legal_actions()
            k = sum(1 for a in legal if type(a) is Meld)
            positions += 1
            if k > most:
                most, where = k, f"seed {seed} deal {g.round_no}"
            s = g.current
            g.apply(bots[s].choose(g.view(s), legal))
        games += g.is_over
        seed += 1
    return most, where, positions, games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="rulesets (default: all)")
    ap.add_argument("--seconds", type=float, default=12.0, help="per ruleset and table size")
    args = ap.parse_args()
    for vid in args.rulesets or rk.variant_ids():
        sp = rk.get_variant(vid).spec
        for n in sorted(set(sp.players)):
            most, where, positions, games = most_meld_options(vid, n, args.seconds)
            print(f"{vid} {n}p: most meld options {most} ({where}); {positions} positions, {games} games",
                  flush=True)


if __name__ == "__main__":
    main()
