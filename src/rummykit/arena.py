"""The arena: bots play each other and are measured.

Duplicate play: every deal (a game seed) is played once per rotation of the line-up, so
each entry of ``--bots`` sits at every seat with the same cards dealt.  Results are per
entry of the line-up (``medium``, ``medium (2)``, ...): games, win share (ties shared)
with a 95% Wilson interval, mean final score, rounds won by going out, mean decision
time, and an openskill (Plackett-Luce) rating with mu ± 2 sigma.
"""

from __future__ import annotations

import json
import logging
import math
import os
import statistics
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
    times: list[list[float]] = field(default_factory=list)  # each decision's seconds, per seat


def result_to_json(r: GameResult) -> dict[str, Any]:
    """One game as a JSON object; decision times in whole microseconds (to keep files small)."""
    d = dict(r.__dict__)
    d["times"] = [[round(t * 1e6) for t in ts] for ts in r.times]
    return d


def result_from_json(d: dict[str, Any]) -> GameResult:
    d = dict(d)
    d["times"] = [[t / 1e6 for t in ts] for ts in d.get("times", [])]
    return GameResult(**d)


class ResultsFile:
    """An arena's games, one JSON line each, written as each game ends, so that a long
    run that stops (a crash, a closed laptop, a cut-off session) goes on where it
    stopped when the same command is run again.  The first line names the arena
    (ruleset, line-up, seed); a file of another arena is refused, and so is a damaged
    one — except a last line cut off mid-write, which is dropped."""

    def __init__(self, path: str, variant: str, bots: Sequence[str], seed: int):
        self.path = path
        self.header = {"arena": {"variant": variant, "bots": list(bots), "seed": seed}}

    def load(self) -> list[GameResult]:
        """The games already in the file (none if it does not exist); writes the header
        to a new file, and drops a torn last line.  Raises ValueError on a file it cannot use."""
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(json.dumps(self.header) + "\n")
            return []
        with open(self.path, "rb") as fb:
            raw = fb.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{self.path} is not an arena results file (not text)") from None
        lines = text.split("\n")
        torn = lines[-1]  # after the last newline: empty, or a line cut off mid-write
        lines = lines[:-1]
        if not lines:
            raise ValueError(f"{self.path} is not an arena results file (no header line)")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise ValueError(f"{self.path} is not an arena results file (line 1 is not JSON)") from None
        if not isinstance(header, dict) or "arena" not in header:
            raise ValueError(f"{self.path} is not an arena results file (line 1 names no arena)")
        if header != self.header:
            a = header["arena"]
            raise ValueError(
                f"{self.path} holds games of another arena ({a.get('variant')}, "
                f"{','.join(map(str, a.get('bots', [])))}, seed {a.get('seed')}): "
                "give the same ruleset, bots and seed to go on with it, or another file")
        out = []
        for i, line in enumerate(lines[1:], start=2):
            try:
                out.append(result_from_json(json.loads(line)))
            except (json.JSONDecodeError, TypeError, ValueError):
                raise ValueError(f"{self.path}: line {i} is not a game result; the file is "
                                 "damaged (nothing was changed)") from None
        if torn:
            with open(self.path, "r+b") as fb:  # drop the line cut off mid-write
                fb.truncate(len(raw) - len(torn.encode("utf-8")))
        return out

    def append(self, r: GameResult) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(result_to_json(r)) + "\n")
            f.flush()


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
    times: list[list[float]] = [[] for _ in range(n)]
    while not g.is_over:
        s = g.current_player
        acts = g.legal_actions()
        view = g.observe(s)  # typed (a read-only Mapping of the dict view's keys as well)
        t = time.perf_counter()
        a = players[s].choose(view, acts)
        times[s].append(time.perf_counter() - t)
        g.apply(a)
    outs = [sum(1 for r in g.history if r["winner"] == s) for s in range(n)]
    return GameResult(deal, rotation, entries, [float(x) for x in g.scores], list(g.winners), outs,
                      [sum(t) for t in times], [len(t) for t in times], times)


def _run_ray(jobs: list[tuple[Any, ...]], workers: int, address: str | None,
             on_game: Callable[[GameResult], None] | None) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray needs Ray: pip install -e '.[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR,
                     log_to_driver=False)
    try:
        remote = ray.remote(num_cpus=1)(play_one)
        pending = [remote.remote(*job) for job in jobs]
        results: list[GameResult] = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for res in ray.get(ready):
                results.append(res)
                if on_game:
                    on_game(res)
        return results
    finally:
        if started:
            ray.shutdown()


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
    backend: str = "local",
    address: str | None = None,
    done: Sequence[GameResult] = (),
) -> Summary:
    """Play ``games`` games (rounded up to whole rotations) and summarise them.
    ``backend``: ``local`` (a process pool of ``workers``) or ``ray`` (a local Ray with
    ``workers`` CPUs, or the cluster at ``address``).  ``done``: games already played
    (from a :class:`ResultsFile`), which are not played again."""
    n = len(bots)
    deals = max(1, math.ceil(games / n))
    have = {(r.deal, r.rotation): r for r in done if r.deal < deals}
    jobs = [(variant, list(bots), d, r, seed) for d in range(deals) for r in range(n)
            if (d, r) not in have]
    results: list[GameResult] = []
    if backend == "ray":
        results = _run_ray(jobs, workers, address, on_game)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose local or ray")
    elif workers <= 1:
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
    results.extend(have.values())
    results.sort(key=lambda r: (r.deal, r.rotation))
    return summarise(variant, bots, results, seed)


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def summarise(variant: str, bots: Sequence[str], results: list[GameResult], seed: int) -> Summary:
    from openskill.models import PlackettLuce

    from .rules.registry import get_variant

    n = len(bots)
    labels = entry_labels(bots)
    low_wins = not get_variant(variant).spec.high_wins
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    wins = [0.0] * n
    score_sum = [0.0] * n
    outs = [0] * n
    think = [0.0] * n
    decisions = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
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
            if res.times:
                times[e].extend(res.times[seat])
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
            "median_decision_ms": statistics.median(times[e]) * 1000 if times[e] else 0.0,
            "p99_decision_ms": _quantile(times[e], 0.99) * 1000,
            "rating": r.mu,
            "rating_ci": [r.mu - 2 * r.sigma, r.mu + 2 * r.sigma],
            "scores": scores_by_entry[e],
        })
    return out
