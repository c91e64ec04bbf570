"""rummykit benchmarks: print figures, assert nothing.

    python bench/bench.py            # the full run (about ten minutes)
    python bench/bench.py --quick    # a short run, as CI does (well under two minutes)

Every timing is CPU time (``time.process_time``: the machine may be shared, and other work
on it must not inflate the figures), except the search bot's decisions (its budget is wall
clock, so they are timed on the wall clock) and the wall-clock speed-up of parallel
``simulate`` (which reports CPU time beside it).  It prints, in one run:

- µs per decision (legal_actions + apply) in random play, per ruleset and player count
  (contract 4 and basic 2 players, shanghai and ten-card among them), and, with OpenSpiel
  installed (pip install -e '.[bench]'), µs per player decision of its C++ gin rummy played
  at random from Python (its chance steps are timed but not counted as decisions), played
  in rounds interleaved with rummykit's contract and basic games so that load on a shared
  machine falls on both alike, and the ratio rummykit / OpenSpiel (pooled, and the median
  of the rounds' ratios);
- ``find_contract`` beside an exact branch-and-bound reference written here
  (bench/bnb_reference.py) on the same seeded random 12-card hands (contract rules, rounds
  1-7 mixed; with jokers, with 2s wild too, and holding four wild cards): disagreements on
  the least leftover penalty (expected 0), median, 99th percentile and max of each, and
  the ratio engine / reference;
- µs per find_contract on Progressive's deals 12 and 14 (15-17 cards, 0-4 wilds);
- ms per decision of the medium bot and per searched decision of the hard bot (its default
  deals, no time cap: the work, not the clock) in a contract game for 4;
- games/s of ``rummykit simulate`` (contract, 4 players) with one worker and with two, and
  the speed-up;
- the hard bot's decision time against three medium bots over many decisions (budget 0.2 s;
  in the full run also its default 1 s): p50, p99, p99.9 and how many overran the budget;
- a summary: each target of the engine issue with its figure.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bnb_reference import ContractBnB, hand_value  # noqa: E402

import rummykit as rk  # noqa: E402
from rummykit._compiled import compiled  # noqa: E402
from rummykit.cards import format_cards, make_pack  # noqa: E402

CPU = time.process_time  # CPU time of this process: other work on a shared machine does not count


def random_play(variant: str, players: int, games: int, seed: int = 1) -> tuple[float, int]:
    """(CPU µs per decision, decisions) over ``games`` random games."""
    decisions = 0
    elapsed = 0.0
    for i in range(games):
        g = rk.new_game(variant, players=players, seed=seed + i)
        rng = random.Random(seed + i)
        t = CPU()
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            decisions += 1
        elapsed += CPU() - t
    return elapsed / decisions * 1e6, decisions


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def penalty_left(hand: list[rk.Card], melds: list[list[rk.Card]] | None) -> int | None:
    """The leftover penalty of the engine's answer (None: not met)."""
    if melds is None:
        return None
    return hand_value(hand) - sum(hand_value(m) for m in melds)


def find_contract_bench(n: int) -> dict[str, dict[str, float]]:
    """The engine's find_contract and the reference, hand by hand on the same hands."""
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
    # warm up both (imports, first solver built) on other hands
    warm = random.Random(99)
    for v, ref in ((plain, ContractBnB(False)), (twos, ContractBnB(True))):
        for _ in range(20):
            h, r = warm.sample(pack, 12), warm.randint(1, 7)
            v.find_contract(r, h, players=4)
            ref.solve(r, h)
    print("\nfind_contract vs an exact branch-and-bound reference (bench/bnb_reference.py), the same "
          "seeded random 12-card hands, contract rules, 4 players, rounds 1-7 mixed; CPU µs per call")
    print(f"{'hands':<24}{'n':>6}{'met':>5}{'disagree':>9}{'eng p50':>9}{'eng p99':>9}{'eng max':>9}"
          f"{'ref p50':>9}{'ref p99':>9}{'ref max':>9}{'ratio p50':>10}{'ratio p99':>10}")
    out: dict[str, dict[str, float]] = {}
    first_bad: list[str] = []
    for name, v, ref, hs, rs in (
        ("with jokers", plain, ContractBnB(False), hands, rounds),
        ("jokers, 2s wild", twos, ContractBnB(True), hands, rounds),
        ("four wilds, 2s wild", twos, ContractBnB(True), four, four_rounds),
    ):
        te: list[float] = []
        tr: list[float] = []
        met = bad = refused = 0
        for h, r in zip(hs, rs, strict=True):
            t = CPU()
            e = v.find_contract(r, h, players=4)
            te.append((CPU() - t) * 1e6)
            t = CPU()
            g = ref.solve(r, h)
            tr.append((CPU() - t) * 1e6)
            ep, rp = penalty_left(h, e), (None if g is None else g[0])
            met += rp is not None
            if ep != rp:
                bad += 1
                if not first_bad:
                    eng = "not met" if e is None else f"leaves {ep}: " + " | ".join(map(format_cards, e))
                    got = "not met" if g is None else f"leaves {rp}: " + " | ".join(map(format_cards, g[1]))
                    first_bad.append(f"first disagreement ({name}): round {r}, hand {format_cards(h)}: "
                                     f"engine {eng}; reference {got}")
            if g is not None and not v.meets_contract(r, [[rk.cards.CARDS[f] for f in m] for m in g[1]], h):
                refused += 1  # the reference's melds, judged by the engine's own meets_contract
        row = {"n": len(hs), "met": met, "disagree": bad, "refused": refused,
               "eng_p50": statistics.median(te), "eng_p99": pct(te, 0.99), "eng_max": max(te),
               "ref_p50": statistics.median(tr), "ref_p99": pct(tr, 0.99), "ref_max": max(tr)}
        row["ratio_p50"] = row["eng_p50"] / row["ref_p50"]
        row["ratio_p99"] = row["eng_p99"] / row["ref_p99"]
        out[name] = row
        print(f"{name:<24}{len(hs):>6}{met / len(hs):>5.0%}{bad:>9}{row['eng_p50']:>9.1f}"
              f"{row['eng_p99']:>9.1f}{row['eng_max']:>9.0f}{row['ref_p50']:>9.1f}{row['ref_p99']:>9.1f}{row['ref_max']:>9.0f}"
              f"{row['ratio_p50']:>10.2f}{row['ratio_p99']:>10.2f}")
    total = sum(int(r["disagree"]) for r in out.values())
    refused = sum(int(r["refused"]) for r in out.values())
    print(f"disagreements on met / not met and the least leftover penalty: {total} of "
          f"{sum(int(r['n']) for r in out.values())} hands (expected 0); reference arrangements "
          f"refused by the engine's meets_contract: {refused}")
    if first_bad:
        print(first_bad[0])
    return out


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


def progressive_bench(n: int) -> dict[int, float]:
    """find_contract on Progressive Rummy's deal 12 (five runs of 3) and 14 (a set of 5, a
    run of 5 and a pair) hands: the longest contracts of the fifteen rulesets."""
    v = rk.get_variant("progressive")
    rng = random.Random(12)
    print(f"\nfind_contract, progressive deals 12 and 14: {n} seeded hands each, 15-17 cards, 0-4 wilds"
          " (half dense); CPU µs")
    print(f"{'deal':<34}{'median µs':>10}{'p99 µs':>10}{'max µs':>10}{'met':>7}")
    p99 = {}
    for deal in (12, 14):
        hs = progressive_hands(rng, n)
        ts, met = [], 0
        for h in hs:
            t = CPU()
            met += v.find_contract(deal, h, players=4) is not None
            ts.append((CPU() - t) * 1e6)
        p99[deal] = pct(ts, 0.99)
        print(f"{'deal ' + str(deal) + ' (' + v.contract_text(deal) + ')':<34}{statistics.median(ts):>10.1f}"
              f"{p99[deal]:>10.1f}{max(ts):>10.1f}{met / n:>7.0%}")
    return p99


def bot_bench(searches: int) -> None:
    """Contract for 4, hard at seat 0 and three medium, seed 1, until the hard bot has
    searched ``searches`` decisions; no time cap, so CPU time measures the work."""
    from rummykit.players import make_player

    g = rk.new_game("contract", players=4, seed=1)
    hard = make_player("hard:budget=1e9", seed=1)
    bots = [hard] + [make_player("medium", seed=s) for s in (2, 3, 4)]
    medium_s, medium_n, hard_s, hard_n = 0.0, 0, 0.0, 0
    while not g.is_over and hard_n < searches:
        s = g.current_player
        view, acts = g.view(s), g.legal_actions()
        t = CPU()
        a = bots[s].choose(view, acts)
        dt = CPU() - t
        if s:
            medium_s, medium_n = medium_s + dt, medium_n + 1
        elif hard.last_stats.get("searched"):
            hard_s, hard_n = hard_s + dt, hard_n + 1
        g.apply(a)
    print(f"\nbots, contract 4 players (hard and three medium, seed 1), CPU time: medium "
          f"{medium_s / max(1, medium_n) * 1000:.3f} ms per decision ({medium_n}); hard "
          f"{hard_s / max(1, hard_n) * 1000:.0f} ms per searched decision ({hard_n}, "
          f"{hard.samples} deals each, no time cap)")


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def simulate_bench(games: int) -> dict[int, float]:
    """``rummykit simulate`` (run_simulation, as the CLI calls it) for contract, 4 players,
    with one worker and with two (a process pool): games/s on the wall clock (what a
    parallel run buys) beside the CPU time of this process and its workers."""
    from rummykit.cli.simulate import run_simulation

    v = rk.get_variant("contract")
    load = os.getloadavg()[0]
    print(f"\nrummykit simulate, contract 4 players, {games} random games (seeds 1-{games}); "
          f"{os.cpu_count()} cores, load average {load:.1f} before")
    print(f"{'workers':<10}{'wall s':>8}{'games/s':>9}{'CPU s':>8}{'games/CPU-s':>13}")
    rate: dict[int, float] = {}
    summaries = []
    for workers in (1, 2):
        w0, c0, k0 = time.perf_counter(), CPU(), children_cpu()
        res = run_simulation(v, 4, games, 1, None, progress=False, workers=workers)
        wall = time.perf_counter() - w0
        cpu = (CPU() - c0) + (children_cpu() - k0)  # the pool's workers are reaped when it closes
        rate[workers] = games / wall
        summaries.append((res["mean_actions"], res["mean_scores"], res["round_endings"]))
        print(f"{workers:<10}{wall:>8.2f}{games / wall:>9.1f}{cpu:>8.2f}{games / cpu:>13.1f}")
    print(f"speed-up with 2 workers (wall clock): {rate[2] / rate[1]:.2f}x; the same games either way: "
          f"{'yes' if summaries[0] == summaries[1] else 'NO'} (wall clock here: CPU time cannot show "
          f"what a second core buys; the machine is shared, so the speed-up moves with its load)")
    return rate


def search_bot_bench(budget: float, searched_target: int, cap_s: float) -> dict[str, Any]:
    """The hard bot (seat 0, budget ``budget`` s) against three medium bots in seeded
    contract games for 4, until it has searched ``searched_target`` decisions or ``cap_s``
    seconds have passed.  Wall clock per choose(): the budget is wall clock."""
    from rummykit.players import make_player

    every: list[float] = []  # every decision of the hard bot
    searched: list[float] = []  # the decisions where its search ran (evaluate called)
    before: list[float] = []  # of those, the time before the search started (heuristic, candidates)
    cpu_over = 0  # decisions over the budget in CPU time too (the others waited for a core)
    start = time.perf_counter()
    game_seed = 0
    while len(searched) < searched_target and time.perf_counter() - start < cap_s:
        game_seed += 1
        g = rk.new_game("contract", players=4, seed=game_seed)
        hard = make_player(f"hard:budget={budget}", seed=game_seed)
        started: list[float] = []

        def timed_evaluate(*a: Any, _inner: Any = hard.evaluate, _started: list[float] = started) -> Any:
            _started.append(time.perf_counter())  # the search starts: its budget applies
            return _inner(*a)

        hard.evaluate = timed_evaluate  # type: ignore[attr-defined]  # instrumented, not changed
        bots = [hard] + [make_player("medium", seed=100 * game_seed + s) for s in (1, 2, 3)]
        while not g.is_over and len(searched) < searched_target and time.perf_counter() - start < cap_s:
            s = g.current_player
            view, acts = g.view(s), g.legal_actions()
            if s:
                g.apply(bots[s].choose(view, acts))
                continue
            started.clear()
            c = CPU()
            t = time.perf_counter()
            a = hard.choose(view, acts)
            dt = time.perf_counter() - t
            cpu_over += CPU() - c > budget
            every.append(dt)
            if started:
                searched.append(dt)
                before.append(started[0] - t)
            g.apply(a)
    over = sum(1 for x in every if x > budget)
    res = {"budget": budget, "decisions": len(every), "searched": len(searched), "over": over,
           "over_searched": sum(1 for x in searched if x > budget), "cpu_over": cpu_over,
           "p50": pct(searched, 0.5) if searched else float("nan"),
           "p99": pct(searched, 0.99) if searched else float("nan"),
           "p999": pct(searched, 0.999) if searched else float("nan"),
           "max": max(every) if every else float("nan"), "games": game_seed,
           "seconds": time.perf_counter() - start,
           "before_p50": pct(before, 0.5) if before else float("nan"),
           "before_max": max(before) if before else float("nan")}
    print(f"{budget:<9g}{res['games']:>5}{len(every):>10}{len(searched):>9}{res['p50'] * 1000:>9.1f}"
          f"{res['p99'] * 1000:>9.1f}{res['p999'] * 1000:>10.1f}{res['max'] * 1000:>9.1f}"
          f"{over:>7}{over / max(1, len(every)):>10.2%}{res['over_searched']:>10}{cpu_over:>9}"
          f"{res['before_p50'] * 1000:>9.1f}{res['before_max'] * 1000:>9.1f}{res['seconds']:>7.0f}")
    return res


def openspiel_gin(games: int, rng: random.Random) -> tuple[float, int] | None:
    """(CPU seconds, player decisions) of ``games`` random games of OpenSpiel's C++ gin rummy
    driven from Python; None without OpenSpiel.  Chance steps are timed, not counted."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    decisions = 0
    t = CPU()
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
    return CPU() - t, decisions


def peer_bench(rounds: int) -> tuple[dict[tuple[str, int], tuple[float, int]], float | None,
                                     dict[tuple[str, int], tuple[float, float, float]]]:
    """rummykit contract 4p and basic 2p beside OpenSpiel's gin rummy, interleaved: each round
    plays one game of each rummykit ruleset (seed 1 + round) then 12 OpenSpiel games (about
    as many decisions), so a burst of load on the shared machine hits all three alike.
    Returns pooled (µs per decision, decisions) per ruleset, OpenSpiel's pooled µs, and per
    ruleset the ratio of pooled times with the median and quartiles of the per-round ratios."""
    keys = (("contract", 4), ("basic", 2))
    spent = {k: [0.0, 0] for k in keys}
    os_spent = [0.0, 0]
    per_round: dict[tuple[str, int], list[float]] = {k: [] for k in keys}
    rng = random.Random(1)
    for i in range(rounds):
        mine = {}
        for k in keys:
            us, dec = random_play(k[0], k[1], 1, seed=1 + i)
            spent[k][0] += us * dec
            spent[k][1] += dec
            mine[k] = us
        got = openspiel_gin(12, rng)
        if got is None:
            continue
        os_spent[0] += got[0] * 1e6
        os_spent[1] += got[1]
        for k in keys:
            per_round[k].append(mine[k] / (got[0] * 1e6 / got[1]))
    pooled = {k: (spent[k][0] / spent[k][1], int(spent[k][1])) for k in keys}
    if not os_spent[1]:
        return pooled, None, {}
    os_us = os_spent[0] / os_spent[1]
    ratios = {k: (pooled[k][0] / os_us, statistics.median(per_round[k]), pct(per_round[k], 0.25),
                  pct(per_round[k], 0.75)) for k in keys}
    return pooled, os_us, ratios  # type: ignore[return-value]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a short run (CI): fewer games and hands")
    args = ap.parse_args()
    quick = args.quick
    games = 2 if quick else 20
    hands = 1000 if quick else 10_000
    wall0 = time.perf_counter()
    form = "compiled with mypyc" if compiled() else "pure Python"
    print(f"rummykit {rk.__version__} benchmark ({'quick' if quick else 'full'} run; figures, no "
          f"assertions); engine {form} (from {Path(rk.__file__).parent})")
    print("Timings are CPU time (time.process_time): the machine may be shared with other work. "
          "Exceptions, said where they come: the search bot's decisions and simulate's speed-up "
          "(wall clock).")
    rounds = 8 if quick else 40
    pooled, os_us, ratios = peer_bench(rounds)
    print(f"\nrandom play, {games} games each: CPU µs per decision (legal_actions + apply); contract 4 and "
          f"basic 2: {rounds} games each, interleaved with OpenSpiel (below)")
    print(f"{'ruleset':<16}{'players':>8}{'decisions':>11}{'µs/decision':>13}")
    results = {}
    for variant, players in (("contract", 4), ("basic", 2), ("shanghai", 4), ("ten-card", 5),
                             ("liverpool", 4), ("may-i", 4), ("combination", 4), ("traditional", 2),
                             ("wrotham", 4), ("seven-hand", 4), ("progressive", 4)):
        if quick and variant not in ("contract", "basic", "shanghai", "ten-card"):
            continue
        if (variant, players) in pooled:
            us, dec = pooled[(variant, players)]
        else:
            n = games if variant not in ("combination", "progressive") else max(1, games // 4)
            us, dec = random_play(variant, players, n)
        results[(variant, players)] = us
        print(f"{variant:<16}{players:>8}{dec:>11}{us:>13.1f}")
    if os_us is None:
        print("\nOpenSpiel not installed (pip install -e '.[bench]'): no peer ratio.")
    else:
        print(f"\nOpenSpiel gin_rummy (C++ from Python), random play, {rounds * 12} games interleaved with "
              f"rummykit's: {os_us:.1f} CPU µs per player decision")
        for key, (pool_r, med, q1, q3) in ratios.items():
            print(f"ratio rummykit {key[0]} {key[1]}p / OpenSpiel gin rummy: {pool_r:.2f} pooled; per round "
                  f"median {med:.2f} (quartiles {q1:.2f}-{q3:.2f}); below 1: rummykit is faster per decision")
    fc = find_contract_bench(hands)
    prog = progressive_bench(200 if quick else 2000)
    bot_bench(10 if quick else 60)
    sim = simulate_bench(24 if quick else 160)
    print("\nhard bot vs three medium bots, contract 4 players (seeded games 1, 2, ...): wall-clock ms per "
          "decision (the budget is wall clock).\nPercentiles over the decisions where it searched; "
          "'over': decisions of any kind longer than the budget (% of all), 'in search': of those "
          "searched;\n'CPU over': decisions over the budget in CPU time too (the rest of the overruns "
          "waited for a core); 'pre': time before\nits search starts (heuristic, candidates), outside "
          "the budget's own clock")
    print(f"{'budget s':<9}{'games':>5}{'decisions':>10}{'searched':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'p99.9 ms':>10}{'max ms':>9}{'over':>7}{'over %':>10}{'in search':>10}{'CPU over':>9}"
          f"{'pre p50':>9}{'pre max':>9}{'wall s':>7}")
    bots = [search_bot_bench(0.2, 10 if quick else 1000, 30 if quick else 330)]
    if not quick:
        bots.append(search_bot_bench(1.0, 100, 120))

    print("\n" + "=" * 108)
    print("summary: the engine issue's targets (CPU time unless said; figures as measured on this run)")
    print("=" * 108)
    rows: list[tuple[str, str, str]] = []
    if ratios:
        ok = all(r[0] <= 1.0 for r in ratios.values())
        rows.append(("µs/decision vs OpenSpiel gin_rummy, ratio ≤ 1.0",
                     ", ".join(f"{k[0]} {k[1]}p {results[k]:.1f} µs = {r[0]:.2f} (per-round median "
                               f"{r[1]:.2f})" for k, r in ratios.items()) + f"; OpenSpiel {os_us:.1f} µs",
                     verdict(ok)))
    else:
        rows.append(("µs/decision vs OpenSpiel gin_rummy, ratio ≤ 1.0", "OpenSpiel not installed",
                     "not measured"))
    dis = sum(int(r["disagree"]) for r in fc.values())
    rows.append(("find_contract agrees with the B&B reference", f"{dis} disagreements in "
                 f"{sum(int(r['n']) for r in fc.values())} hands", verdict(dis == 0)))
    for name, r in fc.items():
        rows.append((f"find_contract/reference ≤ 1.0, {name}",
                     f"p50 {r['eng_p50']:.0f}/{r['ref_p50']:.0f} µs = {r['ratio_p50']:.2f}, "
                     f"p99 {r['eng_p99']:.0f}/{r['ref_p99']:.0f} µs = {r['ratio_p99']:.2f}",
                     verdict(r["ratio_p50"] <= 1.0 and r["ratio_p99"] <= 1.0)))
    four = fc["four wilds, 2s wild"]
    rows.append(("4-wild find_contract p99 < 1 ms", f"engine p50 {four['eng_p50'] / 1000:.2f} ms, p99 "
                 f"{four['eng_p99'] / 1000:.2f} ms (reference p99 {four['ref_p99'] / 1000:.2f} ms)",
                 verdict(four["eng_p99"] < 1000)))
    for b in bots:
        rows.append((f"hard bot's {b['budget']:g} s budget not overrun at p99.9 (wall)",
                     f"p99.9 {b['p999'] * 1000:.0f} ms over {b['searched']} searched decisions; "
                     f"overruns {b['over']} of {b['decisions']} decisions "
                     f"({b['over'] / max(1, b['decisions']):.2%}), {b['over_searched']} of {b['searched']} "
                     f"searched ({b['over_searched'] / max(1, b['searched']):.2%}); {b['cpu_over']} over "
                     "in CPU time too",
                     verdict(b["p999"] <= b["budget"])))
    rows.append(("progressive deals 12 / 14 p99 (figure)",
                 f"{prog[12] / 1000:.1f} ms / {prog[14] / 1000:.1f} ms", "-"))
    rows.append(("simulate contract 4p games/s, 1/2 workers (wall)",
                 f"{sim[1]:.1f} / {sim[2]:.1f}, speed-up {sim[2] / sim[1]:.2f}x", "-"))
    for target, figure, v in rows:
        print(f"{target:<54}{v:<9}{figure}")
    print(f"\n(bench wall time {time.perf_counter() - wall0:.0f} s)")


if __name__ == "__main__":
    main()
