"""rummykit benchmarks: print figures, assert nothing.

    python bench/bench.py            # the full run (a few minutes)
    python bench/bench.py --quick    # a short run, as CI does

It prints, in one run:
- µs per decision (legal_actions + apply) in random play, per ruleset and player count
  (contract 4 and basic 2 players, shanghai and ten-card among them);
- µs per find_contract on seeded random 12-card hands, with jokers and with 2s wild
  (median, 99th percentile, max), and on hands holding four wild cards;
- µs per find_contract on Progressive's deals 12 and 14 (15-17 cards, 0-4 wilds);
- ms per decision of the medium bot and per searched decision of the hard bot (its default
  deals, no time cap: the work, not the clock) in a contract game for 4;
- with OpenSpiel installed (pip install -e '.[bench]'), µs per player decision of its C++
  gin rummy played at random from Python (its chance steps are timed but not counted as
  decisions), and the ratio rummykit / OpenSpiel.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.cards import make_pack  # noqa: E402


def random_play(variant: str, players: int, games: int, seed: int = 1) -> tuple[float, int]:
    """(µs per decision, decisions) over ``games`` random games."""
    decisions = 0
    elapsed = 0.0
    for i in range(games):
        g = rk.new_game(variant, players=players, seed=seed + i)
        rng = random.Random(seed + i)
        t = time.perf_counter()
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            decisions += 1
        elapsed += time.perf_counter() - t
    return elapsed / decisions * 1e6, decisions


def solver_times(v: rk.Variant, hands: list[list[rk.Card]], rounds: list[int]) -> list[float]:
    out = []
    for h, r in zip(hands, rounds, strict=True):
        t = time.perf_counter()
        v.find_contract(r, h, players=4)
        out.append((time.perf_counter() - t) * 1e6)
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def find_contract_bench(n: int) -> None:
    rng = random.Random(1)
    plain = rk.get_variant("contract")
    twos = plain.with_options({"twos_wild": True})
    pack = make_pack(2, 3)
    hands = [rng.sample(pack, 12) for _ in range(n)]
    rounds = [rng.randint(1, 7) for _ in range(n)]
    # hands holding exactly four wild cards (jokers and 2s, 2s wild)
    wild = [c for c in make_pack(2, 4) if c.is_joker or c.rank == 2]
    natural = [c for c in make_pack(2, 4) if not (c.is_joker or c.rank == 2)]
    four = [rng.sample(wild, 4) + rng.sample(natural, 8) for _ in range(max(200, n // 5))]
    four_rounds = [rng.randint(1, 7) for _ in four]
    print(f"\nfind_contract, {n} seeded random 12-card hands (contract rules, rounds 1-7 mixed)")
    print(f"{'hands':<34}{'median µs':>10}{'p99 µs':>10}{'max µs':>10}{'met':>7}")
    for name, v, hs, rs in (
        ("with jokers", plain, hands, rounds),
        ("with jokers, 2s wild", twos, hands, rounds),
        (f"four wilds ({len(four)} hands, 2s wild)", twos, four, four_rounds),
    ):
        ts = solver_times(v, hs, rs)
        pairs = list(zip(hs, rs, strict=True))[:500]
        met = sum(v.find_contract(r, h, players=4) is not None for h, r in pairs)
        print(f"{name:<34}{statistics.median(ts):>10.1f}{pct(ts, 0.99):>10.1f}{max(ts):>10.1f}"
              f"{met / min(500, len(hs)):>7.0%}")


def progressive_hands(rng: random.Random, n: int) -> list[list[rk.Card]]:
    """15-17 card hands with 0-4 wild cards (jokers and 2s); half of them dense (naturals
    from two suits and seven ranks), where long searches happen."""
    pack = make_pack(2, 4)
    wild = [c for c in pack if c.is_joker or c.rank == 2]
    natural = [c for c in pack if not (c.is_joker or c.rank == 2)]
    out = []
    for i in range(n):
        size, w = rng.randint(15, 17), rng.randint(0, 4)
        pool = natural
        if i % 2:
            suits, lo = rng.sample(range(4), 2), rng.randint(3, 7)
            pool = [c for c in natural if c.suit in suits and lo <= c.rank < lo + 7]
        out.append(rng.sample(wild, w) + rng.sample(pool, size - w))
    return out


def progressive_bench(n: int) -> None:
    """find_contract on Progressive Rummy's deal 12 (five runs of 3) and 14 (a set of 5, a
    run of 5 and a pair) hands: the longest contracts of the fifteen rulesets."""
    v = rk.get_variant("progressive")
    rng = random.Random(12)
    print(f"\nfind_contract, progressive deals 12 and 14: {n} seeded hands each, 15-17 cards, 0-4 wilds"
          " (half dense); CPU µs")
    print(f"{'deal':<34}{'median µs':>10}{'p99 µs':>10}{'max µs':>10}{'met':>7}")
    for deal in (12, 14):
        hs = progressive_hands(rng, n)
        ts, met = [], 0
        for h in hs:
            t = time.thread_time()  # CPU time: other work on the machine does not inflate it
            met += v.find_contract(deal, h, players=4) is not None
            ts.append((time.thread_time() - t) * 1e6)
        print(f"{'deal ' + str(deal) + ' (' + v.contract_text(deal) + ')':<34}{statistics.median(ts):>10.1f}"
              f"{pct(ts, 0.99):>10.1f}{max(ts):>10.1f}{met / n:>7.0%}")


def bot_bench(searches: int) -> None:
    """Contract for 4, hard at seat 0 and three medium, seed 1, until the hard bot has
    searched ``searches`` decisions."""
    from rummykit.players import make_player

    g = rk.new_game("contract", players=4, seed=1)
    hard = make_player("hard:budget=1e9", seed=1)
    bots = [hard] + [make_player("medium", seed=s) for s in (2, 3, 4)]
    medium_s, medium_n, hard_s, hard_n = 0.0, 0, 0.0, 0
    while not g.is_over and hard_n < searches:
        s = g.current_player
        view, acts = g.view(s), g.legal_actions()
        t = time.perf_counter()
        a = bots[s].choose(view, acts)
        dt = time.perf_counter() - t
        if s:
            medium_s, medium_n = medium_s + dt, medium_n + 1
        elif hard.last_stats.get("searched"):
            hard_s, hard_n = hard_s + dt, hard_n + 1
        g.apply(a)
    print(f"\nbots, contract 4 players (hard and three medium, seed 1): medium "
          f"{medium_s / max(1, medium_n) * 1000:.3f} ms per decision ({medium_n}); hard "
          f"{hard_s / max(1, hard_n) * 1000:.0f} ms per searched decision ({hard_n}, "
          f"{hard.samples} deals each)")


def openspiel_gin(games: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    decisions = 0
    t = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(outs[rng.randrange(len(outs))][0])
            else:
                la = s.legal_actions()
                s.apply_action(la[rng.randrange(len(la))])
                decisions += 1
    return (time.perf_counter() - t) / decisions * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a short run (CI): fewer games and hands")
    args = ap.parse_args()
    quick = args.quick
    games = 2 if quick else 20
    hands = 1000 if quick else 10_000
    print(f"rummykit {rk.__version__} benchmark ({'quick' if quick else 'full'} run; figures, no assertions)")
    print(f"\nrandom play, {games} games each: µs per decision (legal_actions + apply)")
    print(f"{'ruleset':<16}{'players':>8}{'decisions':>11}{'µs/decision':>13}")
    results = {}
    for variant, players in (("contract", 4), ("basic", 2), ("shanghai", 4), ("ten-card", 5),
                             ("liverpool", 4), ("may-i", 4), ("combination", 4), ("traditional", 2),
                             ("wrotham", 4), ("seven-hand", 4), ("progressive", 4)):
        if quick and variant not in ("contract", "basic", "shanghai", "ten-card"):
            continue
        n = games if variant not in ("combination", "progressive") else max(1, games // 4)
        us, dec = random_play(variant, players, n)
        results[(variant, players)] = us
        print(f"{variant:<16}{players:>8}{dec:>11}{us:>13.1f}")
    find_contract_bench(hands)
    progressive_bench(200 if quick else 2000)
    bot_bench(10 if quick else 60)
    os_us = openspiel_gin(5 if quick else 200)
    if os_us is None:
        print("\nOpenSpiel not installed (pip install -e '.[bench]'): no peer ratio.")
        return
    print(f"\nOpenSpiel gin_rummy (C++ from Python), random play: {os_us:.1f} µs per player decision")
    for key in (("contract", 4), ("basic", 2)):
        print(f"ratio rummykit {key[0]} {key[1]}p / OpenSpiel gin rummy: {results[key] / os_us:.2f}"
              f" (below 1 means rummykit is faster per decision)")


if __name__ == "__main__":
    main()
