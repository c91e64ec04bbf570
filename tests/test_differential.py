"""Differential test: the engine's meld and contract judgement against tests/reference.py.

For every ruleset (and every deal of the contract rulesets), seeded random hands from the
ruleset's pack — some uniform, most biased toward melds (narrow rank and suit windows, sets,
contracts built on purpose, 0-4 wild cards) — are judged by ``is_valid_meld``,
``meets_contract`` and ``find_contract`` and by the reference, a brute-force search written from
RULES.md alone.  ``find_contract`` is compared by the least leftover penalty (ties may be broken
differently); its arrangement is then judged by the reference's ``meets_contract``.

``RUMMYKIT_DIFF_CASES=N`` sets the number of hands per ruleset and deal (default 24); the
meld checks scale with it (60·N per ruleset).  The default run is a few thousand cases per
ruleset.  A failure lists every mismatch found (up to 12 in full), each with the ruleset, deal,
hand in card notation, the engine's answer and the reference's.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import (
    RULESETS,
    Comp,
    Ruleset,
    face,
    hand_value,
    pack,
    rank_at,
    ref_best_contract,
    ref_is_valid_meld,
    ref_meets_contract,
    run_starts,
)

import rummykit as rk
from rummykit.cards import JOKER_CODE, format_cards

P = rk.parse_cards
N_HANDS = int(os.environ.get("RUMMYKIT_DIFF_CASES", "24"))
N_MELDS = 60 * N_HANDS
CONTRACT_RULESETS = [v for v in rk.variant_ids() if RULESETS[v].contracts]
ROUNDS = [(v, r) for v in CONTRACT_RULESETS for r in range(1, len(RULESETS[v].contracts) + 1)]
SHOW = 12
MAX_WILDS = 4


def as_cards(xs: Sequence[int]) -> list[rk.Card]:
    return [rk.Card(c) for c in xs]


def fmt(cards: Sequence[int]) -> str:
    return format_cards(sorted(cards, key=lambda c: (c == JOKER_CODE, c % 13, c // 13)))


def fmt_melds(melds: Sequence[Sequence[int]] | None) -> str:
    return "None" if melds is None else "[" + " | ".join(fmt(m) for m in melds) + "]"


def report(title: str, mismatches: list[str], cases: int) -> str:
    head = f"{title}: {len(mismatches)} of {cases} cases disagree with the reference"
    return "\n".join([head, *mismatches[:SHOW]] + ([f"... and {len(mismatches) - SHOW} more"]
                                                    if len(mismatches) > SHOW else []))


# ----------------------------------------------------------------------------------------------
# Random cards from a ruleset's pack, biased toward melds.


class Pool:
    """What is left of a pack to draw from."""

    def __init__(self, R: Ruleset, players: int, rng: random.Random):
        self.R, self.rng = R, rng
        self.left = Counter(pack(R, players))

    def take(self, c: int) -> bool:
        if self.left[c] <= 0:
            return False
        self.left[c] -= 1
        return True

    def wilds(self) -> list[int]:
        return [c for c, n in self.left.items() if n > 0 and self.R.is_wild(c)]

    def take_wild(self) -> int | None:
        ws = self.wilds()
        if not ws:
            return None
        c = self.rng.choice(ws)
        self.take(c)
        return c

    def take_random(self) -> int:
        cs = list(self.left.elements())
        c = self.rng.choice(cs)
        self.take(c)
        return c

    def take_from(self, faces: Sequence[int], k: int) -> list[int]:
        got = []
        cands = [c for c in faces for _ in range(self.left[c])]
        self.rng.shuffle(cands)
        for c in cands:
            if len(got) >= k:
                break
            if self.take(c):
                got.append(c)
        return got


def run_faces(R: Ruleset, suit: int, lo: int, length: int) -> list[int]:
    return [face(rank_at(p), suit) for p in range(lo, lo + length)]


def built_meld(rng: random.Random, pool: Pool, kind: str, size: int, wild_p: float,
               near: tuple[int, int, int] | None = None) -> list[int]:
    """A meld of ``kind`` (set/run/pair) and ``size`` from the pool, some places filled by wilds
    (legal or not: the judges decide).  ``near`` = (suit, lo, hi) of an earlier run or
    (rank, 0, 0) of an earlier set: with it, this meld shares the suit (beside, overlapping or
    just past that run) or the rank, to exercise the rules between the melds of a contract."""
    R = pool.R
    if kind == "run":
        starts = list(run_starts(R, size))
        if not starts:
            return []
        suit, lo = rng.randrange(4), rng.choice(starts)
        if near is not None and near[1]:
            suit = near[0]
            options = [near[2] + 1, near[2] + 2, near[1] - size, near[1] - size - 1, near[1] + 1, near[1]]
            options = [x for x in options if x in starts]
            if options:
                lo = rng.choice(options)
        wanted = run_faces(R, suit, lo, size)
    else:
        r = near[0] if near is not None and not near[1] else rng.randrange(1, 14)
        wanted = [face(r, rng.randrange(4)) for _ in range(size)]
    out = []
    for c in wanted:
        if rng.random() < wild_p or not pool.take(c):
            w = pool.take_wild()
            if w is not None:
                out.append(w)
        else:
            out.append(c)
    return out


def shape_of(kind: str, m: list[int]) -> tuple[int, int, int] | None:
    """(suit, lo, hi) of a built run (by its first natural), or (rank, 0, 0) of a built set."""
    nat = [c for c in m if c != JOKER_CODE]
    if not nat:
        return None
    if kind == "run":
        lo = min(c % 13 + 1 for c in nat)
        return (nat[0] // 13, lo, lo + len(m) - 1)
    return (nat[0] % 13 + 1, 0, 0)


def built_contract(rng: random.Random, pool: Pool, round_no: int, n: int) -> list[int]:
    """Cards meant to meet deal ``round_no``'s contract (often exactly, sometimes not quite):
    melds of the contract's sizes, grown where allowed, runs often in one suit next to each
    other, sets often of one rank; in a whole-hand round, sized to use all ``n`` cards."""
    R = pool.R
    comps = R.comps(round_no)
    whole = round_no in R.whole_hand_rounds
    kinds = [c.kind if c.kind != "meld" else rng.choice(["set", "run"]) for c in comps]
    sizes = [c.size for c in comps]
    growable = [i for i, k in enumerate(kinds) if k != "pair" and (whole or R.sizes != "exact")]
    room = n - sum(sizes)
    if growable and room > 0:
        for _ in range(room if whole else rng.choice([0, 0, 1, 2, room])):
            sizes[rng.choice(growable)] += 1
    for i in range(len(sizes)):  # now and then a meld a card short or long
        if kinds[i] != "pair" and rng.random() < 0.08:
            sizes[i] += rng.choice([-1, 1])
    together = rng.random() < 0.5
    hand: list[int] = []
    last: dict[str, tuple[int, int, int] | None] = {"run": None, "set": None}
    for kind, size in zip(kinds, sizes, strict=True):
        near = last.get(kind) if together else None
        m = built_meld(rng, pool, kind, max(size, 2), wild_p=0.12, near=near)
        last[kind] = shape_of(kind, m) or last.get(kind)
        hand += m
    if R.count == "at_least" and rng.random() < 0.5:
        hand += built_meld(rng, pool, rng.choice(["set", "run"]), 3, wild_p=0.1)
    return hand


def hand_size(rng: random.Random, R: Ruleset, round_no: int, players: int) -> int:
    n = R.cards_dealt(round_no, players)
    if R.id == "ten-card":  # melds before drawing; a buy adds two cards
        return n + rng.choice([0, 0, 0, 1, 2])
    if round_no in R.whole_hand_rounds:  # after drawing; sometimes after a buy too
        return n + rng.choice([1, 1, 1, 1, 3])
    return n + rng.choice([0, 1, 1, 1, 3, 5])


def random_hand(rng: random.Random, R: Ruleset, round_no: int, players: int) -> list[int]:
    """One hand of the deal's size; the kind of bias is chosen at random."""
    n = hand_size(rng, R, round_no, players)
    pool = Pool(R, players, rng)
    style = rng.choice(["uniform", "window", "window", "sets", "built", "built", "built"])
    hand: list[int] = []
    n_wild = rng.choice([0, 0, 1, 1, 2, 3, 4]) if pool.wilds() else 0
    if style == "built" and R.contracts:
        need = sum(c.size for c in R.comps(round_no))
        if n < need:  # contracts longer than the deal (progressive 12, kolsov 8): cards bought
            n = need + rng.choice([0, 0, 1, 2])
        hand += built_contract(rng, pool, round_no, n)
    elif style == "window":
        suits = rng.sample(range(4), rng.choice([1, 1, 2]))
        width = rng.randint(3, 8)
        starts = list(run_starts(R, width)) or [1]
        lo = rng.choice(starts)
        faces = [face(rank_at(p), s) for s in suits for p in range(lo, lo + width)]
        hand += pool.take_from(faces, int(n * rng.uniform(0.5, 0.9)))
    elif style == "sets":
        ranks = rng.sample(range(1, 14), rng.randint(2, 4))
        hand += pool.take_from([face(r, s) for r in ranks for s in range(4)], int(n * rng.uniform(0.5, 0.9)))
    for _ in range(n_wild):
        w = pool.take_wild()
        if w is not None:
            hand.append(w)
    rng.shuffle(hand)
    hand = hand[:n]
    while len(hand) < n:
        hand.append(pool.take_random())
    # at most MAX_WILDS wild cards (2s where they are wild count): swap the others for naturals
    wild_at = [i for i, c in enumerate(hand) if R.is_wild(c)]
    for i in wild_at[MAX_WILDS:]:
        while R.is_wild(c := pool.take_random()):
            pass
        hand[i] = c
    rng.shuffle(hand)
    return hand


def random_meld(rng: random.Random, R: Ruleset, players: int) -> list[int]:
    """A candidate meld: built legal-looking ones, mutated ones, and random windows."""
    pool = Pool(R, players, rng)
    style = rng.random()
    if style < 0.55:
        kind = rng.choice(["set", "run", "run"])
        size = rng.choice([2, 3, 3, 4, 4, 5, 6, 7, 8, 13, 14] if kind == "run" else [2, 3, 3, 4, 5, 6, 8])
        m = built_meld(rng, pool, kind, size, wild_p=rng.choice([0.0, 0.15, 0.4]))
        if m and rng.random() < 0.25:  # mutate one card
            m[rng.randrange(len(m))] = pool.take_random()
        return m
    hand = random_hand(rng, R, 1 if R.contracts else 1, players)
    k = rng.randint(2, min(7, len(hand)))
    return rng.sample(hand, k)


def players_for(rng: random.Random, R: Ruleset) -> int:
    return rng.randint(*R.players)


# ----------------------------------------------------------------------------------------------
# is_valid_meld


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_is_valid_meld_agrees_with_reference(vid: str) -> None:
    R = RULESETS[vid]
    v = rk.get_variant(vid)
    rng = random.Random(f"meld-{vid}")
    bad: list[str] = []
    seen: dict[tuple[int, tuple[int, ...]], bool] = {}  # each meld judged once: the reference's verdict
    drawn = n_true = 0
    for _ in range(N_MELDS):
        players = players_for(rng, R)
        m = random_meld(rng, R, players)
        if not m:
            continue
        key = (R.decks(players), tuple(sorted(m)))
        drawn += 1
        if key in seen:
            n_true += seen[key]
            continue
        want = seen[key] = ref_is_valid_meld(R, m, players)
        got = v.is_valid_meld(as_cards(m), players)
        n_true += want
        if got != want:
            bad.append(f"{vid} {players}p is_valid_meld({fmt(m)}): engine {got}, reference {want}")
    assert not bad, report(f"{vid} is_valid_meld", bad, len(seen))
    # the generator's bias, over every meld it drew (legal melds repeat more than illegal ones:
    # counted once each, their share fell under 10% in a 200-case run)
    assert n_true > drawn // 10, f"only {n_true} of {drawn} random melds are legal: bias too weak"


# ----------------------------------------------------------------------------------------------
# find_contract and meets_contract


def engine_leftover(vid: str, hand: Sequence[int], melds: Sequence[Sequence[int]]) -> int:
    return hand_value(vid, hand) - sum(hand_value(vid, m) for m in melds)


def check_find(vid: str, round_no: int, hand: list[int], players: int) -> str | None:
    """None if the engine's find_contract agrees with the reference, else the mismatch."""
    v = rk.get_variant(vid)
    R = RULESETS[vid]
    got = v.find_contract(round_no, as_cards(hand), players)
    want = ref_best_contract(R, round_no, hand, players)
    where = f"{vid} deal {round_no} {players}p hand {fmt(hand)}:"
    want_txt = "None" if want is None else f"leftover {want.leftover} {fmt_melds(want.melds)}"
    if got is None:
        return None if want is None else f"{where} engine None (missed), reference {want_txt}"
    left = engine_leftover(vid, hand, got)
    got_txt = f"leftover {left} {fmt_melds(got)}"
    if Counter(c for m in got for c in m) - Counter(hand):
        return f"{where} engine {got_txt} uses cards not in the hand"
    whole = round_no in R.whole_hand_rounds
    if not ref_meets_contract(R, round_no, got, hand if whole else None, players):
        return f"{where} engine {got_txt} is not a legal contract to the reference (reference {want_txt})"
    if want is None:
        return f"{where} engine {got_txt}, reference None"
    if left != want.leftover:
        return f"{where} engine {got_txt}, reference {want_txt}"
    return None


def meld_lists(rng: random.Random, hand: list[int], arrangements: list[list[list[int]]],
               R: Ruleset, round_no: int) -> list[list[list[int]]]:
    """Candidate initial melds: the found arrangements, mutations of them, random groupings."""
    out: list[list[list[int]]] = []
    for arr in arrangements:
        out.append([list(m) for m in arr])
        for _ in range(4):
            ms = [list(m) for m in arr]
            used = Counter(c for m in ms for c in m)
            spare = list((Counter(hand) - used).elements())
            op = rng.randrange(6)
            i = rng.randrange(len(ms))
            if op == 0 and spare:  # add a spare card
                ms[i].append(rng.choice(spare))
            elif op == 1 and len(ms[i]) > 1:  # drop a card
                ms[i].pop(rng.randrange(len(ms[i])))
            elif op == 2 and len(ms) > 1:  # move a card to another meld
                j = rng.choice([k for k in range(len(ms)) if k != i])
                if ms[i]:
                    ms[j].append(ms[i].pop(rng.randrange(len(ms[i]))))
            elif op == 3 and spare:  # swap a card with a spare one
                ms[i][rng.randrange(len(ms[i]))] = rng.choice(spare)
            elif op == 4 and len(ms) > 1:  # drop a meld
                ms.pop(i)
            elif op == 5 and len(ms[i]) >= 6:  # split a meld in two
                k = rng.randint(3, len(ms[i]) - 3)
                ms[i], tail = ms[i][:k], ms[i][k:]
                ms.append(tail)
            ms = [m for m in ms if m]
            if ms:
                out.append(ms)
    comps = R.comps(round_no)
    for _ in range(2):  # random groupings of the hand's cards, sizes near the contract's
        cards = list(hand)
        rng.shuffle(cards)
        ms = []
        for comp in comps:
            k = max(2, comp.size + rng.choice([0, 0, 1, -1]))
            if len(cards) >= k:
                ms.append(cards[:k])
                cards = cards[k:]
        if ms:
            out.append(ms)
    return out


def sorted_melds(ms: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(m)) for m in ms))


@pytest.mark.parametrize(("vid", "round_no"), ROUNDS, ids=[f"{v}-deal{r}" for v, r in ROUNDS])
def test_find_contract_agrees_with_reference(vid: str, round_no: int) -> None:
    R = RULESETS[vid]
    rng = random.Random(f"find-{vid}-{round_no}")
    bad = []
    for _ in range(N_HANDS):
        players = players_for(rng, R)
        hand = random_hand(rng, R, round_no, players)
        problem = check_find(vid, round_no, hand, players)
        if problem:
            bad.append(problem)
    assert not bad, report(f"{vid} deal {round_no} find_contract", bad, N_HANDS)


@pytest.mark.parametrize(("vid", "round_no"), ROUNDS, ids=[f"{v}-deal{r}" for v, r in ROUNDS])
def test_meets_contract_agrees_with_reference(vid: str, round_no: int) -> None:
    R = RULESETS[vid]
    v = rk.get_variant(vid)
    rng = random.Random(f"meets-{vid}-{round_no}")
    whole = round_no in R.whole_hand_rounds
    bad = []
    n = n_true = 0
    seen: set[tuple[tuple[int, ...], ...]] = set()
    for _ in range(N_HANDS):
        players = R.players[0]  # meets_contract judges with the ruleset's smallest table
        hand = random_hand(rng, R, round_no, players)
        arrangements = []
        want_best = ref_best_contract(R, round_no, hand, players)
        if want_best is not None:
            arrangements.append(want_best.melds)
        got_best = v.find_contract(round_no, as_cards(hand), players)
        if got_best is not None:
            arrangements.append([list(m) for m in got_best])
        for ms in meld_lists(rng, hand, arrangements, R, round_no):
            key = sorted_melds(ms)
            if key in seen:
                continue
            seen.add(key)
            n += 1
            judge_hand = hand if (whole and rng.random() < 0.5) else None
            want = ref_meets_contract(R, round_no, ms, judge_hand)
            got = v.meets_contract(round_no, [as_cards(m) for m in ms],
                                   None if judge_hand is None else as_cards(judge_hand))
            n_true += want
            if got != want:
                bad.append(f"{vid} deal {round_no} meets_contract({fmt_melds(ms)}"
                           f"{', hand ' + fmt(hand) if judge_hand else ''}): engine {got}, reference {want}")
    assert not bad, report(f"{vid} deal {round_no} meets_contract", bad, n)


# ----------------------------------------------------------------------------------------------
# Hypothesis: the same comparisons on hands hypothesis shrinks when they disagree.


def hand_strategy(vid: str, round_no: int, players: int) -> st.SearchStrategy[list[int]]:
    R = RULESETS[vid]
    n = R.cards_dealt(round_no, players) + (0 if vid == "ten-card" else 1)
    return st.randoms(use_true_random=False).map(lambda r: random_hand(r, R, round_no, players)).filter(
        lambda h: len(h) >= n - 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(data=st.data())
def test_find_contract_agrees_with_reference_hypothesis(data: st.DataObject) -> None:
    vid, round_no = data.draw(st.sampled_from(ROUNDS), label="ruleset and deal")
    players = RULESETS[vid].players[0]
    hand = data.draw(hand_strategy(vid, round_no, players), label="hand")
    problem = check_find(vid, round_no, hand, players)
    assert problem is None, problem


@settings(max_examples=150, deadline=None, derandomize=True)
@given(vid=st.sampled_from(rk.variant_ids()),
       m=st.lists(st.integers(0, 52), min_size=2, max_size=9))
def test_is_valid_meld_agrees_with_reference_hypothesis(vid: str, m: list[int]) -> None:
    R = RULESETS[vid]
    players = R.players[0]
    if Counter(m) - Counter(pack(R, players)):
        return  # not cards this pack holds
    got = rk.get_variant(vid).is_valid_meld([rk.Card(c) for c in m], players)
    assert got == ref_is_valid_meld(R, m, players), f"{vid} is_valid_meld({fmt(m)}): engine {got}"


# ----------------------------------------------------------------------------------------------
# The known cases of issue 13, by name.


def leftover_of(vid: str, round_no: int, hand: str, players: int | None = None) -> int | None:
    got = rk.get_variant(vid).find_contract(round_no, P(hand), players)
    return None if got is None else engine_leftover(vid, P(hand), got)


def test_tencard_two_natural_in_one_meld_wild_in_another() -> None:
    # 2C 2H 4C (2C natural, 2H for 3C) and 2D 3D 2S (2S for 4D): the whole hand
    hand = "2D 3D 2C 2H 2S 4C"
    assert ref_meets_contract("ten-card", 1, [P("2C 2H 4C"), P("2D 3D 2S")])
    assert rk.get_variant("ten-card").meets_contract(1, ["2C 2H 4C", "2D 3D 2S"])
    assert ref_best_contract("ten-card", 1, P(hand)).leftover == 0  # type: ignore[union-attr]
    assert leftover_of("ten-card", 1, hand) == 0


def test_tencard_a_2_natural_and_another_2_wild_in_one_run() -> None:
    # deal 3 (a meld of 4+, more of 3+): 2S TH KH JK (T-J-Q-K of hearts) and KD 2D 2H (K-A-2 of
    # diamonds wrapping, 2D in its place, 2H for AD): the whole hand
    hand = "2D 2H 2S TH KD KH JK"
    assert ref_meets_contract("ten-card", 3, [P("2S TH KH JK"), P("KD 2H 2D")])
    assert rk.get_variant("ten-card").meets_contract(3, ["2S TH KH JK", "KD 2H 2D"])
    assert leftover_of("ten-card", 3, hand) == 0


def test_progressive_deal12_five_runs_of_one_suit() -> None:
    hand = "3C 4C 5C 3C 4C 5C 8C 9C TC 8C 9C TC QC KC AC"
    melds = ["3C 4C 5C", "3C 4C 5C", "8C 9C TC", "8C 9C TC", "QC KC AC"]
    assert ref_meets_contract("progressive", 12, [P(m) for m in melds])
    assert rk.get_variant("progressive").meets_contract(12, melds)
    assert leftover_of("progressive", 12, hand) == 0


def test_sevenhand_fourteen_card_run_with_an_ace_at_each_end_outside_deal_8() -> None:
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    v = rk.get_variant("seven-hand")
    assert ref_is_valid_meld("seven-hand", P(run))
    assert v.is_valid_meld(run)
    assert v.meets_contract(3, [run, "5C 6C 7C"])  # deal 3: two runs of 3+
    assert leftover_of("seven-hand", 3, run + " 5C 6C 7C") == 0


def test_sevenhand_deal8_run_may_not_have_an_ace_at_each_end() -> None:
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert not ref_meets_contract("seven-hand", 8, [P(run)], P(run))
    assert not rk.get_variant("seven-hand").meets_contract(8, [run], run)
    assert leftover_of("seven-hand", 8, run) is None


def test_low_or_high_fourteen_card_run_with_two_decks_in_every_such_ruleset() -> None:
    run = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    for vid in ("contract", "liverpool", "may-i", "denexa", "progressive", "combination", "seven-hand"):
        assert ref_is_valid_meld(vid, P(run)), vid
        assert rk.get_variant(vid).is_valid_meld(run), vid


def test_shanghai_powe_deal8_is_not_a_whole_hand_round() -> None:
    # three runs of 4 and a spare KD: the contract is met with the KD left over
    hand = "3H 4H 5H 6H 8S 9S TS JS 3C 4C 5C 6C KD"
    assert ref_best_contract("shanghai-powe", 8, P(hand)).leftover == 10  # type: ignore[union-attr]
    assert leftover_of("shanghai-powe", 8, hand) == 10


# ----------------------------------------------------------------------------------------------
# The reference itself: its table against the specs' plain data, its search against a plainer
# one (every way of splitting a small hand), and RULES.md's own examples.


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_reference_table_agrees_with_spec_data(vid: str) -> None:
    R = RULESETS[vid]
    spec = rk.get_variant(vid).spec
    assert tuple(spec.players) == R.players
    for n in range(R.players[0], R.players[1] + 1):
        assert spec.pack_for(n) == R.pack(n), (vid, n)
        for r in range(1, max(1, len(R.contracts)) + 1):
            assert spec.cards_dealt(r, n) == R.cards_dealt(r, n), (vid, n, r)
    want_values = rk.get_variant(vid).values
    for c in range(53):
        if c == JOKER_CODE and not R.pack(R.players[1])[1]:
            continue  # no jokers in this pack
        assert want_values[c] == R.value(c), (vid, format_cards([c]))
    assert len(spec.contracts) == len(R.contracts)
    for r, text in enumerate(spec.contracts, start=1):
        theirs = sorted((c.kind, c.size) for c in spec.contract(r))
        assert theirs == sorted((c.kind, c.size) for c in R.comps(r)), (vid, r, text)


def split_search(R: Ruleset, round_no: int, hand: list[int]) -> int | None:
    """The least leftover by trying every assignment of each card to a contract meld or none
    (ten-card: or to one extra meld), cheapest leftover first."""
    comps = R.comps(round_no)
    k = len(comps) + (1 if R.count == "at_least" else 0)
    total = hand_value(R, hand)
    whole = round_no in R.whole_hand_rounds
    tries = []
    for assign in itertools.product(range(k + 1), repeat=len(hand)):
        melds = [[c for c, a in zip(hand, assign, strict=True) if a == i] for i in range(k)]
        if R.count == "at_least" and not melds[-1]:
            melds.pop()
        if any(len(m) < 2 for m in melds):
            continue
        tries.append((total - sum(hand_value(R, m) for m in melds), melds))
    tries.sort(key=lambda t: t[0])
    for left, melds in tries:
        if ref_meets_contract(R, round_no, melds, hand if whole else None):
            return left
    return None


SMALL = [("contract", 1), ("contract", 3), ("shanghai", 3), ("shanghai-powe", 3), ("ten-card", 1),
         ("ten-card", 2), ("progressive", 2), ("seven-hand", 3), ("combination", 1),
         ("shanghai-kolsov", 2), ("denexa", 3), ("may-i", 2), ("progressive", 1)]


@pytest.mark.parametrize(("vid", "round_no"), SMALL, ids=[f"{v}-deal{r}" for v, r in SMALL])
def test_reference_search_agrees_with_trying_every_split(vid: str, round_no: int) -> None:
    R = RULESETS[vid]
    rng = random.Random(f"split-{vid}-{round_no}")
    comps = R.comps(round_no)
    size = sum(c.size for c in comps)
    met = 0
    for _ in range(4):
        players = R.players[0]
        pool = Pool(R, players, rng)
        hand: list[int] = []
        for comp in comps:
            kind = comp.kind if comp.kind != "meld" else rng.choice(["set", "run"])
            hand += built_meld(rng, pool, kind, comp.size, wild_p=0.25)
        cap = 8 if len(comps) + (R.count == "at_least") <= 2 else 7
        while len(hand) < min(size + 2, cap):
            hand.append(pool.take_random())
        hand = hand[:cap]
        best = ref_best_contract(R, round_no, hand)
        assert (None if best is None else best.leftover) == split_search(R, round_no, hand), fmt(hand)
        if best is not None:
            met += 1
            assert ref_meets_contract(R, round_no, best.melds, hand), fmt_melds(best.melds)
    assert met, "no hand met the contract: the check above proved little"


RULES_EXAMPLES = [
    # (ruleset, meld, legal?) — examples RULES.md gives or implies
    ("ten-card", "2H 2S 2D", True),  # a wild 2 standing for itself is natural
    ("ten-card", "7H 2S 2D", False),  # two wilds, one natural
    ("ten-card", "2H 3H 2S", True),  # 2H natural in its place, 2S for 4H
    ("ten-card", "KH AH 2H", True),  # wrap
    ("ten-card", "QH KH AH 2H 3H", True),
    ("ten-card", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H", False),  # 14 cards: a rank twice
    ("contract", "KH AH 2H 3H", False),  # low_or_high never wraps
    ("contract", "JH QH KH AH", True),
    ("contract", "AH 2H 3H 4H", True),
    ("contract", "7H JK JK", True),  # set of 7s (or a run of 3? runs need 4 here)
    ("contract", "JK JK JK", False),  # a natural is needed
    ("progressive", "JK JK JK", True),  # any number of wilds
    ("progressive", "2C 2D JK", True),
    ("shanghai", "7H 7S JK JK", False),  # at most one wild
    ("shanghai", "AH 2H 3H 4H", False),  # ace high only
    ("shanghai", "JH QH KH AH", True),
    ("basic", "JH QH KH AH", False),  # ace low
    ("basic", "7H 7S 7D 7C", True),
    ("wrotham", "7H 7S 7D 7C JK", False),  # one deck: at most 4 in a set, wilds included
    ("wrotham", "7H JK JK", True),
    ("combination", "7H 7S JK JK", True),
    ("combination", "7H JK JK", False),  # more wilds than naturals
    ("combination", "2H 2S 2D", True),  # 2s are natural (not wild) there
    ("seven-hand", "7H 7H 7H 7H 7S 7S 7S 7S 7D", True),  # several decks: no upper bound
    ("may-i", "TC JC QC KC AC", True),
]


@pytest.mark.parametrize(("vid", "meld", "legal"), RULES_EXAMPLES)
def test_reference_reads_rules_examples(vid: str, meld: str, legal: bool) -> None:
    assert ref_is_valid_meld(vid, P(meld)) == legal


CONTRACT_EXAMPLES = [
    # (ruleset, deal, melds, hand or None, legal?)
    ("contract", 3, ["3H 4H 5H 6H", "7H 8H 9H TH"], None, False),  # contiguous same suit
    ("contract", 3, ["3H 4H 5H 6H", "8H 9H TH JH"], None, True),  # a gap
    ("contract", 3, ["3H 4H 5H JK", "7H 8H 9H TH"], None, True),  # JK may be 2H: no contiguity
    ("contract", 3, ["3H 4H 5H 6H", "5H 6H 7H 8H"], None, True),  # overlap
    ("contract", 3, ["3H 4H 5H 6H 7H", "9H TH JH QH"], None, False),  # exact size
    ("denexa", 3, ["3H 4H 5H 6H 7H", "9H TH JH QH"], None, True),
    ("may-i", 3, ["3H 4H 5H 6H", "7H 8H 9H TH"], None, True),  # no contiguity rule
    ("shanghai-powe", 3, ["3H 4H 5H 6H", "9H TH JH QH"], None, False),  # one run per suit
    ("shanghai", 1, ["7H 7S 7D", "7C 7H JK"], None, False),  # distinct set ranks
    ("contract", 1, ["7H 7S 7D", "7C 7H JK"], None, True),
    ("combination", 2, ["7H 7S JK", "3H 4H JK JK"], None, True),
    ("combination", 2, ["7H JK JK", "3H 4H 5H JK"], None, False),
    ("ten-card", 3, ["3H 4H 5H 6H", "9C 9D 9S"], None, True),  # extras of 3+
    ("ten-card", 3, ["3H 4H 5H", "9C 9D 9S"], None, False),  # no meld of 4
    ("contract", 7, ["3H 4H 5H 6H", "8H 9H TH JH", "3S 4S 5S 6S 7S"], None, True),  # longer runs
    ("contract", 7, ["3H 4H 5H 6H", "8H 9H TH JH", "3S 4S 5S 6S"], "3H 4H 5H 6H 8H 9H TH JH 3S 4S 5S 6S 7S",
     False),  # the 7S is not melded
    ("progressive", 14, ["5H 5S 5D 5C 5C", "6H 7H 8H 9H TH", "KC KD"], None, True),
    ("progressive", 14, ["5H 5S 5D 5C 5C", "6H 7H 8H 9H TH", "JK JK"], None, False),  # pair: a natural
    ("progressive", 14, ["5H 5S 5D 5C 5C", "6H 7H 8H 9H TH", "KC KD KH"], None, False),  # a pair is 2
    ("seven-hand", 6, ["7H 7S 7D", "8H 8S 8D 8C", "9H 9S 9D JK JK"], None, True),
]


@pytest.mark.parametrize(("vid", "round_no", "melds", "hand", "legal"), CONTRACT_EXAMPLES)
def test_reference_reads_rules_contract_examples(vid: str, round_no: int, melds: list[str],
                                                 hand: str | None, legal: bool) -> None:
    judged = ref_meets_contract(vid, round_no, [P(m) for m in melds], None if hand is None else P(hand))
    assert judged == legal


def test_reference_comp_notation() -> None:
    assert RULESETS["progressive"].comps(14) == (Comp("run", 5), Comp("set", 5), Comp("pair", 2))
