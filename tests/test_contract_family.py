"""Rules of contract, liverpool, may-i, denexa and combination (RULES.md §4.1-4.6)."""
import pytest
from conftest import deal, hand, illegal, play  # noqa: F401
from helpers import count_restocks_until_round_ends, draw_and_discard_it, events, run_out_stock

import rummykit as rk
from rummykit.engine.position import set_hand, set_position

# contract, 3 players, dealer 0: seat 1 plays first, then seat 2, then seat 0
S0 = "AH AS 2H 2S 6C 8C 8D TH JH QH"
S1 = "7H 7S 7D 9C 9D 9S 3H 4H 5H KC"
S2 = "2C 3C 4C 5D 6D 8S TS JS QD KD"
S0_VALUE = 15 + 15 + 2 + 2 + 6 + 8 + 8 + 10 + 10 + 10


def three(variant="contract", stock="6H 7C 9H 5S 4S 3S", upcard="KS", **kw):
    return deal(variant, [S0, S1, S2], upcard, stock, **kw)


def test_contract_pack_two_decks_and_players_minus_one_jokers():
    for n, jokers in ((3, 2), (4, 3), (5, 4)):
        assert rk.get_variant("contract").spec.pack_for(n) == (2, jokers)


def test_contract_deal_10_cards_in_deals_1_to_3_and_12_in_4_to_7():
    sp = rk.get_variant("contract").spec
    assert [sp.cards_dealt(r, 4) for r in range(1, 8)] == [10, 10, 10, 12, 12, 12, 12]
    assert [len(h) for h in rk.new_game("contract", players=4, seed=1, first_round=4).hands] == [12] * 4


def test_contract_seven_deals_lowest_total_wins():
    import random

    from rummykit.cli.simulate import play_random

    g = rk.new_game("contract", players=3, seed=11)
    play_random(g, random.Random(2))
    assert len(g.history) == 7 and g.is_over
    assert g.winners == [s for s in range(3) if g.scores[s] == min(g.scores)]


def test_contract_no_jokers_option():
    g = rk.new_game("contract", players=4, seed=1,
                    options={"pack": [{"players": [3, 5], "decks": 2, "jokers": 0}]})
    assert g.pack_size == 104


# -- the initial meld ------------------------------------------------------------------


def test_contract_must_meet_the_contract_before_laying_off():
    g = three()
    play(g, "draw", "pass", "pass")
    msg = illegal(g, "layoff 6H 1")
    assert msg == "You must meet the contract — two sets of three — before laying off"


def test_contract_initial_meld_is_exactly_the_contract():
    g = three(stock="7C")
    play(g, "draw", "pass", "pass")
    illegal(g, "meld 7H 7S 7D 7C", "two sets of three")
    illegal(g, "meld 7H 7S 7D 7C / 9C 9D 9S", "exactly that size")
    illegal(g, "meld 3H 4H 5H", "two sets of three")
    play(g, "meld 7H 7S 7D / 9C 9D 9S")
    assert g.down[1] and g.view(0)["melds"] == [["7H", "7S", "7D"], ["9C", "9D", "9S"]]


def test_contract_is_laid_meld_by_meld_each_meld_public_the_seat_down_at_the_last():
    """Going down in steps: 7H 7S 7D goes on the table at once, in every seat's view, the
    seat not yet down; 9C 9D 9S completes the contract."""
    g = three(stock="7C")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D")
    assert not g.down[1] and g.view(0)["melds"] == [["7H", "7S", "7D"]]
    assert g.view(None)["meld_info"][0]["owner"] == 1
    assert "laid #1 7H 7S 7D (set of 7s) toward the contract" in g.log[-1]["text"]
    play(g, "meld 9C 9D 9S")
    assert g.down[1] and g.view(2)["melds"] == [["7H", "7S", "7D"], ["9C", "9D", "9S"]]
    assert "laid #2 9C 9D 9S (set of 9s) and met the contract" in g.log[-1]["text"]


def test_contract_part_laid_only_the_rest_of_the_contract_may_follow():
    """With 7H 7S 7D down, the seat lays the rest before anything else: the listed moves are
    the sets of three the hand still makes (9C 9D 9S), and a discard is refused."""
    g = three(stock="7C")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D")
    assert [a.text() for a in g.legal_actions()] == ["meld 9C 9D 9S"]
    illegal(g, "discard KC", "Finish laying down your contract")
    illegal(g, "meld 3H 4H 5H", "rest of the contract asks for")


def test_contract_a_meld_after_which_the_rest_cannot_be_made_is_refused():
    """Deal 2, a set and a run of four: 8H 8C 8D would take the 8H the run 5H-8H needs
    (the hand holds no other run), so it is not listed and is refused; 8C 8D 8S is listed."""
    g = deal("contract", [S0, "5H 6H 7H 8H 8C 8D 8S 2S 9S KC", S2], "KS", "4D", first_round=2)
    play(g, "draw", "pass", "pass")
    listed = [a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert sorted(listed) == ["meld 5H 6H 7H 8H", "meld 8C 8D 8S"]
    illegal(g, "meld 8H 8C 8D", "could not be made from the cards left")
    play(g, "meld 8C 8D 8S", "meld 5H 6H 7H 8H")
    assert g.down[1]


def test_contract_meld_holding_the_whole_contract_is_its_steps_at_once():
    """``meld A / B`` (and the records made before steps) lays the contract as one action:
    the same melds, one line in the log as before."""
    g = three(stock="7C")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")
    steps = three(stock="7C")
    play(steps, "draw", "pass", "pass", "meld 7H 7S 7D", "meld 9C 9D 9S")
    assert g.view(0)["melds"] == steps.view(0)["melds"] and g.down == steps.down
    assert g.log[-1]["text"] == ("Seat 1 met the contract with #1 7H 7S 7D (set of 7s); "
                                 "#2 9C 9D 9S (set of 9s)")


def test_contract_no_lay_off_on_the_turn_of_the_contract():
    g = three(stock="9H")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")
    illegal(g, "layoff 9H 2", "turn you meet the contract")


def test_contract_lay_off_on_a_later_turn_on_any_meld():
    g = three(stock="9H 2D 3D 6H")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "layoff 9H 2")
    assert g.view(2)["melds"][1] == ["9C", "9D", "9S", "9H"]


def test_contract_no_new_melds_after_the_contract():
    g = three(stock="9H 2D 3D 6H")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")
    illegal(g, "meld 3H 4H 5H 6H", "only lay off")


def test_contract_going_out_by_discarding_the_last_card_others_score_penalty():
    g = deal("contract", [S0, "7H 7S 7D 9C 9D 9S JK 4D 5H KC", S2], "KS", "9H 2D 3D 7C 6D 5D 9H")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard KC")  # drew 9H
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "layoff 9H 2", "layoff 7C 1", "layoff JK=7 1", "discard 4D")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "layoff 9H 2")
    assert hand(g, 1) == "5H"
    play(g, "discard 5H")
    r = g.history[0]
    assert r["winner"] == 1 and r["ended_by"] == "out"
    assert g.scores == [S0_VALUE, 0, 2 + 3 + 4 + 5 + 6 + 8 + 10 + 10 + 10 + 10]


def test_contract_round7_meld_the_whole_hand_with_no_discard():
    hands = ["2C 3C 4C 5D 6D 8S TS JS QD KD 2D 3D", "AH 2H 3H 4H 5C 6C 7C 8C 9S TS JS QS",
             "AS 2S 6H 6C 8C 8D TH JH QH 4D 5S 7S"]
    g = deal("contract", hands, "KC", "KS 7H", first_round=7)
    play(g, "draw", "pass", "pass")
    illegal(g, "meld AH 2H 3H 4H / 5C 6C 7C 8C / 9S TS JS QS", "must use every card")
    play(g, "meld AH 2H 3H 4H / 5C 6C 7C 8C / 9S TS JS QS KS")
    r = g.history[-1]
    assert r["winner"] == 1 and r["round"] == 7 and g.is_over


def test_contract_round7_no_going_out_by_discarding():
    g = rk.new_game("contract", players=3, seed=3, first_round=7)
    assert not any(g.down)  # nobody can be down with cards left, so nobody discards out


# -- May I ---------------------------------------------------------------------------------


def test_may_i_window_opens_when_the_player_to_draw_declines_the_discard():
    g = three()
    play(g, "draw")
    assert g.phase == "may_i" and g.current_player == 2
    assert [rk.format_action(a) for a in g.legal_actions()] == ["buy", "pass"]
    assert g.view(2)["phase"] == "may_i" and g.view(2)["current_player"] == 2


def test_may_i_priority_nearest_in_turn_order_after_the_player_to_draw():
    g = three()
    play(g, "draw", "pass")
    assert g.current_player == 0


def test_may_i_taker_takes_the_discard_and_one_penalty_card_then_play_resumes():
    g = three(stock="6H 7C")
    play(g, "draw", "buy")
    assert len(g.hands[2]) == 12 and "KS" in g.view(2)["hand"] and "6H" in g.view(2)["hand"]
    assert g.phase == "play" and g.current_player == 1
    assert "7C" in g.view(1)["hand"] and len(g.hands[1]) == 11


def test_may_i_player_to_draw_takes_the_discard_without_penalty():
    g = three()
    play(g, "take")
    assert g.phase == "play" and len(g.hands[1]) == 11 and len(g.hands[2]) == 10


def test_may_i_next_card_under_may_be_taken_by_another_player():
    g = three(stock="6H 7C 9H 5S 4S 3S 2D 3D")
    play(g, "draw", "pass", "pass", "discard KC")  # seat 1 discards KC on KS
    play(g, "draw", "pass", "discard KD")  # seat 2 discards KD
    play(g, "draw")  # seat 0 declines KD: seat 1 is asked first
    assert g.current_player == 1
    play(g, "buy")  # seat 1 takes KD; KC is exposed
    assert g.current_player == 2 and g.view(2)["discard_top"] == "KC"
    play(g, "buy")  # seat 2 takes KC; KS is exposed and seat 1 may take it (not successive)
    assert g.current_player == 1 and g.view(1)["discard_top"] == "KS"


def test_may_i_same_player_may_not_take_two_successive_cards():
    g = three(stock="6H 7C 9H 5S 4S 3S 2D 3D")
    play(g, "draw", "pass", "pass", "discard KC")
    play(g, "draw", "pass", "discard KD")
    play(g, "draw", "buy")  # seat 1 takes KD
    assert g.current_player == 2
    play(g, "pass")  # seat 1 may not take KC next: the window closes and seat 0 draws
    assert g.phase == "play" and g.current_player == 0


def test_may_i_nobody_may_buy_back_their_own_discard():
    g = three(stock="6H 7C 9H 5S 4S 3S")
    play(g, "draw", "pass", "pass", "discard KC")  # seat 1 discards KC
    play(g, "draw")  # seat 2 declines KC: seat 0 is asked, never seat 1
    assert g.phase == "may_i" and g.current_player == 0 and g.view(0)["turn_state"]["queue"] == [0]
    play(g, "pass")
    assert g.phase == "play" and g.current_player == 2 and g.view(2)["discard_top"] == "KC"


def test_may_i_a_player_who_is_down_may_still_call_may_i():
    g = three(stock="6H 7C 9H 5S 4S 3S")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard KC")  # seat 1 is down
    play(g, "draw", "pass", "discard KD")  # seat 2 (seat 0 passed on KC)
    play(g, "draw")  # seat 0 declines KD: seat 1, down, is asked (seat 2 discarded it)
    assert g.down[1] and g.current_player == 1 and g.view(1)["turn_state"]["queue"] == [1]
    assert [rk.format_action(a) for a in g.legal_actions()] == ["buy", "pass"]
    play(g, "buy")
    assert "KD" in g.view(1)["hand"]


def test_may_i_no_limit_per_round_in_contract():
    assert rk.get_variant("contract").spec.buying.limit is None


def test_buy_outside_a_window_is_refused():
    g = three()
    illegal(g, "buy", "Nobody is being offered")


# -- jokers --------------------------------------------------------------------------------


R2 = ["2C 3C 4C 5D 6D 8S TS JS QD KD", "7H 7S 7D 3H 4H JK 6H 9C 9D KC", "AS 2S 6C 8C 8D TH JH QH AD 4D"]


def test_contract_swap_after_contract_on_a_previous_turn_joker_laid_off_same_turn():
    g = deal("contract", R2, "KS", "QC 2D 3D 5H", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "swap 5H 2")
    assert g.view(1)["melds"][1] == ["3H", "4H", "5H", "6H"] and "JK" in g.view(1)["hand"]
    assert g.view(1)["must_place"] == ["JK"]
    illegal(g, "discard QC", "You must play the JK you took from a meld on the table")
    play(g, "layoff JK=7 1", "discard QC")


class _Watched(list):
    """A list that counts the times it is written to (the engine reads it only)."""

    writes = 0

    def __setitem__(self, i, v):
        type(self).writes += 1
        super().__setitem__(i, v)

    def append(self, v):
        type(self).writes += 1
        super().append(v)

    def remove(self, v):
        type(self).writes += 1
        super().remove(v)


@pytest.mark.skipif(rk._compiled.compiled(), reason="compiled code writes a list past its methods")
def test_contract_listing_a_swap_leaves_the_table_and_the_hand_untouched():
    """Whether a swapped joker could be laid off is judged on copies: before, the JK of meld 2
    was swapped for 5H in the live meld and the hand and put back, and a bot thinking on
    another thread could read the table half-changed."""
    g = deal("contract", R2, "KS", "QC 2D 3D 5H", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")
    _Watched.writes = 0
    g.table[1].cards = _Watched(g.table[1].cards)
    g.state.hands[1] = _Watched(g.hands[1])
    g.state.legal = None
    assert "swap 5H 2" in [a.text() for a in g.legal_actions()]
    assert _Watched.writes == 0


def test_contract_no_swap_on_the_turn_of_the_contract():
    g = deal("contract", ["2C 3C 4C 5D 6D 8S TS JS QD KD", "7H 7S 7D 3H 4H JK 6H 5H 9D KC",
                          "AS 2S 6C 8C 8D TH JH QH AD 4D"], "KS", "QC", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H")
    illegal(g, "swap 5H 2", "turn after the one you met the contract")


def test_contract_swap_needs_own_contract():
    g = deal("contract", R2, "KS", "QC 5H 3D", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    play(g, "draw", "pass")  # seat 2 draws 5H
    illegal(g, "swap 5H 2", "meet the contract before swapping")


def test_contract_jokers_in_sets_are_dead():
    g = deal("contract", ["2C 3C 4C 5D 6D 8S TS JS QD KD", "7H 7S JK 3H 4H 5H 6H 9C 9D KC",
                          "AS 2S 6C 8C 8D TH JH QH AD 4D"], "KS", "QC 2D 3D 7D", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S JK=7 / 3H 4H 5H 6H", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")
    illegal(g, "swap 7D 1", "dead")


def test_ambiguous_joker_lay_off_asks_which_end():
    g = deal("contract", R2, "KS", "QC 2D 3D JK", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")
    illegal(g, "layoff JK 2", "Say which end")
    play(g, "layoff JK=7H 2")
    assert g.view(0)["meld_info"][1]["stands_for"] == ["3H", "4H", "5H", "6H", "7H"]


def test_two_melds_never_merge_even_when_contiguous():
    g = deal("contract", ["2C 3C 4C 5D 6D 8S TS JS QD KD", "3H 4H 5H 6H 8H 9H TH JH 9D KC",
                          "AS 2S 6C 8C 8D TC JC QH AD 4D"], "KS", "QC 2D 3D 7H", first_round=3)
    play(g, "draw", "pass", "pass", "meld 3H 4H 5H 6H / 8H 9H TH JH", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "layoff 7H 1")
    assert len(g.table) == 2 and g.view(0)["melds"][0] == ["3H", "4H", "5H", "6H", "7H"]


# -- the stock -------------------------------------------------------------------------


def test_contract_stock_rebuilt_from_all_discards_but_the_top_one():
    g = three()
    run_out_stock(g)
    top, size = g.view(0)["discard_top"], g.view(0)["discard_size"]
    g.apply("draw")
    while g.phase == "may_i":
        g.apply("pass")
    assert events(g, "restock") and g.view(0)["discard_top"] == top
    assert g.view(0)["discard_size"] == 1 and g.view(0)["stock_size"] == size - 2


def test_contract_stock_rebuilt_at_most_max_stock_reuses_times_then_everyone_scores():
    assert rk.get_variant("contract").spec.max_stock_reuses == 10
    g = three(options={"max_stock_reuses": 1})
    assert count_restocks_until_round_ends(g) == 1
    r = g.history[0]
    assert r["ended_by"] == "penalty" and "limit" in r["reason"]
    assert g.scores[0] == S0_VALUE and g.scores == r["hand_values"]


def test_contract_stock_and_discard_pile_both_empty_round_ends_everyone_scores():
    g = three()
    set_position(g, stock=[], discard=g.discard[-1:])
    g.apply("draw")
    while g.phase == "may_i":
        g.apply("pass")
    r = g.history[0]
    assert r["winner"] is None and "discard pile ran out" in r["reason"]
    assert g.scores == r["hand_values"]


def test_contract_card_values():
    v = rk.get_variant("contract").spec.card_values
    assert (v["A"], v["JK"], v["K"], v["T"], v["9"], v["2"]) == (15, 15, 10, 10, 9, 2)


# -- liverpool -------------------------------------------------------------------------


def test_liverpool_player_on_dealers_right_cuts_before_each_deal():
    g = rk.new_game("liverpool", players=4, seed=1, dealer=1)
    assert g.phase == "cut" and g.current_player == 0
    assert g.legal_actions() == [rk.Cut()]
    illegal(g, "draw", "cut the pack first")
    g.apply("cut")
    assert g.phase == "draw" and g.current_player == 2 and [len(h) for h in g.hands] == [10] * 4


def test_liverpool_exact_cut_takes_50_off():
    hits = []
    for seed in range(400):
        g = rk.new_game("liverpool", players=4, seed=seed, dealer=0)
        g.apply("cut")
        ev = events(g, "cut")[0]
        assert (ev["bonus"], ev["needed"]) == (ev["size"] == 41, 41)
        assert 107 // 4 <= ev["size"] <= 3 * 107 // 4
        if ev["bonus"]:
            hits.append(seed)
            assert g.scores[3] == -50 and g.scores[:3] == [0, 0, 0]
        else:
            assert g.scores == [0, 0, 0, 0]
    assert hits, "no exact cut in 400 seeded deals"


# -- may-i -----------------------------------------------------------------------------


def test_may_i_larger_contract_melds_in_play():
    g = deal("may-i", [S0, "7H 7S 7D 9C 9D 9S 3H 4H 5H KC", S2], "KS", "7C")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D 7C / 9C 9D 9S")


def test_may_i_melded_jokers_cannot_be_reused():
    assert rk.get_variant("may-i").spec.swap == "none"


def test_may_i_round7_is_an_ordinary_round_and_joker_scores_25():
    sp = rk.get_variant("may-i").spec
    assert sp.whole_hand_rounds == [] and sp.card_values["JK"] == 25


def test_may_i_one_54_card_deck_per_two_players():
    assert rk.get_variant("may-i").spec.pack_for(5) == (3, 6)


# -- denexa ----------------------------------------------------------------------------


def test_denexa_new_melds_after_the_contract_on_later_turns():
    g = deal("denexa", [S0, "7H 7S 7D 9C 9D 9S 3H 4H 5H KC", S2], "KS", "6H 2D 3D 8H")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")
    illegal(g, "meld 3H 4H 5H 6H", "later turn")
    play(g, "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "meld 3H 4H 5H 6H")


def test_denexa_swapped_joker_must_go_into_a_new_meld_the_same_turn():
    g = deal("denexa", R2, "KS", "QC 2D 3D 5H QS QD", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")  # 5H
    # seat 1 holds QC and 9C 9D: the joker can make 9C 9D JK
    play(g, "swap 5H 2")
    illegal(g, "discard QC", "into a new meld")
    play(g, "layoff JK=7 1")
    illegal(g, "discard QC", "into a new meld")
    g2 = deal("denexa", R2, "KS", "QC 2D 3D 5H QS QD", first_round=2)
    play(g2, "draw", "pass", "pass", "meld 7H 7S 7D / 3H 4H JK=5H 6H", "discard KC")
    draw_and_discard_it(g2)
    draw_and_discard_it(g2)
    play(g2, "draw", "pass", "swap 5H 2", "meld 9C 9D JK=9", "discard QC")


def test_denexa_round7_whole_hand():
    assert rk.get_variant("denexa").spec.whole_hand_rounds == [7]


# -- combination ----------------------------------------------------------------------


C1 = "7H 7S 7D 9C 9D 9S 3H 4H 5H KC"


def test_combination_3_to_8_players_with_2_to_4_packs():
    sp = rk.get_variant("combination").spec
    assert sp.players == (3, 8)
    assert [sp.pack_for(n)[0] for n in range(3, 9)] == [2, 2, 3, 3, 4, 4]


def test_combination_deals_10_cards_in_deals_1_4_and_12_in_5_7():
    sp = rk.get_variant("combination").spec
    assert [sp.cards_dealt(r, 4) for r in range(1, 8)] == [10, 10, 10, 10, 12, 12, 12]


def test_combination_contract_exact_minimum_and_lay_off_on_the_contract_turn():
    g = deal("combination", [S0, C1, S2], "KS", "9H")
    play(g, "draw", "meld 7H 7S 7D / 9C 9D 9S", "layoff 9H 2")


def test_combination_no_out_of_turn_taking():
    g = deal("combination", [S0, C1, S2], "KS", "9H")
    play(g, "draw")
    assert g.phase == "play" and g.current_player == 1


def test_combination_may_not_discard_a_playable_card():
    g = deal("combination", [S0, C1 .replace("KC", "7C"), S2], "KS", "9H")
    play(g, "draw", "meld 7H 7S 7D / 9C 9D 9S")
    illegal(g, "discard 7C", "could be played on the table")
    illegal(g, "discard 9H", "could be played on the table")
    play(g, "discard 3H")


def test_combination_may_not_go_out_by_discarding_no_legal_discard_draw_both():
    g = deal("combination", [S0, C1, S2], "KS", "9H 2D 3D QC")
    play(g, "draw", "meld 7H 7S 7D / 9C 9D 9S", "layoff 9H 2", "discard KC")
    set_hand(g, 1, rk.parse_cards("QD"))
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw")
    assert len(g.hands[1]) == 2 and "QD" in g.view(1)["hand"]
    acts = [rk.format_action(a) for a in g.legal_actions()]
    assert "discard QD" in acts  # two cards: discarding one does not go out
    top = g.view(1)["discard_top"]
    set_hand(g, 1, rk.parse_cards("QD"))
    assert [rk.format_action(a) for a in g.legal_actions()] == ["draw both"]
    illegal(g, "discard QD", "may not go out by discarding")
    stock_top = g.stock[-1]
    play(g, "draw both")
    assert sorted(g.hands[1]) == sorted(rk.parse_cards(f"QD {top} {stock_top}"))


def test_combination_twos_natural_score_20_jokers_20():
    v = rk.get_variant("combination").spec.card_values
    assert (v["2"], v["JK"], v["A"], v["3"], v["9"], v["T"]) == (20, 20, 20, 5, 5, 10)


def test_combination_not_more_wilds_than_naturals_in_contract_melds_no_limit_on_layoffs():
    g = deal("combination", [S0, "7H JK JK 9C 9D 9S 3H 4H 5H KC", S2], "KS", "7S JK")
    play(g, "draw")
    illegal(g, "meld 7H JK=7 JK=7 / 9C 9D 9S", "not a legal meld")
    play(g, "meld 7H 7S JK=7 / 9C 9D 9S", "layoff JK=7 1")
    assert g.view(0)["melds"][0] == ["7H", "7S", "JK", "JK"]


def test_contract_meld_with_ambiguous_wilds_must_say_what_they_stand_for():
    g = deal("may-i", [S0, "7H 7S 7D 9C 9D 9S 3H 4H JK KC", S2], "KS", "JK", first_round=2)
    play(g, "draw", "pass", "pass")
    # a set of three and a run of four: 3H 4H JK JK is 3H-6H, 2H-5H or AH-4H
    msg = illegal(g, "meld 7H 7S 7D / 3H 4H JK JK", "Say what the wild cards stand for")
    assert "JK=5H" in msg and "JK=2H" in msg
    play(g, "meld 7H 7S 7D / 3H 4H JK=5H JK=6H")
    assert g.view(0)["meld_info"][1]["stands_for"] == ["3H", "4H", "5H", "6H"]


def test_contract_meld_whose_wilds_fit_only_one_way_needs_no_meaning():
    g = deal("contract", [S0, "7H 7S JK 9C 9D 9S 3H 4H 5H KC", S2], "KS", "6H")
    play(g, "draw", "pass", "pass", "meld 7H 7S JK / 9C 9D 9S")
    assert g.view(0)["meld_info"][0]["stands_for"] == ["7", "7", "7"]


def test_may_i_a_thirteen_card_run_ace_to_king_melds_though_the_ace_reads_low_or_high():
    # deal 3, two runs of four, larger allowed: AS..KS reads A-K or 2-A, every card standing
    # for itself either way, so melding it must not ask what anything stands for
    hands = ["3C 4D 5H 6C 7D 8H 9C TD JH QC", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
             "5C 6D 7H 8C 9D TH JC QD KH 3D"]
    g = deal("may-i", hands, "2C", "KD", first_round=3)
    # as if bought over the last turns
    set_hand(g, 1, g.hands[1] + tuple(rk.parse_cards("JS QS KS 6C 7C 8C 9C")))
    g.apply("draw")
    for _ in range(2):
        g.apply("pass")
    g.apply("meld AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS / 6C 7C 8C 9C")
    assert g.down[1] and len(g.table) == 2


def test_liverpool_exact_cut_under_house_scoring_where_most_wins_adds_the_bonus():
    """The cut's bonus is good for the cutter: 50 off where the lowest wins, 50 won where a
    house rule makes the highest win (it was taken off there too)."""
    v = rk.get_variant("liverpool").with_options({"scoring": "winner_takes", "nobody_out": "block",
                                                  "on_reuse_limit": "block"})
    for seed in range(400):
        g = rk.new_game(v, players=4, seed=seed, dealer=0)
        g.apply("cut")
        if events(g, "cut")[0]["bonus"]:
            assert g.scores[3] == 50 and g.scores[:3] == [0, 0, 0]
            assert "50 points won" in events(g, "cut")[0]["text"]
            return
    raise AssertionError("no exact cut in 400 seeded deals")


def test_contract_round7_run_from_ace_to_ace_with_both_natural_aces_is_offered():
    """A run may hold both aces (A-K-A, 14 cards); in deal 7 the whole hand, grown by buys,
    is AH 2H ... KH AH and two runs of four.  The solver ruled it out: it counted each copy
    of a card as needing a run of its own."""
    hands = ["2C 3C 4C 5D 6D 8S TS JS QD KD 2D 3D", "AH 2H 3H 4H 5C 6C 7C 8C 9S TS JS QS",
             "AS 2S 6H 6C 8C 8D TH JH QH 4D 5S 7S"]
    g = deal("contract", hands, "KC", "KS 7H", first_round=7)
    play(g, "draw", "pass", "pass")
    set_hand(g, 1, rk.parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 3C 4C 5C 6C 7S 8S 9S TS"))
    ace_to_ace = "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    melds = [a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert sorted(melds) == ["meld 3C 4C 5C 6C", "meld 7S 8S 9S TS", ace_to_ace]
    play(g, ace_to_ace)
    assert sorted(a.text() for a in g.legal_actions()) == ["meld 3C 4C 5C 6C", "meld 7S 8S 9S TS"]
    play(g, "meld 7S 8S 9S TS", "meld 3C 4C 5C 6C")
    assert g.history[-1]["winner"] == 1


def test_combination_contract_of_naturals_offered_beside_the_least_penalty_one_so_a_hand_can_go_out():
    """Deal 3, two runs of four; a meld holds no more wilds than naturals, a lay-off any.
    The least-penalty arrangement JK=7D JK=8D 9D TD / 7D 8D 9D TD leaves 6D 7D 8D 9D TD that
    fit nowhere; the naturals' own contract is offered too, and from it the hand goes out by
    laying off 6D and both jokers (only the first was offered)."""
    g = deal("combination", ["AH AS 2H 2S 6C 8C 8S TH JH QH", "6D 7D 7D 8D 8D 9D 9D TD TD JK", S2],
             "KS", "JK", first_round=3)
    play(g, "draw")
    melds = [a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert "meld 7D 8D 9D TD" in melds and "meld JK=7D JK=8D 9D TD" in melds
    play(g, "meld 7D 8D 9D TD", "meld 7D 8D 9D TD", "layoff 6D 1", "layoff JK=5D 1", "layoff JK=4D 1")
    assert g.history[-1]["winner"] == 1 and g.history[-1]["round"] == 3


def _seat_to_play_holding(variant, deal_no, players, cards):
    """A game of ``variant`` at deal ``deal_no`` where the seat to play has drawn and holds
    ``cards`` (the position is set by hand: the table is empty)."""
    g = rk.new_game(variant, players=players, seed=1, first_round=deal_no)
    while g.phase != "draw":
        g.apply(g.legal_actions()[0])  # (liverpool's cut)
    g.apply("draw")
    while g.phase != "play":
        g.apply("pass")
    set_hand(g, g.current, rk.parse_cards(cards))
    return g


def _out_through_listed_moves(g, seat, swaps=True):
    """The moves, each listed by legal_actions(), that take ``seat`` out this turn (a meld,
    lay-offs and, unless ``swaps`` is false, swaps, the last discard), or None."""
    deal_no, seen = g.round_no, set()

    def go(x, path):
        if x.round_no != deal_no or x.is_over:
            return path
        key = (tuple(sorted(x.hands[seat])), tuple(tuple(m.cards) for m in x.table), tuple(x.pending))
        if key in seen:
            return None
        seen.add(key)
        for a in x.legal_actions():
            last = isinstance(a, rk.Discard) and len(x.hands[seat]) == 1
            if isinstance(a, (rk.Meld, rk.LayOff)) or (swaps and isinstance(a, rk.Swap)) or last:
                y = x.copy()
                y.apply(a)
                got = go(y, [*path, a.text()])
                if got:
                    return got
        return None

    return go(g, [])


@pytest.mark.parametrize("variant, deal_no, players, cards, a_way_out", [
    ("progressive", 8, 5, "AH AS 2C 2H 2H 2S 2S 3H 5H TS QS KH",
     "meld AH 2H=2H 3H 2H=4H 5H 2C=6H / TS 2S=JS QS 2S=KS AS, discard KH"),
    ("seven-hand", 4, 7, "AD AS AS 5D 6D 7C 7H 7H 7S JC JK JK",
     "meld 7C 7H 7H / AD AS AS / 5D 6D JK=7D, layoff 7S 1, layoff JK=7 1, discard JC"),
    ("shanghai-kolsov", 5, 3, "2H 3H 4H 5H 5S 5S 6H 7H 8H 8H JK JK",
     "meld 5H 5S 5S / 2H 3H 4H JK=5H 6H 7H 8H, layoff JK=5 1, discard 8H"),
    ("combination", 7, 8, "5C 6C 7C 8C 8H 9C TC TH JH JK JK JK JK",
     "meld 5C 6C 7C 8C / 9C TC JK=JC JK=QC / 8H JK=9H TH JH, layoff JK=4C 1"),
    ("combination", 3, 7, "AS 2S 4S 8D 9D JK JK JK JK JK JK",
     "meld 8D 9D JK=TD JK=JD / AS 2S JK=3S 4S, layoff JK=QD 1, layoff JK=KD 1, layoff JK=5S 2"),
    ("combination", 2, 5, "AC 5C 7C 7D 7D 7H 7S JK JK JK JK",
     "meld 7D 7D 7H / JK=4C 5C JK=6C 7C, layoff 7S 1, layoff JK=3C 2, layoff JK=2C 2, layoff AC 2"),
], ids=["progressive-deal8", "seven-hand-deal4", "kolsov-deal5", "combination-deal7",
        "combination-six-jokers", "combination-deal2-more-wilds-laid-off-than-the-limit-lets-a-meld-hold"])
def test_a_hand_that_can_go_down_and_out_in_one_turn_is_offered_a_contract_meld_that_does(
        variant, deal_no, players, cards, a_way_out):
    """The offered contract melds were the least-penalty arrangement and the naturals' own;
    from neither could these hands go out, though another arrangement (typed, accepted) does.
    A contract meld the seat goes out from is now listed too."""
    g = _seat_to_play_holding(variant, deal_no, players, cards)
    seat = g.current
    typed = g.copy()
    for move in a_way_out.split(", "):
        typed.apply(move)
    assert typed.round_no == deal_no + 1 or typed.is_over  # (the way out is a real one)
    assert _out_through_listed_moves(g, seat) is not None


# positions found by checking against a brute force with other players' melds down: each
# deal is stacked and played to the point where `seat`, not yet down, is to play
OUT_ON_THE_TABLE = {
    "shanghai-deal3": ("shanghai", 3, 0, 716540553, [
        "6D 7D 8D 9D TD JD QD 2H QH JK JK", "4C 5C 7C 8C JC 6H 7H 8H 9H TH 8S",
        "3C 7C 8C 9C TC JC QC 4H 6H 7H JS"], "KC", "6C 5H 6C", [
        "draw", "pass", "pass", "meld 5C 6C 7C 8C / 6H 7H 8H 9H TH", "discard 4C", "pass", "pass",
        "draw", "pass", "meld 7C 8C 9C TC JC QC / 4H 5H 6H 7H", "discard JS", "draw", "pass"], 0,
        "meld 6D 7D 8D 9D / JK=9D TD JD QD, layoff 6C 3, layoff JK=JH 2, layoff QH 2, discard 2H"),
    "progressive-deal2": ("progressive", 2, 0, 1006586247, [
        "7C 9C TC KC 4D 5D 7D KD 9H 8S JK", "2C 8C 2D JD AH 6H KH 3S 9S TS JK",
        "2C 8C AD 8D 8D 2H AS 6S JS JS KS", "2D JD 5H JH 2S 2S 5S 6S 7S 7S 8S",
        "9C QC KC 4D 6D 9D 9D 2H 3S 9S JK"], "KD", "JH 8H 7C", [
        "draw", "meld JD JH JK=J / 2C=8S 9S TS 2D=JS", "discard 6H", "draw",
        "meld 8C 8D 8D 8H 2C=8 / JS 2H=QS KS AS", "discard AD", "draw"], 3,
        "meld 7C 2D=7 2S=7 / 5S 6S 7S 2S=8S, layoff JD 1, layoff JH 1, layoff 7S 2, layoff 8S 3, discard 5H"),
    "ten-card-deal1-before-drawing": ("ten-card", 1, 0, 544738803, [
        "QC 4D 8D 8H 9H 9H JH 7S QS JK", "2C 3D 4D QD 5S 7S TS JS QS KS", "AC 2C 2D 8D 9D JD 2S 8S 9S KS",
        "6C QC AD AD QD 5H 7H 3S 6S 8S", "AC 4C 9C TC 2D 8H AS 5S 6S TS", "8C 7D 9D TD TD KD 2H TH 3S JK"],
        "5D", "7C", ["meld TS JS QS", "draw", "discard 7S"], 2,
        "meld 2D=KC AC 2C=2C / 8D 9D 2S=TD JD, layoff 9S 1, layoff 8S 1, layoff KS 1"),
    "combination-deal3": ("combination", 3, 0, 214663599, [
        "AC 6C 7C JC 9D KD 5H TH JH QS", "4C AD JD KD AH JH QH KH AS JK", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
        "AC TC QC 8D 4H QH 2S 6S 9S KS"], "6D", "QD 8H", [
        "draw", "meld JH QH KH AH / JD QD KD AD", "discard 4C", "draw"], 2,
        "meld AH 2H 3H 4H / 5H 6H 7H 8H, layoff TH 1, layoff 9H 1, layoff 8H 1"),
    "seven-hand-deal2": ("seven-hand", 2, 0, 423837092, [
        "8C 8D AH 2H 3H 3H 4H 5H 8H 8H 8S", "4C AD 4D 4D 5D 6H 7H 8H 6S QS JK",
        "6C 8C 9C 8D KD 3H TH 7S 8S JK JK", "2C 4D KD AH 2H 3H 5H 2S 8S 8S JK"], "KH", "4S JH AC AD", [
        "draw", "pass", "pass", "pass", "meld 4C 4D 4D 4S JK=4 / 6H 7H 8H", "discard 6S", "draw", "pass",
        "pass", "meld 8C 8D 8S / JK=9H JK=TH JH", "discard 7S", "draw", "pass", "pass",
        "meld 2C 2H 2S / 3H JK=4H 5H", "discard AC", "draw", "pass", "pass"], 0,
        "meld 8C 8D 8H / AH 2H 3H, layoff 5H 2, layoff 4H 2, layoff 3H 2, layoff 8H 3, layoff 8S 3, "
        "discard AD"),
    "combination-deal2-a-swap": ("combination", 2, 0, 780606611, [
        "3C 3C QC 6D QD QD KD 5H 7H 7H", "2C TC AD 6D 8D TD 5S 8S JK JK", "6C TC JC QC 8D 4H 6H TS KS JK",
        "2C QC 6D AH 2H 2H 3H 3H 4H 2S", "3C 4C 9C JC JD JD 2S 6S JK JK"], "4D", "TS JK AC JC", [
        "draw", "meld TC TD TS / JK=5D 6D JK=7D 8D", "discard 8S", "draw",
        "meld 6C 6H JK=6 / JK=9C TC JC QC", "discard KS", "draw", "meld 2C 2H 2S / AH 2H 3H 4H",
        "discard AC", "draw"], 4,
        "meld JC JC JD / JK=2C 3C 4C JK=5C, swap 9C 4, layoff JD 7, layoff 2S 5, layoff 6S 3, layoff JK=T 1"),
    # a joker kept back for the table (JK=7C bridges the 8C), the set made of natural nines:
    # both arrangements the solver liked best melded both jokers
    "shanghai-deal2-a-joker-kept-for-the-table": ("shanghai", 2, 0, 411063875, [
        "AC AC 2C 8C 3D 5D 8D KD KD 6S 6S", "3C 4C 5C 6C 9C 9C 2D 9D 8S 9S 9S",
        "3C 4C 5C 6C QC 6D 6D 5H 8H QS JK", "2C 8C JC 9D 5H 6H 6H 9H 9H JK JK",
        "3D 8D TD TD AH 2H 8H QH 3S TS KS"], "TH", "2S JK 7H", [
        "draw", "pass", "pass", "pass", "pass", "meld 9C 9C 9D 9S 9S / 3C 4C 5C 6C", "discard 2D",
        "draw", "pass", "pass", "pass", "meld 6D 6D JK=6 / 3C 4C 5C JK=6C", "discard 6C",
        "pass", "pass", "pass", "pass", "draw", "pass", "pass", "pass"], 3,
        "meld 9D 9H 9H / 5H 6H 7H JK=8H, layoff 2C 2, layoff 6H 3, layoff JK=7C 2, layoff 8C 2, discard JC"),
    # the jokers go down with a lone 3C, and the clubs grow the run down from the QC on the
    # table (the greedy layings laid a joker there first)
    "seven-hand-deal3-jokers-kept-for-the-contract": ("seven-hand", 3, 0, 418478014, [
        "JD KD 7D KS 5C 6D 5S 3H QC QH 2S", "KC 8H 9H AC JK 8S QC JK TH 7H QS",
        "QH 8C JK TC JC 9C 6H TC 9C 6H 3C"], "9C", "JH JK", [
        "draw", "pass", "pass", "meld JK=QC JK=KC AC / 7H 8H 9H TH JH", "discard QC", "draw", "pass"], 2,
        "meld 3C JK=4C JK=5C / 8C 9C TC, layoff JC 1, layoff TC 1, layoff 9C 1, layoff 6H 2, layoff QH 2, "
        "discard 6H"),
    # two heart runs must not touch when laid down: the 8H between them is laid off after
    # (the quick bound counted it as a card no meld could take)
    "shanghai-deal3-two-runs-of-a-suit-joined-after": ("shanghai", 3, 0, 747606720, [
        "JK 8H 2D 6H QD 3D 4S JH JD 4H QD", "7C TC 9C TC QC 5C 9C 2D QC 8C JC",
        "9H JK 8H KH 6D TH QH 5H AH 7H JH", "5C JK 3S AS 8C 9H 6H 7C QS 7H 2S"], "3H", "JC 4H", [
        "draw", "pass", "pass", "pass", "meld 7C 8C 9C TC JC QC / 9C TC JC QC", "discard 5C", "draw", "pass",
        "pass"], 2,
        "meld 9H TH JH QH KH AH / 4H 5H JK=6H 7H, layoff 8H 3, discard 6D"),
    # a joker stands for the QH in one's own run, so that the QH and KH go on another
    # player's (the greedy layings put the JH there first)
    "kolsov-deal3-a-joker-melded-so-that-a-natural-goes-on-a-run-down": ("shanghai-kolsov", 3, 0, 941977180, [
        "9C 4D 6D 7D 7D QD 5H 8H QH QS KS", "3C 5H 6H 7H 8H 9H TH TH JH 4S JK",
        "AH JH QH KH KH 9S TS JS KS JK JK"], "4S", "JK 4C", [
        "draw", "pass", "pass", "meld 5H 6H 7H 8H JK=9H TH / JK=8H 9H TH JH", "discard 3C", "draw",
        "pass"], 2,
        "meld JH JK=QH KH AH / 9S TS JS JK=QS KS, layoff QH 2, layoff KH 2, discard 4C"),
    # the 7D is swapped in for a joker on the table, which grows one's own run to the 2D
    "seven-hand-deal5-a-card-traded-for-a-wild-that-grows-ones-own-run": ("seven-hand", 5, 0, 1016488789, [
        "2C 2C 6C KC 6D JD 7H 8H TH 3S KS", "5C 6C 8C 9C 9D JD 2H 5S JK JK JK",
        "JC 2D 5D 6D 7D AS AS JS QS KS JK"], "4H", "5D JS", [
        "draw", "pass", "pass", "meld 5C 5D 5S / 8C 9C JK=TC / JK=7D JK=8D 9D", "discard 2H", "draw",
        "pass"], 2,
        "meld JC JS JS / JK=4D 5D 6D / QS KS AS, swap 7D 3, layoff JK=3D 5, layoff 2D 5, discard AS"),
    # the KC is swapped for the table's joker, which lets one's own heart run reach the 7H
    "seven-hand-deal3-a-traded-wild-and-the-run-it-lets-grow": ("seven-hand", 3, 0, 750197305, [
        "2C 4C JC AD 6D 9D JD AH 5H 9H JS", "TC JC QC 5D AH JH QH KH TS QS JK",
        "AC 8C 9C KC 4D 3H 7H AS 3S JK JK"], "2C", "3C 2S", [
        "draw", "pass", "pass", "meld JH QH KH AH / TC JC QC JK=KC", "discard 5D", "draw", "pass"], 2,
        "meld 3H JK=4H JK=5H / AS 2S 3S, layoff AC 2, layoff 9C 2, layoff 8C 2, swap KC 2, layoff JK=6H 3, "
        "layoff 7H 3, discard 4D"),
    # the KS is swapped for a joker, which then goes on the set of 7s
    "combination-deal5-a-traded-wild-laid-on-a-set": ("combination", 5, 0, 763810953, [
        "AC 3C 9C JC AD 8D TD QD AH 4H 9H KS", "7D TD 2H TH JH JH QH 2S 7S 7S JK JK",
        "5C JC KC AD 5D 7D JH 5S TS JS QS JK", "AC 9C 9C TC JC QC KC 8H KH KS JK JK",
        "AC 2C 8C 6D TD 2H 8H 8S 8S JS QS KS"], "8H", "KC JS 8S", [
        "draw", "meld 7D 7S 7S / 2H 2S JK=2 / JK=9H TH JH QH", "discard KC", "draw",
        "meld 5C 5D 5S / JC JH JS / TS JS QS JK=KS", "discard AD", "draw"], 3,
        "meld 9C 9C JK=9 / 8H 8S JK=8 / JC QC KC AC, layoff TC 9, layoff KH 3, swap KS 6, layoff JK=7 1"),
    # two swaps bring two jokers that grow one's own diamond run (the quick bound refused it)
    "seven-hand-deal3-two-cards-traded-for-wilds-that-grow-ones-own-run": ("seven-hand", 3, 0, 140567480, [
        "8C 9C AD 4H 4H 5H 9H TH JH 3S QS", "8D QD TH AS 2S 3S 5S QS KS JK JK",
        "8C 2D AH AH 2H 3H 4H 4H 7H JK JK", "6C 7C 8C 8H AS TS QS QS JK JK JK",
        "4D 5D 9D QD AH 7H 9H QH KH JS JK"], "KC", "5S 2H TC TD", [
        "draw", "pass", "pass", "pass", "pass", "meld QS KS AS / JK=8H JK=9H TH", "discard 3S", "draw",
        "pass", "pass", "pass", "meld AH 2H 3H 4H / 2H JK=3H 4H JK=5H", "discard AH", "pass", "pass", "pass",
        "pass", "draw", "pass", "pass", "pass", "meld 6C 7C 8C JK=9C TC / TS JK=JS QS JK=KS AS", "discard QS",
        "draw", "pass", "pass", "pass"], 4,
        "meld 4D 5D JK=6D / QH KH AH, layoff 7H 2, swap 9H 2, swap JS 6, layoff JK=7D 7, layoff JK=8D 7, "
        "layoff 9D 7, layoff TD 7, discard QD"),
    # the QH goes to the table only by a swap (the quick bound counted it as a card no meld
    # down could take)
    "combination-deal2-only-a-swap-places-a-card": ("combination", 2, 0, 397648500, [
        "AC 8C TD 4H 9H KH 2S 2S 4S TS", "KC KD KD AH 3H JH 6S KS JK JK", "3D 4D 9D 9H QH KH 9S KS JK JK"],
        "QD", "QH AD", ["draw", "meld KD KD KS / JH JK=QH JK=KH AH", "discard QH", "draw"], 2,
        "meld 9D 9H 9S / AD JK=2D 3D 4D, swap QH 2, layoff KH 1, layoff KS 1, layoff JK=K 1, layoff JK=K 1"),
    # two wilds, one of them swapped out, bridge the new run to the 9S (the search ran out of
    # room trying every other place for them first)
    "combination-deal5-wilds-bridge-a-run": ("combination", 5, 0, 62305855, [
        "3C TC 7D 9D JD QD QD JH KH KH 9S KS", "2C 2C 4D 6D 5H 6H 2S 3S 4S 6S JK JK",
        "AD 4H AS AS 2S 3S 4S 5S 6S 9S JK JK"], "8C", "7S 4D", [
        "draw", "meld 2C 2C 2S / 6D 6H 6S / JK=AS JK=2S 3S 4S", "discard 5H", "draw"], 2,
        "meld AD AS AS / 4D 4H 4S / 3S JK=4S 5S 6S, swap 2S 3, layoff JK=7S 6, layoff JK=8S 6, layoff 9S 6"),
}


@pytest.mark.parametrize("case", list(OUT_ON_THE_TABLE))
def test_a_hand_that_can_go_down_and_out_laying_off_on_the_melds_down_is_offered_a_meld_that_does(case):
    """As above, with other players' melds on the table: the cards the contract does not use
    go onto them (a run grown a card at a time, a wild at the end that lets the rest follow;
    in combination, a natural card swapped in for a wild that then goes on the table)."""
    variant, deal_no, dealer, seed, hands, upcard, stock, moves, seat, a_way_out = OUT_ON_THE_TABLE[case]
    g = deal(variant, hands, upcard, stock, dealer=dealer, seed=seed, first_round=deal_no)
    play(g, *moves)
    assert g.current == seat and not g.down[seat] and g.round_no == deal_no and g.table
    typed = g.copy()
    for move in a_way_out.split(", "):
        typed.apply(move)
    assert typed.round_no == deal_no + 1 or typed.is_over  # (the way out is a real one)
    assert _out_through_listed_moves(g, seat) is not None


def test_a_hand_that_can_go_out_by_laying_off_alone_is_offered_a_meld_that_does_without_a_swap():
    """Combination allows a swap on the contract's turn.  Here the offered melds went out only
    by swapping a natural card back into the run just laid (``JK=8D JK=9D TD JD`` then ``swap
    9D``), while ``4C 4D 4H / 9D TD JD JK=QD`` goes out by lay-offs alone: the plain way is
    offered too."""
    g = deal("combination", ["4C 4D 9D TD JD 4H 4S TS JK JK", "AC 2C 2C 4C TC TC 3D TD JD TS",
                             "3C 5C JC 2D 6D 7D 8D 4H JS JS"], "3D", "3C 5D 9D",
             dealer=0, seed=327769153, first_round=2)
    play(g, "draw", "meld TC TD TS / AC 2C 3C 4C", "discard JD", "draw", "meld JC JS JS / 5D 6D 7D 8D",
         "discard 2D", "draw")
    assert g.current == 0 and not g.down[0] and g.round_no == 2
    typed = g.copy()
    play(typed, "meld 4C 4D 4H / 9D TD JD JK=QD", "layoff 9D 4", "layoff 4S 5", "layoff TS 1",
         "layoff JK=T 1")
    assert typed.round_no == 3  # (the plain way out is a real one)
    assert _out_through_listed_moves(g, 0, swaps=False) is not None


def test_may_i_eight_players_a_contract_set_may_hold_fifteen_sevens():
    """May I? with 8 players uses four 54-card decks: sixteen 7s exist, and "the initial meld
    may have as many cards as you like (minimum 3) of the same rank" (seed 001)."""
    hand = "7C 7C 7C 7C 7D 7D 7D 7D 7H 7H 7H 7H 7S 7S 7S 8C 8D 8H"
    g = _seat_to_play_holding("may-i", 1, 8, hand)
    melds = [a for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert any(max(len(m) for m in a.melds) == 15 for a in melds), [a.text() for a in melds]
    g.apply("meld " + hand.replace(" 8C", " / 8C"))
    assert g.round_no == 2  # every card melded: out, with no discard
