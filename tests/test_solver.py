"""RULES.md §4.1: contracts, how an initial meld is judged, and find_contract."""

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.cards import make_pack

P = rk.parse_cards


def meets(variant, round_no, *melds, hand=None):
    return rk.get_variant(variant).meets_contract(round_no, list(melds), hand=hand)


def leftover(variant, round_no, hand):
    v = variant if isinstance(variant, rk.Variant) else rk.get_variant(variant)
    found = v.find_contract(round_no, P(hand))
    if found is None:
        return None
    rest = P(hand)
    for m in found:
        for c in m:
            rest.remove(c)
    assert v.meets_contract(round_no, found)
    values = v.spec.values_table()
    return sum(values[c] for c in rest)


# -- the contracts --------------------------------------------------------------------


def test_contract_list_contract_liverpool_may_i_denexa_shanghai_combination():
    for vid in ("contract", "liverpool", "may-i", "denexa", "shanghai", "combination"):
        v = rk.get_variant(vid)
        assert [v.contract_text(r) for r in range(1, 7)] == [
            "two sets of three",
            "a set of three and a run of four",
            "two runs of four",
            "three sets of three",
            "two sets of three and a run of four",
            "a set of three and two runs of four",
        ]
        assert v.contract_text(7).startswith("three runs of four")


def test_contract_round7_uses_whole_hand_in_contract_liverpool_denexa_shanghai_only():
    for vid in ("contract", "liverpool", "denexa", "shanghai"):
        assert "whole hand" in rk.get_variant(vid).contract_text(7)
    for vid in ("may-i", "combination"):
        assert "whole hand" not in rk.get_variant(vid).contract_text(7)


def test_shanghai_powe_contracts_7_four_books_8_three_runs():
    v = rk.get_variant("shanghai-powe")
    assert v.contract_text(7) == "four sets of three"
    assert v.contract_text(8).startswith("three runs of four")


def test_shanghai_kolsov_ten_contracts():
    v = rk.get_variant("shanghai-kolsov")
    assert v.contract_text(5) == "a set of three and a run of seven"
    assert v.contract_text(8) == "a set of three and a run of ten"
    assert v.contract_text(10) == "three runs of five"


def test_progressive_fifteen_contracts_deal14_has_a_pair():
    v = rk.get_variant("progressive")
    assert v.contract_text(12) == "five runs of three"
    assert v.contract_text(14) == "a set of five, a run of five and a pair"
    assert v.contract_text(15) == "two sets of three and a run of five"


def test_ten_card_eleven_contracts_one_3_to_one_10():
    v = rk.get_variant("ten-card")
    assert v.contract_text(1) == "a meld of three"
    assert v.contract_text(2) == "two melds of three"
    assert v.contract_text(11) == "a meld of ten"


def test_seven_hand_pat_rounds_6_7_8():
    v = rk.get_variant("seven-hand")
    assert v.contract_text(5) == "a set of three and two runs of three"
    for r in (6, 7, 8):
        assert "whole hand" in v.contract_text(r)


# -- how the initial meld is judged ------------------------------------------------------


def test_contract_melds_exactly_the_minimum_size():
    assert meets("contract", 1, "7H 7S 7D", "5H 5S 5D")
    assert not meets("contract", 1, "7H 7S 7D 7C", "5H 5S 5D")
    assert not meets("liverpool", 2, "7H 7S 7D", "3H 4H 5H 6H 7H")
    assert not meets("combination", 1, "7H 7S 7D 7C", "5H 5S 5D")


def test_may_i_denexa_shanghai_contract_melds_may_be_larger():
    for vid in ("may-i", "denexa", "shanghai", "progressive", "seven-hand"):
        assert meets(vid, 1, "7H 7S 7D 7C", "5H 5S 5D")


def test_contract_needs_exactly_the_required_melds():
    assert not meets("contract", 1, "7H 7S 7D")
    assert not meets("may-i", 1, "7H 7S 7D", "5H 5S 5D", "9H 9S 9D")
    assert not meets("contract", 2, "7H 7S 7D", "5H 5S 5D")


def test_ten_card_at_least_the_required_melds_each_may_be_larger():
    assert meets("ten-card", 1, "7H 7S 7D")
    assert meets("ten-card", 1, "7H 7S 7D", "3C 4C 5C 6C")
    assert meets("ten-card", 3, "3C 4C 5C 6C", "9H 9S 9D")  # one 4 plus an extra meld of 3
    assert not meets("ten-card", 3, "9H 9S 9D")


def test_contract_round3_runs_may_not_be_contiguous():
    assert not meets("contract", 3, "3H 4H 5H 6H", "7H 8H 9H TH")
    assert meets("contract", 3, "3H 4H 5H 6H", "5H 6H 7H 8H")  # overlap
    assert meets("contract", 3, "3H 4H 5H 6H", "8H 9H TH JH")  # gap
    assert meets("contract", 3, "3H 4H 5H 6H", "7S 8S 9S TS")  # other suit


def test_contiguous_runs_rule_applies_to_liverpool_denexa_shanghai_kolsov():
    for vid in ("liverpool", "denexa", "shanghai", "shanghai-kolsov"):
        hi = "JH QH KH AH" if vid.startswith("shanghai") else "7H 8H 9H TH"
        lo = "7H 8H 9H TH" if vid.startswith("shanghai") else "3H 4H 5H 6H"
        assert not meets(vid, 3, lo, hi), vid


def test_may_i_progressive_contiguous_runs_allowed():
    assert meets("may-i", 3, "3H 4H 5H 6H", "7H 8H 9H TH")
    assert meets("progressive", 4, "3H 4H 5H 6H", "7H 8H 9H TH")


def test_shanghai_powe_one_run_per_suit():
    assert not meets("shanghai-powe", 3, "3H 4H 5H 6H", "9H TH JH QH")
    assert meets("shanghai-powe", 3, "3H 4H 5H 6H", "9S TS JS QS")


def test_shanghai_two_books_of_one_rank_do_not_both_count():
    assert not meets("shanghai", 1, "8H 8S 8D", "8C 8H 8S")
    assert meets("shanghai", 1, "8H 8S 8D", "9C 9H 9S")
    assert meets("progressive", 1, "8H 8S 8D", "8C 8H 8S")  # allowed there


def test_contract_round7_must_use_the_whole_hand():
    hand = "AH 2H 3H 4H 5C 6C 7C 8C 9S TS JS QS KS"
    assert meets("contract", 7, "AH 2H 3H 4H", "5C 6C 7C 8C", "9S TS JS QS KS", hand=hand)
    assert not meets("contract", 7, "AH 2H 3H 4H", "5C 6C 7C 8C", "9S TS JS QS", hand=hand)


def test_find_contract_round7_uses_whole_hand_or_none():
    assert leftover("contract", 7, "AH 2H 3H 4H 5C 6C 7C 8C 9S TS JS QS KS") == 0
    assert leftover("contract", 7, "AH 2H 3H 4H 5C 6C 7C 8C 9S TS JS QS 5D") is None


def test_seven_hand_round8_one_run_of_the_whole_hand_no_ace_at_each_end():
    v = rk.get_variant("seven-hand")
    assert v.find_contract(8, P("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")) is not None
    assert v.find_contract(8, P("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")) is None
    assert v.is_valid_meld(P("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"))  # legal in the other deals


def test_progressive_deal14_pair_needs_a_natural_card():
    assert meets("progressive", 14, "9H 9S 9D 9C 9H", "3C 4C 5C 6C 7C", "KD KS")
    assert not meets("progressive", 14, "9H 9S 9D 9C 9H", "3C 4C 5C 6C 7C", "JK JK")
    assert meets("progressive", 14, "9H 9S 9D 9C 9H", "3C 4C 5C 6C 7C", "JK 2D")  # 2D is a natural 2


def test_kolsov_round8_set_and_run_of_ten():
    assert meets("shanghai-kolsov", 8, "7H 7S 7D", "5C 6C 7C 8C 9C TC JC QC KC AC")


# -- find_contract ---------------------------------------------------------------------


def test_find_contract_least_leftover_penalty():
    # the run 5H-8H plus a set: 8C 8D JK leaves KS KD (20); KS KD JK leaves 8C 8D (16)
    assert leftover("contract", 2, "5H 6H 7H 8H 8C 8D KS KD JK") == 16


def test_find_contract_uses_jokers_when_they_cost_the_most():
    # contract values the joker at 15: using it beats leaving it in hand
    # 7s and 9s leave JK 3H (18); 7C 7D JK and the 9s leave 7S 3H (10)
    assert leftover("contract", 1, "7C 7D 7S 9S 9H 9D JK 3H") == 10


def test_find_contract_none_when_impossible():
    assert leftover("contract", 1, "7C 7D 9S 9H 3H 4D KS QS") is None


def test_find_contract_exact_sizes_leave_the_fourth_card():
    assert leftover("contract", 1, "7C 7D 7S 7H 9S 9H 9D") == 7


def test_find_contract_larger_melds_where_allowed():
    assert leftover("may-i", 1, "7C 7D 7S 7H 9S 9H 9D") == 0


def test_find_contract_with_twos_wild_and_all_wild_melds():
    assert leftover("progressive", 1, "2C 2D JK 9S 9H 5D") == 0  # 9S 9H 2C and 5D 2D JK
    assert leftover("progressive", 1, "2C 2D JK 9S 9H 5D KS") == 5


@pytest.mark.parametrize("round_no", range(1, 8))
def test_find_contract_result_always_meets_the_contract(round_no):
    import random

    v = rk.get_variant("contract")
    pack = make_pack(2, 3)
    rng = random.Random(round_no)
    found = 0
    for _ in range(400):
        h = rng.sample(pack, 13 if round_no == 7 else 16)
        got = v.find_contract(round_no, h)
        if got is not None:
            found += 1
            assert v.meets_contract(round_no, got, hand=h if round_no == 7 else None)
    assert round_no == 7 or found > 0


# -- exactness against brute force ------------------------------------------------------


def brute_leftover(vid, round_no, hand):
    v = variant_of(vid)
    sp = v.spec
    comps = sp.contract(round_no)
    whole = round_no in sp.whole_hand_rounds
    exact = sp.contract_sizes == "exact" and not whole
    values = sp.values_table()
    best = None

    def rec(i, avail, groups):
        nonlocal best
        if i == len(comps):
            left = [hand[j] for j in avail]
            if whole and left:
                return
            if v.meets_contract(round_no, [[hand[j] for j in g] for g in groups]):
                val = sum(values[c] for c in left)
                best = val if best is None else min(best, val)
            return
        size = comps[i].size
        sizes = [size] if exact else range(size, len(avail) + 1)
        for k in sizes:
            for g in combinations(sorted(avail), k):
                rec(i + 1, avail - set(g), groups + [g])

    rec(0, set(range(len(hand))), [])
    return best


CASES = [("contract", 1), ("contract", 2), ("may-i", 1), ("may-i", 2), ("shanghai", 1),
         ("shanghai", 2), ("combination", 2), ("progressive", 1), ("progressive", 2),
         ("shanghai-powe", 3), ("contract", 3), ("contract+2s", 1), ("contract+2s", 2),
         ("contract+2s", 3), ("progressive", 4), ("combination+2s", 2)]


def variant_of(vid):
    if vid.endswith("+2s"):
        return rk.get_variant(vid[:-3]).with_options({"twos_wild": True})
    return rk.get_variant(vid)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), size=st.integers(6, 9))
def test_find_contract_is_exact_against_brute_force(case, seed, size):
    import random

    vid, round_no = case
    v = variant_of(vid)
    d, j = v.spec.pack_for(4)
    rng = random.Random(seed)
    pack = make_pack(d, j)
    # bias towards hands that can meet the contract: few ranks and suits
    pool = [c for c in pack if c.is_joker or (c.rank in (2, 3, 4, 5, 6, 7) and c.suit in (0, 2))]
    hand = rng.sample(pool, size)
    assert leftover(v, round_no, rk.format_cards(hand)) == brute_leftover(vid, round_no, hand)


def test_ten_card_find_contract_adds_extra_melds():
    assert leftover("ten-card", 1, "7H 7S 7D 3C 4C 5C KD") == 10
    assert leftover("ten-card", 3, "7H 7S 7D 3C 4C 5C 6C KD") == 10


def test_wrotham_whole_hand_solver_needs_every_card():
    from rummykit.rules.spec import Component
    from rummykit.solver import ContractRules, Solver

    v = rk.get_variant("wrotham")
    s = Solver(v.meld_rules(), v.spec.values_table(), ContractRules(count="at_least"))
    assert s.solve((Component("meld", 3),), P("5H 6H 7H 8H QC QD QS"), whole_hand=True) is not None
    assert s.solve((Component("meld", 3),), P("5H 6H 7H 8H QC QD 9S"), whole_hand=True) is None


def test_whole_hand_quick_rejects():
    v = rk.get_variant("seven-hand")
    # three sets pat: four natural ranks can never be three sets
    assert v.find_contract(6, P("7H 7S 7D 9C 9D 9S 5H 5S 5D KD KS KH")) is None
    assert v.find_contract(6, P("7H 7S 7D 9C 9D 9S 5H 5S 5D 5C 7C 9H")) is not None
    # three runs pat: the same card three times needs three runs
    assert v.find_contract(7, P("3H 4H 5H 3H 4H 5H 3H 4H 5H")) is not None
    assert v.find_contract(7, P("3H 3H 3H 3H 4H 5H 6H 7H 8H 9H TH JH")) is None


# -- the lower bound the bots plan with ------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10**6), size=st.integers(1, 16),
       data=st.data())
def test_shortfalls_without_match_shortfall_of_the_hand_less_each_card(vid, seed, size, data):
    import random

    v = rk.get_variant(vid)
    if not v.spec.contracts:
        return
    round_no = data.draw(st.integers(1, len(v.spec.contracts)))
    pack = make_pack(*v.spec.pack_for(4))
    hand = random.Random(seed).sample(pack, size)
    solver, comps = v.solver(4), v.spec.contract(round_no)
    got = solver.shortfalls_without(hand, comps)
    assert set(got) == set(hand)
    for c in set(hand):
        rest = list(hand)
        rest.remove(c)
        assert got[c] == solver.shortfall(rest, comps), (rk.format_cards(hand), str(c))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), size=st.integers(6, 12))
def test_shortfall_is_zero_whenever_the_contract_can_be_met(case, seed, size):
    import random

    vid, round_no = case
    v = variant_of(vid)
    pack = make_pack(*v.spec.pack_for(4))
    pool = [c for c in pack if c.is_joker or (c.rank in (2, 3, 4, 5, 6, 7) and c.suit in (0, 2))]
    hand = random.Random(seed).sample(pool, size)
    if v.find_contract(round_no, hand) is not None:
        assert v.solver(4).shortfall(hand, v.spec.contract(round_no)) == 0, rk.format_cards(hand)


def test_shortfall_counts_cards_short_of_two_sets_of_three():
    v = rk.get_variant("contract")
    short = v.solver(4).shortfall
    assert short(P("7H 7S 9C 9D KS"), v.spec.contract(1)) == 2  # a 7 and a 9
    assert short(P("7H 7S 9C 9D JK KS"), v.spec.contract(1)) == 1  # the joker stands for one
    assert short(P("7H 7S 7C 9C 9D JK"), v.spec.contract(1)) == 0
    assert short(P("7H 2S 9C 4D KS"), v.spec.contract(1)) == 4


# -- every reading the rules allow (issue 13) ------------------------------------------


def test_tencard_a_2_may_be_natural_in_one_meld_and_wild_in_another():
    # 2C natural with 2H standing for 3C; 2D natural with 2S standing for 4D: the whole hand
    assert leftover("ten-card", 1, "2D 3D 2C 2H 2S 4C") == 0
    assert meets("ten-card", 1, "2C 2H 4C", "2D 3D 2S")


def test_progressive_deal12_five_runs_of_three_may_share_a_suit():
    hand = "3C 4C 5C 3C 4C 5C 8C 9C TC 8C 9C TC QC KC AC"
    assert leftover("progressive", 12, hand) == 0
    assert meets("progressive", 12, "3C 4C 5C", "3C 4C 5C", "8C 9C TC", "8C 9C TC", "QC KC AC")


def test_progressive_deal13_five_sets_of_three_two_of_one_rank():
    assert leftover("progressive", 13, "7C 7D 7H 7S 7C 7D 9C 9D 9H 4S 4D 4H KC KD KH") == 0


def test_progressive_deal12_four_runs_in_one_suit_and_a_wild_run():
    hand = "3H 4H 5H 3H 4H 5H 7H 8H 9H 7H 8H 9H JK JK 2C"
    assert leftover("progressive", 12, hand) == 0


def test_ten_card_three_decks_four_sets_of_one_rank_fit_the_bound():
    # 7-8 players: three decks, so twelve 7s exist; each set of 7s is its own meld
    v = rk.get_variant("ten-card")
    hand = "7C 7D 7H 7S 7C 7D 7H 7S 7C 7D 7H 7S"
    assert v.find_contract(2, P(hand), players=8) is not None
    assert leftover(v, 2, hand) is not None


def test_all_wild_melds_still_obey_the_wild_limit():
    # all-wild melds allowed, but at most one wild card in a meld (Shanghai, Powe's rules):
    # four jokers are no run
    v = rk.get_variant("shanghai-powe").with_options({"all_wild_melds": True})
    hand = P("JK JK JK JK 6C 6C 6H 9C QH TH")
    assert not v.is_valid_meld(P("JK JK JK JK"), players=3)
    got = v.find_contract(2, hand, players=3)
    assert got is None or v.meets_contract(2, got, hand=hand)
    # not more wild cards than natural ones (Combination Rummy): no run of jokers either
    v = rk.get_variant("combination").with_options({"all_wild_melds": True})
    hand = P("JK JK JK JK 8H 5S 9H TS TH 7S TH 9S 7H")
    got = v.find_contract(2, hand, players=3)
    assert got is not None and v.meets_contract(2, got, hand=hand)
    assert all(len([c for c in m if c.is_joker]) * 2 <= len(m) for m in got)


def test_find_contract_and_meets_contract_leave_no_garbage_cycles():
    """A solve is made at nearly every decision: its search must be freed when it returns,
    not left as a reference cycle (a closure that calls itself) for the garbage collector,
    whose passes then cost more than the searches."""
    import gc

    cases = [
        ("contract", 1, "7H 7S 7D 5H 5S 5D 9C JK 2H KD QS"),
        ("contract", 4, "3H 3S 3D 8C 8D 8S TC TH JK KD QS"),
        ("ten-card", 2, "3H 4H 5H 6H 7H 8S 8D 8C JK 2S QD"),  # at least: extra melds searched
        ("may-i", 3, "3C 4C 5C 6C 9D TD JD QD 2H 4D 5S"),
    ]
    for vid, round_no, hand in cases:  # the solver's own caches filled first
        rk.get_variant(vid).find_contract(round_no, P(hand))
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        found = 0
        for vid, round_no, hand in cases:
            v = rk.get_variant(vid)
            melds = v.find_contract(round_no, P(hand))
            found += melds is not None
            if melds is not None:
                assert v.meets_contract(round_no, melds)
        assert found == 4
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_shortfall_memos_hold_nothing_for_the_garbage_collector_to_scan():
    """The bots ask for shortfalls of thousands of hands; the solver remembers up to 100,000
    answers.  Kept under tuples of Cards (objects the collector tracks), every full
    collection walked them all and a hard bot's 0.2 s budget was overrun by a pause of
    0.18 s.  The memo must grow without adding objects the collector tracks."""
    import gc
    import random

    v = rk.get_variant("contract")
    solver, comps = v.solver(4), v.spec.contract(2)
    pack = make_pack(*v.spec.pack_for(4))
    rng = random.Random(7)
    solver.shortfall(rng.sample(pack, 11), comps)
    solver.shortfalls_without(rng.sample(pack, 11), comps)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(300):
        solver.shortfall(rng.sample(pack, 11), comps)
        solver.shortfalls_without(rng.sample(pack, 11), comps)
    gc.collect()
    assert len(gc.get_objects()) - before < 30


def test_an_at_least_contract_search_cut_short_still_gives_an_arrangement_that_meets_it(monkeypatch):
    """An at-least contract's search has no bound to prune it: a hand grown by a house rule's
    unlimited buys took 25 s.  Its steps are counted (solver.EXTRA_STEPS); cut short, the best
    arrangement found so far stands, and it meets the contract."""
    import rummykit.solver as solver_module

    v = rk.get_variant("seven-hand").with_options({"contract_count": "at_least"})
    hand = rk.parse_cards("AC AC 2C 3C 3C 4C 6C 7C 7C 7C TC JC JC QC KC 2D 3D 4D 4D 4D 5D 6D 7D 9D "
                          "9D TD JD JD QD QD KD AH 3H 5H 7H 8H 9H 9H 9H TH JH QH QH KH KH KH AS AS")
    for steps in (50, solver_module.EXTRA_STEPS):
        monkeypatch.setattr(solver_module, "EXTRA_STEPS", steps)
        s = v.solver(4, 2)
        comps = v.spec.contract(2)
        got = s.solve(comps, hand)
        assert got is not None
        assert s.meets(comps, [[rd] for rd in got]) is not None
