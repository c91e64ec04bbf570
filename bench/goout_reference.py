"""Going down and out in one turn: does ``legal_actions()`` offer a contract meld that goes out?

    python bench/goout_reference.py                   # six rulesets, 60 s each
    python bench/goout_reference.py --quick           # about 5 s each, as CI runs it
    python bench/goout_reference.py --rulesets shanghai,combination --seconds 120 --seed 2 --show 3
    python bench/goout_reference.py --empty           # control: nobody else has melded yet
    python bench/goout_reference.py --positions 3400 --seconds 100000   # 20,400 positions: hours

When a seat that has not met its contract could go down and out this turn (lay its contract
down, lay off every other card on the table's melds, and discard the last card where the rules
let a player go out by discarding), listed moves alone must take it out: the contract laid meld
by meld, each step listed exactly when the rest of the contract can still be made from the
cards left (src/rummykit/engine/going_down.py), so every arrangement is reached by listed steps,
by construction.  This script measures it: it prints how often a brute force finds a way out
that the listed moves miss, and what ``legal_actions()`` costs at these positions.  Figures
only: it asserts nothing and exits 0.

Positions.  A stacked deal (cards in play order) in which seats 1..k (k = 1-3, 0 with --empty)
each draw, lay down a random contract of their own and discard; then the seat to play, not yet
down, draws (ten-card: it melds before drawing, so it is left at the start of its turn).  Its
hand is a contract (random wild cards, 0-2 cards longer than needed) plus cards that extend the
table's melds or its own, wild cards, and 0-3 junk cards.  Every position is reached by real
actions from the deal.  Position i of a ruleset comes from ``random.Random(f"table-{ruleset}-
{seed}-{i}")`` alone, so a seed always gives the same positions.

The reference (brute force; it never calls legal_actions):

* every contract Meld action the seat could type: each choice of cards from the hand for each
  contract component (ten-card: any number of further melds of three or more as well), with
  every reading of its wild cards typed here (a set: its naturals' rank, any rank if all are
  wild; a run: every suit, start and placement), kept if the engine's meld reader accepts the
  meld, then played on a copy of the game, which the engine validates in full (the copy's list
  of legal actions is cleared, so nothing is waved through as a listed move);
* then lay-offs, in every order, of every card on every table meld (a wild card at either end of
  a run, or as the set's rank), each played on a copy and validated by the engine, with the
  positions reached memoised;
* success: the deal ends, or one card is left, the rules let the seat go out by discarding and
  discarding it ends the deal.

A contract whose cards leave more cards unplaceable (no table meld of their rank or suit) than
may be discarded is not played.  The listed side is a depth-first search over
``legal_actions()`` only: listed Melds (the contract's steps; ten-card: further melds too), then
listed LayOffs, then a listed Discard of the last card.  Combination and seven-hand let a
player swap a natural card for a wild on a table run the turn it goes down: both sides are then
searched again with swaps (the reference types every Swap of a hand card into a run of its
suit, the listed side takes the listed ones) and counted in their own columns.

Limits.  The rule facts used to build positions and to type candidates (contracts, wild cards,
ace mode, wild limit, exact sizes, going out by discarding, same-turn swaps) come from the
engine's rule data: they only decide which actions are typed, and the engine judges every one,
so this checks the listing of moves, not the rule data.  Typed melds and contracts are judged by the
engine alone (no second, independent reading of RULES.md).  A natural card is laid off without
naming an end of a run (the engine picks it, as in the listed LayOffs), and swaps are typed for
runs only (the only swaps those two rulesets allow on the contract turn).  Each position has a
time limit (20 s, less in short runs) for all its searches together; a position that hits it is
counted as timed out and left out of the other columns, so the hardest positions go unjudged.
Each side stops at the first way out it finds; "none" means its search ended without one.  The
figures are of the engine Python imports: after editing the engine, rebuild it (pip install -e .)
or set RUMMYKIT_PURE_PYTHON=1.

Cost: the CPU time of ``legal_actions()`` at each judged position (a fresh copy, nothing
cached but the deal's solver answers), its mean and worst per ruleset.  The garbage the brute
force leaves is collected just before each timing: without that, a collection of it fell
inside some timings (the 20,400-position run's worst read 582 ms in seven-hand, where no
listing of those positions took more than 36 ms timed again alone).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import rummykit as rk
from rummykit.cards import CARDS, make_pack
from rummykit.engine.actions import Discard, IllegalActionError, LayOff, Meld, Swap
from rummykit.melds import Rank, reading_from_items
from rummykit.rules.spec import RuleSpec

RULESETS = ("shanghai", "shanghai-kolsov", "progressive", "ten-card", "combination", "seven-hand")
QUICK_SECONDS = 5.0
POSITION_SECONDS = 20.0  # at most, for all the searches of one position
MAX_POSITIONS = 1_000_000  # per ruleset; the time limit ends a run long before
JOKER = 52
# a contract's components in the order RULES.md writes them (the engine lists runs first): the
# positions a seed gives depend on it
KIND_ORDER = {"set": 0, "run": 1, "meld": 2, "pair": 3}


class NoPosition(Exception):
    """The random position could not be built (cards ran out, a meld did not fit the hand)."""


class OutOfTime(Exception):
    """A search ran past the position's time limit."""


# ----------------------------------------------------------------------------- cards and rules


def face(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def rank_at(pos: int) -> int:
    """The rank at run position ``pos`` (1 = low ace, 14 = high ace, beyond: wrapping)."""
    return (pos - 1) % 13 + 1


def card_text(f: int) -> str:
    return str(CARDS[f])


def cards_text(faces) -> str:
    return " ".join(card_text(f) for f in sorted(faces))


def meld_text(melds) -> str:
    """The text of a Meld action laying down ``melds`` (lists of (card, meaning) items)."""
    parts = [" ".join(card_text(int(c)) if m is None else f"{card_text(int(c))}={m}" for c, m in items)
             for items in melds]
    return "meld " + " / ".join(parts)


@dataclass(frozen=True)
class Rules:
    """What the positions and the reference need to know of one ruleset (its rule data)."""

    vid: str
    spec: RuleSpec
    ace: str  # low, high, low_or_high, wrap
    twos_wild: bool
    wild_limit: str
    exact_sizes: bool
    extra_melds: bool  # more melds than the contract's may go down with it (ten-card)
    discard_out: bool  # a player may go out by discarding its last card
    swaps: bool  # a natural may replace a wild on a table run the turn its owner goes down
    whole_hand: frozenset[int]
    contracts: tuple[tuple[tuple[str, int], ...], ...]  # (kind, size) per component, deal by deal

    @classmethod
    def of(cls, vid: str) -> Rules:
        sp = rk.get_variant(vid).spec
        contracts = tuple(tuple(sorted(((c.kind, c.size) for c in sp.contract(deal)),
                                       key=lambda c: KIND_ORDER[c[0]]))
                          for deal in range(1, len(sp.contracts) + 1))
        return cls(vid, sp, sp.ace_mode, sp.twos_wild, sp.wild_limit, sp.contract_sizes == "exact",
                   sp.contract_count == "at_least", sp.go_out_by_discard, sp.swap == "table_same_turn",
                   frozenset(sp.whole_hand_rounds), contracts)

    def wild(self, f: int) -> bool:
        return f == JOKER or (self.twos_wild and f % 13 == 1)

    def wild_faces(self) -> list[int]:
        return [JOKER] + ([face(2, s) for s in range(4)] if self.twos_wild else [])

    def max_wilds(self, size: int) -> int:
        if self.wild_limit == "at_most_one":
            return min(1, size - 1)
        if self.wild_limit == "not_more_than_naturals":
            return size // 2
        return size - 1

    def run_starts(self, size: int) -> range:
        """First positions of a run of ``size`` cards (a superset: the engine judges the run)."""
        if self.ace == "high":
            return range(2, 16 - size)
        if self.ace == "low":
            return range(1, 15 - size)
        if self.ace == "low_or_high":
            return range(1, 16 - size)
        return range(1, 14) if size <= 13 else range(0)  # wrap


# ----------------------------------------------------------------------------- positions


class Pool:
    """The cards of the pack not yet placed."""

    def __init__(self, decks: int, jokers: int, rng: random.Random):
        self.count = Counter(int(c) for c in make_pack(decks, jokers))
        self.rng = rng

    def take(self, f: int) -> int:
        if self.count[f] <= 0:
            raise NoPosition("pool")
        self.count[f] -= 1
        return f

    def random(self) -> int:
        return self.take(self.rng.choice([f for f, k in self.count.items() if k > 0]))


def pick(pool: Pool, rng: random.Random, n: int, faces: list[int]) -> list[int] | None:
    """``n`` random cards of ``faces`` that the pool holds (not yet taken), or None if it runs short."""
    got: list[int] = []
    for _ in range(n):
        opts = [f for f in faces if pool.count[f] - got.count(f) > 0]
        if not opts:
            return None
        got.append(rng.choice(opts))
    return got


def random_meld(r: Rules, kind: str, size: int, pool: Pool, rng: random.Random, p_wild: float = 0.35):
    """A random meld of ``kind`` with ``size`` cards, taken from the pool: (items, shape), where
    items are (card, meaning) pairs and shape is ("set", rank) or ("run", suit, lo, hi)."""
    if kind == "meld":
        kind = rng.choice(["set", "run"])
    if kind == "pair":
        kind, size = "set", 2
    wilds = 0
    if rng.random() < p_wild:
        wilds = 1 if rng.random() < 0.75 else 2
    wilds = min(wilds, r.max_wilds(size))
    if kind == "set":
        for _ in range(30):
            rank = rng.randint(1, 13)
            if r.twos_wild and rank == 2:
                continue
            naturals = pick(pool, rng, size - wilds, [face(rank, s) for s in range(4)])
            wild_cards = pick(pool, rng, wilds, r.wild_faces())
            if naturals is None or wild_cards is None:
                continue
            for f in naturals + wild_cards:
                pool.take(f)
            items = [(f, None) for f in sorted(naturals)] + [(f, Rank(rank)) for f in wild_cards]
            return items, ("set", rank)
        raise NoPosition("set")
    for _ in range(30):
        suit = rng.randrange(4)
        starts = list(r.run_starts(size))
        if not starts:
            raise NoPosition("run size")
        lo = rng.choice(starts)
        faces = [face(rank_at(p), suit) for p in range(lo, lo + size)]
        wild_slots = rng.sample(range(size), wilds)
        items = []
        need: Counter[int] = Counter()
        for i, f in enumerate(faces):
            if i in wild_slots:
                opts = [x for x in r.wild_faces() if pool.count[x] - need[x] > 0]
                if not opts:
                    break
                x = rng.choice(opts)
                need[x] += 1
                items.append((x, CARDS[f]))
            else:
                need[f] += 1
                items.append((f, CARDS[f] if r.wild(f) else None))
        else:
            if all(pool.count[f] >= k for f, k in need.items()):
                for f in need.elements():
                    pool.take(f)
                return items, ("run", suit, lo, lo + size - 1)
    raise NoPosition("run")


def extending_cards(r: Rules, shapes, pool: Pool):
    """Natural cards in the pool that extend one of the melds ``shapes``: (card, index, new shape)."""
    out = []
    for i, shape in enumerate(shapes):
        if shape[0] == "set":
            out += [(face(shape[1], s), i, shape) for s in range(4)]
            continue
        _, suit, lo, hi = shape
        size = hi - lo + 1
        if r.ace == "wrap":
            if size < 13:
                out.append((face(rank_at(lo - 1), suit), i, ("run", suit, lo - 1, hi)))
                out.append((face(rank_at(hi + 1), suit), i, ("run", suit, lo, hi + 1)))
        else:
            starts = r.run_starts(size + 1)
            if lo - 1 in starts:
                out.append((face(rank_at(lo - 1), suit), i, ("run", suit, lo - 1, hi)))
            if lo in starts:
                out.append((face(rank_at(hi + 1), suit), i, ("run", suit, lo, hi + 1)))
    return [x for x in out if pool.count[x[0]] > 0 and not r.wild(x[0])]


def stacked_deck(hands, upcard: int, stock, dealer: int):
    """The deck, in play order, that deals ``hands`` (seat by seat from the dealer's left)."""
    n = len(hands)
    deck = [hands[(dealer + k) % n][i] for i in range(len(hands[0])) for k in range(1, n + 1)]
    return [CARDS[c] for c in deck + [upcard] + list(stock)]


def pass_windows(g) -> None:
    """Answer every open window (May I, a call) with pass."""
    for _ in range(20):
        if g.phase not in ("may_i", "call"):
            return
        g.apply("pass")


def build_position(r: Rules, rng: random.Random, empty: bool):
    """(game, seat to play, deal) at the seat's chance to go down and out."""
    sp = r.spec
    lo_players, hi_players = sp.players
    players = rng.randint(lo_players, min(hi_players, 5 if r.vid != "ten-card" else 6))
    decks, jokers = sp.pack_for(players)
    before_draw = sp.meld_before_draw
    deals = []
    for deal, comps in enumerate(r.contracts, 1):
        if deal not in r.whole_hand:
            need = sum(size for _, size in comps)
            if need <= sp.cards_dealt(deal, players) + (0 if before_draw else 1) - (1 if before_draw else 2):
                deals.append(deal)
    deal = rng.choice(deals)
    comps = r.contracts[deal - 1]
    dealt = sp.cards_dealt(deal, players)
    held = dealt + (0 if before_draw else 1)  # cards in hand when melding
    k = 0 if empty else rng.randint(1, min(3, players - 1))
    dealer = 0
    seat = (k + 1) % players
    pool = Pool(decks, jokers, rng)
    others_melds = {}
    shapes = []
    hands: list[list[int] | None] = [None] * players
    draws = {}
    for other in range(1, k + 1):
        melds = []
        for kind, size in comps:
            extra = 0 if (r.exact_sizes or rng.random() < 0.6) else rng.randint(1, 2)
            items, shape = random_meld(r, kind, size + (0 if kind == "pair" else extra), pool, rng)
            melds.append(items)
            shapes.append(shape)
        if r.extra_melds and rng.random() < 0.3:
            items, shape = random_meld(r, "meld", 3, pool, rng)
            melds.append(items)
            shapes.append(shape)
        cards = [c for m in melds for c, _ in m]
        if len(cards) > held - (1 if before_draw else 2):
            raise NoPosition("melder's contract too big")
        while len(cards) < held:
            cards.append(pool.random())
        rng.shuffle(cards)
        draws[other] = pool.random() if before_draw else cards.pop()
        hands[other] = cards
        others_melds[other] = melds
    # the seat to play: a contract, then cards that extend melds, wild cards and junk
    own_shapes = []
    cards = []
    for kind, size in comps:
        extra = 0 if rng.random() < 0.55 else rng.randint(1, 2)
        items, shape = random_meld(r, kind, size + (0 if kind == "pair" else extra), pool, rng, p_wild=0.4)
        cards += [c for c, _ in items]
        own_shapes.append(shape)
    if len(cards) > held:
        raise NoPosition("contract too big")
    free = held - len(cards)
    junk = min(rng.choices([0, 1, 2, 3], [35, 35, 20, 10])[0], free)
    shapes_now = [tuple(x) for x in shapes] + own_shapes
    wilds_stand_for = [int(m) for melds in others_melds.values() for items in melds for c, m in items
                       if isinstance(m, rk.Card) and int(m) != c]
    for _ in range(free - junk):
        x = rng.random()
        if x < 0.15:
            opts = [f for f in r.wild_faces() if pool.count[f] > 0]
            if opts:
                cards.append(pool.take(rng.choice(opts)))
                continue
        if x < 0.25 and r.swaps:
            opts = [f for f in wilds_stand_for if pool.count[f] > 0]
            if opts:
                cards.append(pool.take(rng.choice(opts)))
                continue
        fits = extending_cards(r, shapes_now, pool)
        if rng.random() < 0.6:
            fits = [a for a in fits if a[1] < len(shapes)] or fits
        if fits:
            f, i, extended = rng.choice(fits)
            shapes_now[i] = extended
            cards.append(pool.take(f))
        else:
            cards.append(pool.random())
    while len(cards) < held:
        cards.append(pool.random())
    rng.shuffle(cards)
    if not before_draw:
        draws[seat] = cards.pop()
    hands[seat] = cards
    hands = [h if h is not None else [pool.random() for _ in range(dealt)] for h in hands]
    upcard = pool.random()
    stock = [draws[s] for s in list(range(1, k + 1)) + ([] if before_draw else [seat])]
    g = rk.new_game(r.vid, players=players, seed=rng.randrange(1 << 30),
                    deck=stacked_deck(hands, upcard, stock, dealer), dealer=dealer, first_round=deal)
    for other in range(1, k + 1):
        if g.current != other or g.phase != "draw":
            raise NoPosition("turn order")
        if before_draw:
            g.apply(meld_text(others_melds[other]))
            g.apply("draw")
            pass_windows(g)
        else:
            g.apply("draw")
            pass_windows(g)
            g.apply(meld_text(others_melds[other]))
        discards = [a for a in g.legal_actions() if isinstance(a, Discard)]
        if not discards:
            raise NoPosition("no discard")
        g.apply(rng.choice(discards))
        pass_windows(g)
        if g.round_no != deal:
            raise NoPosition("a melder went out")
    if g.current != seat or g.down[seat]:
        raise NoPosition("turn order")
    if not before_draw:
        g.apply("draw")
        pass_windows(g)
    if g.current != seat or g.phase != ("draw" if before_draw else "play"):
        raise NoPosition("phase")
    return g, seat, deal


def describe(g, seat: int) -> str:
    lines = [f"{g.spec.id} deal {g.round_no} {g.n}p, seat {seat} to play ({g.phase}); "
             f"contract {g.contract_text()}",
             f"  hand: {cards_text(int(c) for c in g.hands[seat])}"]
    for i, m in enumerate(g.table):
        where = f"run lo={m.lo}" if m.kind == "run" else f"{m.kind} rank={m.rank}"
        lines.append(f"  table meld {i + 1} (seat {m.owner}): {' '.join(str(c) for c in m.cards)}  [{where}]")
    return "\n".join(lines)


def state_key(g, seat: int):
    """What decides the rest of the turn: the hand, the table, the wilds still owed to it."""
    return (tuple(sorted(int(c) for c in g.hands[seat])),
            tuple((m.kind, m.lo, m.rank, tuple(m.cards)) for m in g.table), tuple(sorted(g.state.pending)))


def deal_ended(g, deal: int) -> bool:
    return g.round_no != deal or g.is_over


def may_discard_out(r: Rules, g) -> int:
    """How many cards may be left for a discard that goes out (0 or 1)."""
    return 1 if r.discard_out and g.phase == "play" else 0


# ----------------------------------------------------------------------------- the reference


def run_items(r: Rules, cards, suit: int):
    """Every table-order items tuple of ``cards`` as a run of ``suit``: natural cards at a place
    of their rank (an ace low or high), wild cards anywhere, meaning the card of their place."""
    out = set()
    naturals = [c for c in cards if not r.wild(c)]
    wilds = [c for c in cards if r.wild(c)]
    if any(c // 13 != suit for c in naturals):
        return out
    size = len(cards)
    for lo in r.run_starts(size):
        places = list(range(lo, lo + size))
        options = [[i for i, p in enumerate(places) if rank_at(p) == c % 13 + 1] for c in naturals]
        for choice in itertools.product(*options):
            if len(set(choice)) != len(choice):
                continue
            free = [i for i in range(size) if i not in choice]
            for order in set(itertools.permutations(wilds)):
                seq: list[tuple | None] = [None] * size
                for c, i in zip(naturals, choice, strict=True):
                    seq[i] = (CARDS[c], None)
                for c, i in zip(order, free, strict=True):
                    seq[i] = (CARDS[c], CARDS[face(rank_at(places[i]), suit)])
                out.add(tuple(seq))
    return out


def set_items(r: Rules, cards):
    """Every items tuple of ``cards`` as a set: the naturals' rank, or any rank if all are wild."""
    ranks = {c % 13 + 1 for c in cards if not r.wild(c)}
    if len(ranks) > 1:
        return set()
    return {tuple(sorted(((CARDS[c], Rank(rank) if r.wild(c) else None) for c in cards),
                         key=lambda item: int(item[0])))
            for rank in (ranks or range(1, 14))}


def sub_multisets(count: Counter, faces, caps: dict[int, int], smallest: int, largest: int):
    """Every sorted sub-multiset of ``count`` over ``faces`` (at most ``caps[f]`` of face f)."""
    ranges = [range(min(count[f], caps.get(f, count[f])) + 1) for f in faces]
    for ks in itertools.product(*ranges):
        if smallest <= sum(ks) <= largest:
            yield tuple(sorted(f for f, k in zip(faces, ks, strict=True) for _ in range(k)))


class Reference:
    """The brute force: every typed contract meld, then every order of lay-offs (and swaps)."""

    def __init__(self, g, seat: int, deal: int, r: Rules, deadline: float, swaps: bool = False):
        self.g, self.seat, self.deal, self.r = g, seat, deal, r
        self.deadline = deadline
        self.swaps = swaps
        self.keep = may_discard_out(r, g)
        self.comps = r.contracts[deal - 1]
        self.seen: set = set()

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise OutOfTime

    def candidates(self):
        """{cards: {"set" | "run": [items, ...]}}: every sub-multiset of the hand with the
        readings the engine's meld reader takes as that kind."""
        r = self.r
        hand = [int(c) for c in self.g.hands[self.seat]]
        count = Counter(hand)
        smallest = min(2 if kind == "pair" else size for kind, size in self.comps)
        if r.extra_melds:
            smallest = min(smallest, 3)
        wilds = [f for f in count if r.wild(f)]
        typed: dict[tuple, dict[str, set]] = {}
        for rank in range(1, 14):
            faces = [f for f in count if not r.wild(f) and f % 13 + 1 == rank] + wilds
            for cards in sub_multisets(count, faces, {}, smallest, len(hand)):
                readings = typed.setdefault(cards, {"set": set(), "run": set()})
                if not readings["set"]:
                    readings["set"] = set_items(r, cards)
        for suit in range(4):
            faces = [f for f in count if not r.wild(f) and f // 13 == suit] + wilds
            caps = {f: 2 if f % 13 == 0 else 1 for f in faces if not r.wild(f)}  # an ace low and high
            for cards in sub_multisets(count, faces, caps, smallest, len(hand)):
                typed.setdefault(cards, {"set": set(), "run": set()})["run"] |= run_items(r, cards, suit)
            self.tick()
        out: dict[tuple, dict[str, list]] = {}
        for cards, readings in typed.items():
            for kind, options in readings.items():
                good = [items for items in sorted(options, key=lambda it: meld_text([it]))
                        if self.engine_reads(items, kind)]
                if good:
                    out.setdefault(cards, {})[kind] = good
        return out

    def engine_reads(self, items, kind: str) -> bool:
        """Whether the engine's meld reader takes ``items`` as a meld of ``kind`` (a pair is a set)."""
        found = reading_from_items(items, self.g.rules, min_set=2, min_run=2, pair=True)
        return any(x.kind == kind or (kind == "set" and x.kind == "pair") for x in found)

    def fits_somewhere(self, c: int, keys) -> bool:
        """Whether card ``c`` might be laid off on a meld with one of ``keys``: ("set", rank) or
        ("run", suit)."""
        if self.r.wild(c):
            return True
        return any((kind == "set" and v == c % 13 + 1) or (kind == "run" and v == c // 13)
                   for kind, v in keys)

    @staticmethod
    def items_key(items, kind: str):
        """("set", rank) or ("run", suit) of a typed meld."""
        if kind == "set":
            rank = next((int(m) for _, m in items if m is not None), int(items[0][0]) % 13 + 1)
            return ("set", rank)
        for c, m in items:
            if m is None:
                return ("run", int(c) // 13)
        return ("run", int(items[0][1]) // 13)

    @staticmethod
    def table_keys(g):
        """("set", rank) or ("run", suit) of each meld on the table."""
        return [("run", m.suit) if m.kind == "run" else ("set", m.rank) for m in g.table]

    def search(self):
        """A way out (action texts, starting with the contract Meld), or None."""
        r = self.r
        cands = self.candidates()
        keys = sorted(cands)
        table = self.table_keys(self.g)
        per_component = []
        for kind, size in self.comps:
            options = []
            for idx, cards in enumerate(keys):
                n = len(cards)
                if kind == "pair":
                    if n == 2 and "set" in cands[cards]:
                        options.append((idx, cards, "set"))
                    continue
                if n < max(size, 3) or (r.exact_sizes and n != size):
                    continue
                options += [(idx, cards, k) for k in (("set", "run") if kind == "meld" else (kind,))
                            if k in cands[cards]]
            per_component.append(options)
        extras = [(idx, cards, k) for idx, cards in enumerate(keys) if r.extra_melds and len(cards) >= 3
                  for k in ("set", "run") if k in cands[cards]]
        left = Counter(int(c) for c in self.g.hands[self.seat])
        chosen: list[tuple[int, tuple, str]] = []
        tried = set()

        def can_take(cards) -> bool:
            return all(left[f] >= k for f, k in Counter(cards).items())

        def take(cards, sign: int) -> None:
            for f in cards:
                left[f] -= sign

        def play_contract():
            """Every typing of the chosen melds, played; a way out or None."""
            key = tuple(sorted((cards, kind) for _, cards, kind in chosen))
            if key in tried:
                return None
            tried.add(key)
            rest = list(left.elements())
            for combo in itertools.product(*[cands[cards][kind] for _, cards, kind in chosen]):
                self.tick()
                melds_keys = table + [self.items_key(items, kind)
                                      for items, (_, _, kind) in zip(combo, chosen, strict=True)]
                if sum(1 for c in rest if not self.fits_somewhere(c, melds_keys)) > self.keep:
                    continue
                act = Meld(tuple(combo))
                x = self.g.copy()
                x.state.legal = None  # the engine validates the action in full, listed or not
                try:
                    x.apply(act)
                except IllegalActionError:
                    continue
                got = self.lay_off(x, [act.text()])
                if got:
                    return got
            return None

        def choose(i: int, start: int):
            self.tick()
            if i == len(self.comps):
                return play_contract() or (choose_extra(0) if r.extra_melds else None)
            same = i > 0 and self.comps[i] == self.comps[i - 1]  # identical components: in order
            for idx, cards, kind in per_component[i]:
                if (same and idx < start) or not can_take(cards):
                    continue
                take(cards, 1)
                chosen.append((idx, cards, kind))
                got = choose(i + 1, idx)
                chosen.pop()
                take(cards, -1)
                if got:
                    return got
            return None

        def choose_extra(start: int):
            for idx, cards, kind in extras:
                if idx < start or not can_take(cards):
                    continue
                take(cards, 1)
                chosen.append((idx, cards, kind))
                got = play_contract() or choose_extra(idx)
                chosen.pop()
                take(cards, -1)
                if got:
                    return got
            return None

        return choose(0, 0)

    def lay_off(self, x, path):
        """A way out from ``x`` (contract down) by lay-offs, swaps and a last discard, or None."""
        self.tick()
        if deal_ended(x, self.deal):
            return path
        hand = [int(c) for c in x.hands[self.seat]]
        if self.keep and len(hand) == 1:
            y = x.copy()
            y.state.legal = None
            try:
                y.apply(Discard(CARDS[hand[0]]))
                if deal_ended(y, self.deal):
                    return path + [f"discard {card_text(hand[0])}"]
            except IllegalActionError:
                pass
        key = state_key(x, self.seat)
        if key in self.seen:
            return None
        self.seen.add(key)
        keys = self.table_keys(x)
        if sum(1 for c in hand if not self.fits_somewhere(c, keys)) > self.keep:
            return None
        for a in self.moves(x, hand):
            y = x.copy()
            y.state.legal = None
            try:
                y.apply(a)
            except IllegalActionError:
                continue
            got = self.lay_off(y, path + [a.text()])
            if got:
                return got
        return None

    def moves(self, x, hand):
        """Every lay-off (and swap) of a hand card the engine might take."""
        out = []
        for c in sorted(set(hand)):
            for i, m in enumerate(x.table):
                run = m.kind == "run"
                if self.r.wild(c):
                    if run:
                        means = {CARDS[face(rank_at(p), m.suit)] for p in (m.lo - 1, m.hi + 1)}
                    else:
                        means = {Rank(m.rank)}
                    out += [LayOff(CARDS[c], i, mean) for mean in means]
                elif (run and c // 13 == m.suit) or (not run and c % 13 + 1 == m.rank):
                    out.append(LayOff(CARDS[c], i, None))
                if self.swaps and run and not self.r.wild(c) and c // 13 == m.suit:
                    out.append(Swap(CARDS[c], i))
        return out


# ----------------------------------------------------------------------------- the listed moves


def listed_way_out(g, seat: int, deal: int, r: Rules, deadline: float, swaps: bool = False):
    """A way out through listed actions only (a listed Meld first), as action texts, or None."""
    keep = may_discard_out(r, g)
    kinds = (LayOff, Meld, Swap) if swaps else (LayOff, Meld)
    seen = set()

    def go(x, path, first: bool):
        if time.monotonic() > deadline:
            raise OutOfTime
        if deal_ended(x, deal):
            return path
        legal = x.legal_actions()
        hand = x.hands[seat]
        if keep and len(hand) == 1:
            for a in legal:
                if isinstance(a, Discard) and a.card == hand[0]:
                    y = x.copy()
                    y.apply(a)
                    if deal_ended(y, deal):
                        return path + [a.text()]
        key = state_key(x, seat)
        if key in seen:
            return None
        seen.add(key)
        for a in legal:
            if isinstance(a, Meld if first else kinds):
                y = x.copy()
                y.apply(a)
                got = go(y, path + [a.text()], False)
                if got:
                    return got
        return None

    return go(g, [], True)


# ----------------------------------------------------------------------------- the run


@dataclass
class Tally:
    ref_out: int = 0  # the reference finds a way out
    missed: int = 0  # the reference goes out, the listed moves do not
    ref_missed: int = 0  # the listed moves go out, the reference does not (a hole in the reference)


@dataclass
class Row:
    positions: int = 0  # judged: every search finished in time
    plain: Tally = field(default_factory=Tally)
    with_swaps: Tally = field(default_factory=Tally)
    timed_out: int = 0
    seconds: float = 0.0
    details: list[str] = field(default_factory=list)
    listing: list[float] = field(default_factory=list)  # CPU s of legal_actions() at each position


def detail(title: str, i: int, g, seat: int, ref_path, listed_path) -> str:
    offered = [a.text() for a in g.legal_actions() if isinstance(a, Meld)]
    return "\n".join([f"{title} #{i} {describe(g, seat)}",
                      f"  reference: {' ; '.join(ref_path) if ref_path else 'none'}",
                      f"  listed: {' ; '.join(listed_path) if listed_path else 'none'}",
                      f"  melds offered: {' | '.join(offered) if offered else 'none'}"])


def run_ruleset(r: Rules, seconds: float, seed: int, empty: bool, show: int,
                positions: int | None = None) -> Row:
    """Judge positions 0, 1, ... of ruleset ``r`` until ``seconds`` pass or ``positions``
    have been judged (whichever comes first)."""
    row = Row()
    start = time.monotonic()
    per_position = min(POSITION_SECONDS, seconds / 2)
    for i in range(MAX_POSITIONS):
        if time.monotonic() - start > seconds or (positions is not None and row.positions >= positions):
            break
        rng = random.Random(f"table-{r.vid}-{seed}-{i}")
        try:
            g, seat, deal = build_position(r, rng, empty)
        except (NoPosition, IllegalActionError):
            continue
        fresh = g.copy()
        fresh.state.legal = None
        gc.collect()  # the brute force's garbage is collected now, not inside the timing
        t = time.process_time()
        fresh.legal_actions()
        listing = time.process_time() - t
        deadline = time.monotonic() + per_position
        try:
            want = Reference(g.copy(), seat, deal, r, deadline).search()
            got = listed_way_out(g.copy(), seat, deal, r, deadline)
            verdicts = [(row.plain, "MISSED", want, got)]
            if r.swaps:
                verdicts.append((row.with_swaps, "MISSED WITH SWAPS",
                                 want or Reference(g.copy(), seat, deal, r, deadline, swaps=True).search(),
                                 got or listed_way_out(g.copy(), seat, deal, r, deadline, swaps=True)))
        except OutOfTime:
            row.timed_out += 1
            continue
        row.positions += 1
        row.listing.append(listing)
        for tally, title, ref_path, listed_path in verdicts:
            tally.ref_out += bool(ref_path)
            if bool(ref_path) == bool(listed_path):
                continue
            if ref_path:
                tally.missed += 1
            else:
                tally.ref_missed += 1
                title = "REFERENCE " + title
            if len(row.details) < show:
                row.details.append(detail(title, i, g, seat, ref_path, listed_path))
    row.seconds = time.monotonic() - start
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulesets", default=",".join(RULESETS), help="comma separated")
    ap.add_argument("--seconds", type=float, default=60.0, help="per ruleset")
    ap.add_argument("--positions", type=int, default=None, metavar="N",
                    help="stop a ruleset after N judged positions (--seconds still caps it)")
    ap.add_argument("--seed", type=int, default=1, help="positions' seed")
    ap.add_argument("--empty", action="store_true", help="control: no melds on the table")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_SECONDS:g} s per ruleset (CI)")
    ap.add_argument("--show", type=int, default=0, metavar="K",
                    help="print up to K missed positions per ruleset")
    args = ap.parse_args()
    seconds = QUICK_SECONDS if args.quick else args.seconds
    if args.positions is not None and args.positions < 1:
        ap.error("--positions must be at least 1")
    upto = f"up to {args.positions} positions or " if args.positions else ""
    print(f"going down and out in one turn: brute force vs the listed moves (seed {args.seed}, "
          f"{upto}{seconds:g} s per ruleset{', empty table' if args.empty else ''})")
    print(f"{'':<27}{'-- without swaps --':^28}{'---- with swaps ----':^31}".rstrip())
    print(f"{'ruleset':<17}{'positions':>10}{'goes out':>10}{'missed':>8}{'ref miss':>10}"
          f"{'goes out':>13}{'missed':>8}{'ref miss':>10}{'timed out':>11}{'s':>6}"
          f"{'legal ms':>10}{'worst ms':>10}", flush=True)
    details = []
    for vid in args.rulesets.split(","):
        r = Rules.of(vid)
        row = run_ruleset(r, seconds, args.seed, args.empty, args.show, args.positions)
        plain, sw = row.plain, row.with_swaps
        if r.swaps:
            swaps = f"{sw.ref_out:>13}{sw.missed:>8}{sw.ref_missed:>10}"
        else:
            swaps = f"{'-':>13}{'-':>8}{'-':>10}"
        mean = 1000 * sum(row.listing) / max(1, len(row.listing))
        worst = 1000 * max(row.listing, default=0.0)
        print(f"{vid:<17}{row.positions:>10}{plain.ref_out:>10}{plain.missed:>8}{plain.ref_missed:>10}"
              f"{swaps}{row.timed_out:>11}{row.seconds:>6.0f}{mean:>10.2f}{worst:>10.1f}", flush=True)
        details += row.details
    print("goes out: the reference finds a way out; missed: it does, the listed moves do not; ref miss: the "
          "listed moves\ngo out and the reference does not (expected 0).  With swaps (combination, "
          "seven-hand): either side may\nalso swap a natural for a wild on a table run.  Timed out: "
          "positions left unjudged at the time limit.\nlegal ms, worst ms: CPU time of legal_actions() at "
          "a judged position, mean and worst.")
    for text in details:
        print("\n" + text)


if __name__ == "__main__":
    main()
