"""Fixed-size encodings of rummykit's actions and views, for reinforcement learning.

Actions: one integer id per action, in fixed blocks (``ActionSpace`` lays them out; the
table in docs/rl.md lists them).  Lay-offs, swaps and Shanghai calls name a table meld by its
slot (0-based, in the order the melds went down) and a wild card's lay-off on a run names
its end; melds are an indexed block: id ``MELD + k`` is the k-th meld action
``legal_actions()`` lists, and the observation describes each of those options.

Observations: a float32 vector built from the seat's typed view (``g.observe(seat)``, the
same facts as ``view(seat)``) alone (``ObservationEncoder``;
docs/rl.md lists its fields), seats taken relative to the observer (0 = itself).  The
environments keep one ``SeatObserver`` per seat: the same vector, written again only where
the seat's view changed since the last one it encoded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..cards import JOKER_CODE, NUM_FACES, TEXT, Card
from ..engine.actions import (
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
)
from ..engine.view import MeldView, View, as_view
from ..melds import face_at
from ..rules.registry import Variant
from ..rules.spec import KIND_NAMES
from .codes import number_actions
from .tracker import Tracker

CODE = {t: i for i, t in enumerate(TEXT)}
MELD_OPTIONS = 64  # meld actions listed at once (most seen in bot games of every ruleset: 57)
PHASES = ("draw", "play", "may_i", "call", "cut", "over")
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
KINDS = ("set", "run", "pair")
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
CONTRACT_KINDS = tuple(KIND_NAMES.values())  # set, run, pair, meld
MAX_SIZE = 14
TWOS = tuple(suit * 13 + 1 for suit in range(4))  # 2C 2D 2H 2S


def _pred(face: int) -> int:
    """The face just below ``face`` in its suit (the ace's is the king: wrap-around runs)."""
    return face - face % 13 + (face % 13 - 1) % 13


class ActionSpace:
    """The id layout for one ruleset and player count (docs/rl.md).  ``slots``: the most
    melds the table can hold (the pack's size over the smallest meld the ruleset allows);
    ``wilds``: the faces that can stand for another card (the joker where the pack has
    jokers, the 2s where they are wild); ``shanghai``, ``rummy``, ``swap``: whether the
    ruleset has Shanghai calls, Rummy calls and wild swaps.  A block the ruleset can never
    use takes no ids."""

    FIXED = ("draw", "take", "buy", "pass", "cut", "draw both")

    def __init__(self, players: int, slots: int, wilds: Sequence[int] = (JOKER_CODE,),
                 shanghai: bool = True, rummy: bool = True, swap: bool = True):
        self.players, self.slots = players, slots
        self.wilds = tuple(wilds)
        self.wild_index = {c: i for i, c in enumerate(self.wilds)}
        self.has_shanghai, self.has_rummy = shanghai, rummy
        self.has_swap = swap and bool(self.wilds)
        at = len(self.FIXED)
        self.discard = at
        at += NUM_FACES
        self.shanghai_discard = at  # (when the ruleset has no block, its first id is where
        at += NUM_FACES if shanghai else 0  # the next block starts, and it has no ids)
        self.rummy = at
        at += NUM_FACES if rummy else 0
        self.shanghai_call = at
        at += 2 * slots if shanghai else 0
        self.layoff = at
        at += NUM_FACES * slots
        self.layoff_high = at
        at += len(self.wilds) * slots
        self.swap = at
        at += NUM_FACES * slots if self.has_swap else 0
        self.meld = at
        self.size = at + MELD_OPTIONS

    @classmethod
    def for_variant(cls, variant: Variant, players: int) -> ActionSpace:
        sp = variant.spec
        _decks, jokers = sp.pack_for(players)
        wilds = ([JOKER_CODE] if jokers else []) + (list(TWOS) if sp.twos_wild else [])
        return cls(players, sp.pack_size(players) // smallest_meld(variant), wilds,
                   shanghai=sp.shanghai_call, rummy=sp.rummy_call, swap=sp.wild_swaps)

    def blocks(self) -> list[tuple[str, int, int]]:
        """(name, first id, count) of every block this layout has, in order (the docs and
        the tests read them)."""
        out = [
            ("draw / take / buy / pass / cut / draw both", 0, len(self.FIXED)),
            ("discard face c", self.discard, NUM_FACES),
            ("discard face c calling Shanghai", self.shanghai_discard, NUM_FACES if self.has_shanghai else 0),
            ("call Rummy, shedding face c", self.rummy, NUM_FACES if self.has_rummy else 0),
            ("call Shanghai: lay the discard on slot m, end e", self.shanghai_call,
             2 * self.slots if self.has_shanghai else 0),
            ("lay off face c on slot m", self.layoff, NUM_FACES * self.slots),
            ("lay off wild w on slot m at a run's high end", self.layoff_high, len(self.wilds) * self.slots),
            ("swap face c for the wild in slot m", self.swap, NUM_FACES * self.slots if self.has_swap else 0),
            ("meld: the k-th meld option", self.meld, MELD_OPTIONS),
        ]
        return [b for b in out if b[2]]


def smallest_meld(variant: Variant) -> int:
    """The fewest cards a meld on the table can have in ``variant``: its smallest set, run
    or contract meld (lay-offs and Shanghai calls only add cards; a swap keeps the count)."""
    sp = variant.spec
    sizes = [sp.min_set, sp.min_run]
    for r in range(1, len(sp.contracts) + 1):
        sizes += [c.size for c in sp.contract(r)]
    return max(1, min(sizes))


class ActionCodec:
    """Ids of the actions legal in one position, and back."""

    def __init__(self, space: ActionSpace):
        self.space = space

    def _end(self, lay: LayOff, melds: Sequence[MeldView]) -> int:
        """0: a natural card, a set's rank, or a run's low end; 1: a run's high end."""
        if not isinstance(lay.meaning, Card):
            return 0  # a natural card (None) or a set's rank
        m = melds[lay.meld]
        first = face_at(m.suit, m.lo)
        return 0 if int(lay.meaning) == _pred(first) else 1

    def encode(self, a: Action, melds: Sequence[MeldView], meld_index: int = -1) -> int:
        """The id of ``a``; ``melds`` are the view's table melds (:attr:`View.melds`: a
        wild's lay-off on a run names its end), ``meld_index`` a meld action's place among
        the melds ``legal_actions()`` lists."""
        sp = self.space
        if isinstance(a, Draw):
            return 5 if a.both else 0
        if isinstance(a, Take):
            return 1
        if isinstance(a, Buy):
            return 2
        if isinstance(a, Pass):
            return 3
        if isinstance(a, Cut):
            return 4
        if isinstance(a, Discard):
            return sp.discard + int(a.card)
        if isinstance(a, CallRummy):
            assert a.card is not None
            return sp.rummy + int(a.card)
        if isinstance(a, CallShanghai):
            if a.layoff is not None:
                return sp.shanghai_call + 2 * a.layoff.meld + self._end(a.layoff, melds)
            assert a.discard is not None
            return sp.shanghai_discard + int(a.discard)
        if isinstance(a, LayOff):
            if self._end(a, melds):
                w = sp.wild_index.get(int(a.card))
                if w is None:
                    raise ValueError(f"no id for {a.text()}: {TEXT[a.card]} is not a wild card here")
                return sp.layoff_high + w * sp.slots + a.meld
            return sp.layoff + int(a.card) * sp.slots + a.meld
        if isinstance(a, Swap):
            return sp.swap + int(a.card) * sp.slots + a.meld
        if isinstance(a, Meld):
            if not 0 <= meld_index < MELD_OPTIONS:
                raise ValueError(f"meld option {meld_index} is beyond the {MELD_OPTIONS} the encoding holds")
            return sp.meld + meld_index
        raise ValueError(f"no id for {a!r}")

    def table(self, legal: Sequence[Action], melds: Sequence[MeldView],
              meld_actions: list[Meld] | None = None) -> dict[int, Action]:
        """id -> action, for every legal action (each legal action has its own id);
        ``melds`` as for :meth:`encode`; ``meld_actions``, if given, gets the meld actions
        that have an id, in order."""
        return self.numbered(legal, melds, meld_actions)[0]

    def numbered(self, legal: Sequence[Action], melds: Sequence[MeldView],
                 meld_actions: list[Meld] | None = None) -> tuple[dict[int, Action], bytearray]:
        """:meth:`table`, and the mask of its ids as bytes (0 or 1 for each id), in one pass
        (compiled: :func:`.codes.number_actions`)."""
        sp = self.space
        return number_actions(legal, melds, self.encode, sp.discard, sp.layoff, sp.slots, sp.meld,
                              MELD_OPTIONS, sp.size, meld_actions)

    def mask(self, table: Mapping[int, Action]) -> np.ndarray:
        """The int8 mask of the ids in ``table`` (a fresh, writable array)."""
        return np.frombuffer(self.mask_bytes(table), dtype=np.int8)

    def mask_bytes(self, table: Mapping[int, Action]) -> bytearray:
        """The mask of the ids in ``table`` as bytes, 0 or 1 for each id."""
        m = bytearray(self.space.size)  # set byte by byte: cheaper than numpy's fancy indexing
        for i in table:
            m[i] = 1
        return m


class ObservationEncoder:
    """The float32 vector of one seat's view.  Fields, in order (docs/rl.md):
    hand counts (53); discard top one-hot (53); discard pile counts (53); for each other seat,
    in turn order after the observer, the cards seen going into its hand (53 each); table
    slots, each: its cards' counts (53), kind one-hot (set, run, pair), owner relative
    one-hot (players); hand sizes /20 (players, relative); down (players); buys left /5
    (players; 0 where buying is off); scores /500 (players); phase one-hot (6); the
    observer is the one asked in a window (1); turn relative one-hot (players); round /
    deals (1); contract: count of each (kind, size) (4 x 14), whole hand (1); stock size /
    100 (1); discard size /100 (1); meld options: each option's card counts (64 x 53)."""

    def __init__(self, variant: Variant, players: int, space: ActionSpace):
        self.variant, self.n, self.space = variant, players, space
        n, slots = players, space.slots
        self.slot_width = NUM_FACES + len(KINDS) + n
        self.parts = [
            ("hand", NUM_FACES), ("discard_top", NUM_FACES), ("discard_pile", NUM_FACES),
            ("known", NUM_FACES * (n - 1)), ("table", self.slot_width * slots), ("hand_sizes", n),
            ("down", n), ("buys_left", n), ("scores", n), ("phase", len(PHASES)), ("asked", 1),
            ("turn", n), ("round", 1), ("contract", len(CONTRACT_KINDS) * MAX_SIZE), ("whole_hand", 1),
            ("stock", 1), ("discards", 1), ("meld_options", MELD_OPTIONS * NUM_FACES),
        ]
        self.offsets: dict[str, int] = {}
        at = 0
        for name, width in self.parts:
            self.offsets[name] = at
            at += width
        self.size = at
        self._contracts: dict[int, np.ndarray] = {}

    def contract_values(self, round_no: int) -> list[float]:
        """The contract part of deal ``round_no``'s vector (its last value: a whole-hand deal)."""
        return [float(x) for x in self._contract(round_no)]

    def _contract(self, round_no: int) -> np.ndarray:
        got = self._contracts.get(round_no)
        if got is None:
            got = np.zeros(len(CONTRACT_KINDS) * MAX_SIZE + 1, dtype=np.float32)
            spec = self.variant.spec
            if spec.contracts:
                for c in spec.contract(round_no):
                    got[CONTRACT_KINDS.index(c.kind) * MAX_SIZE + min(c.size, MAX_SIZE) - 1] += 1
                got[-1] = float(round_no in spec.whole_hand_rounds)
            self._contracts[round_no] = got
        return got

    def encode(self, view: Mapping[str, Any], melds: Sequence[Meld] = ()) -> np.ndarray:
        """The vector of ``view`` (a :class:`View`, or the view dict); ``melds``: the meld
        options the observer may choose now."""
        v = as_view(view)
        n = self.n
        o = self.offsets
        me = v.seat if v.seat is not None else 0
        order = [(me + k) % n for k in range(n)]  # seats relative to the observer
        # every count field at once: one index per card, counted by one bincount
        at = o["hand"]
        idx = [at + c for c in v.hand]
        top = v.discard_top
        if top is not None:
            idx.append(o["discard_top"] + top)
        at = o["discard_pile"]
        idx += [at + c for c in v.discard_pile]
        for r in range(1, n):
            at = o["known"] + (r - 1) * NUM_FACES
            idx += [at + c for c in v.known[order[r]]]
        width = self.slot_width
        for i, m in enumerate(v.melds[: self.space.slots]):
            at = o["table"] + i * width
            idx += [at + c for c in m.cards]
            idx.append(at + NUM_FACES + KINDS.index(m.kind))
            idx.append(at + NUM_FACES + len(KINDS) + (m.owner - me) % n)
        for k, option in enumerate(melds[:MELD_OPTIONS]):
            at = o["meld_options"] + k * NUM_FACES
            idx += [at + c for c in option.cards()]
        idx.append(o["phase"] + PHASES.index(v.phase))
        idx.append(o["turn"] + (v.turn - me) % n)
        x = np.bincount(idx, minlength=self.size).astype(np.float32)
        x[o["hand_sizes"]: o["hand_sizes"] + n] = [v.hand_sizes[s] / 20 for s in order]
        x[o["down"]: o["down"] + n] = [float(v.down[s]) for s in order]
        if v.buys_left is not None:
            x[o["buys_left"]: o["buys_left"] + n] = [v.buys_left[s] / 5 for s in order]
        x[o["scores"]: o["scores"] + n] = [float(v.scores[s]) / 500 for s in order]
        x[o["asked"]] = float(v.seat is not None and v.turn_state["asked"] == v.seat)
        x[o["round"]] = v.round / (v.deals or 10)
        c = self._contract(v.round)
        x[o["contract"]: o["contract"] + len(c)] = c
        x[o["stock"]] = v.stock_size / 100
        x[o["discards"]] = len(v.discard_pile) / 100
        return x


class SeatObserver:
    """One seat's observation kept up to date from its successive views: the same vector as
    :meth:`ObservationEncoder.encode`.  A :class:`~.tracker.Tracker` (compiled where the
    install built it) compares each part of the view with the one it encoded last and writes
    only the cards that moved (the hand and the cards known in other hands are sorted: one
    merge finds them; the discard pile mostly grows or loses its top); the table's
    slots, the per-seat numbers, the one-hots and the meld options are looked at again only
    when the view fields they are made of changed.  It reads the views alone, so any sequence
    of views (a new game, another game put in place) gives the from-scratch vector; the tests
    compare the two at every step of many games."""

    def __init__(self, encoder: ObservationEncoder, seat: int | None):
        self.enc = encoder
        self.seat = seat
        self.x = np.zeros(encoder.size, dtype=np.float32)
        o = encoder.offsets
        assert o["hand"] == 0 and o["table"] == o["known"] + NUM_FACES * (encoder.n - 1)
        self._tracker = Tracker(self.x.data, encoder.n, seat, o, encoder.space.slots,
                                encoder.slot_width, _KIND_INDEX, PHASE_INDEX, encoder.contract_values)

    def update(self, view: View, melds: Sequence[Meld] = ()) -> np.ndarray:
        """The vector of ``view`` (this observer's seat's view), a fresh array; ``melds``:
        the meld options the seat may choose now."""
        self._tracker.update(view, [m.cards() for m in melds[:MELD_OPTIONS]] if melds else [])
        return self.x.copy()

