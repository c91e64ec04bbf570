"""Checking an action object's shape before the game looks at it.

``g.apply`` accepts action objects built by other programs (the web server, the RL API,
a user's script).  :func:`check_action` checks every field's type and returns the action
in its canonical form — every card a :class:`Card`, every meld number a plain ``int``,
every meld a tuple of ``(card, meaning)`` pairs — or raises ValueError with a sentence a
player understands.  Whether the action is *legal now* is the game's question, asked after
this one; so nothing about the game changes before an action is known to be well formed.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Mapping
from typing import Any, SupportsIndex

from ..cards import CARDS, NUM_FACES, RANKS, Card, parse_card, parse_cards
from ..melds import Rank
from .actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Cut,
    Discard,
    Draw,
    LayOff,
    Meld,
    MeldItems,
    Pass,
    Swap,
    Take,
)

__all__ = ["check_action", "check_card", "check_game_args", "check_seat_index"]


def _what(x: object) -> str:
    """A short description of a wrong value for a message."""
    try:
        text = repr(x)
    except Exception:  # an object whose repr fails still gets its message
        text = "<?>"
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({type(x).__name__})"


def check_card(x: object, where: str = "a card") -> Card:
    """``x`` as a :class:`Card`: a Card, or card text such as ``"7H"``; never a bare number."""
    if isinstance(x, Card):
        if not 0 <= x < NUM_FACES:  # Card(60) can be built, but is no card
            raise ValueError(f"{where}: Card({int(x)}) is no card (faces are 0-52)")
        return x if type(x) is Card else CARDS[int(x)]
    if isinstance(x, str):
        if len(x) > 12:
            raise ValueError(f"{where}: {x[:12]!r}... is not a card (like 7H, TD or JK)")
        try:
            return parse_card(x)
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    raise ValueError(f"{where} must be a Card or card text like '7H' or 'JK', not {_what(x)}")


def _index(x: object) -> int | None:
    """``x`` as a plain int if it is an integer (an int, or anything with ``__index__``
    such as numpy's integers) and not a bool; else None."""
    if type(x) is int:
        return x
    if isinstance(x, (bool, str, bytes, float, Card, Rank)) or not isinstance(x, SupportsIndex):
        return None  # a card or a rank is an int to Python, but not a number of anything
    try:
        return operator.index(x)
    except Exception:  # an __index__ that fails: not an integer
        return None


def _meld_no(x: object, where: str) -> int:
    """A 0-based meld index: an int (or anything with ``__index__``, not a bool) >= 0."""
    i = _index(x)
    if i is None:
        raise ValueError(f"{where} must be a meld index (an int, 0 for the first meld), not {_what(x)}")
    if i < 0:
        raise ValueError(f"{where} must be 0 or more (0 is the first meld), not {i}")
    return i


def _meaning(x: object, where: str) -> Card | Rank | None:
    """What a wild card stands for: None, a real Card (in a run), a Rank 1-13 (in a set),
    or their text (``"9H"``, ``"9"``)."""
    if x is None:
        return None
    if isinstance(x, Rank):
        if not 1 <= int(x) <= 13:
            raise ValueError(f"{where}: a rank is 1 (ace) to 13 (king), not {int(x)}")
        return Rank(int(x))
    if isinstance(x, str):
        r = x.strip().upper()
        if r == "10":
            r = "T"
        if len(r) == 1 and r in RANKS:
            return Rank(RANKS.index(r) + 1)
    if isinstance(x, (Card, str)):
        c = check_card(x, where)
        if c.is_joker:
            raise ValueError(f"{where}: a wild card stands for a real card or a rank, not a joker")
        return c
    raise ValueError(
        f"{where} must be a Card (in a run), a Rank (in a set), their text ('9H', '9') or None, "
        f"not {_what(x)}"
    )


def _group(g: object, where: str) -> MeldItems:
    if not isinstance(g, (tuple, list)):
        raise ValueError(f"{where} must be a tuple of cards or (card, meaning) pairs, not {_what(g)}")
    if not g:
        raise ValueError(f"{where} is empty: a meld has cards")
    items = []
    for j, it in enumerate(g):
        at = f"{where}, card {j + 1}"
        if isinstance(it, (tuple, list)):
            if len(it) != 2:
                raise ValueError(f"{at} must be a card or a (card, meaning) pair, not {_what(it)}")
            items.append((check_card(it[0], at), _meaning(it[1], f"{at}'s meaning")))
        else:
            items.append((check_card(it, at), None))
    return tuple(items)


def _meld(a: Meld) -> Meld:
    melds = a.melds
    if not isinstance(melds, (tuple, list)):
        raise ValueError(f"Meld.melds must be a tuple of melds, not {_what(melds)}")
    if not melds:
        raise ValueError("an empty Meld: lay down at least one meld of cards")
    many = len(melds) > 1
    out = tuple(_group(g, f"meld {i + 1}" if many else "the meld") for i, g in enumerate(melds))
    return a if type(melds) is tuple and _exact(out, melds) else Meld(out)


def _exact(new: tuple[Any, ...], old: Any) -> bool:
    """Whether ``old`` already holds exactly the canonical objects in ``new``."""
    for g_new, g_old in zip(new, old, strict=True):
        if type(g_old) is not tuple:
            return False
        for (c, m), it in zip(g_new, g_old, strict=True):
            if type(it) is not tuple or it[0] is not c or it[1] is not m:
                return False
    return True


def _layoff(a: LayOff, where: str = "LayOff") -> LayOff:
    c = check_card(a.card, f"{where}.card")
    i = _meld_no(a.meld, f"{where}.meld")
    m = _meaning(a.meaning, f"{where}.meaning")
    if c is a.card and i == a.meld and type(a.meld) is int and m is a.meaning:
        return a
    return LayOff(c, i, m)


def _swap(a: Swap) -> Swap:
    c = check_card(a.card, "Swap.card")
    i = _meld_no(a.meld, "Swap.meld")
    return a if (c is a.card and type(a.meld) is int) else Swap(c, i)


def _discard(a: Discard) -> Discard:
    c = check_card(a.card, "Discard.card")
    return a if c is a.card else Discard(c)


def _draw(a: Draw) -> Draw:
    if type(a.both) is not bool:
        raise ValueError(f"Draw.both must be True or False, not {_what(a.both)}")
    return a


def _shanghai(a: CallShanghai) -> CallShanghai:
    if a.discard is not None and a.layoff is not None:
        raise ValueError("a Shanghai call either discards a card or lays the discard off, not both")
    if a.layoff is not None:
        if not isinstance(a.layoff, LayOff):
            raise ValueError(f"CallShanghai.layoff must be a LayOff, not {_what(a.layoff)}")
        lay = _layoff(a.layoff, "CallShanghai.layoff")
        return a if lay is a.layoff else CallShanghai(layoff=lay)
    if a.discard is not None:
        c = check_card(a.discard, "CallShanghai.discard")
        return a if c is a.discard else CallShanghai(discard=c)
    return a


def _rummy(a: CallRummy) -> CallRummy:
    if a.card is None:
        return a
    c = check_card(a.card, "CallRummy.card")
    return a if c is a.card else CallRummy(c)


def _plain(a: Action) -> Action:
    return a


_CHECKS: dict[type, Callable[[Any], Action]] = {
    Draw: _draw,
    Take: _plain,
    Meld: _meld,
    LayOff: _layoff,
    Swap: _swap,
    Discard: _discard,
    Buy: _plain,
    Pass: _plain,
    CallShanghai: _shanghai,
    CallRummy: _rummy,
    Cut: _plain,
}


def check_action(a: object) -> Action:
    """``a`` in canonical form if it is a well-formed action; ValueError says what is wrong."""
    check = _CHECKS.get(type(a))
    if check is None:
        for cls in type(a).__mro__[1:]:
            check = _CHECKS.get(cls)
            if check is not None:
                break
        else:
            raise ValueError(
                f"{_what(a)} is not an action: give an action object (rk.Draw(), rk.Discard(card), ...) "
                f"or its text, e.g. 'discard 7H'"
            )
    try:
        return check(a)
    except AttributeError as e:  # a subclass that dropped a field, or an object with __slots__ unset
        raise ValueError(f"{type(a).__name__} is missing a field: {e}") from None


def check_seat_index(seat: object, n: int) -> int:
    """``seat`` as a seat number 0..n-1: an int (not a bool)."""
    i = _index(seat)
    if i is None:
        raise ValueError(f"seat must be a seat number 0-{n - 1}, not {_what(seat)}")
    if not 0 <= i < n:
        raise ValueError(f"seat must be a seat number 0-{n - 1}, not {i}")
    return i


def _whole(x: object, name: str, what: str) -> int:
    """An int argument (anything with ``__index__``, never a bool, float or text)."""
    i = _index(x)
    if i is None:
        raise ValueError(f"{name} must be {what}, not {_what(x)}")
    return i


def check_game_args(
    players: object, seed: object, options: object, deck: object, dealer: object, first_round: object
) -> tuple[int, int, dict[str, Any], list[Card] | None, int | None, int]:
    """The arguments of a new game, type-checked and in canonical form; ValueError names
    the argument.  (Ranges that depend on the ruleset are the game's to check.)"""
    n = _whole(players, "players", "a number of players (an int)")
    s = _whole(seed, "seed", "an int (the same seed gives the same deal)")
    if options is None:
        opts: dict[str, Any] = {}
    elif isinstance(options, Mapping):
        bad = [k for k in options if not isinstance(k, str)]
        if bad:
            raise ValueError(f"options: keys are rule names (text), not {_what(bad[0])}")
        try:
            opts = json.loads(json.dumps(dict(options), allow_nan=False))
        except (TypeError, ValueError) as e:
            raise ValueError(f"options must be JSON data (text, numbers, lists, tables): {e}") from None
    else:
        raise ValueError(f"options must be a dict of house rules (or None), not {_what(options)}")
    cards: list[Card] | None = None
    if deck is not None:
        if isinstance(deck, str):
            try:
                cards = parse_cards(deck)
            except ValueError as e:
                raise ValueError(f"deck: {e}") from None
        elif isinstance(deck, (bytes, Mapping)) or not isinstance(deck, Iterable):
            raise ValueError(f"deck must be card text ('AH 2H ...') or a list of cards, not {_what(deck)}")
        else:
            cards = []
            for i, c in enumerate(deck):
                if isinstance(c, (Card, str)):
                    cards.append(check_card(c, f"deck card {i + 1}"))
                    continue
                code = _whole(c, f"deck card {i + 1}", "a Card, card text like '7H' or a face code 0-52")
                if not 0 <= code < NUM_FACES:
                    raise ValueError(f"deck card {i + 1}: a face code is 0-52, not {code}")
                cards.append(CARDS[code])
    d = None if dealer is None else _whole(dealer, "dealer", "a seat number (an int) or None")
    r = _whole(first_round, "first_round", "a deal number (an int, 1 for the first deal)")
    return n, s, opts, cards, d, r
