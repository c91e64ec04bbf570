"""Reinforcement-learning interfaces to every rummykit ruleset (docs/rl.md).

``env(...)`` is a PettingZoo AEC environment; ``gym_env(...)`` a single-agent Gymnasium
environment whose other seats are rummykit bots.  They need the ``rl`` extra
(``pip install -e '.[rl]'``: numpy, gymnasium, pettingzoo)."""

from __future__ import annotations

import importlib.util
from typing import Any


def _need_extra() -> None:
    """One sentence on how to install the ``rl`` extra when its libraries are missing."""
    missing = [m for m in ("numpy", "gymnasium", "pettingzoo") if importlib.util.find_spec(m) is None]
    if missing:
        raise ImportError(f"rummykit.rl needs {', '.join(missing)}: pip install 'rummykit[rl]' "
                          "(in a clone: pip install -e '.[rl]')")


def env(ruleset: str = "contract", players: int = 4, options: dict[str, Any] | None = None, deck: Any = None,
        dealer: int | None = None, episode: str = "match", reward: str = "score",
        render_mode: str | None = None) -> Any:
    """The PettingZoo AEC environment of ``ruleset`` for ``players`` seats."""
    _need_extra()
    from .aec import RummyEnv

    return RummyEnv(ruleset, players, options, deck=deck, dealer=dealer, episode=episode, reward=reward,
                    render_mode=render_mode)


def gym_env(ruleset: str = "contract", players: int = 4, opponents: str | list[str] = "medium", seat: int = 0,
            options: dict[str, Any] | None = None, episode: str = "match", reward: str = "score",
            render_mode: str | None = None) -> Any:
    """A single-agent Gymnasium environment: seat ``seat`` learns, bots of level
    ``opponents`` (one level, or one per other seat) play the others."""
    _need_extra()
    from .gym import RummyGymEnv

    return RummyGymEnv(ruleset, players, opponents, seat, options, episode=episode, reward=reward,
                       render_mode=render_mode)


__all__ = ["env", "gym_env"]
