"""The arena: bots play each other and are measured.

Duplicate play: every deal (a game seed) is played once per rotation of the line-up, so
each entry of ``--bots`` sits at every seat with the same cards dealt.  Results are per
entry of the line-up (``medium``, ``medium (2)``, ...): games, win share (ties shared)
with a 95% Wilson interval, mean final score, rounds won by going out, mean decision
time, and an openskill (Plackett-Luce) rating with mu ± 2 sigma.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .engine.game import new_game
from .players import make_player


@dataclass
class GameResult:
    deal: int
    rotation: int
    entries: list[int]  # entry index at each seat
    scores: list[float]
    winners: list[int]  # seats
    outs: list[int]  # rounds each seat went out
    think: list[float]  # seconds of decision time per seat
    decisions: list[int]


def entry_labels(bots: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b} ({seen[b]})")
    return out


def play_one(variant: str, bots: Sequence[str], deal: int, rotation: int, seed: int) -> GameResult:
    """One game of the line-up rotated by ``rotation`` on deal ``deal`` (top level, so a
    process pool can call it)."""
    n = len(bots)
    entries = [(s + rotation) % n for s in range(n)]
    game_seed = seed * 1_000_003 + deal
    players = [make_player(bots[e], seed=game_seed * 31 + e) for e in entries]
    g = new_game(variant, players=n, seed=game_seed)
    think = [0.0] * n
    decisions = [0] * n
    while not g.is_over:
        s = g.current_player
        acts = g.legal_actions()
        t = time.perf_counter()
        a = players[s].choose(g.view(s), acts)
        think[s] += time.perf_counter() - t
        decisions[s] += 1
        g.apply(a)
    outs = [sum(1 for r in g.history if r["winner"] == s) for s in range(n)]
    return GameResult(deal, rotation, entries, [float(x) for x in g.scores], list(g.winners), outs,
                      think, decisions)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@dataclass
class Summary:
    variant: str
    players: int
    games: int
    seed: int
    bots: list[dict[str, Any]] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)


def run_arena(
    variant: str,
    bots: Sequence[str],
    games: int,
    seed: int = 1,
    workers: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> Summary:
    """Play ``games`` games (rounded up to whole rotations) and summarise them."""
    n = len(bots)
    deals = max(1, math.ceil(games / n))
    jobs = [(variant, list(bots), d, r, seed) for d in range(deals) for r in range(n)]
    results: list[GameResult] = []
    if workers <= 1:
        for job in jobs:
            res = play_one(*job)
            results.append(res)
            if on_game:
                on_game(res)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_one, *job) for job in jobs]
            for fut in as_completed(futures):
                res = fut.result()
                results.append(res)
                if on_game:
                    on_game(res)
    results.sort(key=lambda r: (r.deal, r.rotation))
    return summarise(variant, bots, results, seed)


def summarise(variant: str, bots: Sequence[str], results: list[GameResult], seed: int) -> Summary:
    from openskill.models import PlackettLuce

    from .rules.registry import get_variant

    n = len(bots)
    labels = entry_labels(bots)
    low_wins = get_variant(variant).spec.scoring != "winner_takes"
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    wins = [0.0] * n
    score_sum = [0.0] * n
    outs = [0] * n
    think = [0.0] * n
    decisions = [0] * n
    scores_by_entry: list[list[float]] = [[] for _ in range(n)]
    for res in results:
        for seat, e in enumerate(res.entries):
            if seat in res.winners:
                wins[e] += 1 / len(res.winners)
            score_sum[e] += res.scores[seat]
            scores_by_entry[e].append(res.scores[seat])
            outs[e] += res.outs[seat]
            think[e] += res.think[seat]
            decisions[e] += res.decisions[seat]
        order = [res.scores[seat] if low_wins else -res.scores[seat] for seat in range(n)]
        teams = [[ratings[e]] for e in res.entries]
        ranked = model.rate(teams, scores=[-x for x in order])
        for seat, e in enumerate(res.entries):
            ratings[e] = ranked[seat][0]
    g = len(results)
    out = Summary(variant, n, g, seed, results=results)
    for e in range(n):
        lo, hi = wilson(wins[e], g)
        r = ratings[e]
        out.bots.append({
            "bot": labels[e],
            "games": g,
            "win_share": wins[e] / g if g else 0.0,
            "win_share_ci": [lo, hi],
            "mean_score": score_sum[e] / g if g else 0.0,
            "rounds_out": outs[e],
            "mean_decision_ms": think[e] / max(1, decisions[e]) * 1000,
            "rating": r.mu,
            "rating_ci": [r.mu - 2 * r.sigma, r.mu + 2 * r.sigma],
            "scores": scores_by_entry[e],
        })
    return out
