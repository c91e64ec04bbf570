"""The observer: what one seat (or a spectator) sees, and nothing else.

:func:`observe` gives a :class:`View` — frozen, typed (cards as :class:`~rummykit.cards.Card`),
the form bots, the determinizer and the RL encoders read; :func:`build_view` gives the same
facts as the JSON-safe dict of the public API (``g.view(seat)``).  A View is also a
read-only Mapping with the dict's keys, so code written for the dict reads it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..cards import TEXT, Card, parse_card, parse_cards
from ..melds import Rank, face_at
from .events import Event
from .scoring import number
from .seen import own_turn, view_values
from .state import TURN_STATE, Phase, Setup, State

__all__ = ["Event", "MeldView", "View", "as_view", "build_view", "observe"]

RANKS = "A23456789TJQK"


@lru_cache(maxsize=4096)
def _stands_for(kind: str, suit: int, lo: int, rank: int, n: int) -> tuple[str, ...]:
    """What each card of a meld stands for, as text (a run's faces, a set's rank)."""
    if kind == "run":
        return tuple(str(face_at(suit, lo + i)) for i in range(n))
    return (str(Rank(rank)),) * n


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld on the table as everyone sees it: a run's suit and first position, or a
    set's rank, say what each card stands for."""

    number: int  # 1-based, as actions name it
    owner: int
    kind: str  # "set", "run" or "pair"
    cards: tuple[Card, ...]
    suit: int  # a run's suit (-1 for a set)
    lo: int  # a run's first position (1 = A low ... 14 = A high)
    rank: int  # a set's rank (0 for a run)

    def stands_for(self) -> tuple[str, ...]:
        return _stands_for(self.kind, self.suit, self.lo, self.rank, len(self.cards))


@dataclass(frozen=True, slots=True)
class View(Mapping[str, Any]):
    """One seat's view, typed.  ``view["key"]`` gives the JSON-safe value of
    :func:`build_view`'s dict (built once, on first use)."""

    ruleset: str
    name: str
    seat: int | None
    players: int
    round: int
    deals: int | None
    dealer: int
    contract: str
    current_player: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]  # the seat's own hand, sorted (empty for a spectator)
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: tuple[Card, ...]  # bottom to top
    melds: tuple[MeldView, ...]
    down: tuple[bool, ...]
    buys: tuple[int, ...]
    buys_left: tuple[int, ...] | None
    stock_reuses: int
    scores: tuple[Fraction, ...]
    kitty: int
    log: tuple[Event, ...]  # read-only events, shared with the game
    last_round: Mapping[str, Any] | None
    is_over: bool
    winners: tuple[int, ...]
    state_id: int
    taken: Card | None  # on the seat's own turn: the card it took from the discard pile
    must_place: tuple[Card, ...]  # on its own turn: swapped wilds it must still play
    known: tuple[tuple[Card, ...], ...]  # cards seen going into each hand, not since played
    turn_state: Mapping[str, Any]  # state.TURN_STATE, typed (cards as Card)
    settlement: tuple[Fraction, ...] | None = None
    _json: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    # -- the Mapping face: the JSON-safe dict's keys and values

    def as_dict(self) -> dict[str, Any]:
        """The JSON-safe dict (a fresh copy each call)."""
        return dict(self._dict())

    def _dict(self) -> dict[str, Any]:
        d = self._json
        if d is None:
            d = _to_dict(self)
            object.__setattr__(self, "_json", d)
        return d

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())


def _fast_new(cls: type) -> Callable[..., Any]:
    """A constructor of the frozen slotted dataclass ``cls`` (its fields in order, or by
    name) that sets each slot through its descriptor: the same object as ``cls(...)`` (no
    field has a post-init), without the dataclass ``__init__``'s ``object.__setattr__`` by
    name for every field, which made a View cost more to build than to read.  Every field
    must be given."""
    names = [f.name for f in fields(cls)]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def new({', '.join(names)}):", "    self = _new(_cls)"]
    for i, name in enumerate(names):
        env[f"_set{i}"] = getattr(cls, name).__set__  # the slot's member descriptor
        lines.append(f"    _set{i}(self, {name})")
    lines.append("    return self")
    exec("\n".join(lines), env)  # noqa: S102 - generated from the field names, as dataclasses does
    return env["new"]  # type: ignore[no-any-return]


_new_view = _fast_new(View)
_new_meld_view = _fast_new(MeldView)

def observe(setup: Setup, st: State, seat: int | None) -> View:
    """``seat``'s view; ``None``: a spectator's, public facts only (no hand, no own-turn facts).
    What the seat sees is read by :func:`.seen.view_values` (compiled where the install built
    it)."""
    return _new_view(*view_values(setup, st, seat, _new_meld_view))


def _json_turn(ts: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, _name, kind in TURN_STATE:
        v = ts[key]
        if kind == "card":
            out[key] = None if v is None else TEXT[v]
        elif kind == "cards":
            out[key] = [TEXT[c] for c in v]
        else:
            out[key] = list(v) if type(v) is tuple else v
    return out


def _to_dict(v: View) -> dict[str, Any]:
    view: dict[str, Any] = {
        "ruleset": v.ruleset,
        "name": v.name,
        "seat": v.seat,
        "players": v.players,
        "round": v.round,
        "deals": v.deals,
        "dealer": v.dealer,
        "contract": v.contract,
        "current_player": v.current_player,
        "turn": v.turn,
        "phase": str(v.phase),
        "hand": [TEXT[c] for c in v.hand],
        "hand_sizes": list(v.hand_sizes),
        "stock_size": v.stock_size,
        "discard_top": TEXT[v.discard_pile[-1]] if v.discard_pile else None,
        "discard_size": len(v.discard_pile),
        "melds": [[TEXT[c] for c in m.cards] for m in v.melds],
        "meld_info": [
            {"number": m.number, "owner": m.owner, "kind": m.kind, "stands_for": list(m.stands_for())}
            for m in v.melds
        ],
        "down": list(v.down),
        "buys": list(v.buys),
        "buys_left": None if v.buys_left is None else list(v.buys_left),
        "stock_reuses": v.stock_reuses,
        "scores": [number(s) for s in v.scores],
        "kitty": v.kitty,
        "log": list(v.log),  # read-only events, shared
        "last_round": v.last_round,
        "is_over": v.is_over,
        "winners": list(v.winners),
        "state_id": v.state_id,
        # this seat's own turn facts
        "taken": None if v.taken is None else TEXT[v.taken],
        "must_place": [TEXT[c] for c in v.must_place],
        # public facts every seat at the table saw: the discard pile (bottom to top), the
        # cards seen going into each hand and not since played, and where the turn stands
        "discard_pile": [TEXT[c] for c in v.discard_pile],
        "known": [[TEXT[c] for c in k] for k in v.known],
        "turn_state": _json_turn(v.turn_state),
    }
    if v.settlement is not None:
        view["settlement"] = [number(x) for x in v.settlement]
    return view


def build_view(setup: Setup, st: State, seat: int | None) -> dict[str, Any]:
    """``seat``'s view as the JSON-safe dict of the public API (a fresh dict each call)."""
    return _to_dict(observe(setup, st, seat))


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
