"""rummykit: the Rummy family of card games, from rule data.

The public API (see DESIGN.md)::

    import rummykit as rk
    v = rk.get_variant("contract")
    v.find_contract(1, rk.parse_cards("3H 3S 3D 7C 7D JK 9H"))
    g = rk.new_game("contract", players=4, seed=7)
    g.legal_actions(); g.apply("draw"); g.view(0); rk.replay(g.record())
    rk.review(record, seat)   # after the game: that seat's decisions, judged on what it knew
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _compiled  # noqa: F401  first: with RUMMYKIT_PURE_PYTHON=1, the .py sources load
from ._version import __version__
from .cards import JOKER, Card, format_cards, parse_card, parse_cards
from .engine.actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Cut,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Swap,
    Take,
    format_action,
    parse_action,
)
from .engine.game import Game, IllegalActionError, new_game, replay
from .melds import Rank
from .rules.registry import (
    RulesError,
    Variant,
    check_rules_file,
    get_variant,
    load_variant,
    variant_ids,
)
from .rules.spec import RuleSpec

if TYPE_CHECKING:
    from .players.review import Review, review


def __getattr__(name: str) -> Any:
    """``rk.review`` and ``rk.Review`` load the players (the hard bot's search) on first use."""
    if name in ("review", "Review"):
        from .players import review as module

        return getattr(module, name)
    raise AttributeError(f"module 'rummykit' has no attribute {name!r}")


__all__ = [
    "JOKER",
    "Action",
    "Buy",
    "CallRummy",
    "CallShanghai",
    "Card",
    "Cut",
    "Discard",
    "Draw",
    "Game",
    "IllegalActionError",
    "LayOff",
    "Meld",
    "Pass",
    "Rank",
    "Review",
    "RuleSpec",
    "RulesError",
    "Swap",
    "Take",
    "Variant",
    "__version__",
    "check_rules_file",
    "format_action",
    "format_cards",
    "get_variant",
    "load_variant",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay",
    "review",
    "variant_ids",
]
