"""What a match is made of: the frozen :class:`Setup` (what never changes in a match) and
the one :class:`State` (every field that changes, declared once here).

Everything that reads or rebuilds a position — the turn machine, the actions, the views,
the determinizer, the tests — reads these declarations, so a new turn fact is one new
field here (and, if a seat may see it, one fact in :mod:`.viewspec`, the view's declaration).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..melds import Component, MeldRules, Reading, TableMeld, rebuild_recipe
from ..rules.registry import Variant
from ..rules.spec import RuleSpec
from .viewspec import TURN_FACTS

if TYPE_CHECKING:
    from ..solver import Solver
    from .actions import Action
    from .events import Event


class Phase(StrEnum):
    """Where the turn stands.  A StrEnum: ``Phase.DRAW == "draw"``, as the views say it."""

    CUT = "cut"  # the pack waits for a cut (Liverpool)
    DRAW = "draw"  # the seat to play draws, takes (or buys, or melds first where allowed)
    MAY_I = "may_i"  # a May I / buy window: the seat asked answers buy or pass
    PLAY = "play"  # the seat has drawn: meld, lay off, swap, discard
    CALL = "call"  # a Shanghai or Rummy window after a discard
    OVER = "over"  # between rounds for an instant, and at the end of the match


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """What never changes in a match: the ruleset with the table's house rules, the
    players, the seed and how the first deal was fixed."""

    variant: Variant  # the ruleset with the table's options applied
    spec: RuleSpec  # variant.spec
    base_variant: Variant  # the ruleset as given (the record names it)
    options: Mapping[str, Any]
    n: int
    seed: int
    values: tuple[int, ...]  # penalty value of each card, indexed by card
    decks: int
    jokers: int
    stacked: tuple[Card, ...] | None  # the first deal's stacked pack, top card first
    first_dealer: int
    first_round: int
    deals: int | None  # how many deals the match has (spec.num_deals()), None: played to a target

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild_recipe(self)

    @property
    def pack_size(self) -> int:
        return 52 * self.decks + self.jokers


@dataclass(slots=True, kw_only=True)
class State:
    """Every changing field of a match, grouped by how long it lives.  :meth:`copy` is
    cheap and independent: nothing mutable is shared but the read-only log events."""

    # -- the match
    rng: random.Random
    round_no: int
    dealer: int
    scores: list[Fraction]
    kitty: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)  # each round's result
    # the record: every action as played; each is written as text when the record is
    # first read (turn.action_texts), so a position's list may end in action objects
    actions: list[str | Action] = field(default_factory=list)
    last_round: dict[str, Any] | None = None
    is_over: bool = False
    winners: list[int] = field(default_factory=list)
    settlement: list[Fraction] | None = None  # Progressive: units paid and received
    state_id: int = 0  # grows with every accepted action
    # the deal before's log, whole (a new deal moves the log here: never changed after)
    last_log: list[Event] = field(default_factory=list)

    # -- the round (set afresh by the turn machine's start_round)
    rules: MeldRules | None = None  # how melds are judged this deal
    solver: Solver | None = None
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)  # the top card is the end of the list
    discard: list[Card] = field(default_factory=list)  # the top card is the end of the list
    discard_by: list[int | None] = field(default_factory=list)  # who discarded each (None: turned up)
    table: list[TableMeld] = field(default_factory=list)
    down: list[bool] = field(default_factory=list)  # met the contract / melded this round
    down_turn: list[int] = field(default_factory=list)  # the turn index each seat went down
    played_before: list[bool] = field(default_factory=list)  # for going rummy
    buys: list[int] = field(default_factory=list)
    known: list[tuple[Card, ...]] = field(default_factory=list)  # seen going into a hand, not since played
    log: list[Event] = field(default_factory=list)
    stock_reuses: int = 0
    turn_index: int = 0
    current: int = 0  # whose turn it is
    phase: Phase = Phase.DRAW
    asked: int | None = None  # the seat asked in a window (or to cut)
    queue: list[int] = field(default_factory=list)  # the seats still to ask in the window
    last_taker: int | None = None  # who took the last discard out of turn
    call_kind: str | None = None  # "shanghai" or "rummy" while a call window is open
    protected: bool = False  # the top discard was protected by a Shanghai call

    # -- the turn (reset by the turn machine's reset_turn)
    taken: Card | None = None  # the card taken from the discard pile this turn
    melds_this_turn: int = 0
    played_this_turn: bool = False
    pending: list[Card] = field(default_factory=list)  # swapped wilds still to be placed
    skip_draw: bool = False  # the starter's extra card: no draw on the first turn

    # -- derived, per round: answers that depend on the round's facts alone (shared by copies)
    # going_down.solve's answers
    contract_cache: dict[tuple[object, ...], list[Reading] | None] = field(default_factory=dict)
    contract_parts: tuple[int, tuple[Component, ...]] | None = None  # (the deal's number, its contract)
    contract_words: tuple[int, str] | None = None  # (the deal's number, its contract in words)
    buy_cap: tuple[int, int | None] | None = None  # (the deal's number, buys a seat may make, or None)
    wh_solver: Solver | None = None
    legal: list[Action] | None = None  # the legal actions now, once asked

    def copy(self, rng: random.Random | None = None) -> State:
        """An independent copy: a search plays it forward without touching this one.
        ``rng``: the copy's random numbers (default: a copy of this state's)."""
        if rng is None:
            rng = random.Random(0)
            rng.setstate(self.rng.getstate())
        c = State.__new__(State)
        for name, value in zip(_PLAIN_FIELDS, _plain_values(self), strict=True):
            setattr(c, name, value)
        for name, value in zip(_LIST_FIELDS, _list_values(self), strict=True):
            setattr(c, name, list(value))
        c.rng = rng
        c.hands = [list(h) for h in self.hands]
        c.table = [m.copy() for m in self.table]
        c.legal = None
        return c

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Every field that is part of the position (not the derived caches)."""
        return tuple(f.name for f in fields(cls) if f.name not in _DERIVED)


_DERIVED = frozenset({"contract_cache", "contract_parts", "contract_words", "buy_cap", "wh_solver", "legal"})
_DEEP = frozenset({"rng", "hands", "table", "legal"})
# lists of immutable things (cards, seats, numbers, tuples of cards, events, result dicts never changed)
_LIST_FIELDS = ("scores", "history", "actions", "winners", "stock", "discard", "discard_by", "down",
                "down_turn", "played_before", "buys", "log", "queue", "pending", "known")
_PLAIN_FIELDS = tuple(f.name for f in fields(State) if f.name not in _DEEP and f.name not in _LIST_FIELDS)
_plain_values = attrgetter(*_PLAIN_FIELDS)
_list_values = attrgetter(*_LIST_FIELDS)


# Where the turn stands, as every seat at the table saw it: (view key, State field, kind),
# declared in viewspec.TURN_FACTS.  The view writes these in ``turn_state``; the
# determinizer restores them from it.
# kind: "plain" (ints, bools, None and lists of them), "card" (a Card or None), "cards".
TURN_STATE: tuple[tuple[str, str, str], ...] = tuple([(t.key, t.field, t.kind) for t in TURN_FACTS])
