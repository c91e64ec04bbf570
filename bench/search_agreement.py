"""How settled is the hard bot's choice?  Prints figures, asserts nothing.

    python bench/search_agreement.py                      # contract, 4 players, seeds 5 and 6
    python bench/search_agreement.py --seeds 5,6,7 --decisions 40 --deals 16 --reference 128
    python bench/search_agreement.py --most 64     # the small searches go on to 64 deals when close

Plays ``contract`` games (hard in seat 0, medium elsewhere, no time cap) and at each of the
hard bot's searched decisions asks four hard bots with ``--deals`` deals (other seeds) and
one with ``--reference`` deals the same question.  It prints how often each leaves the
heuristic's choice and how often the small search agrees with the large one.  When the large
search leaves the heuristic much more often than the small one, the small one's margin (two
standard errors over few deals) holds back moves the search would back with more deals.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.players import make_player  # noqa: E402
from rummykit.players.search import SearchPlayer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="5,6", help="game seeds, comma separated")
    ap.add_argument("--decisions", type=int, default=40, help="searched decisions per game")
    ap.add_argument("--deals", type=int, default=16, help="deals of the searches compared")
    ap.add_argument("--reference", type=int, default=128, help="deals of the reference search")
    ap.add_argument("--most", type=int, default=None,
                    help="the compared searches go on up to this many deals while their verdict is close")
    args = ap.parse_args()
    v = rk.get_variant("contract")
    n = left_small = left_ref = agree = deals = 0.0
    for seed in (int(s) for s in args.seeds.split(",")):
        g = rk.new_game("contract", players=4, seed=seed)
        hard = SearchPlayer(1, samples=args.deals, budget=1e9, variant=v)
        bots = [hard] + [make_player("medium", seed=s, variant=v) for s in (2, 3, 4)]
        searched = 0
        while not g.is_over and searched < args.decisions:
            s, acts = g.current_player, g.legal_actions()
            view = g.view(s)
            a = bots[s].choose(view, acts)
            if s == 0 and hard.last_stats.get("searched"):
                searched += 1
                heuristic = hard.heuristic.explain(view, acts)[0]
                ref = SearchPlayer(99, samples=args.reference, budget=1e9, variant=v).choose(view, acts)
                n += 1
                left_ref += ref != heuristic
                for k in range(4):
                    small = SearchPlayer(1000 + k, samples=args.deals, most=args.most, budget=1e9, variant=v)
                    got = small.choose(view, acts)
                    left_small += (got != heuristic) / 4
                    agree += (got == ref) / 4
                    deals += small.last_stats["samples"] / 4
            g.apply(a)
    print(f"contract, 4 players, seeds {args.seeds}: {n:.0f} searched decisions")
    print(f"  {args.reference} deals leave the heuristic's choice in {100 * left_ref / n:.0f}% of them")
    small = f"{args.deals} deals" + (f" (up to {args.most} when close)" if args.most else "")
    print(f"  {small} leave it in {100 * left_small / n:.0f}% (mean of four seeds)")
    print(f"  {small} choose as {args.reference} do in {100 * agree / n:.0f}%")
    print(f"  {small}: {deals / n:.1f} deals per searched decision on average")


if __name__ == "__main__":
    main()
