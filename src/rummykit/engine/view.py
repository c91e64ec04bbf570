"""The observer: what one seat (or a spectator) sees, and nothing else.

:func:`observe` gives a :class:`View` — frozen, typed (cards as :class:`~rummykit.cards.Card`),
the form bots, the determinizer and the RL encoders read; :func:`build_view` gives the same
facts as the JSON-safe dict of the public API (``g.view(seat)``).  A View is also a
read-only Mapping with the dict's keys, so code written for the dict reads it unchanged.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import FrozenInstanceError
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ..cards import TEXT, parse_card, parse_cards
from .events import Event
from .seen import MeldView, ViewFields, own_turn, seen_view, view_dict
from .state import TURN_STATE, Phase, Setup, State

__all__ = ["FIELDS", "Event", "MeldView", "View", "as_view", "build_view", "observe"]

RANKS = "A23456789TJQK"

# a View's fields, in order (its constructor's arguments)
FIELDS = (
    "ruleset", "name", "seat", "players", "round", "deals", "dealer", "contract", "current_player",
    "turn", "phase", "hand", "hand_sizes", "stock_size", "discard_pile", "melds", "down", "buys",
    "buys_left", "stock_reuses", "scores", "kitty", "log", "last_round", "is_over", "winners",
    "state_id", "taken", "must_place", "known", "turn_state", "settlement",
)
_FIELD_SET = frozenset(FIELDS)


class View(ViewFields, Mapping[str, Any]):
    """One seat's view, typed, and read-only.  Its fields (``FIELDS``, in order: the
    constructor's arguments) are :class:`~.seen.ViewFields`' (compiled where the install
    built it: the whole View is built in one call).  ``view["key"]`` gives the JSON-safe
    value of :func:`build_view`'s dict (built once, on first use).  Views are equal when
    their fields are."""

    __slots__ = ()

    # -- read-only (compiled, the fields have no setter; this covers the pure sources)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FIELD_SET and hasattr(self, name):
            raise FrozenInstanceError(f"cannot assign to field {name!r}: a View is read-only")
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a View is read-only")

    # -- a value: equality, a repr, pickling

    def values_in_order(self) -> tuple[Any, ...]:
        """The fields' values, in the order of ``FIELDS``."""
        return tuple([getattr(self, f) for f in FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, View)
        return self.values_in_order() == other.values_in_order()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]  # (equal by value, and its turn state is a mapping)

    def __repr__(self) -> str:
        return f"View({', '.join(f'{f}={getattr(self, f)!r}' for f in FIELDS)})"

    def __reduce__(self) -> tuple[Any, ...]:
        values = list(self.values_in_order())
        at = FIELDS.index("turn_state")
        values[at] = dict(values[at])  # (a mapping proxy does not pickle)
        return (_view_from, (tuple(values),))

    def __copy__(self) -> View:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> View:
        return self  # read-only: a copy may share it

    # -- the Mapping face: the JSON-safe dict's keys and values

    def as_dict(self) -> dict[str, Any]:
        """The JSON-safe dict (a fresh copy each call)."""
        return dict(self._dict())

    def _dict(self) -> dict[str, Any]:
        d = self._json
        if d is None:
            d = view_dict(self)
            object.__setattr__(self, "_json", d)
        return d

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __contains__(self, key: object) -> bool:
        return key in self._dict()

    def keys(self) -> KeysView[str]:
        return self._dict().keys()

    def items(self) -> ItemsView[str, Any]:
        return self._dict().items()

    def values(self) -> ValuesView[Any]:
        return self._dict().values()

    def get(self, key: str, default: Any = None) -> Any:
        return self._dict().get(key, default)


def _view_from(values: tuple[Any, ...]) -> View:
    """A View from its pickled fields (the turn state as a plain dict)."""
    at = FIELDS.index("turn_state")
    return View(*(values[:at] + (MappingProxyType(values[at]),) + values[at + 1:]))


def observe(setup: Setup, st: State, seat: int | None) -> View:
    """``seat``'s view; ``None``: a spectator's, public facts only (no hand, no own-turn facts).
    What the seat sees is read by :func:`.seen.seen_view` (compiled where the install built
    it)."""
    return seen_view(setup, st, seat, View)


def build_view(setup: Setup, st: State, seat: int | None) -> dict[str, Any]:
    """``seat``'s view as the JSON-safe dict of the public API (a fresh dict each call)."""
    return view_dict(observe(setup, st, seat))


# the keys of a view that differ from seat to seat (see observe): the rest is public
SEAT_KEYS = ("seat", "hand", "taken", "must_place")


def build_views(setup: Setup, st: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``build_view`` for several seats at once (a server telling a whole table): the public
    part is built once and the dicts share it (its lists too: read them, don't change them);
    only the ``SEAT_KEYS`` are each seat's own."""
    out: dict[int | None, dict[str, Any]] = {}
    base: dict[str, Any] | None = None
    for seat in seats:
        if seat in out:
            continue
        if base is None:
            base = out[seat] = build_view(setup, st, seat)
            continue
        mine = own_turn(st, seat)
        d = dict(base)
        d["seat"] = seat
        d["hand"] = [] if seat is None else [TEXT[c] for c in sorted(st.hands[seat])]
        d["taken"] = TEXT[st.taken] if mine and st.taken is not None else None
        d["must_place"] = [TEXT[c] for c in st.pending] if mine else []
        out[seat] = d
    return out


# ------------------------------------------------------------------ from a dict view


def _meld_from(cards: list[str], info: Mapping[str, Any]) -> MeldView:
    first = info["stands_for"][0]
    if info["kind"] == "run":
        c = parse_card(first)
        return MeldView(info["number"], info["owner"], "run", tuple(parse_cards(cards)), c.suit, c.rank, 0)
    return MeldView(info["number"], info["owner"], info["kind"], tuple(parse_cards(cards)), -1, 0,
                    RANKS.index(first[0]) + 1)


def as_view(view: Mapping[str, Any]) -> View:
    """A View from a view dict (as ``g.view(seat)`` gave it, or read back from JSON);
    a View is returned as it is.  ValueError when the dict is not a view."""
    if isinstance(view, View):
        return view
    try:
        ts_in = view["turn_state"]
        turn: dict[str, Any] = {}
        for key, _name, kind in TURN_STATE:
            x = ts_in[key]
            if kind == "card":
                turn[key] = None if x is None else parse_card(x)
            elif kind == "cards":
                turn[key] = tuple(parse_cards(x))
            else:
                turn[key] = tuple(x) if isinstance(x, list) else x
        settle = view.get("settlement")
        return View(
            ruleset=view["ruleset"], name=view["name"], seat=view["seat"], players=view["players"],
            round=view["round"], deals=view["deals"], dealer=view["dealer"], contract=view["contract"],
            current_player=view["current_player"], turn=view["turn"], phase=Phase(view["phase"]),
            hand=tuple(parse_cards(view["hand"])), hand_sizes=tuple(view["hand_sizes"]),
            stock_size=view["stock_size"], discard_pile=tuple(parse_cards(view["discard_pile"])),
            melds=tuple(_meld_from(c, i) for c, i in zip(view["melds"], view["meld_info"], strict=True)),
            down=tuple(view["down"]), buys=tuple(view["buys"]),
            buys_left=None if view["buys_left"] is None else tuple(view["buys_left"]),
            stock_reuses=view["stock_reuses"], scores=tuple(Fraction(s) for s in view["scores"]),
            kitty=view["kitty"], log=tuple(e if isinstance(e, Event) else Event(e) for e in view["log"]),
            last_round=view["last_round"], is_over=view["is_over"], winners=tuple(view["winners"]),
            state_id=view["state_id"],
            taken=None if view["taken"] is None else parse_card(view["taken"]),
            must_place=tuple(parse_cards(view["must_place"])),
            known=tuple(tuple(parse_cards(k)) for k in view["known"]),
            turn_state=MappingProxyType(turn),
            settlement=None if settle is None else tuple(Fraction(x) for x in settle),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"not a view of a game: {type(e).__name__} {e}") from None
