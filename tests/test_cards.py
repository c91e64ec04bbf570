"""RULES.md §1: cards, notation and packs."""

import pytest

import rummykit as rk
from rummykit.cards import JOKER

P = rk.parse_cards


def test_card_notation_rank_then_suit():
    assert rk.format_cards(P("AH 2C TD JS QH KD")) == "AH 2C TD JS QH KD"


def test_ten_accepted_as_10_and_suit_symbols_in_either_case():
    assert P("10h T♥ 10♠ th") == P("TH TH TS TH")


def test_joker_written_jk_or_star():
    assert P("JK * jk") == [JOKER, JOKER, JOKER]


def test_commas_separate_cards_too():
    assert P("3H,4H, 5H") == P("3H 4H 5H")


@pytest.mark.parametrize("bad", ["1H", "7X", "11S", "H7", "QQ", "7"])
def test_bad_card_string_raises_valueerror_naming_the_token(bad):
    with pytest.raises(ValueError, match=repr(bad)):
        P(f"3H {bad} 4H")


def test_format_parse_round_trip():
    text = "AC 2D 3H 4S 5C 6D 7H 8S 9C TD JH QS KC JK"
    assert rk.format_cards(P(text)) == text


def test_card_rank_and_suit():
    c = rk.parse_card("QD")
    assert (c.rank, c.suit, c.is_joker) == (12, 1, False)
    assert JOKER.rank == 0 and JOKER.is_joker


@pytest.mark.parametrize(
    "variant,players,size",
    [
        ("basic", 2, 52),
        ("wrotham", 4, 55),
        ("contract", 3, 106),
        ("contract", 4, 107),
        ("contract", 5, 108),
        ("liverpool", 4, 107),
        ("denexa", 5, 108),
        ("may-i", 3, 108),
        ("may-i", 5, 162),
        ("may-i", 8, 216),
        ("shanghai", 4, 108),
        ("ten-card", 6, 108),
        ("ten-card", 7, 162),
        ("combination", 4, 108),
        ("combination", 6, 162),
        ("combination", 8, 216),
        ("seven-hand", 8, 216),
    ],
)
def test_pack_size_per_ruleset_and_player_count(variant, players, size):
    assert rk.get_variant(variant).spec.pack_size(players) == size
    g = rk.new_game(variant, players=players, seed=1)
    assert g.pack_size == size


def test_several_decks_give_identical_faces():
    g = rk.new_game("contract", players=4, seed=3)
    from collections import Counter

    from conftest import all_cards

    counts = Counter(all_cards(g))
    assert counts[rk.parse_card("7H")] == 2
    assert counts[JOKER] == 3
