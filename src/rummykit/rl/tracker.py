"""One seat's observation vector kept up to date from its successive views, in compiled code.

:class:`~.encoding.SeatObserver` holds the float32 vector (a numpy array); a :class:`Tracker`
writes into it through a memoryview, and only where a value changed since the view it
encoded last.  It imports no numpy, so the install compiles it with mypyc beside the engine
(setup.py); without the build it runs as it is, the same code.  The layout of the vector is
:class:`~.encoding.ObservationEncoder`'s; the tests compare the two at every step of many
games.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, Final

from ..engine.seen import MeldView, ViewFields

FACES: Final = 53  # card faces: 52 and the joker


class Tracker:
    """Writes one seat's view into ``buf`` (a float32 memoryview of the vector).
    ``offsets``: each part's first index (ObservationEncoder.offsets); ``kinds``: a meld
    kind's place in a slot's kind one-hot; ``phases``: a phase's place in the phase one-hot;
    ``contract_of``: the contract part's values for a deal (and the whole-hand flag last)."""

    def __init__(self, buf: Any, n: int, seat: int | None, offsets: dict[str, int], slots: int,
                 slot_width: int, kinds: dict[str, int], phases: dict[Any, int],
                 contract_of: Callable[[int], list[float]]):
        self.buf = buf
        self.n = n
        self.seat = seat
        me = seat if seat is not None else 0
        self.me = me
        self.order: list[int] = [(me + k) % n for k in range(n)]  # seats relative to the observer
        self.slots, self.slot_width = slots, slot_width
        # a slot's width of zeros, written over a slot in one slice (not value by value)
        self.blank: Any = memoryview(array("f", bytes(4 * slot_width)))
        self.kinds, self.phases, self.contract_of = kinds, phases, contract_of
        self.o_table = offsets["table"]
        self.o_sizes = offsets["hand_sizes"]
        self.o_down = offsets["down"]
        self.o_buys = offsets["buys_left"]
        self.o_scores = offsets["scores"]
        self.o_phase = offsets["phase"]
        self.o_asked = offsets["asked"]
        self.o_turn = offsets["turn"]
        self.o_round = offsets["round"]
        self.o_contract = offsets["contract"]
        self.o_stock = offsets["stock"]
        self.o_discards = offsets["discards"]
        self.o_options = offsets["meld_options"]
        # hand, discard top, discard pile, each other seat's known cards: `counts` is what
        # buf holds there; each part's cards as last encoded, to write only what moved
        self.counts: list[int] = [0] * offsets["table"]
        self.hand: tuple[int, ...] = ()
        self.pile: tuple[int, ...] = ()
        self.top = -1  # the discard top's index in buf, or -1
        self.known: list[tuple[int, ...]] = [() for _ in range(n)]  # by relative seat
        # what was encoded last
        self.table: list[MeldView | None] = [None] * slots  # the meld view in each slot
        self.sizes: tuple[int, ...] | None = None
        self.small: tuple[Any, ...] | None = None
        self.ones: list[int] = []  # the one-hots set: phase, turn
        self.asked = -1.0
        self.round = -1
        self.options: list[list[Any]] = []
        self.stock = -1
        self.discards = -1
        self.phase: Any = None
        self.phase_at = 0

    def update(self, view: ViewFields, options: list[list[Any]]) -> None:
        """Write ``view`` (the seat's :class:`~rummykit.engine.view.View`) and the meld
        ``options`` the seat may choose now (each a list of card faces)."""
        buf = self.buf
        n = self.n
        rel = self.order
        me = self.me
        hand: tuple[int, ...] = view.hand  # (Cards: ints), sorted
        if hand is not self.hand and hand != self.hand:  # (a view shares an unchanged hand)
            self.move_sorted(0, self.hand, hand)
            self.hand = hand
        pile: tuple[int, ...] = view.discard_pile
        npile = len(pile)
        if pile != self.pile:
            self.move_pile(pile)
            top = FACES + pile[npile - 1] if npile else -1
            if top != self.top:
                if self.top >= 0:
                    buf[self.top] = 0.0
                if top >= 0:
                    buf[top] = 1.0
                self.top = top
        known: tuple[tuple[int, ...], ...] = view.known
        last = self.known
        for r in range(1, n):
            seen = known[rel[r]]  # sorted
            if seen is not last[r] and seen != last[r]:
                self.move_sorted((2 + r) * FACES, last[r], seen)
                last[r] = seen
        self.write_table(view.melds)
        sizes: tuple[int, ...] = view.hand_sizes
        if sizes is not self.sizes and sizes != self.sizes:
            at = self.o_sizes
            for r in range(n):
                buf[at + r] = sizes[rel[r]] / 20
            self.sizes = sizes
        down = view.down
        buys_left = view.buys_left
        scores = view.scores
        small = (down, buys_left, scores)
        if small != self.small:  # rarely: down, buys left, scores (n each)
            for r in range(n):
                s = rel[r]
                buf[self.o_down + r] = 1.0 if down[s] else 0.0
                buf[self.o_buys + r] = 0.0 if buys_left is None else buys_left[s] / 5
                buf[self.o_scores + r] = float(scores[s]) / 500
            self.small = small
        ph = view.phase
        if ph is not self.phase:  # (an enum member's hash is a Python call: looked up on change)
            self.phase = ph
            self.phase_at = self.o_phase + self.phases[ph]
        turn_at = self.o_turn + (view.turn - me) % n
        ones = self.ones
        if not ones or ones[0] != self.phase_at or ones[1] != turn_at:
            for i in ones:
                buf[i] = 0.0
            buf[self.phase_at] = 1.0
            buf[turn_at] = 1.0
            self.ones = [self.phase_at, turn_at]
        seat = self.seat
        asked = 1.0 if seat is not None and view.asked == seat else 0.0
        if asked != self.asked:
            buf[self.o_asked] = asked
            self.asked = asked
        round_no: int = view.round
        if round_no != self.round:
            deals = view.deals
            buf[self.o_round] = round_no / (deals if deals else 10)
            at = self.o_contract
            for k, x in enumerate(self.contract_of(round_no)):
                buf[at + k] = x
            self.round = round_no
        stock: int = view.stock_size
        if stock != self.stock:
            buf[self.o_stock] = stock / 100
            self.stock = stock
        if npile != self.discards:
            buf[self.o_discards] = npile / 100
            self.discards = npile
        if options != self.options:
            self.write_options(options)

    def bump(self, i: int, by: int) -> None:
        """Add ``by`` to the count at ``i``, in buf too."""
        v = self.counts[i] + by
        self.counts[i] = v
        self.buf[i] = float(v)

    def move_sorted(self, at: int, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        """The counts at ``at`` held ``old``'s cards and now hold ``new``'s (both sorted):
        one merge finds the cards that left and those that came."""
        i = j = 0
        no, nn = len(old), len(new)
        while i < no or j < nn:
            if j >= nn or (i < no and old[i] < new[j]):
                self.bump(at + old[i], -1)
                i += 1
            elif i >= no or new[j] < old[i]:
                self.bump(at + new[j], 1)
                j += 1
            else:
                i += 1
                j += 1

    def move_pile(self, pile: tuple[int, ...]) -> None:
        """The discard pile's counts from the last pile's to ``pile``'s: below the part both
        share (a pile mostly grows or loses its top), cards leave and come."""
        old = self.pile
        at = 2 * FACES
        k = 0
        m = min(len(old), len(pile))
        while k < m and old[k] == pile[k]:
            k += 1
        for i in range(k, len(old)):
            self.bump(at + old[i], -1)
        for i in range(k, len(pile)):
            self.bump(at + pile[i], 1)
        self.pile = pile

    def write_options(self, options: list[list[Any]]) -> None:
        """The meld options' card counts (each option a row of FACES)."""
        buf, at = self.buf, self.o_options
        for k, cards in enumerate(self.options):
            for c in cards:
                buf[at + k * FACES + c] = 0.0
        for k, cards in enumerate(options):
            base = at + k * FACES
            for c in cards:
                buf[base + c] = buf[base + c] + 1.0
        self.options = options

    def write_table(self, melds: tuple[MeldView, ...]) -> None:
        """The table slots whose meld (cards, kind, owner) differs from the last view's."""
        buf, n, last, me = self.buf, self.n, self.table, self.me
        width, at0 = self.slot_width, self.o_table
        shown = min(len(melds), self.slots)
        for i in range(shown):
            m = melds[i]
            was = last[i]
            if m is was:
                continue  # the same (frozen) meld view as last time: the engine shares them
            if was is None or m.cards != was.cards or m.kind != was.kind or m.owner != was.owner:
                at = at0 + i * width
                buf[at: at + width] = self.blank
                for c in m.cards:
                    buf[at + c] = buf[at + c] + 1.0
                buf[at + FACES + self.kinds[m.kind]] = 1.0
                buf[at + FACES + len(self.kinds) + (m.owner - me) % n] = 1.0
            last[i] = m
        for i in range(shown, len(last)):
            if last[i] is None:
                break  # slots are filled in order: none further was set
            at = at0 + i * width
            buf[at: at + width] = self.blank
            last[i] = None
