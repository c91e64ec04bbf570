"""Random agents in every rummykit environment: PettingZoo AEC, Gymnasium and OpenSpiel.

    python examples/random_agents.py [--ruleset contract] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse

import numpy as np

import rummykit.rl as rl


def pettingzoo_episode(ruleset: str, players: int, seed: int) -> dict[str, float]:
    env = rl.env(ruleset, players, episode="deal")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def gymnasium_episode(ruleset: str, players: int, seed: int) -> float:
    env = rl.gym_env(ruleset, players, opponents="medium", episode="deal")
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, done = 0.0, False
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
    return total


def openspiel_episode(ruleset: str, players: int, seed: int) -> list[float] | None:
    try:
        import pyspiel

        import rummykit.rl.openspiel  # noqa: F401  (registers python_rummykit)
    except ImportError:
        return None
    game = pyspiel.load_game("python_rummykit", {"ruleset": ruleset, "players": players, "max_deals": 1})
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="contract")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print("PettingZoo, one deal, rewards:", pettingzoo_episode(a.ruleset, a.players, a.seed))
    print("Gymnasium vs medium bots, one deal, reward:", gymnasium_episode(a.ruleset, a.players, a.seed))
    got = openspiel_episode(a.ruleset, a.players, a.seed)
    print("OpenSpiel, one deal, returns:", got if got is not None else "(open_spiel not installed)")


if __name__ == "__main__":
    main()
