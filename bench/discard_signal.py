"""What a seat's discards say of the cards it holds (the odds of ``hard:infer=1``).

    python bench/discard_signal.py                 # Contract Rummy for four, 150 games
    python bench/discard_signal.py --games 20      # a quick look

Four ``medium`` bots play seeded Contract Rummy.  At every draw, for each other seat not yet
down, it counts the cards that seat holds: in deals whose contract asks for sets, of each rank
it has discarded this deal against the ranks it has not; in deals of runs only, of each card
by how far it lies in its suit from the seat's nearest discard (the card itself, one place,
two, three, farther).  ``hard:infer=1`` deals the unseen cards with the ratios of these
means (``search.LEAN_*``).  Game ``i`` is seeded ``seed + i``, seat ``s``'s bot
``7 * (seed + i) + s``.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.players import HeuristicPlayer  # noqa: E402


def measure(games: int, seed: int) -> tuple[Counter[str], Counter[str]]:
    """(positions counted, cards held) per signal."""
    seen: Counter[str] = Counter()
    held: Counter[str] = Counter()
    for i in range(games):
        g = rk.new_game("contract", players=4, seed=seed + i)
        bots = [HeuristicPlayer(7 * (seed + i) + s) for s in range(4)]
        rnd, logged = -1, 0
        thrown: list[set[int]] = []
        while not g.is_over:
            if g.round_no != rnd:
                rnd, logged, thrown = g.round_no, 0, [set() for _ in range(4)]
            for e in g.log[logged:]:
                if e["verb"] == "discard":
                    thrown[e["seat"]].add(int(rk.parse_card(e["card"])))
            logged = len(g.log)
            if g.phase == "draw":
                kinds = {c.kind for c in g.spec.contract(g.round_no)}
                for s in range(4):
                    if s == g.current_player or g.down[s]:
                        continue
                    hand = Counter(int(c) for c in g.hands[s])
                    if "set" in kinds:
                        name = "sets only" if kinds == {"set"} else "sets and runs"
                        ranks = {f % 13 for f in thrown[s]}
                        for r in range(13):
                            key = f"{name}: a rank it {'discarded' if r in ranks else 'did not discard'}"
                            seen[key] += 1
                            held[key] += sum(hand[r + 13 * k] for k in range(4))
                    else:
                        for f in range(52):
                            near = min((abs(f % 13 - x % 13) for x in thrown[s] if x // 13 == f // 13),
                                       default=9)
                            key = ("runs only: the card it discarded" if near == 0 else
                                   f"runs only: {near} place{'s' if near > 1 else ''} from it"
                                   if near <= 3 else "runs only: farther, or no discard in its suit")
                            seen[key] += 1
                            held[key] += hand[f]
            s = g.current_player
            acts = g.legal_actions()
            g.apply(acts[0] if len(acts) == 1 else bots[s].choose_in_game(g, s, acts))
    return seen, held


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    t0 = time.process_time()
    seen, held = measure(a.games, a.seed)
    print(f"Contract Rummy, 4 medium bots, {a.games} games from seed {a.seed}: cards held by a seat not down")
    print(f"{'signal':58s} {'positions':>10s} {'mean held':>10s}")
    for key in sorted(seen):
        print(f"{key:58s} {seen[key]:10d} {held[key] / seen[key]:10.3f}")
    print(f"({time.process_time() - t0:.0f} s of CPU; per rank where the contract has sets, "
          "per card face in runs only)")


if __name__ == "__main__":
    main()
