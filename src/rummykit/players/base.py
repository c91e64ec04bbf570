"""The Player protocol and the named levels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker.  It is given the seat's view and the legal actions only,
    so it cannot see a hidden card; with the same seed, view and actions it chooses the
    same action."""

    name: str

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action: ...


def make_player(level: str, seed: int = 0) -> Player:
    """A player by name: ``random``, ``easy`` (= random for now), ``medium`` / ``heuristic``."""
    from .heuristic import HeuristicPlayer
    from .random_player import RandomPlayer

    key = level.strip().lower()
    if key in ("random", "easy"):
        return RandomPlayer(seed)
    if key in ("medium", "heuristic"):
        return HeuristicPlayer(seed)
    raise ValueError(f"unknown player {level!r}; choose random, easy, medium or heuristic")
