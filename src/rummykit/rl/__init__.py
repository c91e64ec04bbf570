"""Reinforcement-learning interfaces to every rummykit ruleset (docs/rl.md).

``env(...)`` is a PettingZoo AEC environment; ``gym_env(...)`` a single-agent Gymnasium
environment whose other seats are rummykit bots.  They need the ``rl`` extra
(``pip install -e '.[rl]'``: numpy, gymnasium, pettingzoo)."""

from __future__ import annotations

from typing import Any


def env(ruleset: str = "contract", players: int = 4, options: dict[str, Any] | None = None, deck: Any = None,
        dealer: int | None = None, episode: str = "match", reward: str = "score",
        render_mode: str | None = None) -> Any:
    """The PettingZoo AEC environment of ``ruleset`` for ``players`` seats."""
    from .aec import RummyEnv

    return RummyEnv(ruleset, players, options, deck=deck, dealer=dealer, episode=episode, reward=reward,
                    render_mode=render_mode)


def gym_env(ruleset: str = "contract", players: int = 4, opponents: str | list[str] = "medium", seat: int = 0,
            options: dict[str, Any] | None = None, episode: str = "match", reward: str = "score",
            render_mode: str | None = None) -> Any:
    """A single-agent Gymnasium environment: seat ``seat`` learns, bots of level
    ``opponents`` (one level, or one per other seat) play the others."""
    from .gym import RummyGymEnv

    return RummyGymEnv(ruleset, players, opponents, seat, options, episode=episode, reward=reward,
                       render_mode=render_mode)


__all__ = ["env", "gym_env"]
