"""Setting a position by hand: the one way to write a game's state from outside the engine.

A game changes only through :meth:`~.game.Game.apply`, and :class:`~.game.Game` reads its
state through read-only properties.  A test (or a benchmark building a position to measure)
that needs cards where no deal would put them says so here, by name::

    set_position(g, hands=[parse_cards("KC"), parse_cards("QD")], stock=parse_cards("2C 3C"),
                 phase="play")

Each name must be a field of :class:`~.state.State`; lists are copied in (the caller's list
stays the caller's), a phase may be given as its text, and the legal actions are asked
afresh afterwards.  Nothing checks that the position could arise in play: that is the
caller's business.
"""

from __future__ import annotations

from typing import Any

from .game import Game
from .state import Phase, State

__all__ = ["set_hand", "set_position"]

_FIELDS = frozenset(State.field_names())  # the position's fields (not the derived caches)


def set_position(g: Game, **fields: Any) -> Game:
    """Set the named fields of ``g``'s state (see the module docstring); ``g`` is returned.
    ValueError names a field the state does not have, and then nothing is changed."""
    wrong = sorted(set(fields) - _FIELDS)
    if wrong:
        raise ValueError(f"not a settable field of a game's state: {', '.join(wrong)}")
    st = g.state
    for name, value in fields.items():
        if name == "phase":
            value = Phase(value)
        elif name == "hands":
            value = [list(h) for h in value]
        elif name == "known":
            value = [tuple(k) for k in value]
        elif isinstance(value, (list, tuple)):
            value = list(value)
        setattr(st, name, value)
    st.legal = None
    return g


def set_hand(g: Game, seat: int, cards: Any) -> Game:
    """Give ``seat`` the hand ``cards`` (a list of cards), the other hands left as they are."""
    hands = [list(h) for h in g.state.hands]
    hands[seat] = list(cards)
    return set_position(g, hands=hands)
