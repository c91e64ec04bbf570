"""Random legal play, for smoke-testing rulesets and measuring the engine.

Games run on every core by default (a process pool; ``workers=1`` runs them here).
Game ``i`` is seeded ``seed + i`` whatever the worker, and results are gathered in game
order, so any number of workers gives the same records and the same summary."""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..engine.game import Game, new_game
from ..rules.registry import Variant, build_spec

GameOut = tuple[int, list[str], list[float], dict[str, Any] | None]  # actions, endings, scores, record


def default_workers() -> int:
    return os.cpu_count() or 1


def play_random(g: Game, rng: random.Random) -> int:
    """Play ``g`` to the end choosing uniformly among legal actions; returns the number
    of decisions."""
    n = 0
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
        n += 1
    return n


def _one(v: Variant, players: int, seed: int, options: dict[str, Any] | None, record: bool) -> GameOut:
    g = new_game(v, players=players, seed=seed, options=options)
    actions = play_random(g, random.Random(seed))
    return (actions, [r["ended_by"] for r in g.history], [float(s) for s in g.scores],
            g.record() if record else None)


@cache
def _variant_from(raw_key: str) -> Variant:
    import json

    raw = json.loads(raw_key)
    return Variant(build_spec(raw, "simulate"), raw)


def _chunk(raw_key: str, players: int, seeds: range, options: dict[str, Any] | None,
           record: bool) -> list[GameOut]:
    """A run of games in a worker process (top level, so the pool can call it)."""
    v = _variant_from(raw_key)
    return [_one(v, players, s, options, record) for s in seeds]


def _games(v: Variant, players: int, games: int, seed: int, options: dict[str, Any] | None, record: bool,
           workers: int) -> Iterator[GameOut]:
    """Every game's outcome, in game order."""
    if workers <= 1 or games == 1:
        for i in range(games):
            yield _one(v, players, seed + i, options, record)
        return
    import json

    raw_key = json.dumps(v.raw, sort_keys=True)
    size = max(1, min(25, games // (workers * 4)))  # small chunks: the progress bar moves
    starts = range(0, games, size)
    with ProcessPoolExecutor(max_workers=min(workers, len(starts))) as pool:
        futures = [pool.submit(_chunk, raw_key, players, range(seed + a, seed + min(games, a + size)),
                               options, record) for a in starts]
        for f in futures:
            yield from f.result()


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
    workers: int = 1,
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
        for n, ends, scores, record in _games(v, players, games, seed, options, emit is not None, workers):
            actions += n
            rounds += len(ends)
            endings.update(ends)
            for s in range(players):
                totals[s] += scores[s]
            if emit is not None and record is not None:
                emit(record)
            bar.advance(task)
    el = time.perf_counter() - t0
    return {
        "ruleset": v.id,
        "name": v.name,
        "players": players,
        "games": games,
        "seed": seed,
        "workers": workers,
        "rounds": rounds,
        "mean_actions": actions / games,
        "round_endings": dict(endings),
        "mean_scores": [t / games for t in totals],
        "seconds": el,
        "games_per_s": games / el if el else float("inf"),
        "us_per_decision": el / max(1, actions) * 1e6,
    }
