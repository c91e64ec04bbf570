"""Random legal play, for smoke-testing rulesets and measuring the engine."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..engine.game import Game, new_game
from ..rules.registry import Variant


def play_random(g: Game, rng: random.Random) -> int:
    """Play ``g`` to the end choosing uniformly among legal actions; returns the number
    of decisions."""
    n = 0
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
        n += 1
    return n


def run_simulation(
    v: Variant,
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any] | None,
    emit: Callable[[dict[str, Any]], None] | None = None,
    *,
    progress: bool = True,
    console: Console | None = None,
) -> dict[str, Any]:
    endings: Counter[str] = Counter()
    totals = [0.0] * players
    rounds = actions = 0
    t0 = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=console, disable=not progress, transient=True,
    ) as bar:
        task = bar.add_task(f"{v.id} x{players}", total=games)
        for i in range(games):
            g = new_game(v, players=players, seed=seed + i, options=options)
            actions += play_random(g, random.Random(seed + i))
            rounds += len(g.history)
            for r in g.history:
                endings[r["ended_by"]] += 1
            for s in range(players):
                totals[s] += float(g.scores[s])
            if emit is not None:
                emit(g.record())
            bar.advance(task)
    el = time.perf_counter() - t0
    return {
        "ruleset": v.id,
        "name": v.name,
        "players": players,
        "games": games,
        "seed": seed,
        "rounds": rounds,
        "mean_actions": actions / games,
        "round_endings": dict(endings),
        "mean_scores": [t / games for t in totals],
        "games_per_s": games / el if el else float("inf"),
        "us_per_decision": el / max(1, actions) * 1e6,
    }
