"""The RL environment's cost per step beside the engine's own cost per decision (figures only).

    python bench/rl_bench.py [--steps N]

With OpenSpiel or RLCard installed it also times their gin rummy (random play)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np  # noqa: E402

import rummykit as rk  # noqa: E402
import rummykit.rl as rl  # noqa: E402


def env_us(vid: str, n: int, steps: int) -> float:
    e = rl.env(vid, n)
    e.reset(seed=1)
    rng = random.Random(1)  # the engine loop's cheap choice: the env is timed, not numpy's sampler
    t = time.perf_counter()
    for k in range(steps):
        if all(e.terminations.values()):
            e.reset(seed=k)
        ids = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(ids[rng.randrange(len(ids))]))
    return (time.perf_counter() - t) / steps * 1e6


def engine_us(vid: str, n: int, steps: int) -> float:
    g = rk.new_game(vid, players=n, seed=1)
    rng = random.Random(1)
    t = time.perf_counter()
    for k in range(steps):
        if g.is_over:
            g = rk.new_game(vid, players=n, seed=k)
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return (time.perf_counter() - t) / steps * 1e6


def openspiel_us(steps: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    state, n, t = game.new_initial_state(), 0, time.perf_counter()
    while n < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return (time.perf_counter() - t) / steps * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=5000)
    args = ap.parse_args()
    print(f"{'ruleset':<12}{'players':>8}{'env µs/step':>13}{'engine µs/decision':>20}{'ratio':>7}")
    for vid, n in (("contract", 4), ("basic", 2)):
        e, g = env_us(vid, n, args.steps), engine_us(vid, n, args.steps)
        print(f"{vid:<12}{n:>8}{e:>13.1f}{g:>20.1f}{e / g:>7.2f}")
    os_us = openspiel_us(args.steps)
    print("OpenSpiel gin_rummy: " + ("not installed" if os_us is None else f"{os_us:.1f} µs per decision"))


if __name__ == "__main__":
    main()
