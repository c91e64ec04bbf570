"""Melds: sets, runs and pairs; wild cards and their declared meanings; ace modes.

Runs live on a line of *positions*: position ``p`` holds rank ``(p-1) % 13 + 1``.
``low`` runs use positions 1-13 (ace = 1), ``high`` 2-14 (ace = 14), ``low_or_high``
1-14 (an ace at either end, never wrapping; A..K..A is 14 cards), ``wrap`` starts at
1-13 and may run past the king (K A 2 is 13 14 15), at most 13 cards.

A wild card (a joker, or a 2 where 2s are wild) in a meld stands for a card: in a run
the face at its position, in a set the set's rank.  A wild 2 standing for itself
counts as a natural card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .cards import CARDS, JOKER_CODE, Card, format_cards

__all__ = [
    "MeldRules",
    "Rank",
    "Reading",
    "TableMeld",
    "rank_at",
    "readings",
]

ACE_MODES = ("low", "high", "low_or_high", "wrap")
WILD_LIMITS = ("unlimited", "at_most_one", "not_more_than_naturals")


def _rebuilt(cls: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return cls(**kwargs)


def rebuild_recipe(obj: Any) -> tuple[Any, ...]:
    """How pickle and copy rebuild a frozen dataclass: through its ``__init__``.  Compiled
    with mypyc (setup.py), a frozen dataclass refuses the field-by-field restore of the
    default recipe; its ``__reduce__`` returns this instead."""
    return (_rebuilt, (type(obj), {f.name: getattr(obj, f.name) for f in fields(obj)}))


KIND_CODES = {"set": 1, "run": 2, "pair": 3, "meld": 4}


class Component:
    """One meld a contract asks for: ``kind`` is set, run, pair or meld (set or run).  A
    value (equal and hashed by its fields; read-only where compiled), a plain class for the
    reason :class:`Reading` is: the solver hashes it at every solve."""

    def __init__(self, kind: str, size: int) -> None:
        self.kind: Final = kind
        self.size: Final = size
        self.code: Final = KIND_CODES[kind] * 1000 + size  # (kind, size) as one int

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Component):
            return NotImplemented
        return self.code == other.code

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Component):
            return NotImplemented
        return self.code != other.code

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Component(kind={self.kind!r}, size={self.size!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Component, (self.kind, self.size))


@mypyc_attr(native_class=False)  # compiled with mypyc, an int subclass is a plain class
class Rank(int):
    """The declared meaning of a wild card in a set or pair: a rank, 1-13."""

    __slots__ = ()

    def __copy__(self) -> Rank:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Rank:
        return self  # immutable: a copied game shares it

    def __str__(self) -> str:
        return "A23456789TJQK"[int(self) - 1]

    def __repr__(self) -> str:
        return f"Rank({int(self)})"


def rank_at(pos: int) -> int:
    return (pos - 1) % 13 + 1


def face_at(suit: int, pos: int) -> Card:
    return CARDS[suit * 13 + (pos - 1) % 13]


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The meld-shaping part of a ruleset."""

    ace_mode: str = "low"
    twos_wild: bool = False
    wild_limit: str = "unlimited"
    natural_required: bool = True
    set_max: int | None = None  # 4 with one deck
    min_set: int = 3
    min_run: int = 3
    ace_both_ends: bool = True
    swap_sets: bool = False  # a set's wild may be swapped for a missing card of its rank

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild_recipe(self)

    def __copy__(self) -> MeldRules:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> MeldRules:
        return self  # immutable (frozen): a copied game shares it

    def is_wild(self, c: int) -> bool:
        return c == JOKER_CODE or (self.twos_wild and c % 13 == 1 and c < 52)

    def run_bounds(self, length: int) -> range:
        """The start positions a run of ``length`` may take."""
        mode = self.ace_mode
        if mode == "low":
            return range(1, 15 - length)
        if mode == "high":
            return range(2, 16 - length)
        if mode == "low_or_high":
            if length >= 14 and not self.ace_both_ends:
                return range(0)
            return range(1, 16 - length)
        return range(1, 14) if length <= 13 else range(0)

    def within_limit(self, wilds: int, naturals: int) -> bool:
        if naturals == 0 and self.natural_required:
            return False
        lim = self.wild_limit
        if lim == "unlimited":
            return True
        if lim == "at_most_one":
            return wilds <= 1
        return wilds <= naturals


class Reading:
    """One legal reading of a group of cards as a meld (a value: read-only where compiled,
    equal and hashed by its fields).

    ``cards`` is in table order (runs low to high).  ``rank`` is the rank of a set or
    pair; ``suit``/``lo`` the suit and first position of a run.  A plain class rather than
    a frozen dataclass: compiled with mypyc, a frozen dataclass is built through a Python
    ``__init__`` setting each field with ``object.__setattr__`` (some 8,000 instructions
    a meld); this one in a few dozen, and the engine builds one for every meld it lists.
    """

    def __init__(self, kind: str, cards: tuple[Card, ...], rank: int = 0, suit: int = -1,
                 lo: int = 0) -> None:
        self.kind: Final = kind
        self.cards: Final = cards
        self.rank: Final = rank
        self.suit: Final = suit
        self.lo: Final = lo

    def _key(self) -> tuple[str, tuple[Card, ...], int, int, int]:
        return (self.kind, self.cards, self.rank, self.suit, self.lo)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reading):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Reading):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Reading(kind={self.kind!r}, cards={self.cards!r}, rank={self.rank!r}, "
                f"suit={self.suit!r}, lo={self.lo!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Reading, self._key())

    def __copy__(self) -> Reading:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Reading:
        return self  # immutable (frozen): a copied game shares it

    @property
    def hi(self) -> int:
        return self.lo + len(self.cards) - 1

    def meanings(self) -> list[Card | Rank]:
        if self.kind == "run":
            return [face_at(self.suit, self.lo + i) for i in range(len(self.cards))]
        return [Rank(self.rank)] * len(self.cards)

    def wilds(self) -> int:
        """How many cards stand for another card in this reading."""
        if self.kind == "run":
            return sum(1 for i, c in enumerate(self.cards) if c != face_at(self.suit, self.lo + i))
        return sum(1 for c in self.cards if c == JOKER_CODE or c.rank != self.rank)

    def describe(self) -> str:
        if self.kind == "run":
            lo, hi = face_at(self.suit, self.lo), face_at(self.suit, self.hi)
            return f"run {lo}..{hi}"
        return f"{self.kind} of {Rank(self.rank)}s"

    def items(self, rules: MeldRules) -> tuple[tuple[Card, Card | Rank | None], ...]:
        """The cards with a meaning on every wild-capable card (the action form)."""
        out: list[tuple[Card, Card | Rank | None]] = []
        run = self.kind == "run"
        for i, c in enumerate(self.cards):
            if rules.is_wild(c):
                out.append((c, face_at(self.suit, self.lo + i) if run else Rank(self.rank)))
            else:
                out.append((c, None))
        return tuple(out)


def _set_reading(cards: Sequence[Card], rules: MeldRules, kind: str) -> list[Reading]:
    fixed = [c for c in cards if not rules.is_wild(c)]
    ranks = {c.rank for c in fixed}
    if len(ranks) > 1:
        return []
    if ranks:
        options = list(ranks)
    elif rules.twos_wild and any(c != JOKER_CODE for c in cards):
        # only wild 2s and jokers: a set of 2s (2s natural there) or, if all-wild
        # melds are allowed, any rank
        options = [2] if rules.natural_required else list(range(1, 14))
    elif not rules.natural_required:
        options = list(range(1, 14))
    else:
        return []
    out = []
    for r in options:
        naturals = sum(1 for c in cards if c != JOKER_CODE and c.rank == r)
        if kind == "pair" and not naturals:
            continue  # a pair needs a natural card even where all-wild melds are legal
        if rules.within_limit(len(cards) - naturals, naturals):
            out.append(Reading(kind, tuple(cards), rank=r))
    return out


def _run_readings(cards: Sequence[Card], rules: MeldRules) -> list[Reading]:
    n = len(cards)
    fixed = [c for c in cards if not rules.is_wild(c)]
    suits = {c.suit for c in fixed}
    if len(suits) > 1:
        return []
    if suits:
        suit_options = list(suits)
    else:
        suit_options = sorted({c.suit for c in cards if c != JOKER_CODE})
        if not rules.natural_required:
            suit_options = [0, 1, 2, 3]
    out = []
    twos = [c for c in cards if c != JOKER_CODE and rules.is_wild(c)]
    for suit in suit_options:
        for lo in rules.run_bounds(n):
            slots: list[Card | None] = [None] * n
            ok = True
            for c in fixed:
                r = c.rank
                placed = False
                for i in range(n):
                    if slots[i] is None and rank_at(lo + i) == r:
                        slots[i] = c
                        placed = True
                        break
                if not placed:
                    ok = False
                    break
            if not ok:
                continue
            wild_pool = [c for c in cards if rules.is_wild(c)]
            naturals = len(fixed)
            # a wild 2 of the run's suit at its own place counts as natural
            for i in range(n):
                if slots[i] is None and rank_at(lo + i) == 2:
                    two = CARDS[suit * 13 + 1]
                    if two in twos and two in wild_pool:
                        slots[i] = two
                        wild_pool.remove(two)
                        naturals += 1
            if not rules.within_limit(len(wild_pool), naturals):
                continue
            it = iter(wild_pool)
            ordered = tuple(s if s is not None else next(it) for s in slots)
            out.append(Reading("run", ordered, suit=suit, lo=lo))
    return out


def readings(
    cards: Sequence[Card],
    rules: MeldRules,
    *,
    min_set: int | None = None,
    min_run: int | None = None,
    pair: bool = False,
) -> list[Reading]:
    """Every legal reading of ``cards`` as one meld (empty if none)."""
    n = len(cards)
    out: list[Reading] = []
    if pair and n == 2:
        out.extend(_set_reading(cards, rules, "pair"))
    ms = rules.min_set if min_set is None else min_set
    if n >= ms and (rules.set_max is None or n <= rules.set_max):
        out.extend(_set_reading(cards, rules, "set"))
    mr = rules.min_run if min_run is None else min_run
    if n >= mr:
        out.extend(_run_readings(cards, rules))
    return out


def reading_from_items(
    items: Sequence[tuple[Card, Card | Rank | None]],
    rules: MeldRules,
    *,
    min_set: int | None = None,
    min_run: int | None = None,
    pair: bool = False,
) -> list[Reading]:
    """The readings of a meld as written in an action: cards in the order given, with
    optional meanings for wild cards.  A meld whose meanings are all given has at most
    one reading; missing meanings are filled in every legal way."""
    cards = [c for c, _ in items]
    given = [(i, c, m) for i, (c, m) in enumerate(items) if m is not None]
    out = []
    for rd in readings(cards, rules, min_set=min_set, min_run=min_run, pair=pair):
        if given:
            if rd.kind == "run":
                if any(not isinstance(m, Card) or m == JOKER_CODE for _, _, m in given):
                    continue
                # table order must be the order written
                if list(rd.cards) != cards:
                    moved = _reorder_run(rd, items, rules)
                    if moved is None:
                        # (written out of order: each wild placed by its meaning, so its
                        # meaning holds)
                        placed = _place_by_meaning(rd, items, rules)
                        if placed is not None:
                            out.append(placed)
                        continue
                    rd = moved
                mean = rd.meanings()
                if any(mean[i] != m for i, _, m in given):
                    continue
            else:
                if any(isinstance(m, Card) or int(m) != rd.rank for _, _, m in given):
                    continue
        out.append(rd)
    # a run written in order with its meanings given is one reading
    uniq: dict[tuple[str, tuple[Card, ...], int, int, int], Reading] = {}
    for rd in out:
        uniq.setdefault((rd.kind, rd.cards, rd.rank, rd.suit, rd.lo), rd)
    return list(uniq.values())


def _place_by_meaning(
    rd: Reading, items: Sequence[tuple[Card, Card | Rank | None]], rules: MeldRules
) -> Reading | None:
    """A run written out of table order (``5H 6H JK=4H``) whose every wild card has its
    meaning given: each card put at its place in ``rd``'s span (a natural at its own face,
    a wild at the face it stands for), if every place is filled once."""
    n = len(items)
    slots: list[Card | None] = [None] * n
    for c, m in items:
        if rules.is_wild(c) and m is None:
            return None  # (a wild with no meaning: only the written order places it)
        face = m if isinstance(m, Card) else c
        placed = False
        for i in range(n):
            if slots[i] is None and face_at(rd.suit, rd.lo + i) == face:
                slots[i] = c
                placed = True
                break
        if not placed:
            return None
    cards = [c for c in slots if c is not None]
    if len(cards) != n:
        return None
    naturals = sum(1 for i, c in enumerate(cards) if c == face_at(rd.suit, rd.lo + i))
    if not rules.within_limit(n - naturals, naturals):
        return None
    return Reading("run", tuple(cards), suit=rd.suit, lo=rd.lo)


def _reorder_run(
    rd: Reading, items: Sequence[tuple[Card, Card | Rank | None]], rules: MeldRules
) -> Reading | None:
    """Put a run's cards in the written order if that order is a legal placement."""
    cards = [c for c, _ in items]
    n = len(cards)
    for i, c in enumerate(cards):
        want = face_at(rd.suit, rd.lo + i)
        if c == want:
            continue
        if not rules.is_wild(c):
            return None
    naturals = sum(1 for i, c in enumerate(cards) if c == face_at(rd.suit, rd.lo + i))
    if not rules.within_limit(n - naturals, naturals):
        return None
    return Reading("run", tuple(cards), suit=rd.suit, lo=rd.lo)


@dataclass(slots=True)
class TableMeld:
    """A meld on the table.  It belongs to nobody for laying off; ``owner`` is who
    laid it down."""

    kind: str
    cards: list[Card]
    owner: int
    rank: int = 0
    suit: int = -1
    lo: int = 0
    limited: bool = True  # whether the wild limit still applies to lay-offs
    wilds: int = field(default=0)

    @classmethod
    def from_reading(cls, rd: Reading, owner: int, rules: MeldRules, limited: bool) -> TableMeld:
        m = cls(rd.kind, list(rd.cards), owner, rd.rank, rd.suit, rd.lo, limited)
        m.wilds = m.count_wilds(rules)
        return m

    @property
    def hi(self) -> int:
        return self.lo + len(self.cards) - 1

    def copy(self) -> TableMeld:
        """An independent copy (its own card list)."""
        return TableMeld(self.kind, list(self.cards), self.owner, self.rank, self.suit, self.lo,
                         self.limited, self.wilds)

    def meaning(self, i: int) -> Card | Rank:
        if self.kind == "run":
            return face_at(self.suit, self.lo + i)
        return Rank(self.rank)

    def count_wilds(self, rules: MeldRules) -> int:
        return self.to_reading().wilds()

    def describe(self) -> str:
        return format_cards(self.cards)

    def to_reading(self) -> Reading:
        return Reading(self.kind, tuple(self.cards), self.rank, self.suit, self.lo)

    # -- laying off ---------------------------------------------------------------------

    def layoff_meanings(self, c: Card, rules: MeldRules) -> list[Card | Rank | None]:
        """The ways ``c`` can be added: ``None`` for a natural card, else the meaning a
        wild would take.  Empty if it does not fit."""
        wild = rules.is_wild(c)
        n = len(self.cards)
        if self.kind != "run":
            if self.kind == "pair":
                return []
            if rules.set_max is not None and n >= rules.set_max:
                return []
            if c != JOKER_CODE and c.rank == self.rank:
                return [Rank(self.rank)] if wild else [None]
            if not wild:
                return []
            if self.limited and not rules.within_limit(self.wilds + 1, n - self.wilds):
                return []
            return [Rank(self.rank)]
        if not wild and c // 13 != self.suit:
            return []  # a natural card of another suit never extends this run
        out: list[Card | Rank | None] = []
        bounds = rules.run_bounds(n + 1)
        for pos in (self.lo - 1, self.hi + 1):
            lo = min(pos, self.lo)
            if rules.ace_mode == "wrap" and lo == 0:
                lo = 13  # K A 2 ... written from the king
                if n + 1 > 13:
                    continue
            elif lo not in bounds:
                continue
            f = face_at(self.suit, pos)
            if c == f:
                out.append(f if wild else None)
            elif wild:
                if not self.limited or rules.within_limit(self.wilds + 1, n - self.wilds):
                    out.append(f)
        # a 12-card round-the-corner run takes its missing rank at either end: one choice
        return list(dict.fromkeys(out)) if len(out) > 1 else out

    def add(self, c: Card, meaning: Card | Rank | None, rules: MeldRules) -> None:
        """Lay off ``c`` (already checked with :meth:`layoff_meanings`)."""
        if self.kind == "run":
            target = meaning if meaning is not None else c
            if target == face_at(self.suit, self.lo - 1):
                self.cards.insert(0, c)
                self.lo -= 1
                if self.lo == 0:
                    self.lo = 13
            else:
                self.cards.append(c)
            if c != target:
                self.wilds += 1
        else:
            self.cards.append(c)
            if c == JOKER_CODE or c.rank != self.rank:
                self.wilds += 1

    def swappable(self, rules: MeldRules) -> dict[Card, int]:
        """Natural faces that can replace a wild in this run, and the wild's index; where
        the rules let a set's wild be swapped, each card of the set's rank whose suit the
        set lacks (what its wild stands for), and its first wild's index."""
        if self.kind == "set" and rules.swap_sets:
            at = -1
            suits: set[int] = set()
            for i, c in enumerate(self.cards):
                if c != JOKER_CODE and c.rank == self.rank:
                    suits.add(c.suit)  # a natural (or a wild 2 standing for itself)
                elif at < 0:
                    at = i
            if at < 0:
                return {}
            return {face_at(s, self.rank): at for s in range(4) if s not in suits}
        if self.kind != "run":
            return {}
        out: dict[Card, int] = {}
        for i, c in enumerate(self.cards):
            f = face_at(self.suit, self.lo + i)
            if c != f and rules.is_wild(c):
                out.setdefault(f, i)
        return out

