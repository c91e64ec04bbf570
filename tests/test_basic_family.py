"""Rules of basic, traditional, block and wrotham (RULES.md §3, §4, §4.2, §4.5, §4.6)."""

from fractions import Fraction

import pytest
from conftest import deal, hand, illegal, play
from helpers import count_restocks_until_round_ends, draw_and_discard_it, events, run_out_stock

import rummykit as rk
from rummykit.engine.flow import stalemate
from rummykit.engine.position import set_position

# seat 1 plays first (dealer 0).  Seat 1 can meld 7s, 9s and the clubs run.
TWO = ["2H 2S 5D 6D 8S 9C TS JS AC AD", "7H 7S 7D 3C 4C 5C 9H 9S 9D 6C"]
TWO_VALUE_SEAT0 = 2 + 2 + 5 + 6 + 8 + 9 + 10 + 10 + 1 + 1


# -- dealing and turn order -------------------------------------------------------------


@pytest.mark.parametrize("players,size", [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_basic_deal_2p_10_3_4p_7_5_6p_6(players, size):
    g = rk.new_game("basic", players=players, seed=players)
    assert [len(h) for h in g.hands] == [size] * players
    assert g.stock_size if hasattr(g, "stock_size") else True
    assert len(g.discard) == 1 and len(g.stock) == 52 - players * size - 1


def test_basic_two_players_non_dealer_plays_first():
    g = rk.new_game("basic", players=2, seed=5, dealer=0)
    assert g.current_player == 1
    g = rk.new_game("basic", players=4, seed=5, dealer=2)
    assert g.current_player == 3


def test_first_dealer_is_random_but_seeded():
    dealers = {rk.new_game("basic", players=4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert rk.new_game("basic", players=4, seed=9).dealer == rk.new_game("basic", players=4, seed=9).dealer


def test_deal_is_one_card_at_a_time_from_dealers_left():
    g = rk.new_game("basic", players=3, seed=0, dealer=1, deck="AH 2H 3H 4H 5H 6H")
    assert rk.format_cards(g.hands[2][:2]) == "AH 4H"
    assert rk.format_cards(g.hands[0][:2]) == "2H 5H"
    assert rk.format_cards(g.hands[1][:2]) == "3H 6H"


def test_deal_passes_to_the_left_each_round():
    g = rk.new_game("basic", players=3, seed=2, dealer=0)
    from helpers import draw_and_discard_it

    while g.round_no == 1:
        draw_and_discard_it(g)
    assert g.dealer == 1 and g.current == 2


# -- the turn ------------------------------------------------------------------------------


def test_basic_one_meld_per_turn():
    g = deal("basic", TWO, "8H", "KD")
    play(g, "draw", "meld 7H 7S 7D")
    illegal(g, "meld 9H 9S 9D", "only one meld a turn")


def test_basic_house_rule_several_melds_per_turn():
    g = deal("basic", TWO, "8H", "KD", options={"melds_per_turn": "any"})
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C")
    assert hand(g, 1) == "KD"


def test_basic_may_lay_off_before_own_first_meld():
    g = deal("basic", ["2H 2S 5D 6D 8S 9C TS JS AC 7C", TWO[1]], "8H", "KD QH")
    play(g, "draw", "meld 7H 7S 7D", "discard KD", "draw", "layoff 7C 1")
    assert g.view(0)["melds"][0] == ["7H", "7S", "7D", "7C"]


def test_basic_house_rule_lay_off_only_after_own_meld():
    g = deal("basic", ["2H 2S 5D 6D 8S 9C TS JS AC 7C", TWO[1]], "8H", "KD QH",
             options={"layoff_before_own_meld": False})
    play(g, "draw", "meld 7H 7S 7D", "discard KD", "draw")
    illegal(g, "layoff 7C 1", "meld of your own before laying off")


def test_basic_may_not_discard_the_card_taken_from_the_discard_pile():
    g = deal("basic", TWO, "8H", "KD")
    play(g, "take")
    illegal(g, "discard 8H", "took from the discard pile")
    assert "discard 8H" not in [rk.format_action(a) for a in g.legal_actions()]
    play(g, "discard 6C")


def test_basic_taken_card_may_be_discarded_on_a_later_turn():
    g = deal("basic", TWO, "8H", "KD QH")
    play(g, "take", "discard 6C", "draw", "discard KD", "draw", "discard 8H")


def test_basic_going_out_ends_the_round_winner_scores_others_hands():
    g = deal("basic", TWO, "8H", "KD", options={"melds_per_turn": "any"})
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard KD")
    assert g.history[0]["winner"] == 1
    assert g.scores == [0, TWO_VALUE_SEAT0]
    assert g.round_no == 2


def test_basic_going_out_by_melding_the_last_cards_needs_no_discard():
    g = deal("basic", TWO, "8H", "7C", options={"melds_per_turn": "any"})
    play(g, "draw", "meld 7H 7S 7D 7C", "meld 9H 9S 9D", "meld 3C 4C 5C 6C")
    assert g.history[0]["winner"] == 1


def test_basic_house_rule_must_discard_to_go_out():
    g = deal("basic", TWO, "8H", "7C", options={"melds_per_turn": "any", "go_out_without_discard": False})
    play(g, "draw", "meld 7H 7S 7D 7C", "meld 9H 9S 9D")
    illegal(g, "meld 3C 4C 5C 6C", "go out by discarding")
    play(g, "meld 4C 5C 6C", "discard 3C")
    assert g.history[0]["winner"] == 1


def test_basic_house_rule_going_rummy_doubles():
    g = deal("basic", TWO, "8H", "KD", options={"melds_per_turn": "any", "going_rummy": "double"})
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard KD")
    assert g.scores == [0, 2 * TWO_VALUE_SEAT0] and g.history[0]["rummy"]


def test_basic_house_rule_going_rummy_plus_ten():
    g = deal("basic", TWO, "8H", "KD", options={"melds_per_turn": "any", "going_rummy": "plus10"})
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard KD")
    assert g.scores == [0, TWO_VALUE_SEAT0 + 10]


def test_going_rummy_not_after_melding_on_an_earlier_turn():
    g = deal("basic", TWO, "8H", "KD QD JD", options={"melds_per_turn": "any", "going_rummy": "double"})
    play(g, "draw", "meld 7H 7S 7D", "discard KD", "draw", "discard QD", "draw",
         "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard JD")
    assert g.scores == [0, TWO_VALUE_SEAT0] and not g.history[0]["rummy"]


def test_basic_house_rule_ace_high_or_low_scores_15():
    v = rk.get_variant("basic").with_options({"ace_mode": "low_or_high", "card_values": {"A": 15}})
    assert v.is_valid_meld(rk.parse_cards("QH KH AH")) and v.is_valid_meld(rk.parse_cards("AH 2H 3H"))
    assert v.spec.card_values["A"] == 15 and v.spec.card_values["K"] == 10


def test_basic_plays_to_a_target_of_100_by_default():
    g = rk.new_game("basic", players=2, seed=3)
    assert g.spec.match_target(2) == 100 and g.deals is None


def test_basic_house_rule_a_number_of_deals():
    import random

    from rummykit.cli.simulate import play_random

    g = rk.new_game("basic", players=2, seed=3, options={"deals": 2, "target": 0})
    play_random(g, random.Random(1))
    assert len(g.history) == 2


def test_basic_house_rule_penalty_scoring_lowest_wins():
    g = deal("basic", TWO, "8H", "KD", options={"melds_per_turn": "any", "scoring": "penalty"})
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard KD")
    assert g.scores == [TWO_VALUE_SEAT0, 0]


# -- the stock -------------------------------------------------------------------------


def test_basic_stock_turned_over_without_shuffling():
    g = deal("basic", TWO, "8H")
    run_out_stock(g)
    first_discards = ["8H"] + [e["card"] for e in events(g, "discard")][:3]
    g.apply("draw")  # the pile becomes the stock: its oldest card on top
    assert events(g, "restock")
    drawn = g.hands[g.current][-1]
    assert str(drawn) == first_discards[0]
    assert g.view(0)["discard_top"] is None


def test_basic_house_rule_shuffle_before_reusing_the_stock():
    g = deal("basic", TWO, "8H", options={"stock_empty": "turn_over_shuffle"})
    run_out_stock(g)
    pile = list(g.discard)
    g.apply("draw")
    assert sorted([*g.stock, g.hands[g.current][-1]]) == sorted(pile)
    assert [*g.stock, g.hands[g.current][-1]] != pile[::-1]


def test_basic_round_ends_when_stock_runs_out_the_3rd_time_scored_as_block():
    g = deal("basic", TWO, "8H")
    assert count_restocks_until_round_ends(g) == 2
    r = g.history[0]
    assert r["ended_by"] == "block" and r["winner"] is None
    low = min(r["hand_values"])
    assert max(g.scores) == sum(v - low for v in r["hand_values"])


def test_basic_house_rule_no_limit_on_reusing_the_stock():
    g = deal("basic", TWO, "8H", options={"max_stock_reuses": None})
    for _ in range(300):
        draw_and_discard_it(g)
    assert g.round_no == 1 and g.stock_reuses > 3


# -- traditional ------------------------------------------------------------------------


@pytest.mark.parametrize("players,target", [(2, 100), (3, 150), (4, 200)])
def test_traditional_plays_to_100_150_200_for_2_3_4_players(players, target):
    assert rk.get_variant("traditional").spec.match_target(players) == target


def test_traditional_several_melds_per_turn_and_lay_off_any_time():
    g = deal("traditional", TWO, "8H", "KD")
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D")


def test_traditional_going_rummy_doubles_the_score():
    g = deal("traditional", TWO, "8H", "KD")
    play(g, "draw", "meld 7H 7S 7D", "meld 9H 9S 9D", "meld 3C 4C 5C 6C", "discard KD")
    assert g.scores == [0, 2 * TWO_VALUE_SEAT0]


def test_traditional_stock_shuffled_once_then_stalemate_the_second_time():
    g = deal("traditional", TWO, "8H")
    assert count_restocks_until_round_ends(g) == 1
    r = g.history[0]
    assert r["ended_by"] == "stalemate" and g.scores == [0, 0]
    assert "after being rebuilt once" in r["reason"]


def test_traditional_stalemate_detector_every_hand_one_card_nothing_fits():
    g = deal("traditional", TWO, "8H")
    from rummykit.melds import TableMeld

    rd = g.variant.meld_readings("7H 7S 7D")[0]
    set_position(g, hands=[rk.parse_cards("KC"), rk.parse_cards("QD")],
                 table=[TableMeld.from_reading(rd, 1, g.rules, True)],
                 stock=rk.parse_cards("2C 3C"), discard=rk.parse_cards("4C"))
    assert stalemate(g.state)
    set_position(g, stock=rk.parse_cards("2C 7C"))  # 7C could still be laid off
    assert not stalemate(g.state)
    set_position(g, stock=rk.parse_cards("2C 3C"),
                 hands=[rk.parse_cards("KC KD"), rk.parse_cards("QD")])  # two cards: a meld may come
    assert not stalemate(g.state)


def test_traditional_stalemate_declared_in_play():
    g = deal("traditional", ["KC 2H 3H 4H 5H 6H 7H 8H 9H TH", "QD 7C 7S 7D 8C 8S 8D 9C 9S 9D"], "JC")
    from rummykit.melds import TableMeld

    # a position one discard from a stalemate: every hand then holds one card
    rd = g.variant.meld_readings("7C 7S 7D")[0]
    set_position(g, hands=[rk.parse_cards("KC"), rk.parse_cards("QD 2S")],
                 table=[TableMeld.from_reading(rd, 0, g.rules, True)],
                 stock=rk.parse_cards("3S 4S 5S"), discard=rk.parse_cards("6S"), phase="play")
    g.apply("discard 2S")
    assert g.history[-1]["ended_by"] == "stalemate"


# -- block -----------------------------------------------------------------------------


SIX = ["AH AS 2H 2S 3H 3S", "AD AC 2D 2C 3D 3C", "4H 4S 4D 4C 5H 5S", "5D 5C 6H 6S 6D 6C",
       "7H 7S 7D 7C 8H 8S", "8D 8C 9H 9S 9D TC"]


def test_block_stock_never_reused_round_ends_when_it_runs_out():
    g = deal("block", TWO, "8H")
    assert count_restocks_until_round_ends(g) == 0
    assert g.history[0]["ended_by"] == "block"


def test_block_nobody_out_lowest_hand_scores_the_differences():
    hands = ["AH AS 2H 2S 3H 3S", "AD AC 2D 4C 3D 3C", "4H 4S 4D 2C 5H 5S", *SIX[3:]]
    g = deal("block", hands, "KS")
    count_restocks_until_round_ends(g)
    hv = g.history[0]["hand_values"]
    assert hv == [12, 14, 24, 34, 44, 53]
    assert g.scores == [sum(v - 12 for v in hv), 0, 0, 0, 0, 0]


def test_block_tie_for_lowest_shares_exactly():
    g = deal("block", SIX, "KS")
    count_restocks_until_round_ends(g)
    hv = g.history[0]["hand_values"]
    assert hv[0] == hv[1] == 12
    pot = sum(v - 12 for v in hv)
    assert pot % 2 == 1
    assert g.scores[:2] == [Fraction(pot, 2)] * 2
    assert g.view(0)["scores"][0] == f"{pot}/2"


# -- wrotham ---------------------------------------------------------------------------


def test_wrotham_pack_52_plus_3_jokers_six_deals():
    sp = rk.get_variant("wrotham").spec
    assert sp.pack_size(4) == 55 and sp.num_deals() == 6


def test_wrotham_starter_dealt_8_skips_the_first_draw():
    g = rk.new_game("wrotham", players=3, seed=4, dealer=0)
    assert [len(h) for h in g.hands] == [7, 8, 7]
    acts = [rk.format_action(a) for a in g.legal_actions()]
    assert "draw" not in acts and "take" not in acts
    assert any(a.startswith("discard") for a in acts)
    illegal(g, "draw", "already drawn")


def test_wrotham_jokers_wild_and_score_15():
    assert rk.get_variant("wrotham").spec.card_values["JK"] == 15
    assert rk.get_variant("wrotham").is_valid_meld(rk.parse_cards("5H JK 7H"))


def test_wrotham_any_player_swaps_a_run_joker_into_hand():
    g = deal("wrotham", ["6H 2C 3D 4S 8C 9D TS", "5H JK 7H QC QD KS KH"], "AS", "AD AC",
             starter_extra="JD")
    play(g, "meld 5H JK=6H 7H", "discard JD", "draw", "swap 6H 1")
    assert "JK" in g.view(0)["hand"]
    assert g.view(0)["melds"][0] == ["5H", "6H", "7H"]
    play(g, "discard 2C")  # the joker stays in hand


def test_wrotham_having_taken_a_joker_a_player_may_not_discard_another_leaving_the_pile_unchanged():
    """"If you began your turn by picking up the top card of the discard pile you are not
    allowed to end that turn by discarding the same card, leaving the pile unchanged - you
    must discard a different card" (seed 004): the three jokers are alike, so another
    joker is the same card to everyone at the table."""
    g = deal("wrotham", ["JK 2C 3D 4S 8C 9D TS", "5H 6H 7H QC QD KS KH"], "AS", "AD AC",
             starter_extra="JK")
    play(g, "discard JK", "take")  # seat 0 already held a joker, and takes the other
    assert g.view(0)["hand"].count("JK") == 2
    illegal(g, "discard JK", "took from the discard pile")
    assert "discard JK" not in [rk.format_action(a) for a in g.legal_actions()]
    play(g, "discard 2C")


def test_wrotham_a_joker_in_a_set_is_swapped_for_a_card_of_its_rank_the_set_lacks():
    """"A player who holds the card that a melded joker represents can, during her turn,
    exchange the real card for the joker" (seed 004): a set's joker as much as a run's.
    In 7H 7S JK the joker stands for 7D or 7C; in 7H 7S 7D JK for 7C alone."""
    g = deal("wrotham", ["7C 2C 3D 4S 8C 9D TS", "7H 7S JK QC QD KS KH"], "AS", "AD AC",
             starter_extra="JD")
    play(g, "meld 7H 7S JK=7", "discard JD", "draw")
    assert rk.Swap(rk.parse_card("7C"), 0) in g.legal_actions()
    play(g, "swap 7C 1")
    assert g.view(0)["melds"][0] == ["7H", "7S", "7C"] and "JK" in g.view(0)["hand"]
    assert g.view(0)["meld_info"][0]["kind"] == "set"
    four = deal("wrotham", ["7C 2D 3D 4S 8C 9D TS", "7H 7S 7D JK QD KS KH"], "AS", "AD AC",
                starter_extra="JD")
    play(four, "meld 7H 7S 7D JK=7", "discard JD", "draw")
    assert [a.text() for a in four.legal_actions() if isinstance(a, rk.Swap)] == ["swap 7C 1"]
    # where the rules keep a set's wilds dead (every other ruleset with swaps), they stay
    assert not rk.get_variant("contract").spec.swap_sets


def test_wrotham_deals_4_to_6_meld_only_the_whole_hand_at_once():
    assert rk.get_variant("wrotham").spec.whole_hand_meld_deals == [4, 5, 6]
    hands = ["2C 3D 4S 8C 9D TS JC", "5H 6H 7H QC QD QS 9S"]
    g = rk.new_game("wrotham", players=2, seed=0, dealer=0, first_round=4,
                    deck=_wrotham_stack(hands, "8H", "AS", "AD"))
    illegal(g, "meld 5H 6H 7H 8H", "whole hand")
    illegal(g, "layoff 9S 1", "before melding the whole hand")
    melds = [a for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert len(melds) == 1 and sorted(melds[0].cards()) == sorted(rk.parse_cards("5H 6H 7H 8H QC QD QS"))
    play(g, "meld 5H 6H 7H 8H / QC QD QS", "discard 9S")
    assert g.history[-1]["winner"] == 1 and g.history[-1]["round"] == 4


def test_wrotham_whole_hand_deals_no_lay_off_before_melding():
    g = deal("wrotham", ["6H 2C 3D 4S 8C 9D TS", "5H JK 7H QC QD KS KH"], "AS", "AD AC",
             starter_extra="JD", options={"whole_hand_meld_deals": [1]})
    illegal(g, "meld 5H JK=6H 7H", "whole hand")


def _wrotham_stack(hands, extra, upcard, stock):
    from conftest import stack

    return stack(hands, upcard, stock, starter_extra=extra)


# -- every round ends (RULES.md 4.5: max_turns) -----------------------------------------


def first_round_with_max_turns_20(vid: str) -> dict:
    """The first round's result of a 2-player game whose every move is the first legal one."""
    g = rk.new_game(vid, players=2, seed=1, options={"max_turns": 20})
    for _ in range(500):
        if g.history:
            break
        g.apply(g.legal_actions()[0])
    return g.history[0]


def test_every_round_ends_max_turns_ends_a_basic_round_nobody_out_scored_as_block():
    # two players passing cards back and forth through the discard pile would never end
    result = first_round_with_max_turns_20("basic")
    assert result["winner"] is None and result["ended_by"] == "block" and result["limit"] == "max_turns"
    assert "limit of 20 turns" in result["reason"]
    low = min(result["hand_values"])
    assert sum(result["points"]) == sum(v - low for v in result["hand_values"])


def test_every_round_ends_max_turns_ends_a_traditional_round_as_its_stalemate_nobody_scores():
    """RULES.md 4.5: scored as the ruleset scores a round nobody went out of; in traditional
    that is the stalemate, where nobody scores (it was scored as Block Rummy)."""
    result = first_round_with_max_turns_20("traditional")
    assert result["winner"] is None and result["ended_by"] == "stalemate" and result["limit"] == "max_turns"
    assert all(p == 0 for p in result["points"])


def test_every_round_ends_by_default_the_readme_first_move_loop_ends():
    assert rk.get_variant("basic").spec.max_turns == 1000
    g = rk.new_game("basic", players=2, seed=1)
    for _ in range(200_000):
        if g.is_over:
            break
        g.apply(g.legal_actions()[0])
    assert g.is_over and any(r["limit"] == "max_turns" for r in g.history)


def test_every_round_ends_max_turns_in_the_contract_family_everyone_takes_penalty():
    g = rk.new_game("contract", players=3, seed=2, options={"max_turns": 6})
    for _ in range(500):
        if g.history:
            break
        acts = g.legal_actions()
        g.apply(next((a for a in acts if rk.format_action(a) in ("draw", "pass")), acts[-1]))
    result = g.history[0]
    assert result["winner"] is None and result["limit"] == "max_turns"
    assert result["points"] == result["hand_values"]


def test_settlement_by_position_where_the_highest_score_wins_pays_the_winner():
    """A house rule's settlement by position ranks from the best score: in a ruleset where
    the highest total wins, the winner collects and the last pays most (it ranked from the
    lowest: the winner paid)."""
    g = rk.new_game("basic", players=3, seed=4, options={"settlement": "position", "deals": 1})
    rng = __import__("random").Random(4)
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    scores = list(g.scores)
    pay = g.state.settlement
    assert pay is not None and sum(pay) == g.state.kitty
    assert set(g.winners) == {s for s in range(3) if scores[s] == max(scores)}
    for w in g.winners:
        assert pay[w] > 0
    last = min(range(3), key=lambda s: scores[s])
    if scores[last] < max(scores):
        assert pay[last] == min(pay) < 0


def test_winner_takes_scoring_refuses_penalty_for_a_deal_nobody_went_out_of():
    with pytest.raises(rk.RulesError, match="nobody_out"):
        rk.get_variant("contract").with_options({"scoring": "winner_takes"})


def test_wrotham_7D_JK_JK_is_offered_as_a_set_of_sevens_and_as_a_run():
    """Two jokers beside a natural card read as a set or as a run; both are melds.  The run
    7D JK=8D JK=9D was never offered (the options were told apart by their cards alone)."""
    g = deal("wrotham", ["AS 2S 6C 8C 8D TH JH", "7D JK JK 4C KS 9H 3S", "2C 3C 5C 5D 6D 8S TS"],
             "KD", "QC", starter_extra="QH")
    texts = [a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert "meld 7D JK=7 JK=7" in texts and "meld 7D JK=8D JK=9D" in texts


def test_basic_house_rule_ace_high_or_low_makes_the_ace_score_15():
    """RULES.md 4.5: "ace high or low (ace then scores 15)": the switch alone brings the
    value (the browser's options set switches only); a value given beside it stays."""
    v = rk.get_variant("basic").with_options({"ace_mode": "low_or_high"})
    assert v.spec.card_values["A"] == 15 and v.values[rk.parse_card("AS")] == 15
    kept = rk.get_variant("basic").with_options({"ace_mode": "low_or_high", "card_values": {"A": 1}})
    assert kept.spec.card_values["A"] == 1
    assert rk.get_variant("basic").spec.card_values["A"] == 1


def test_basic_house_rule_no_limit_on_reusing_the_stock_is_written_none_in_a_rules_file(tmp_path):
    """TOML has no null: max_stock_reuses = "none" is no limit; false is refused (it was
    read as 0, Block Rummy's rule)."""
    p = tmp_path / "r.toml"
    p.write_text('extends = "basic"\nmax_stock_reuses = "none"\n')
    assert rk.load_variant(p).spec.max_stock_reuses is None
    p.write_text('extends = "basic"\nmax_stock_reuses = false\n')
    with pytest.raises(rk.RulesError, match="max_stock_reuses"):
        rk.load_variant(p)


def test_traditional_a_table_target_replaces_the_targets_by_player_count():
    """A house rule's target is the target: traditional's own 100/150/200 by player count
    gave way to nothing (the table's target was silently unused)."""
    v = rk.get_variant("traditional").with_options({"target": 60})
    assert [v.spec.match_target(n) for n in (2, 3, 4)] == [60, 60, 60]
    assert rk.get_variant("traditional").spec.match_target(3) == 150


def test_basic_family_penalty_scoring_house_rule_plays_to_100():
    """RULES.md 4.6: "penalty scoring to 100 (losers score their hands, game ends when
    someone reaches 100, lowest wins)": the switch alone brings the 100, in traditional too
    (whose 150 and 200 are for its own scoring); a target given beside it stays."""
    for vid in ("basic", "traditional"):
        sp = rk.get_variant(vid).with_options({"scoring": "penalty"}).spec
        assert sp.scoring == "penalty" and [sp.match_target(n) for n in (2, 3, 4)] == [100, 100, 100]
    kept = rk.get_variant("traditional").with_options({"scoring": "penalty", "target": 50}).spec
    assert kept.match_target(3) == 50
