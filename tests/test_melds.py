"""RULES.md §2: sets, runs, pairs, ace modes, wild cards and their limits."""

import pytest

import rummykit as rk

P = rk.parse_cards


def valid(variant: str, cards: str, players: int | None = None) -> bool:
    return rk.get_variant(variant).is_valid_meld(P(cards), players=players)


# -- sets ---------------------------------------------------------------------------


def test_set_is_three_or_four_of_a_rank_with_one_deck():
    assert valid("basic", "7H 7S 7D")
    assert valid("basic", "7H 7S 7D 7C")
    assert not valid("basic", "7H 7S")
    assert not valid("basic", "7H 7S 8D")


def test_one_deck_set_holds_at_most_four_cards_wilds_included():
    assert valid("wrotham", "7H 7S 7D JK")
    assert not valid("wrotham", "7H 7S 7D 7C JK")


def test_several_decks_identical_cards_may_sit_in_one_set_no_upper_bound():
    assert valid("contract", "7H 7H 7S")
    assert valid("contract", "7H 7H 7S 7S 7D 7D 7C 7C JK")


# -- runs and ace modes ---------------------------------------------------------------


def test_run_is_consecutive_ranks_of_one_suit():
    assert valid("basic", "4H 5H 6H")
    assert valid("basic", "6H 4H 5H")  # in any order
    assert not valid("basic", "4H 5H 6S")
    assert not valid("basic", "4H 5H 7H")


def test_basic_run_min_three_contract_run_min_four():
    assert valid("basic", "4H 5H 6H")
    assert not valid("contract", "4H 5H 6H")
    assert valid("contract", "4H 5H 6H 7H")


def test_ace_low_basic_a23_only():
    assert valid("basic", "AH 2H 3H")
    assert not valid("basic", "QH KH AH")


def test_ace_low_or_high_contract_never_wraps():
    assert valid("contract", "AH 2H 3H 4H")
    assert valid("contract", "JH QH KH AH")
    assert not valid("contract", "QH KH AH 2H")


def test_ace_low_or_high_14_card_run_a_to_a_with_two_decks():
    assert valid("contract", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")


def test_ace_high_only_shanghai():
    assert valid("shanghai", "JH QH KH AH")
    assert not valid("shanghai", "AH 2H 3H 4H")


def test_ace_wrap_ten_card_goes_over_the_top():
    assert valid("ten-card", "QS KS AS")
    assert valid("ten-card", "KS AS JK 3S 4S")  # the joker stands for 2S
    assert valid("ten-card", "QS KS AS 2S 3S")


def test_wrap_run_never_holds_a_rank_twice():
    thirteen = "AS 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    assert valid("ten-card", thirteen + " 2S")
    assert not valid("ten-card", thirteen + " 2S AS")


def test_basic_house_rule_round_the_corner_runs():
    v = rk.get_variant("basic").with_options({"ace_mode": "wrap"})
    assert v.is_valid_meld(P("KH AH 2H"))


# -- wild cards ----------------------------------------------------------------------


def test_joker_stands_in_a_run_or_a_set():
    assert valid("contract", "3H 4H JK 6H")
    assert valid("contract", "9C 9D JK")


def test_every_meld_needs_a_natural_card():
    assert not valid("contract", "JK JK JK")
    assert not valid("contract", "JK JK JK JK")


def test_progressive_any_number_of_wilds_all_wild_meld_legal():
    assert valid("progressive", "JK JK 2C")
    assert valid("progressive", "5H JK 2D JK")


def test_progressive_twos_are_wild():
    assert valid("progressive", "9H 2C 2D")
    assert valid("progressive", "9H 2C JH")


def test_shanghai_at_most_one_wild_per_meld():
    assert valid("shanghai", "7H 7S JK")
    assert not valid("shanghai", "7H JK JK")
    assert not valid("shanghai", "7H 8H JK JK")
    assert valid("shanghai", "7H 8H JK TH")


def test_ten_card_never_more_wilds_than_naturals():
    assert valid("ten-card", "7H 7S JK")
    assert not valid("ten-card", "7H JK 2C")
    assert valid("ten-card", "7H 7S JK 2C")


def test_natural_two_in_its_run_place_counts_as_natural():
    # 2H is wild in ten-card, but in A-2-3 of hearts it is the natural 2H
    assert valid("ten-card", "AH 2H JK")  # naturals AH 2H, one wild
    assert not valid("ten-card", "AH 2C JK")  # 2C is not at its place: two wilds, one natural


def test_wild_two_standing_for_itself_in_a_set_is_natural():
    assert valid("ten-card", "2H 2S 2D")
    assert valid("progressive", "2H 2S 2D")


def test_combination_twos_are_natural_only_jokers_wild():
    assert valid("combination", "2H 2S 2D")
    assert not valid("combination", "7H 7S 2D")
    assert valid("combination", "7H 7S JK")


def test_combination_deuces_wild_option():
    v = rk.get_variant("combination").with_options({"twos_wild": True})
    assert v.is_valid_meld(P("7H 7S 2D"))


def test_wrotham_jokers_wild_basic_has_no_wilds():
    assert valid("wrotham", "7H 7S JK")
    assert valid("wrotham", "7H JK 9H")


def test_ambiguous_wild_meld_lists_every_reading():
    v = rk.get_variant("wrotham")
    kinds = sorted(rd.describe() for rd in v.meld_readings(P("7H JK JK")))
    assert kinds == ["run 5H..7H", "run 6H..8H", "run 7H..9H", "set of 7s"]


def test_is_valid_meld_accepts_text():
    assert rk.get_variant("contract").is_valid_meld("3H 4H 5H 6H")


@pytest.mark.parametrize("cards", ["QH KH AH JK", "JK QH KH AH"])
def test_joker_may_extend_a_run_at_either_end(cards):
    assert valid("contract", cards)


def test_wrap_run_of_twelve_takes_the_missing_rank_at_either_end_as_one_choice():
    from rummykit.melds import TableMeld

    v = rk.get_variant("ten-card")
    rules = v.meld_rules(5)
    rd = next(r for r in v.meld_readings("KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS") if r.lo == 13)
    m = TableMeld.from_reading(rd, 0, rules, True)
    assert m.layoff_meanings(P("QS")[0], rules) == [None]
    assert len(m.layoff_meanings(P("JK")[0], rules)) == 1


def test_a_swappable_set_joker_stands_for_each_suit_the_set_lacks():
    from rummykit.melds import MeldRules, TableMeld

    m = TableMeld("set", P("7H 7H 2S JK"), owner=0, rank=7)
    m.wilds = 2
    rules = MeldRules(twos_wild=True, swap_sets=True)
    assert {str(c): i for c, i in m.swappable(rules).items()} == {"7C": 2, "7D": 2, "7S": 2}
    assert m.swappable(MeldRules(twos_wild=True)) == {}  # wilds in sets dead: no swap


def test_a_run_written_out_of_order_with_each_wilds_meaning_given_is_read_in_table_order():
    """``meld 5H 6H JK=4H`` says where the joker goes: read as JK 5H 6H, as ``meld JK=4H 5H
    6H`` is.  A wild with no meaning is still placed by the written order."""
    from rummykit.engine.actions import parse_action
    from rummykit.melds import reading_from_items

    rules = rk.get_variant("wrotham").meld_rules(2)
    for text in ("meld 5H 6H JK=4H", "meld 5H JK=4H 6H", "meld JK=4H 5H 6H"):
        got = reading_from_items(parse_action(text).melds[0], rules)
        assert [(rd.kind, [str(c) for c in rd.cards], rd.lo) for rd in got] == [
            ("run", ["JK", "5H", "6H"], 4)]
    assert reading_from_items(parse_action("meld 5H 6H JK=9H").melds[0], rules) == []
    assert [str(c) for c in reading_from_items(parse_action("meld 5H JK 7H").melds[0], rules)[0].cards] == [
        "5H", "JK", "7H"]
