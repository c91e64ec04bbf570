"""The bots' ladder: each level's rating per ruleset family, and medium against random.

    python bench/ladder.py                    # 8 games per ruleset for the ladder, 40 for medium vs random
    python bench/ladder.py --quick            # 4 and 8: a smoke run
    python bench/ladder.py --games 16 --random-games 100 --workers 2 --seed 1

Figures only; nothing is asserted.  Two parts, both duplicate play (``rummykit.arena``:
every deal is played once per rotation of the line-up, so each entry sits at every seat
with the same cards):

1. **medium against three random**, in every ruleset: ``--random-games`` games each (line-up
   ``medium,random,random,random``; two-player rulesets too, with four seats where the
   ruleset allows four, else its least), medium's win share with a 95% Wilson interval, per
   ruleset and pooled per family.
2. **the ladder**: one seat of each level (``random,easy,medium,hard``) at every table, in
   every ruleset, ``--games`` games each.  Per family, an openskill (Plackett-Luce) rating of
   each level, updated game by game from the final ranking (rulesets in the order below,
   games in deal order), mu and mu ± 2 sigma; each level's win share; and how often each
   level finished ahead of the level below it at the same table (ties count half), with a
   95% interval: "beats the one below".

Families: basic (basic, traditional, block, wrotham), contract (contract, liverpool, may-i,
denexa, shanghai-powe, progressive, ten-card, combination: no calls), call (shanghai,
shanghai-kolsov, seven-hand: Shanghai and Rummy calls).  Hard plays at its defaults (32 deals
per searched decision, at most 1 s each).  A game seed is ``seed * 1_000_003 + deal``, as in
the arena.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.arena import GameResult, ResultsFile, run_arena, wilson  # noqa: E402

FAMILIES = {
    "basic": ["basic", "traditional", "block", "wrotham"],
    "contract": ["contract", "liverpool", "may-i", "denexa", "shanghai-powe", "progressive", "ten-card",
                 "combination"],
    "call": ["shanghai", "shanghai-kolsov", "seven-hand"],
}
LEVELS = ["random", "easy", "medium", "hard"]


def players_for(vid: str) -> int:
    lo, hi = rk.get_variant(vid).spec.players
    return 4 if lo <= 4 <= hi else lo


def ranks(vid: str, r: GameResult) -> list[float]:
    """Each entry's place at the end (1 best; ties share)."""
    low = not rk.get_variant(vid).spec.high_wins
    by_entry = [0.0] * len(r.entries)
    for seat, e in enumerate(r.entries):
        by_entry[e] = r.scores[seat] if low else -r.scores[seat]
    return [1 + sum(1 for y in by_entry if y < x) + 0.5 * (sum(1 for y in by_entry if y == x) - 1)
            for x in by_entry]


def medium_vs_random(games: int, seed: int, workers: int) -> None:
    print(f"\n1. medium against three random: {games} games per ruleset, seed {seed}")
    print(f"{'ruleset':<16} {'games':>5}  medium's win share (95% interval)")
    for family, vids in FAMILIES.items():
        wins = 0.0
        n = 0
        for vid in vids:
            bots = ["medium"] + ["random"] * (players_for(vid) - 1)
            s = run_arena(vid, bots, games, seed=seed, workers=workers)
            b = s.bots[0]
            wins += b["win_share"] * b["games"]
            n += b["games"]
            lo, hi = b["win_share_ci"]
            print(f"{vid:<16} {b['games']:>5}  {100 * b['win_share']:5.1f}% "
                  f"({100 * lo:.1f}%-{100 * hi:.1f}%)")
        lo, hi = wilson(wins, n)
        print(f"{'= ' + family:<16} {n:>5}  {100 * wins / n:5.1f}% ({100 * lo:.1f}%-{100 * hi:.1f}%)")


def ladder(games: int, seed: int, workers: int, results: Path | None = None) -> None:
    from openskill.models import PlackettLuce

    print(f"\n2. the ladder: random, easy, medium and hard at one table, {games} games per ruleset, "
          f"seed {seed}")
    for family, vids in FAMILIES.items():
        model = PlackettLuce()
        ratings = [model.rating(name=level) for level in LEVELS]
        wins = [0.0] * 4
        ahead = [0.0] * 4  # level i finished ahead of level i-1
        n = 0
        t0 = time.time()
        for vid in vids:
            if players_for(vid) < 4:
                continue
            if results is None:
                s = run_arena(vid, LEVELS, games, seed=seed, workers=workers)
            else:  # each game kept as it ends; a run stopped goes on from there
                results.mkdir(parents=True, exist_ok=True)
                rf = ResultsFile(str(results / f"ladder-{vid}.jsonl"), vid, LEVELS, seed)
                s = run_arena(vid, LEVELS, games, seed=seed, workers=workers, on_game=rf.append,
                              done=rf.load())
            for r in s.results:
                place = ranks(vid, r)
                n += 1
                for seat in r.winners:
                    wins[r.entries[seat]] += 1 / len(r.winners)
                for i in range(1, 4):
                    ahead[i] += 1.0 if place[i] < place[i - 1] else 0.5 if place[i] == place[i - 1] else 0.0
                ranked = model.rate([[ratings[e]] for e in range(4)], ranks=place)
                ratings = [t[0] for t in ranked]
        print(f"\n{family} ({', '.join(v for v in vids if players_for(v) >= 4)}): {n} games, "
              f"{time.time() - t0:.0f} s")
        print(f"  {'level':<7} {'rating (mu-2s..mu+2s)':<24} {'win share (95%)':<24} "
              "beats the one below (95%)")
        for i, level in enumerate(LEVELS):
            r = ratings[i]
            lo, hi = wilson(wins[i], n)
            rating = f"{r.mu:5.1f} ({r.mu - 2 * r.sigma:.1f}..{r.mu + 2 * r.sigma:.1f})"
            share = f"{100 * wins[i] / n:5.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"
            if i:
                alo, ahi = wilson(ahead[i], n)
                below = f"{100 * ahead[i] / n:5.1f}% ({100 * alo:.0f}-{100 * ahi:.0f}%) vs {LEVELS[i - 1]}"
            else:
                below = "-"
            print(f"  {level:<7} {rating:<24} {share:<24} {below}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="4 ladder games and 8 against random per ruleset")
    ap.add_argument("--games", type=int, default=8, help="ladder games per ruleset (whole rotations)")
    ap.add_argument("--random-games", type=int, default=40, help="medium-vs-random games per ruleset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--part", choices=("both", "random", "ladder"), default="both")
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma separated (default: all)")
    ap.add_argument("--results", type=Path, default=None,
                    help="a folder keeping the ladder's games (one file per ruleset): run again, it goes on")
    args = ap.parse_args()
    wanted = args.families.split(",")
    unknown = [f for f in wanted if f not in FAMILIES]
    if unknown:
        ap.error(f"unknown family {unknown[0]!r}; choose from {', '.join(FAMILIES)}")
    for f in list(FAMILIES):
        if f not in wanted:
            del FAMILIES[f]
    games, random_games = (4, 8) if args.quick else (args.games, args.random_games)
    if args.part in ("both", "random"):
        medium_vs_random(random_games, args.seed, args.workers)
    if args.part in ("both", "ladder"):
        ladder(games, args.seed, args.workers, args.results)


if __name__ == "__main__":
    main()
