"""Per-seat views: JSON-safe dicts holding exactly what one seat may see."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..cards import TEXT, sorted_cards
from ..melds import Rank, face_at
from .scoring import number

if TYPE_CHECKING:
    from .game import Game


def _read_only(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError("a log event is read-only; copy it (dict(event), list(...)) to change it")


class _Shared:
    """What a read-only container shares: copying gives itself; pickling, a plain copy
    of its own kind."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        plain = list if isinstance(self, list) else dict
        return (type(self), (plain(self),))  # type: ignore[call-overload]

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class FrozenList(_Shared, list[Any]):
    """A list nobody can change (a log event's list of cards or melds); it still prints,
    compares and serialises as a list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only  # type: ignore[assignment]
    append = extend = insert = remove = pop = clear = sort = reverse = _read_only  # type: ignore[assignment]


class Event(_Shared, dict[str, Any]):
    """One line of the round's log: a read-only dict (``seat``, ``verb``, ``text`` and
    the facts of the move), read-only all the way down.  Every view shares the game's
    events instead of copying the whole log for each decision, so none may change one."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for k, v in self.items():
            if type(v) in _NESTED:  # plain containers; frozen ones are kept as they are
                dict.__setitem__(self, k, _frozen(v))

    __setitem__ = __delitem__ = __ior__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]


_NESTED = (list, tuple, dict)


def _frozen(v: Any) -> Any:
    if type(v) is dict:
        return Event(v)
    if type(v) in _NESTED:
        return FrozenList(_frozen(x) for x in v)
    return v


@lru_cache(maxsize=4096)
def _stands_for(kind: str, suit: int, lo: int, rank: int, n: int) -> tuple[str, ...]:
    """What each card of a meld stands for, as text (a run's faces, a set's rank)."""
    if kind == "run":
        return tuple(str(face_at(suit, lo + i)) for i in range(n))
    return (str(Rank(rank)),) * n


def build_view(g: Game, seat: int | None) -> dict[str, Any]:
    """``seat``'s view; ``None``: a spectator's, public facts only (no hand, no own-turn facts)."""
    sp = g.spec
    lim = g._buy_limit() if sp.buying is not None and sp.buy_allowed(g.round_no) else None
    own_turn = seat == g.current and g.phase in ("draw", "play")
    view: dict[str, Any] = {
        "ruleset": sp.id,
        "name": sp.name,
        "seat": seat,
        "players": g.n,
        "round": g.round_no,
        "deals": g.deals,
        "dealer": g.dealer,
        "contract": g.contract_text(),
        "current_player": g.current_player,
        "turn": g.current,
        "phase": "over" if g.is_over else g.phase,
        "hand": [] if seat is None else [TEXT[c] for c in sorted_cards(g.hands[seat])],
        "hand_sizes": [len(h) for h in g.hands],
        "stock_size": len(g.stock),
        "discard_top": str(g.discard[-1]) if g.discard else None,
        "discard_size": len(g.discard),
        "melds": [[TEXT[c] for c in m.cards] for m in g.table],
        "meld_info": [
            {
                "number": i + 1,
                "owner": m.owner,
                "kind": m.kind,
                "stands_for": list(_stands_for(m.kind, m.suit, m.lo, m.rank, len(m.cards))),
            }
            for i, m in enumerate(g.table)
        ],
        "down": list(g.down),
        "buys": list(g.buys),
        "buys_left": None if lim is None else [max(0, lim - b) for b in g.buys],
        "stock_reuses": g.stock_reuses,
        "scores": [number(s) for s in g.scores],
        "kitty": g.kitty,
        "log": list(g.log),  # read-only events, shared
        "last_round": g.last_round,
        "is_over": g.is_over,
        "winners": list(g.winners),
        "state_id": g.state_id,
        # this seat's own turn facts
        "taken": str(g.taken) if own_turn and g.taken is not None else None,
        "must_place": [str(c) for c in g.pending] if own_turn else [],
        # public facts every seat at the table saw: the discard pile (bottom to top), the
        # cards seen going into each hand and not since played, and where the turn stands
        "discard_pile": [TEXT[c] for c in g.discard],
        "known": [[TEXT[c] for c in sorted_cards(k)] for k in g.known],
        "turn_state": {
            "turn_index": g.turn_index,
            "down_turn": list(g.down_turn),
            "played_before": list(g.played_before),
            "asked": g.asked,
            "queue": list(g.queue),
            "call_kind": g.call_kind,
            "protected": g.protected,
            "last_taker": g.last_taker,
            "taken": None if g.taken is None else str(g.taken),
            "pending": [str(c) for c in g.pending],
            "melds_this_turn": g.melds_this_turn,
            "played_this_turn": g.played_this_turn,
            "skip_draw": g.skip_draw,
        },
    }
    if g.is_over and g.settlement is not None:
        view["settlement"] = [number(x) for x in g.settlement]
    return view
