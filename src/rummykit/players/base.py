"""The Player protocol and the named levels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action


@runtime_checkable
class Player(Protocol):
    """A seat's decision maker.  It is given the seat's view and the legal actions only,
    so it cannot see a hidden card; with the same seed, view and actions it chooses the
    same action.  The view is ``g.view(seat)``'s dict, or the typed
    :class:`~rummykit.engine.view.View` (``g.observe(seat)``), which reads as the same
    Mapping: the built-in players read the typed one without parsing text."""

    name: str

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action: ...


LEVELS = ("random", "easy", "medium", "hard")
SETTINGS = {"samples": int, "budget": float, "width": int, "horizon": int, "margin": float,
            "most": int, "short_cost": float, "infer": int, "screen": int}


def parse_settings(text: str) -> dict[str, Any]:
    """``samples=4:budget=0.5`` -> {"samples": 4, "budget": 0.5} (the hard player's settings)."""
    out: dict[str, Any] = {}
    for part in text.split(":"):
        key, eq, value = part.partition("=")
        if not eq or key not in SETTINGS:
            raise ValueError(f"bad setting {part!r}: use key=value with a key among {', '.join(SETTINGS)}")
        try:
            out[key] = SETTINGS[key](value)
        except ValueError:
            raise ValueError(f"bad setting {part!r}: {value!r} is not a number") from None
    return out
ALIASES = {"heuristic": "medium", "search": "hard"}


def make_player(level: str, seed: int = 0, **settings: Any) -> Player:
    """A player by level: ``random``; ``easy`` (the heuristic, careless: one discard in
    three is any natural card, it never buys, and it ignores danger and what it feeds);
    ``medium`` / ``heuristic``; ``hard`` / ``search`` (determinized rollouts).
    ``variant``: the ruleset, for house rules that are not built in.  Other
    ``settings`` go to the search player (``samples``, ``budget``, ``width``, ...), and
    may also be written in the name: ``hard:samples=4:budget=0.5``."""
    from .heuristic import HeuristicPlayer
    from .random_player import RandomPlayer
    from .search import SearchPlayer

    key, _, extra = level.strip().lower().partition(":")
    key = ALIASES.get(key, key)
    if extra:
        if key != "hard":
            raise ValueError(f"only hard takes settings ({level!r})")
        settings = {**parse_settings(extra), **settings}
    if key == "random":
        return RandomPlayer(seed)
    variant = settings.pop("variant", None)
    if key == "easy":
        return HeuristicPlayer(seed, variant, careless=0.35)
    if key == "medium":
        return HeuristicPlayer(seed, variant)
    if key == "hard":
        try:
            return SearchPlayer(seed, variant=variant, **settings)
        except TypeError:
            raise ValueError(f"unknown setting in {level!r}; hard takes {', '.join(SETTINGS)}") from None
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)} "
                     f"(or {', '.join(ALIASES)})")
