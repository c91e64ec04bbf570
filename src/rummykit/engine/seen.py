"""What one seat sees of the state, read in compiled code: the typed view's fields
(:class:`ViewFields`, which :class:`.view.View` dresses as a read-only Mapping), the table's
meld views, and the JSON-safe dict of the public API (:func:`view_dict`).

Compiled with mypyc where the install built it (setup.py), like the turn machine: reading
some thirty fields of the state, copying its lists into tuples and building the table's
meld views is most of what a view costs, and an RL environment asks for one every step.
:class:`ViewFields` is a native class there: a View is built in one call that sets its
fields in C (a frozen dataclass sets them one ``object.__setattr__`` at a time, which cost
more than reading the state), and compiled readers (the RL observer) read them the same way.
The rules of what a seat may see are here and nowhere else: its own hand (sorted), its own
turn's facts (the card it took, the wilds it must place) only on its own turn, and for
everyone the public facts.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

from ..cards import TEXT, Card
from ..melds import Rank, face_at, rebuild_recipe
from .events import Event
from .flow import buy_cap, contract_text
from .scoring import number
from .state import TURN_STATE, Phase, Setup, State

V = TypeVar("V", bound="ViewFields")

# the turn state's keys, in order, and the place of "asked" among them
TURN_KEYS: Final = tuple([key for key, _name, _kind in TURN_STATE])
ASKED_AT: Final = TURN_KEYS.index("asked")


@lru_cache(maxsize=4096)
def _stands_for(kind: str, suit: int, lo: int, rank: int, n: int) -> tuple[str, ...]:
    """What each card of a meld stands for, as text (a run's faces, a set's rank)."""
    if kind == "run":
        return tuple([str(face_at(suit, lo + i)) for i in range(n)])
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

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild_recipe(self)


@mypyc_attr(allow_interpreted_subclasses=True)
class ViewFields:
    """One seat's view, typed: the fields of :class:`.view.View` (which adds the Mapping
    face, equality and pickling).  Read-only where compiled (``Final``: no setter)."""

    def __init__(self, ruleset: str, name: str, seat: int | None, players: int, round: int,
                 deals: int | None, dealer: int, contract: str, current_player: int, turn: int,
                 phase: Phase, hand: tuple[Card, ...], hand_sizes: tuple[int, ...], stock_size: int,
                 discard_pile: tuple[Card, ...], melds: tuple[MeldView, ...], down: tuple[bool, ...],
                 buys: tuple[int, ...], buys_left: tuple[int, ...] | None, stock_reuses: int,
                 scores: tuple[Fraction, ...], kitty: int, log: Sequence[Event],
                 last_round: Mapping[str, Any] | None, is_over: bool, winners: tuple[int, ...],
                 state_id: int, taken: Card | None, must_place: tuple[Card, ...],
                 known: tuple[tuple[Card, ...], ...], turn_state: Mapping[str, Any] | tuple[Any, ...],
                 settlement: tuple[Fraction, ...] | None = None, log_length: int = -1) -> None:
        self.ruleset: Final = ruleset
        self.name: Final = name
        self.seat: Final = seat
        self.players: Final = players
        self.round: Final = round
        self.deals: Final = deals
        self.dealer: Final = dealer
        self.contract: Final = contract
        self.current_player: Final = current_player
        self.turn: Final = turn
        self.phase: Final = phase
        self.hand: Final = hand  # the seat's own hand, sorted (empty for a spectator)
        self.hand_sizes: Final = hand_sizes
        self.stock_size: Final = stock_size
        self.discard_pile: Final = discard_pile  # bottom to top
        self.melds: Final = melds
        self.down: Final = down
        self.buys: Final = buys
        self.buys_left: Final = buys_left
        self.stock_reuses: Final = stock_reuses
        self.scores: Final = scores
        self.kitty: Final = kitty
        # the log: a tuple, or the game's own list and how many of its events this view
        # holds (the engine only appends to a deal's list): copied into a tuple when read
        self._log_from = log
        self._log_length = len(log) if log_length < 0 else log_length
        self._log: tuple[Event, ...] | None = log if type(log) is tuple else None
        self.last_round: Final = last_round
        self.is_over: Final = is_over
        self.winners: Final = winners
        self.state_id: Final = state_id
        self.taken: Final = taken  # on the seat's own turn: the card it took from the discard pile
        self.must_place: Final = must_place  # on its own turn: swapped wilds it must still place
        self.known: Final = known  # cards seen going into each hand, not since played
        # state.TURN_STATE, typed (cards as Card): its values in order (seen_view gives
        # them so), made a read-only mapping when first read
        if isinstance(turn_state, tuple):
            self._turn: tuple[Any, ...] = turn_state
            self._turn_map: Mapping[str, Any] | None = None
        else:
            self._turn = tuple([turn_state[k] for k in TURN_KEYS])
            self._turn_map = turn_state
        self.settlement: Final = settlement
        self._json: dict[str, Any] | None = None  # the JSON-safe dict, once built

    @property
    def log(self) -> tuple[Event, ...]:
        """The deal's events so far, read-only (each shared with the game)."""
        got = self._log
        if got is None:
            got = self._log = tuple(self._log_from[: self._log_length])
        return got

    @property
    def turn_state(self) -> Mapping[str, Any]:
        """Where the turn stands (state.TURN_STATE's keys, in order), read-only."""
        got = self._turn_map
        if got is None:
            got = self._turn_map = MappingProxyType(dict(zip(TURN_KEYS, self._turn, strict=True)))
        return got

    @property
    def asked(self) -> int | None:
        """The seat asked in an out-of-turn window (May I, buy, Shanghai, Rummy), or None:
        ``turn_state["asked"]``."""
        asked: int | None = self._turn[ASKED_AT]
        return asked

    @property
    def discard_top(self) -> Card | None:
        pile = self.discard_pile
        return pile[len(pile) - 1] if pile else None



# the table's meld views, shared while a meld stays as it is: (number, owner, kind, cards,
# suit, lo, rank) -> MeldView.  Views are frozen, so any game may share one.
_MELD_VIEWS: Final[dict[tuple[Any, ...], MeldView]] = {}
_MELD_VIEWS_MAX: Final = 4096  # then it starts afresh


def meld_views(st: State) -> tuple[MeldView, ...]:
    """A MeldView per table meld."""
    out: list[MeldView] = []
    memo = _MELD_VIEWS
    i = 0
    for m in st.table:
        i += 1
        key = (i, m.owner, m.kind, tuple(m.cards), m.suit, m.lo, m.rank)
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MELD_VIEWS_MAX:
                memo.clear()
            got = memo[key] = MeldView(i, m.owner, m.kind, key[3], m.suit, m.lo, m.rank)
        out.append(got)
    return tuple(out)


# each hand a view showed, as it sorted it last: id(list) -> (its cards then, in the list's
# order; them sorted).  A hand changes by a card between most views: the sorted tuple is
# then mended, not sorted anew (Cards, an int subclass, compare the slow way in a sort).
# The cards are compared every time, so a list that died and left its id to another is
# never taken for it.
_SORTED: Final[dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]]] = {}
_SORTED_MAX: Final = 4096  # then it starts afresh


def sorted_hand(cards: list[Card]) -> tuple[Card, ...]:
    """``cards`` (a hand) sorted by suit, then rank, as a tuple."""
    now = tuple(cards)
    key = id(cards)
    got = _SORTED.get(key)
    out: tuple[Card, ...] | None = None
    if got is not None:
        was, done = got
        if now == was:
            return done
        n, m = len(now), len(was)
        if n == m + 1 and now[:m] == was:  # one card came, at the end
            c = now[m]
            i = bisect_left(done, c)
            out = done[:i] + (c,) + done[i:]
        elif n + 1 == m:  # one card left
            j = 0
            while j < n and now[j] is was[j]:
                j += 1
            if now[j:] == was[j + 1:]:
                i = done.index(was[j])
                out = done[:i] + done[i + 1:]
    if out is None:
        out = tuple(sorted(now))
    if len(_SORTED) >= _SORTED_MAX:
        _SORTED.clear()
    _SORTED[key] = (now, out)
    return out


def turn_values(st: State) -> tuple[Any, ...]:
    """Where the turn stands, as every seat saw it: the values of state.TURN_STATE's keys,
    in order (its lists as tuples).  Written out key by key (a test holds it to TURN_STATE):
    in compiled code that is a fifth of the cost of reading the fields by name."""
    return (
        st.turn_index,
        tuple(st.discard_by),
        tuple(st.down_turn),
        tuple(st.played_before),
        st.asked,
        tuple(st.queue),
        st.call_kind,
        st.protected,
        st.last_taker,
        st.taken,
        tuple(st.pending),
        st.melds_this_turn,
        st.played_this_turn,
        st.skip_draw,
    )


def own_turn(st: State, seat: int | None) -> bool:
    """Whether it is ``seat``'s own turn (drawing or playing): only then does its view show
    the card it took from the discard pile and the wilds it must still place."""
    return seat is not None and seat == st.current and (st.phase is Phase.DRAW or st.phase is Phase.PLAY)


def seen_view(setup: Setup, st: State, seat: int | None, cls: Callable[..., V]) -> V:
    """``seat``'s view (``None``: a spectator's: no hand, no own-turn facts), built by
    ``cls`` (view.py's View) from the fields in order."""
    sp = setup.spec
    lim = buy_cap(setup, st)
    mine = own_turn(st, seat)
    asked = st.asked
    hands = st.hands
    over = st.is_over
    settlement = st.settlement
    return cls(
        sp.id, sp.name, seat, setup.n, st.round_no, setup.deals, st.dealer, contract_text(setup, st),
        asked if asked is not None else st.current, st.current,
        Phase.OVER if over else st.phase,
        () if seat is None else sorted_hand(hands[seat]),
        tuple([len(h) for h in hands]), len(st.stock), tuple(st.discard),
        meld_views(st),
        tuple(st.down), tuple(st.buys),
        None if lim is None else tuple([max(0, lim - b) for b in st.buys]),
        st.stock_reuses, tuple(st.scores), st.kitty, st.log, st.last_round, over,
        tuple(st.winners), st.state_id,
        st.taken if mine else None,
        tuple(st.pending) if mine else (),
        tuple(st.known),  # (sorted tuples, shared: flow.know)
        turn_values(st),
        None if not over or settlement is None else tuple(settlement),
        len(st.log),
    )


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


def view_dict(v: ViewFields) -> dict[str, Any]:
    """The JSON-safe dict of the public API (``g.view(seat)``) of the view ``v``."""
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
