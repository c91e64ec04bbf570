"""A brute-force reference for meld and contract judgement, written from RULES.md alone.

Used by tests/test_differential.py to check the engine's ``is_valid_meld``,
``meets_contract`` and ``find_contract`` on random hands.  It does not import the engine's
meld or solver code: only :mod:`rummykit.cards` for the card type and the notation.  Every
rule below is written from RULES.md §1, §2 (with its "Clarifications"), §4 (the ruleset table),
§4.1 (contracts and how they are judged) and §4.6 (card values); the per-ruleset table
``RULESETS`` is this file's own, and a test checks that its plain data (players, packs, cards
dealt, contracts, card values) agrees with each variant's spec.

Meant to be obviously right, not fast.

Readings of RULES.md where the text left room (each also in the report that came with this file):

* R1. A *pair* (progressive deal 14's contract) is exactly two cards, even though that ruleset
  lets contract melds be larger: a larger group of one rank is a set, not a pair.
* R2. ``combination``'s limit (not more wilds than naturals) applies to every meld put down,
  which in that ruleset is always a contract meld (new melds are "contract only"), so
  ``is_valid_meld`` applies it too; it does not apply to lay-offs (not judged here).
* R3. Whole-hand rounds: every meld of the contract may be larger than the contract's size
  (RULES.md says "runs may be longer"; those rounds' contracts are all-runs or, in
  ``seven-hand`` 6, sets, and ``seven-hand`` already allows larger melds), the contract's count
  is still exact, the other contract rules (contiguity, one wild per meld ...) still apply.
* R4. Contiguity (``contract``, ``liverpool``, ``denexa``, ``shanghai``, ``shanghai-kolsov``):
  two runs of one suit are contiguous when one's top position is just below the other's bottom
  on the ace mode's line of positions (A-2-3-4 then 5-6-7-8; with ace ``low_or_high`` J-Q-K-A
  and A-2-3-4 are not contiguous: runs never wrap there).  ``shanghai-powe`` is not in that
  list; its own rule (one run per suit) is stricter anyway.
* R5. ``ten-card`` extras (melds beyond the contract's count) are any legal meld of 3+; no other
  contract rule exists there.
* R6. A 14-card run A..K..A needs ace mode ``low_or_high`` and two or more decks; ``seven-hand``
  deal 8 forbids it; ``is_valid_meld`` (no deal given) allows it in ``seven-hand``.
* R7. Wilds: jokers, plus 2s in ``progressive`` and ``ten-card``.  In a set of 2s every 2 is a
  natural; in a run a 2 in the run's suit at the 2's place is a natural.  A reading counts the
  naturals it can, and a meld is legal if some reading passes every rule (RULES.md §2).
* R8. ``meets_contract(..., hand)`` in a round that is not whole-hand only asks that the melds
  come out of ``hand`` (the engine ignores ``hand`` there; the tests always pass melds from it).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummykit.cards import JOKER_CODE

JOKER = JOKER_CODE
RANK_KEYS = "A23456789TJQK"


def rank_of(face: int) -> int:
    """1 (ace) .. 13 (king); 0 for the joker."""
    return 0 if face == JOKER else face % 13 + 1


def suit_of(face: int) -> int:
    return -1 if face == JOKER else face // 13


def face(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def rank_at(pos: int) -> int:
    """The rank at a run position: positions 1..13 are A..K, 14 is the high ace, 15 a wrapped 2..."""
    return (pos - 1) % 13 + 1


# ----------------------------------------------------------------------------------------------
# The rule table, from RULES.md §4, §4.1, §4.6 and §2 "Clarifications".


@dataclass(frozen=True)
class Comp:
    """One meld a contract asks for: kind 'set', 'run', 'pair' or 'meld' (set or run), size."""

    kind: str
    size: int


def contract(text: str) -> tuple[Comp, ...]:
    """This file's own contract notation: '2S3+R4' = two sets of 3 and a run of 4; 'M3' = a meld
    (set or run) of 3; 'P2' = a pair."""
    kinds = {"S": "set", "R": "run", "P": "pair", "M": "meld"}
    out: list[Comp] = []
    for part in text.split("+"):
        m = re.fullmatch(r"(\d*)([SRPM])(\d+)", part)
        assert m, part
        out.extend([Comp(kinds[m.group(2)], int(m.group(3)))] * int(m.group(1) or 1))
    order = {"run": 0, "set": 1, "meld": 2, "pair": 3}
    return tuple(sorted(out, key=lambda c: (order[c.kind], -c.size)))


@dataclass(frozen=True)
class Ruleset:
    id: str
    players: tuple[int, int]
    packs: tuple[tuple[int, int, int, str | int], ...]  # (lo players, hi players, decks, jokers)
    dealt: tuple[int, ...] | dict[int, int]  # per deal (contract family) or per player count
    ace: str  # low, high, low_or_high, wrap
    twos_wild: bool
    wild_limit: str  # none, unlimited, at_most_one, not_more_than_naturals
    all_wild_ok: bool
    min_set: int
    min_run: int
    values: dict[str, int]  # A 2 3 ... K JK
    contracts: tuple[str, ...] = ()
    sizes: str = "at_least"  # exact: each contract meld exactly its size
    count: str = "exact"  # at_least: ten-card, more melds allowed (3+ each)
    not_contiguous: bool = False
    one_run_per_suit: bool = False
    distinct_set_ranks: bool = False
    whole_hand_rounds: frozenset[int] = frozenset()
    no_ace_both_ends_rounds: frozenset[int] = frozenset()
    extra_fields: dict[str, object] = field(default_factory=dict)

    def decks(self, players: int) -> int:
        return self.pack(players)[0]

    def pack(self, players: int) -> tuple[int, int]:
        for lo, hi, d, j in self.packs:
            if lo <= players <= hi:
                if j == "players-1":
                    return d, players - 1
                if j == "two-per-deck":
                    return d, 2 * d
                assert isinstance(j, int)
                return d, j
        raise ValueError(f"{self.id}: no pack for {players} players")

    def cards_dealt(self, round_no: int, players: int) -> int:
        if isinstance(self.dealt, dict):
            return self.dealt[players]
        return self.dealt[round_no - 1]

    def is_wild(self, c: int) -> bool:
        return c == JOKER or (self.twos_wild and rank_of(c) == 2)

    def value(self, c: int) -> int:
        return self.values["JK"] if c == JOKER else self.values[RANK_KEYS[rank_of(c) - 1]]

    def comps(self, round_no: int) -> tuple[Comp, ...]:
        return contract(self.contracts[round_no - 1])

    def wild_value(self) -> int:
        """Every wild card has the same value in every ruleset here (checked), so which wild
        fills a slot never changes a penalty."""
        vals = {self.values["JK"]} | ({self.values["2"]} if self.twos_wild else set())
        assert len(vals) == 1, f"{self.id}: wilds of different values"
        return vals.pop()


def _values(two: int, three_to_seven: int | None, eight_nine: int | None, ten: int, face_: int,
            ace: int, joker: int) -> dict[str, int]:
    """§4.6's columns; ``None`` means 'pip' (the card's number)."""
    v: dict[str, int] = {"A": ace, "T": ten, "J": face_, "Q": face_, "K": face_, "JK": joker}
    v["2"] = two
    for r in range(3, 8):
        v[str(r)] = r if three_to_seven is None else three_to_seven
    for r in (8, 9):
        v[str(r)] = r if eight_nine is None else eight_nine
    return v


BASIC_VALUES = _values(2, None, None, 10, 10, 1, 15)  # basic family has no jokers but wrotham (15)
CONTRACT_VALUES = _values(2, None, None, 10, 10, 15, 15)  # 2 is 'pip'
MAYI_VALUES = _values(2, None, None, 10, 10, 15, 25)
SHANGHAI_VALUES = _values(5, 5, 10, 10, 10, 20, 50)
PROGRESSIVE_VALUES = _values(20, 5, 5, 5, 10, 15, 20)
TENCARD_VALUES = _values(15, None, None, 10, 10, 11, 15)
COMBINATION_VALUES = _values(20, 5, 5, 10, 10, 20, 20)
SEVENHAND_VALUES = _values(5, 5, 10, 10, 10, 15, 20)

CONTRACT_7 = ("2S3", "S3+R4", "2R4", "3S3", "2S3+R4", "S3+2R4", "3R4")


def _table() -> dict[str, Ruleset]:
    basic_dealt = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
    basic = dict(ace="low", twos_wild=False, wild_limit="none", all_wild_ok=False, min_set=3,
                 min_run=3, values=BASIC_VALUES)
    contract_like = dict(ace="low_or_high", twos_wild=False, wild_limit="unlimited",
                         all_wild_ok=False, min_set=3, min_run=4)
    shanghai_like = dict(ace="high", twos_wild=False, wild_limit="at_most_one", all_wild_ok=False,
                         min_set=3, min_run=4, values=SHANGHAI_VALUES, distinct_set_ranks=True)
    rs = [
        Ruleset("basic", (2, 6), ((2, 6, 1, 0),), basic_dealt, **basic),  # type: ignore[arg-type]
        Ruleset("traditional", (2, 4), ((2, 4, 1, 0),), {2: 10, 3: 7, 4: 7}, **basic),  # type: ignore[arg-type]
        Ruleset("block", (2, 6), ((2, 6, 1, 0),), basic_dealt, **basic),  # type: ignore[arg-type]
        # wrotham: 8 to the starter, 7 to the others; jokers wild, unlimited, one natural per meld
        Ruleset("wrotham", (2, 6), ((2, 6, 1, 3),), {n: 7 for n in range(2, 7)},
                **{**basic, "wild_limit": "unlimited"}),  # type: ignore[arg-type]
        Ruleset("contract", (3, 5), ((3, 5, 2, "players-1"),), (10, 10, 10, 12, 12, 12, 12),
                values=CONTRACT_VALUES, contracts=CONTRACT_7, sizes="exact", not_contiguous=True,
                whole_hand_rounds=frozenset({7}), **contract_like),  # type: ignore[arg-type]
        Ruleset("liverpool", (3, 5), ((3, 5, 2, "players-1"),), (10, 10, 10, 12, 12, 12, 12),
                values=CONTRACT_VALUES, contracts=CONTRACT_7, sizes="exact", not_contiguous=True,
                whole_hand_rounds=frozenset({7}), **contract_like),  # type: ignore[arg-type]
        Ruleset("may-i", (3, 8), ((3, 4, 2, 4), (5, 6, 3, 6), (7, 8, 4, 8)),
                (10, 10, 10, 12, 12, 12, 12), values=MAYI_VALUES, contracts=CONTRACT_7,
                **contract_like),  # type: ignore[arg-type]
        Ruleset("denexa", (3, 5), ((3, 5, 2, "players-1"),), (10, 10, 10, 12, 12, 12, 12),
                values=CONTRACT_VALUES, contracts=CONTRACT_7, not_contiguous=True,
                whole_hand_rounds=frozenset({7}), **contract_like),  # type: ignore[arg-type]
        Ruleset("shanghai", (3, 5), ((3, 5, 2, 4),), (11,) * 7, contracts=CONTRACT_7,
                not_contiguous=True, whole_hand_rounds=frozenset({7}), **shanghai_like),  # type: ignore[arg-type]
        Ruleset("shanghai-powe", (3, 5), ((3, 5, 2, 4),), (10,) * 8,
                contracts=CONTRACT_7[:6] + ("4S3", "3R4"), one_run_per_suit=True,
                **shanghai_like),  # type: ignore[arg-type]
        Ruleset("shanghai-kolsov", (3, 5), ((3, 5, 2, 4),), (11,) * 10,
                contracts=("2S3", "S3+R4", "2R4", "3S3", "S3+R7", "2S3+R5", "3R4", "S3+R10",
                           "3S3+R5", "3R5"), not_contiguous=True, **shanghai_like),  # type: ignore[arg-type]
        Ruleset("progressive", (3, 6), ((3, 6, 2, 4),), (11,) * 15, ace="low_or_high",
                twos_wild=True, wild_limit="unlimited", all_wild_ok=True, min_set=3, min_run=3,
                values=PROGRESSIVE_VALUES,
                contracts=("2S3", "S3+R4", "2S4", "2R4", "2S3+R4", "S4+R5", "2S5", "2R5", "4S3",
                           "3R4", "3S4", "5R3", "5S3", "S5+R5+P2", "2S3+R5")),
        Ruleset("ten-card", (4, 8), ((4, 6, 2, 4), (7, 8, 3, 6)), (10,) * 11, ace="wrap",
                twos_wild=True, wild_limit="not_more_than_naturals", all_wild_ok=False, min_set=3,
                min_run=3, values=TENCARD_VALUES, count="at_least",
                contracts=("M3", "2M3", "M4", "2M4", "M5", "2M5", "M6", "M7", "M8", "M9", "M10")),
        Ruleset("combination", (3, 8), ((3, 4, 2, 4), (5, 6, 3, 6), (7, 8, 4, 8)),
                (10, 10, 10, 10, 12, 12, 12), ace="low_or_high", twos_wild=False,
                wild_limit="not_more_than_naturals", all_wild_ok=False, min_set=3, min_run=4,
                values=COMBINATION_VALUES, contracts=CONTRACT_7, sizes="exact"),
        Ruleset("seven-hand", (3, 8), ((3, 8, 4, 8),), (11,) * 8, ace="low_or_high",
                twos_wild=False, wild_limit="unlimited", all_wild_ok=False, min_set=3, min_run=3,
                values=SEVENHAND_VALUES,
                contracts=("2S3", "S3+R3", "2R3", "2S3+R3", "S3+2R3", "3S3", "3R3", "R3"),
                whole_hand_rounds=frozenset({6, 7, 8}), no_ace_both_ends_rounds=frozenset({8})),
    ]
    return {r.id: r for r in rs}


RULESETS: dict[str, Ruleset] = _table()


def rules(ruleset: str | Ruleset) -> Ruleset:
    return ruleset if isinstance(ruleset, Ruleset) else RULESETS[ruleset]


def pack(ruleset: str | Ruleset, players: int) -> list[int]:
    R = rules(ruleset)
    d, j = R.pack(players)
    return [c for _ in range(d) for c in range(52)] + [JOKER] * j


# ----------------------------------------------------------------------------------------------
# One meld: its readings.


@dataclass(frozen=True)
class Reading:
    """What a meld is read as: a set (or pair) of ``rank``, or a run of ``suit`` over positions
    ``lo``..``hi``; with how many of its cards are naturals and how many wilds."""

    kind: str  # set, run, pair
    rank: int  # sets and pairs: 1..13; runs: 0
    suit: int  # runs: 0..3; sets: -1
    lo: int
    hi: int
    naturals: int
    wilds: int

    @property
    def size(self) -> int:
        return self.naturals + self.wilds


def wilds_ok(R: Ruleset, kind: str, naturals: int, wilds: int) -> bool:
    """§2's wild limits per meld."""
    if R.wild_limit == "none":
        return wilds == 0 and naturals >= 1
    if kind == "pair":  # a pair needs at least one natural card (progressive's clarification)
        return naturals >= 1 and (R.wild_limit != "not_more_than_naturals" or wilds <= naturals)
    if R.wild_limit == "unlimited":
        return naturals >= 1 or R.all_wild_ok
    if R.wild_limit == "at_most_one":
        return wilds <= 1 and naturals >= 1
    if R.wild_limit == "not_more_than_naturals":
        return wilds <= naturals and naturals >= 1
    raise AssertionError(R.wild_limit)


def run_starts(R: Ruleset, length: int) -> range:
    """The first positions a run of ``length`` may take, per §1's ace modes."""
    if R.ace == "low":  # positions 1 (ace) .. 13 (king)
        return range(1, 14 - length + 1)
    if R.ace == "high":  # positions 2 .. 14 (ace)
        return range(2, 15 - length + 1)
    if R.ace == "low_or_high":  # positions 1 .. 14, never past either end
        return range(1, 15 - length + 1)
    if R.ace == "wrap":  # any start, past the king and round again, never the same rank twice
        return range(1, 14) if length <= 13 else range(0)
    raise AssertionError(R.ace)


def ace_both_ends_ok(R: Ruleset, lo: int, hi: int, decks: int, round_no: int | None) -> bool:
    if not (lo == 1 and hi == 14):
        return True
    return decks >= 2 and (round_no is None or round_no not in R.no_ace_both_ends_rounds)


_READINGS: dict[tuple[str, tuple[int, ...], int, int | None, tuple[str, ...]], list[Reading]] = {}


def readings(R: Ruleset, cards: Sequence[int], decks: int, round_no: int | None = None,
             kinds: Iterable[str] = ("set", "run")) -> list[Reading]:
    """Every legal reading of ``cards`` as one meld, ignoring minimum sizes (the caller's)."""
    key = (R.id, tuple(sorted(int(c) for c in cards)), decks, round_no, tuple(kinds))
    got = _READINGS.get(key)
    if got is None:
        if len(_READINGS) > 200_000:
            _READINGS.clear()
        got = _READINGS[key] = _readings(R, key[1], decks, round_no, key[4])
    return got


def _readings(R: Ruleset, cards: Sequence[int], decks: int, round_no: int | None,
              kinds: tuple[str, ...]) -> list[Reading]:
    cnt = Counter(int(c) for c in cards)
    n = sum(cnt.values())
    out: list[Reading] = []
    for kind in ("set", "pair"):
        if kind not in kinds or (kind == "pair" and n != 2):
            continue
        if kind == "set" and decks == 1 and n > 4:
            continue
        for r in range(1, 14):
            nat = sum(cnt[face(r, s)] for s in range(4))
            if any(not R.is_wild(c) for c in cnt if rank_of(c) != r):
                continue
            rd = Reading(kind, r, -1, 0, 0, nat, n - nat)
            if wilds_ok(R, kind, rd.naturals, rd.wilds):
                out.append(rd)
    if "run" in kinds and n >= 1:
        for s in range(4):
            for lo in run_starts(R, n):
                hi = lo + n - 1
                if not ace_both_ends_ok(R, lo, hi, decks, round_no):
                    continue
                slots = Counter(face(rank_at(p), s) for p in range(lo, hi + 1))
                if any(cnt[c] > slots[c] for c in cnt if not R.is_wild(c)):
                    continue
                nat = sum(min(cnt[c], slots[c]) for c in cnt if c != JOKER)
                rd = Reading("run", 0, s, lo, hi, nat, n - nat)
                if wilds_ok(R, "run", rd.naturals, rd.wilds):
                    out.append(rd)
    return out


def min_size(R: Ruleset, kind: str) -> int:
    return {"set": R.min_set, "run": R.min_run, "pair": 2}[kind]


def ref_is_valid_meld(ruleset: str | Ruleset, cards: Sequence[int], players: int | None = None) -> bool:
    """Whether ``cards`` are one legal meld (set or run; pairs exist only inside a contract)."""
    R = rules(ruleset)
    decks = R.decks(players or R.players[0])
    return any(rd.size >= min_size(R, rd.kind) for rd in readings(R, cards, decks))


# ----------------------------------------------------------------------------------------------
# A contract.


def _fits(R: Ruleset, rd: Reading, comp: Comp | None, whole: bool) -> bool:
    """Whether reading ``rd`` may stand for contract meld ``comp`` (None: a ten-card extra)."""
    if rd.size < min_size(R, rd.kind):
        return False
    if comp is None:
        return rd.kind in ("set", "run")
    if comp.kind == "meld":
        if rd.kind not in ("set", "run"):
            return False
    elif rd.kind != comp.kind:
        return False
    if comp.kind == "pair":
        return rd.size == 2
    if R.sizes == "exact" and not whole:
        return rd.size == comp.size
    return rd.size >= comp.size


def _contiguous(a: Reading, b: Reading) -> bool:
    return a.hi + 1 == b.lo or b.hi + 1 == a.lo


def cross_ok(R: Ruleset, chosen: Sequence[Reading]) -> bool:
    """The rules between the melds of one contract (§4.1's judging table)."""
    runs = [rd for rd in chosen if rd.kind == "run"]
    sets = [rd for rd in chosen if rd.kind == "set"]
    for a, b in itertools.combinations(runs, 2):
        if a.suit != b.suit:
            continue
        if R.one_run_per_suit:
            return False
        if R.not_contiguous and _contiguous(a, b):
            return False
    if R.distinct_set_ranks:
        ranks = [rd.rank for rd in sets]
        if len(ranks) != len(set(ranks)):
            return False
    return True


def _joint_ok(R: Ruleset, options: Sequence[Sequence[Reading]]) -> bool:
    """Some choice of one reading per meld passes the rules between melds."""
    if not (R.not_contiguous or R.one_run_per_suit or R.distinct_set_ranks):
        return all(options)
    return any(cross_ok(R, combo) for combo in itertools.product(*options))


def ref_meets_contract(ruleset: str | Ruleset, round_no: int, melds: Sequence[Sequence[int]],
                       hand: Sequence[int] | None = None, players: int | None = None) -> bool:
    """Whether ``melds`` are a legal initial meld for deal ``round_no``."""
    R = rules(ruleset)
    comps = R.comps(round_no)
    whole = round_no in R.whole_hand_rounds
    decks = R.decks(players or R.players[0])
    ms = [[int(c) for c in m] for m in melds]
    if hand is not None:
        used = Counter(c for m in ms for c in m)
        have = Counter(int(c) for c in hand)
        if whole and used != have:
            return False
        if used - have:
            return False
    if R.count == "exact" and len(ms) != len(comps):
        return False
    if len(ms) < len(comps):
        return False
    reads = [readings(R, m, decks, round_no, kinds=("set", "run", "pair")) for m in ms]
    # which meld stands for which contract meld; the rest (ten-card only) are extras
    for perm in itertools.permutations(range(len(ms)), len(comps)):
        slots: list[Comp | None] = [None] * len(ms)
        for ci, mi in enumerate(perm):
            slots[mi] = comps[ci]
        options = [[rd for rd in reads[i] if _fits(R, rd, slots[i], whole)] for i in range(len(ms))]
        if all(options) and _joint_ok(R, options):
            return True
    return False


# ----------------------------------------------------------------------------------------------
# The best contract: least leftover penalty.
#
# A candidate meld is (naturals, w): a multiset of natural cards each at its own place (its own
# face in a run's slot, its rank in a set; a wild 2 may be a natural this way) plus ``w`` wild
# cards standing for the other places.  Wild cards are interchangeable for the search (every wild
# has one value, checked in Ruleset.wild_value), so the search only keeps a count of wilds owed
# and checks that enough wild cards remain; the arrangement it returns picks actual wilds at the
# end.  The candidates are every such pair from the hand, by construction per rank (sets) and per
# suit and interval (runs); the search is a DFS over the contract's melds, a candidate each,
# disjoint, with a plain upper bound (the best value each remaining contract meld could add).


@dataclass
class Cand:
    nat: tuple[int, ...]  # the natural cards, sorted
    w: int
    value: int
    reads: list[Reading] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.nat) + self.w


def _wild_count(R: Ruleset, cnt: Counter[int]) -> int:
    return sum(n for c, n in cnt.items() if R.is_wild(c))


def candidates(R: Ruleset, hand: Sequence[int], decks: int, round_no: int | None,
               smallest: int) -> list[Cand]:
    """Every candidate meld of ``smallest`` cards or more that can be made from ``hand``."""
    cnt = Counter(int(c) for c in hand)
    W = _wild_count(R, cnt)
    Vw = R.wild_value() if W else 0
    found: dict[tuple[tuple[int, ...], int], Cand] = {}

    def add(nat: list[int], w: int, rd: Reading) -> None:
        key = (tuple(sorted(nat)), w)
        c = found.get(key)
        if c is None:
            c = found[key] = Cand(key[0], w, sum(R.value(x) for x in nat) + w * Vw)
        if rd not in c.reads:
            c.reads.append(rd)

    # sets (and pairs) of each rank: any sub-multiset of that rank's cards, plus w wilds
    for r in range(1, 14):
        faces = [face(r, s) for s in range(4) if cnt[face(r, s)]]
        for ks in itertools.product(*[range(cnt[f] + 1) for f in faces]):
            nat = [f for f, k in zip(faces, ks, strict=True) for _ in range(k)]
            if not nat and not R.all_wild_ok:
                continue
            free = W - sum(1 for x in nat if R.is_wild(x))  # wild 2s in a set of 2s are naturals
            for w in range(free + 1):
                n = len(nat) + w
                if n < max(smallest, 2) or (decks == 1 and n > 4):
                    continue
                kind = "pair" if n == 2 else "set"
                if wilds_ok(R, kind, len(nat), w):
                    add(nat, w, Reading(kind, r, -1, 0, 0, len(nat), w))
    # (all-wild sets, progressive only, come out of that loop with nat == [] for every rank)
    # runs: every suit and interval; each slot natural (if the hand has that face) or wild
    for s in range(4):
        for length in range(max(smallest, 2), 15):
            for lo in run_starts(R, length):
                hi = lo + length - 1
                if not ace_both_ends_ok(R, lo, hi, decks, round_no):
                    continue
                slots = [face(rank_at(p), s) for p in range(lo, hi + 1)]
                need = Counter(slots)
                # slots the hand can fill with their own card (A..K..A has two ace slots)
                fillable = [f for f in sorted(need) for _ in range(min(need[f], cnt[f]))]
                forced = length - len(fillable)
                if forced > W:
                    continue
                for k in range(0, W - forced + 1):  # k fillable slots left to wilds instead
                    for drop in itertools.combinations(range(len(fillable)), k):
                        nat = [f for i, f in enumerate(fillable) if i not in drop]
                        w = length - len(nat)
                        if w > W - sum(1 for x in nat if R.is_wild(x)):
                            continue
                        if wilds_ok(R, "run", len(nat), w):
                            add(nat, w, Reading("run", 0, s, lo, hi, len(nat), w))
    return list(found.values())


@dataclass
class Best:
    leftover: int
    melds: list[list[int]]


def ref_best_contract(ruleset: str | Ruleset, round_no: int, hand: Sequence[int],
                      players: int | None = None) -> Best | None:
    """The least leftover penalty of an initial meld meeting deal ``round_no``'s contract from
    ``hand``, with one arrangement reaching it; None if no arrangement meets the contract.  In a
    whole-hand round only arrangements using every card count (leftover 0)."""
    R = rules(ruleset)
    comps = R.comps(round_no)
    whole = round_no in R.whole_hand_rounds
    decks = R.decks(players or R.players[0])
    h = [int(c) for c in hand]
    total = sum(R.value(c) for c in h)
    smallest = min([c.size for c in comps] + ([3] if R.count == "at_least" else []))
    cands = candidates(R, h, decks, round_no, smallest)

    def fitting(comp: Comp | None) -> list[tuple[Cand, list[Reading]]]:
        out = []
        for c in cands:
            rs = [rd for rd in c.reads if _fits(R, rd, comp, whole)]
            if rs:
                out.append((c, rs))
        out.sort(key=lambda t: -t[0].value)
        return out

    per_comp = [fitting(c) for c in comps]
    extras = fitting(None) if R.count == "at_least" else []
    # best value each remaining contract meld could add, ignoring the others
    tail = [0] * (len(comps) + 1)
    for i in range(len(comps) - 1, -1, -1):
        tail[i] = tail[i + 1] + (per_comp[i][0][0].value if per_comp[i] else 0)
    if any(not p for p in per_comp):
        return None

    bound = not extras  # with extras (ten-card) later melds can add more than ``tail`` says
    best: list[Best | None] = [None]
    # what remains of the hand: count per face, and how many of those are wild cards
    rem = [0] * 53
    for c in h:
        rem[c] += 1
    wild_faces = [f for f in range(53) if R.is_wild(f)]
    state = {"wild": sum(rem[f] for f in wild_faces), "cards": len(h)}
    need = {id(c): (tuple(Counter(c.nat).items()), sum(1 for x in c.nat if R.is_wild(x))) for c in cands}
    chosen: list[tuple[Cand, list[Reading]]] = []

    def take(owed: int, c: Cand) -> bool:
        """Take candidate ``c``'s naturals out of what remains, if they are there and enough
        wild cards remain for every wild owed so far plus ``c``'s."""
        faces, nat_wild = need[id(c)]
        if any(rem[f] < k for f, k in faces):
            return False
        if state["wild"] - nat_wild < owed + c.w:
            return False
        for f, k in faces:
            rem[f] -= k
        state["wild"] -= nat_wild
        state["cards"] -= len(c.nat)
        return True

    def put_back(c: Cand) -> None:
        faces, nat_wild = need[id(c)]
        for f, k in faces:
            rem[f] += k
        state["wild"] += nat_wild
        state["cards"] += len(c.nat)

    def leaf(owed: int, used: int) -> None:
        left = total - used
        if whole and state["cards"] != owed:  # the whole hand: only owed wilds may remain
            return
        b = best[0]
        if b is not None and left >= b.leftover:
            return
        if not _joint_ok(R, [rs for _, rs in chosen]):
            return
        rest = Counter({f: n for f, n in enumerate(rem) if n})
        best[0] = Best(left, _materialize(R, [c for c, _ in chosen], rest))

    def dfs(i: int, start: int, owed: int, used: int) -> None:
        if i == len(comps):
            leaf(owed, used)
            if extras:
                extra(0, owed, used)
            return
        same = i > 0 and comps[i] == comps[i - 1]
        for k in range(start if same else 0, len(per_comp[i])):
            c, rs = per_comp[i][k]
            b = best[0]
            if b is not None and b.leftover == 0:
                return
            if bound and b is not None and total - (used + c.value + tail[i + 1]) >= b.leftover:
                break  # sorted by value: nothing further in this list can do better
            if whole and used + c.value + tail[i + 1] < total:
                break
            if not take(owed, c):
                continue
            chosen.append((c, rs))
            if _joint_ok(R, [r for _, r in chosen]):
                dfs(i + 1, k, owed + c.w, used + c.value)
            chosen.pop()
            put_back(c)

    def extra(start: int, owed: int, used: int) -> None:
        for k in range(start, len(extras)):
            b = best[0]
            if b is not None and b.leftover == 0:
                return
            c, rs = extras[k]
            if not take(owed, c):
                continue
            chosen.append((c, rs))
            leaf(owed + c.w, used + c.value)
            extra(k, owed + c.w, used + c.value)
            chosen.pop()
            put_back(c)

    dfs(0, 0, 0, 0)
    return best[0]


def _materialize(R: Ruleset, chosen: Sequence[Cand], rem: Counter[int]) -> list[list[int]]:
    """Concrete melds: each candidate's naturals plus actual wild cards from what remains."""
    pool = sorted((c for c, n in rem.items() if R.is_wild(c) for _ in range(n)))
    out = []
    for c in chosen:
        out.append(list(c.nat) + [pool.pop() for _ in range(c.w)])
    return out


def ref_best_contract_value(ruleset: str | Ruleset, round_no: int, hand: Sequence[int],
                            players: int | None = None) -> int | None:
    b = ref_best_contract(ruleset, round_no, hand, players)
    return None if b is None else b.leftover


def hand_value(ruleset: str | Ruleset, cards: Iterable[int]) -> int:
    R = rules(ruleset)
    return sum(R.value(int(c)) for c in cards)


__all__ = [
    "RULESETS",
    "Best",
    "Comp",
    "Reading",
    "Ruleset",
    "contract",
    "hand_value",
    "pack",
    "readings",
    "ref_best_contract",
    "ref_best_contract_value",
    "ref_is_valid_meld",
    "ref_meets_contract",
    "rules",
]
