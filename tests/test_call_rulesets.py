"""Rules of shanghai, shanghai-powe, shanghai-kolsov, progressive, ten-card and seven-hand
(the out-of-turn calls and unusual turns)."""

import random
from fractions import Fraction

import pytest
from conftest import all_cards, deal, full_pack, illegal, play
from helpers import draw_and_discard_it, events, run_out_stock

import rummykit as rk
from rummykit.engine.position import set_hand, set_position
from rummykit.engine.scoring import settlement

P = rk.parse_cards

# 3 players, dealer 0: seat 1 plays first, then seat 2, then seat 0 (11 cards in shanghai)
SH = ["AS 2S 6C 8C 8D TH JH QH 4D 5S 6S", "7H 7S 7D 9C 9D 9S 9H 4H 5H KC QC",
      "2C 3C 4C 5D 6D 8S TS JS QD KD AH"]


def shanghai(stock="6H 7C 3D 3S 4S JC", **kw):
    g = deal("shanghai", SH, "KS", stock, **kw)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")  # seat 1 goes down
    return g


# -- shanghai ---------------------------------------------------------------------------


def test_shanghai_eleven_cards_seven_deals_two_decks_four_jokers():
    sp = rk.get_variant("shanghai").spec
    assert sp.cards_dealt(1, 4) == 11 and sp.num_deals() == 7 and sp.pack_for(4) == (2, 4)


def test_shanghai_lay_off_on_the_turn_of_the_contract():
    g = shanghai()
    play(g, "layoff 9H 2")


def test_shanghai_protecting_call_while_discarding():
    g = shanghai()
    assert rk.CallShanghai(discard=rk.parse_card("9H")) in g.legal_actions()
    play(g, "shanghai 9H")
    assert g.current_player == 2 and g.phase == "draw"
    assert rk.Take() not in g.legal_actions()
    illegal(g, "take", "protected")
    play(g, "draw")  # nobody may May I a protected card: no window
    assert g.phase == "play" and g.current_player == 2


def test_shanghai_protecting_call_needs_a_card_that_fits():
    g = shanghai()
    illegal(g, "shanghai KC", "fits no meld")


def test_shanghai_taking_call_by_the_next_player():
    from collections import Counter

    g = shanghai()
    before1, before2 = Counter(g.hands[1]), Counter(g.hands[2])
    play(g, "discard 9H")
    assert g.phase == "call" and g.current_player == 2
    assert [rk.format_action(a) for a in g.legal_actions()] == ["shanghai 9H 2", "pass"]
    play(g, "shanghai 9H 2")
    assert g.view(0)["melds"][1] == ["9C", "9D", "9S", "9H"]
    # the discarder drew one card at random from the caller's hand
    moved = before2 - Counter(g.hands[2])
    assert sum(moved.values()) == 1 and not Counter(g.hands[2]) - before2
    before1.subtract(rk.parse_cards("9H"))
    assert Counter(g.hands[1]) - before1 == moved
    assert all_cards(g) == full_pack(g)
    ev = events(g, "shanghai")[0]
    assert ev["seat"] == 2 and ev["discarder"] == 1 and ev["card"] == "9H"
    assert set(ev) == {"seat", "verb", "text", "card", "meld", "discarder"}  # the drawn card stays hidden
    # then the next player's turn goes on as normal
    assert g.phase == "draw" and g.current_player == 2


def test_shanghai_taking_call_from_the_far_side_and_the_turn_order_stays():
    g = shanghai()
    play(g, "discard 9H", "pass")
    assert g.current_player == 0
    play(g, "shanghai 9H 2")
    assert len(g.hands[0]) == 10 and g.current_player == 2 and g.phase == "draw"


def test_shanghai_any_player_may_call_down_or_not():
    g = shanghai()
    play(g, "discard 9H")
    assert not g.down[2] and any(isinstance(a, rk.CallShanghai) for a in g.legal_actions())


def test_shanghai_beats_may_i_the_called_card_is_gone_before_the_next_draw():
    g = shanghai()
    play(g, "discard 9H", "shanghai 9H 2")
    assert g.view(2)["discard_top"] == "KS"  # the upcard under it: nobody can May I the 9H
    play(g, "draw")
    assert g.phase == "may_i" and g.view(0)["discard_top"] == "KS"


def test_shanghai_no_call_when_everyone_passes_then_may_i_as_usual():
    g = shanghai()
    play(g, "discard 9H", "pass", "pass")
    assert g.phase == "draw" and g.current_player == 2 and g.view(2)["discard_top"] == "9H"
    play(g, "draw")
    assert g.phase == "may_i" and g.current_player == 0


def test_shanghai_may_i_takes_two_stock_cards_at_most_twice_a_round():
    g = deal("shanghai", SH, "KS", "6H 7C 3D 3S 4S JC 5C 6D 7S 8H")
    play(g, "draw", "buy")
    assert len(g.hands[2]) == 14 and g.view(2)["buys_left"][2] == 1
    assert g.phase == "play" and g.current_player == 1  # the taker neither melds nor discards now


def test_shanghai_may_i_when_the_stock_runs_out_mid_buy_the_log_names_the_cards_taken():
    """A May I takes the discard and two stock cards; with one card left and nothing to
    rebuild the stock from (no rebuilt stock allowed), the deal ends after one: the buy's
    line says one, not two.  (The ended deal's log is the state's: views show the next's.)"""
    g = deal("shanghai", SH, "KS", "6H 7C 3D 3S 4S JC", options={"max_stock_reuses": 0})
    while len(g.stock) > 1:
        draw_and_discard_it(g)
    log, top, asked = g.state.log, g.view(0)["discard_top"], (g.current + 1) % 3
    size = len(g.hands[asked])
    play(g, "draw", "buy")  # the next seat takes the top discard and the last stock card
    assert g.round_no == 2
    assert [e["verb"] for e in log][-2:] == ["buy", "round_end"]
    buy = log[-2]
    assert buy["extra"] == 1 and buy["card"] == top and buy["seat"] == asked
    assert f"took {top} and 1 from the stock (the stock ran out: 1 of 2 penalty cards)" in buy["text"]
    assert len(P(g.history[0]["hands"][asked])) == size + 2


def test_shanghai_no_two_books_of_one_rank_and_one_joker_a_meld():
    sp = rk.get_variant("shanghai").spec
    assert sp.distinct_set_ranks and sp.wild_limit == "at_most_one" and sp.ace_mode == "high"


def test_shanghai_round7_goes_out_with_no_discard():
    assert rk.get_variant("shanghai").spec.whole_hand_rounds == [7]


def test_shanghai_card_values():
    v = rk.get_variant("shanghai").spec.card_values
    assert (v["2"], v["7"], v["8"], v["K"], v["A"], v["JK"]) == (5, 5, 10, 10, 20, 50)


# -- powe and kolsov ---------------------------------------------------------------------


def test_powe_ten_cards_eight_deals_buys_and_no_shanghai():
    sp = rk.get_variant("shanghai-powe").spec
    assert sp.cards_dealt(1, 3) == 10 and sp.num_deals() == 8 and sp.buying.verb == "buy"
    assert not sp.shanghai_call and sp.whole_hand_rounds == []  # deal 8 is an ordinary deal (RULES.md 4.1)


def test_powe_never_goes_out_by_discarding():
    g = deal("shanghai-powe", [" ".join(h.split()[:10]) for h in SH], "KS", "6H 7C")
    set_hand(g, 1, rk.parse_cards("7H 7S 7D 9C 9D 9S 9H 5H"))
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")
    set_hand(g, 1, rk.parse_cards("9H KC"))
    illegal(g, "layoff 9H 2", "neither play nor discard")
    set_hand(g, 1, rk.parse_cards("KC"))
    illegal(g, "discard KC", "may not go out by discarding")


def _down_with_a_joker_run(vid, set_cards, hand_size):
    """Seat 1 melds a set and 3H JK 5H 6H in deal 2 and the turn comes back to it (after its
    draw): the table as given, seat 1 ready to play."""
    s0 = "AS 2S 6C 3C 3D TH JH QH 4D 5S 6S"
    s2 = "2D 4S 4C 5D 6D TS TS JS QD KD 9H"
    s1 = f"{set_cards} 3H JK 5H 6H 9C 9D KC QC"
    hands = [" ".join(h.split()[:hand_size]) for h in (s0, s1, s2)]
    g = deal(vid, hands, "KS", "8C 2C 3S 4H 5C 6D", first_round=2)
    play(g, "draw", "pass", "pass", f"meld {set_cards.replace('JK', 'JK=7')} / 3H JK=4H 5H 6H", "discard 8C")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass")
    assert g.current_player == 1 and g.phase == "play"
    return g


def test_shanghai_swap_frees_the_joker_for_its_own_run_when_every_meld_holds_one():
    """At most one joker a meld: the freed JK is judged against the table after the swap,
    where 3H 4H 5H 6H holds none (it went wrong: every meld still counted its joker)."""
    g = _down_with_a_joker_run("shanghai", "7H 7S JK", 11)
    assert rk.Swap(P("4H")[0], 1) in g.legal_actions()
    play(g, "swap 4H 2", "layoff JK=7H 2")
    assert g.view(1)["melds"][1] == ["3H", "4H", "5H", "6H", "JK"]


def test_powe_no_swap_that_leaves_one_card_neither_playable_nor_discardable():
    """Powe never goes out by discarding: swapping 4H for the JK with 4H KC in hand would
    leave KC alone once the JK is laid off (it went wrong: the swap was offered, and then
    only combination's "draw both" was left)."""
    g = _down_with_a_joker_run("shanghai-powe", "7H 7S 7D", 10)
    set_hand(g, 1, P("4H KC"))
    assert [a.text() for a in g.legal_actions() if isinstance(a, (rk.Swap, rk.Draw))] == []
    illegal(g, "swap 4H 2", "neither play nor discard")
    set_hand(g, 1, P("4H 7C"))  # 7C goes on the 7s once the JK is laid off: the swap is fine
    play(g, "swap 4H 2", "layoff JK=7H 2", "layoff 7C 1")
    assert g.state.history[-1]["winner"] == 1


def test_powe_greedy_play_is_never_left_with_only_draw_both():
    """"Draw both" is combination's way out of a hand with no legal discard; powe must never
    need it.  Seed 1, swapping and laying off whenever it can, reached it in deal 2."""
    g = rk.new_game("shanghai-powe", players=3, seed=1)
    rng = random.Random(1)
    while not g.is_over and g.round_no <= 3:
        acts = g.legal_actions()
        assert not any(isinstance(a, rk.Draw) and a.both for a in acts), (g.round_no, g.actions[-4:])
        eager = [a for a in acts if isinstance(a, (rk.Swap, rk.Meld, rk.LayOff, rk.Buy))]
        g.apply(rng.choice(eager) if eager and rng.random() < 0.85 else rng.choice(acts))


def test_kolsov_ten_deals():
    assert rk.get_variant("shanghai-kolsov").spec.num_deals() == 10


# -- progressive ------------------------------------------------------------------------


def test_progressive_no_buying_before_deal_9():
    g = rk.new_game("progressive", players=3, seed=1, dealer=0)
    play(g, "draw")
    assert g.phase == "play"
    assert rk.Buy() not in g.legal_actions()


def test_progressive_buying_costs_a_unit_into_the_kitty_once_in_deal_9():
    g = rk.new_game("progressive", players=3, seed=1, dealer=0, first_round=9)
    play(g, "draw")
    assert g.phase == "may_i" and g.current_player == 2
    n = len(g.hands[2])
    play(g, "buy")
    assert len(g.hands[2]) == n + 1 and g.kitty == 1 and g.view(0)["kitty"] == 1
    assert g.view(0)["buys_left"][2] == 0


def test_progressive_deals_12_13_buy_twice_with_the_blind_card():
    g = rk.new_game("progressive", players=3, seed=1, dealer=0, first_round=12)
    play(g, "draw")
    n = len(g.hands[2])
    play(g, "buy")
    assert len(g.hands[2]) == n + 2 and g.view(0)["buys_left"][2] == 1


def test_progressive_buy_on_ones_own_turn_then_the_normal_turn():
    g = rk.new_game("progressive", players=3, seed=1, dealer=0, first_round=9)
    top = g.view(1)["discard_top"]
    n = len(g.hands[1])
    assert rk.Buy() in g.legal_actions()
    play(g, "buy")
    assert g.phase == "draw" and g.current_player == 1 and top in g.view(1)["hand"]
    assert rk.Buy() not in g.legal_actions()  # one buy in deal 9
    play(g, "draw")
    assert len(g.hands[1]) == n + 2 and g.kitty == 1


def test_progressive_settlement_by_position_plus_kitty():
    F = Fraction
    assert settlement([F(100), F(50), F(200), F(150)], 3) == [-2, 15, -6, -4]
    assert settlement([F(10), F(20), F(30)], 0) == [6, -2, -4]
    assert settlement([F(5), F(4), F(3), F(2), F(1)], 2) == [-8, -6, -4, -2, 22]


def test_progressive_settlement_shown_with_the_final_scores():
    import random

    from rummykit.cli.simulate import play_random

    g = rk.new_game("progressive", players=3, seed=2, first_round=14)
    play_random(g, random.Random(1))
    v = g.view(0)
    assert v["is_over"] and "settlement" in v
    assert g.kitty > 0  # (a buy was made: the check below means something)
    # each buy cost its buyer a unit into the kitty, which the winner takes: the units won are
    # the units lost (the buyers were not charged: the settlement summed to the kitty)
    assert sum(Fraction(x) for x in v["settlement"]) == 0
    paid = [sum(r["buys"][s] for r in g.history) for s in range(3)]
    assert sum(paid) == g.kitty
    assert [Fraction(x) for x in v["settlement"]] == [
        p - paid[s] for s, p in enumerate(settlement(g.scores, g.kitty))]


def test_progressive_all_wild_meld_declares_its_meaning():
    v = rk.get_variant("progressive")
    assert len(v.meld_readings("JK 2C 2D")) > 1
    assert v.is_valid_meld("JK 2C 2D")


# -- ten card ---------------------------------------------------------------------------

TEN = ["AS 2S 6C 8C 8D TH JH QH 4D 5S", "7H 7S 7D 3C 4C 5C 9H 9S KD QD",
       "2C 3H 4S 5D 6D 8S TS JS QS KS", "AD 3D 4H 6H 7C 8H 9D TC JC QC"]


def test_ten_card_4_to_8_players_two_or_three_packs():
    sp = rk.get_variant("ten-card").spec
    assert sp.players == (4, 8) and sp.pack_for(6) == (2, 4) and sp.pack_for(7) == (3, 6)


def test_ten_card_meld_and_lay_off_only_before_drawing():
    g = deal("ten-card", TEN, "KH", "9D 2D")
    assert any(isinstance(a, rk.Meld) for a in g.legal_actions())
    play(g, "meld 7H 7S 7D", "meld 3C 4C 5C", "draw")
    illegal(g, "layoff 9D 1", "before drawing")
    assert all(isinstance(a, rk.Discard) for a in g.legal_actions())


def test_ten_card_going_out_concealed():
    g = deal("ten-card", [TEN[0], "7H 7S 7D 3C 4C 5C 6C 9H 9S 9D", TEN[2], TEN[3]], "KH")
    play(g, "meld 7H 7S 7D / 3C 4C 5C 6C / 9H 9S 9D")
    assert g.history[0]["winner"] == 1


def test_ten_card_runs_of_three_go_over_the_top():
    v = rk.get_variant("ten-card")
    assert v.is_valid_meld("QS KS AS") and v.is_valid_meld("KS AS 2S") and v.is_valid_meld("KH AH JK")
    assert not rk.get_variant("contract").is_valid_meld("QS KS AS 2S")


def test_ten_card_buys_from_round_4_three_at_most_the_fourth_refused():
    g = rk.new_game("ten-card", players=4, seed=3, dealer=0)
    play(g, "draw")
    assert g.phase == "play"  # no buying in rounds 1-3
    g = rk.new_game("ten-card", players=4, seed=3, dealer=0, first_round=4)
    asked_after = []
    for _ in range(400):
        if g.phase == "may_i":
            if g.buys[2] >= 3:
                asked_after.append(g.current_player)
            g.apply("buy" if g.current_player == 2 and g.buys[2] < 3 else "pass")
        elif g.phase == "draw":
            g.apply("draw")
        else:
            g.apply(next(a for a in g.legal_actions() if isinstance(a, rk.Discard)))
        if g.round_no != 4:
            break
    assert g.buys[2] == 3 and asked_after and 2 not in asked_after
    assert g.view(0)["buys_left"][2] == 0


def test_ten_card_stock_turned_over_unshuffled_its_top_card_turned_up():
    g = deal("ten-card", TEN, "KH")
    run_out_stock(g)
    pile = [str(c) for c in g.discard]
    g.apply("draw")
    while g.phase == "may_i":
        g.apply("pass")
    assert events(g, "restock")
    assert g.view(0)["discard_top"] == pile[0] and g.view(0)["discard_size"] == 1


def test_ten_card_card_values():
    v = rk.get_variant("ten-card").spec.card_values
    assert (v["A"], v["2"], v["JK"], v["9"], v["K"]) == (11, 15, 15, 9, 10)


# -- seven hand -------------------------------------------------------------------------

SEVEN = ["AS 2S 6C 8C 8D TH JH QH 4D 5S 6S", "7H 7S 7D 7C 9C 9D 9S 9H 5H 5S 5D",
         "2C 3C 4C 5D 6D 8S TS JS QD KD AH"]


def test_seven_hand_pat_round_refused_with_one_card_left_over():
    g = deal("seven-hand", SEVEN, "KS", "KC", first_round=6)
    play(g, "draw", "pass", "pass")
    illegal(g, "meld 7H 7S 7D 7C / 9C 9D 9S 9H / 5H 5S 5D", "every card")
    g2 = deal("seven-hand", SEVEN, "KS", "5C", first_round=6)
    play(g2, "draw", "pass", "pass", "meld 7H 7S 7D 7C / 9C 9D 9S 9H / 5H 5S 5D 5C")
    assert g2.history[-1]["winner"] == 1


def test_seven_hand_pat_round_goes_down_before_drawing_with_the_hand_as_held():
    """"3 sets pat": seat 1 holds three sets in its 11 cards at the start of deal 6 and goes
    out before drawing."""
    g = deal("seven-hand", SEVEN, "KS", "KC", first_round=6)
    assert g.phase == "draw" and any(isinstance(a, rk.Meld) for a in g.legal_actions())
    play(g, "meld 7H 7S 7D 7C / 9C 9D 9S 9H / 5H 5S 5D")
    assert g.history[-1]["winner"] == 1 and g.history[-1]["points"][1] == 0


def test_seven_hand_pat_before_drawing_needs_the_whole_hand():
    g = deal("seven-hand", SEVEN, "KS", "KC", first_round=6)
    illegal(g, "meld 7H 7S 7D", "could not be made")  # (the 7C would be left over)
    illegal(g, "meld 7H 7S 7D 7C / 9C 9D 9S / 5H 5S 5D", "must use every card")
    assert sorted(a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)) == [
        "meld 5D 5H 5S", "meld 7C 7D 7H 7S", "meld 9C 9D 9H 9S"]
    g2 = deal("seven-hand", SEVEN, "KS", "KC", first_round=5)  # not a pat round: draw first
    illegal(g2, "meld 7H 7S 7D / 9C 9D 9S", "Draw first")


EIGHT = ["2C 3C 5C 7C 9C JC KC 2D 4D 6D 8D", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
         "3S 5S 7S 9S JS KS 3D 5D 7D 9D JD"]


def test_seven_hand_eighth_hand_ace_to_jack_goes_down_pat():
    """The source's own example: one suit from Ace to Jack, the 11 cards as dealt."""
    g = deal("seven-hand", EIGHT, "QS", "5C", options={"deals": 8}, first_round=8)
    play(g, "meld AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    assert g.history[-1]["winner"] == 1


def test_seven_hand_eighth_hand_one_i_want_it_still_lets_a_player_go_out():
    """"You can only say 'I want it' ONE time": 11 cards and one buy (the card and a penalty
    card) make 13, A-K, the longest run without an ace at each end.  It could never go down:
    after drawing it held 14."""
    g = deal("seven-hand", [EIGHT[1], EIGHT[0], EIGHT[2]], "QH", "KH 6C 8C TC",
             options={"deals": 8}, first_round=8)
    play(g, "draw", "pass", "buy")  # seat 1 draws rather than take QH; seat 2 passes; seat 0 buys it
    assert len(g.hands[0]) == 13
    while g.current_player != 0 or g.phase != "draw":
        acts = g.legal_actions()
        g.apply(next((a for a in acts if isinstance(a, rk.Pass)), None) or next(
            a for a in acts if isinstance(a, (rk.Draw, rk.Discard)) and not getattr(a, "both", False)))
    play(g, "meld " + " ".join(rk.format_cards(sorted(g.hands[0])).split()))
    assert g.history[-1]["winner"] == 0


def test_seven_hand_i_want_it_only_for_the_top_card():
    g = deal("seven-hand", SEVEN, "KS", "KC QS JD TD")
    play(g, "draw", "pass", "pass", "discard KC")
    play(g, "draw", "buy")  # seat 0 takes KC with a penalty card
    assert g.phase == "play" and g.current_player == 2  # not offered the KS under it


def test_seven_hand_round_8_option_one_buy():
    sp = rk.get_variant("seven-hand").with_options({"deals": 8}).spec
    assert sp.num_deals() == 8 and sp.buying.limit_by_round[8] == 1


def test_seven_hand_rummy_call_sheds_a_card_the_called_card_stays():
    g = deal("seven-hand", SEVEN, "KS", "KC")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S")
    play(g, "discard 9H")  # it would play on the 9s
    assert g.phase == "call" and g.current_player == 2
    assert rk.CallRummy(rk.parse_card("KD")) in g.legal_actions()
    play(g, "rummy KD")
    assert [str(c) for c in g.discard[-2:]] == ["9H", "KD"]
    assert len(g.hands[2]) == 10 and g.current_player == 2 and g.phase == "draw"


def test_seven_hand_a_rummy_callers_shed_card_that_would_play_opens_a_rummy_call_too():
    """"At any time a player discards a card that would play on the table they call out
    RUMMY!" (seed 002): the caller's shed card is a discard like any other.  Seat 2 calls
    Rummy on 9H and sheds 7H, which would play on the 7s: seat 0, then seat 1 (the first
    discarder) may call on it; the turn still passes to seat 2."""
    hands = [SEVEN[0], SEVEN[1], "2C 3C 4C 5D 6D 8S TS JS QD KD 7H"]
    g = deal("seven-hand", hands, "KS", "KC QS JD TD")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard 9H")
    play(g, "rummy 7H")  # seat 2 calls on 9H and sheds 7H, which fits the 7s
    assert g.phase == "call" and g.current_player == 0
    assert g.view(0)["turn_state"]["queue"] == [0, 1]  # never the caller itself
    assert [rk.format_action(a) for a in g.legal_actions()][-1] == "pass"
    play(g, "pass")
    assert g.phase == "call" and g.current_player == 1
    play(g, "rummy 5H")  # seat 1 calls on 7H and sheds 5H, which fits nothing on the table
    assert [str(c) for c in g.discard[-3:]] == ["9H", "7H", "5H"]
    assert g.phase == "draw" and g.current_player == 2  # the turn order never jumped
    assert [len(h) for h in g.hands] == [11, 4, 10]


def test_seven_hand_swapped_joker_stays_on_the_table():
    assert rk.get_variant("seven-hand").spec.swap == "table_same_turn"


def test_seven_hand_card_values():
    v = rk.get_variant("seven-hand").spec.card_values
    assert (v["2"], v["7"], v["8"], v["K"], v["A"], v["JK"]) == (5, 5, 10, 10, 15, 20)


@pytest.mark.parametrize("vid", ["shanghai", "shanghai-powe", "shanghai-kolsov", "progressive",
                                 "ten-card", "seven-hand"])
def test_out_of_turn_windows_are_actions_of_the_seat_asked(vid):
    import random

    g = rk.new_game(vid, players=4, seed=9, first_round=min(9, rk.get_variant(vid).spec.num_deals()))
    rng = random.Random(1)
    seen = set()
    for _ in range(3000):
        if g.is_over:
            break
        if g.phase in ("may_i", "call"):
            seen.add(g.phase)
            assert g.current_player != g.current  # the seat asked, never the one whose turn it is
            window = (rk.Buy, rk.Pass, rk.CallShanghai, rk.CallRummy)
            assert all(isinstance(a, window) for a in g.legal_actions())
        g.apply(rng.choice(g.legal_actions()))
    assert seen


def test_combination_has_no_out_of_turn_taking_and_3_to_8_players():
    sp = rk.get_variant("combination").spec
    assert not sp.buy_allowed(1) and sp.players == (3, 8) and sp.no_playable_discard


def test_draw_and_discard_helper_keeps_hands():
    g = deal("shanghai", SH, "KS", "6H")
    draw_and_discard_it(g)
    assert sorted(g.hands[1]) == sorted(rk.parse_cards(SH[1]))


def test_seven_hand_a_run_may_be_split_into_two_runs():
    assert rk.get_variant("seven-hand").meets_contract(3, ["3H 4H 5H", "6H 7H 8H"])


def test_seven_hand_swapped_joker_must_go_back_on_the_table_that_turn():
    hands = ["AS 2S 6C 8C 8D TH JH QH 4D 5S 6S", "7H 7S 7D 3C 4C JK 9D 9S KH QD JD",
             "2C 3D 4S 5D 6D 8S TS JS QS KD AH"]
    g = deal("seven-hand", hands, "KS", "QC 2D 3H 5C 9C", first_round=2)
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 3C 4C JK=5C", "discard QC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw", "pass", "swap 5C 2")
    assert g.view(1)["must_place"] == ["JK"]
    illegal(g, "discard KH", "on the table before discarding")
    play(g, "layoff JK=7 1", "discard KH")
    assert "JK" not in g.view(1)["hand"]


def test_powe_deal_8_is_not_a_whole_hand_round_three_runs_of_4_leave_cards_over():
    v = rk.get_variant("shanghai-powe")
    assert 8 not in v.spec.whole_hand_rounds
    hand = "3H 4H 5H 6H 8C 9C TC JC 2S 3S 4S 5S KD"  # ten dealt, a draw and two bought cards
    found = v.find_contract(8, hand)
    assert found is not None and sorted(rk.format_cards(m) for m in found) == [
        "2S 3S 4S 5S", "3H 4H 5H 6H", "8C 9C TC JC"]  # KD is left over, to discard
    assert v.meets_contract(8, ["3H 4H 5H 6H", "8C 9C TC JC", "2S 3S 4S 5S"])
    g = rk.new_game("shanghai-powe", players=3, seed=1, first_round=8)
    assert "whole hand" not in g.contract_text() and not g.view(0)["contract"].endswith("(no discard)")
    assert not v.spec.go_out_by_discard  # powe keeps its own rule: nobody goes out by discarding


def test_seven_hand_a_14_card_run_ace_to_ace_is_legal_outside_deal_8():
    v = rk.get_variant("seven-hand")
    run = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert v.is_valid_meld(P(run))
    assert v.meets_contract(7, [run, "2C 3C 4C", "9S TS JS"], hand=run + " 2C 3C 4C 9S TS JS")
    # deal 8 (the one-run pat) forbids an ace at each end
    assert not v.meets_contract(8, [run], hand=run)
    assert v.meets_contract(8, ["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
                            hand="AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")


def test_low_or_high_with_two_decks_a_14_card_run_ace_to_ace_in_every_such_ruleset():
    run = P("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    for vid in rk.variant_ids():
        v = rk.get_variant(vid)
        decks = v.spec.pack_for(v.spec.players[1])[0]
        if v.spec.ace_mode == "low_or_high" and decks >= 2:
            assert v.is_valid_meld(run, v.spec.players[1]), vid


def test_powe_at_least_contract_extra_melds_keep_one_run_per_suit():
    """Powe allows one run per suit; with the house rule contract_count = "at_least" the melds
    added beyond the contract must keep it too.  JH QH KH AH and 3C-6C meet deal 3's two runs
    of four; 5H 6H 7H would be a second run of hearts (it was offered, then refused as "not
    the contract: exactly two runs of four")."""
    g = deal("shanghai-powe", ["AS 2S 6S 3D 4D TS JS QD KD 9C", "JH QH KH AH 3C 4C 5C 6C 5H 6H",
                                "2D 4S 8C 5D 6D TC JC QC KC 9D"], "KS", "7H 8D 8S 9S", first_round=3,
             options={"contract_count": "at_least"})
    play(g, "draw", "pass", "pass")
    melds = [a for a in g.legal_actions() if isinstance(a, rk.Meld)]
    assert melds
    for m in melds:
        hearts_runs = [grp for grp in m.text()[5:].split(" / ") if "H" in grp and "C" not in grp]
        assert len(hearts_runs) <= 1, m.text()
        g.copy().apply(m)  # every meld offered is accepted
    illegal(g, "meld JH QH KH AH / 3C 4C 5C 6C / 5H 6H 7H", "at least")


def ways_down(g, seat):
    """The hands ``seat`` is left with after laying its contract down through listed melds
    only, each way (in card notation)."""
    out, seen = set(), set()

    def go(x):
        if x.down[seat]:
            out.add(rk.format_cards(sorted(x.hands[seat])))
            return
        key = (tuple(sorted(x.hands[seat])), tuple(tuple(sorted(m.cards)) for m in x.table))
        if key in seen:
            return
        seen.add(key)
        for a in x.legal_actions():
            if isinstance(a, rk.Meld):
                y = x.copy()
                y.apply(a)
                go(y)

    go(g)
    return out


def test_powe_contract_is_offered_keeping_a_card_back_when_the_best_would_leave_one_unplayable():
    """Deal 4, three sets: 3C 3D 3S 3S / 5D 5S 5S / 9C 9H 9S leaves 8D alone, which powe can
    neither play nor discard; keeping a 3S back as well is legal (it was not offered: the
    best arrangement was refused and nothing else was tried)."""
    g = deal("shanghai-powe", ["AS 2S 6S 3D 4D TS JS QD KD 9C", "3C 3D 3S 3S 5D 5S 5S 9C 9H 9S",
                                "2D 4S 8C 5D 6D TC JC QC KC 9D"], "KS", "8D 8H 8S 9S", first_round=4)
    play(g, "draw", "pass", "pass")
    # every way down through the listed melds keeps a card beside the 8D, none leaves it alone
    left = ways_down(g, 1)
    assert "3C 8D" in left and "8D" not in left
    play(g, "meld 9C 9H 9S", "meld 3D 3S 3S", "meld 5D 5S 5S")
    assert sorted(g.hands[1]) == sorted(P("3C 8D"))


def test_ten_card_a_meld_after_the_contract_is_offered_with_each_wild_the_player_holds():
    """Which wild card a new meld spends is the player's choice: 2H 2S 4C 4C 9D KD is
    offered the set 4C 4C 2H=4 and 4C 4C 2S=4 (keeping the 2H for a heart run), and
    2C 8C 9C JK KD AC the run JK=7C 8C 9C and 2C=7C 8C 9C (keeping the joker).  Only the
    first wild was offered before."""
    for cards, want in [("2H 2S 4C 4C 9D KD", ["meld 4C 4C 2H=4", "meld 4C 4C 2S=4"]),
                        ("2C 8C 9C JK KD AC", ["meld JK=7C 8C 9C", "meld 2C=7C 8C 9C"])]:
        g = rk.new_game("ten-card", players=4, seed=2)
        seat = g.current
        set_hand(g, seat, rk.parse_cards(cards))
        # (everyone met the contract on an earlier turn)
        set_position(g, down=[True] * 4, down_turn=[-5] * 4)
        offered = [a.text() for a in g.legal_actions() if isinstance(a, rk.Meld)]
        for text in want:
            assert text in offered
            g.copy().apply(text)


# -- May I / buy: the same player may not take two successive cards ----------------------


@pytest.mark.parametrize("ruleset, first_round", [
    ("contract", 1), ("shanghai", 1), ("shanghai-kolsov", 1), ("shanghai-powe", 1), ("progressive", 12)])
def test_the_same_player_may_not_take_two_successive_discards_out_of_turn(ruleset, first_round):
    """Contract Rummy (seed 001): "it is possible for a different player to take the next card
    ... the same player is not allowed to take two successive cards".  Shanghai's basic rules
    "are as in Contract Rummy" (powe and kolsov are its versions), and Progressive's rules are
    Contract Rummy's "unless otherwise stated": the rule is theirs too (RULES.md 4.3 omits it)."""
    size = rk.get_variant(ruleset).spec.cards_dealt(first_round, 3)
    hands = [h[: 3 * size - 1] for h in SH]  # (10 or 11 cards: the first `size`)
    assert [len(P(h)) for h in hands] == [size] * 3 and "KC" in hands[1] and "KD" in hands[2]
    g = deal(ruleset, hands, "KS", "6H 7C 3D 3S 4S JC 5C 6D 7S 8H 9H TC", first_round=first_round)
    play(g, "draw", "pass", "pass", "discard KC")  # seat 1 discards KC over the upcard KS
    play(g, "draw", "pass", "discard KD")  # seat 2 (seat 0 passed on KC) discards KD
    play(g, "draw", "buy")  # seat 0 declines KD: seat 1 takes it, and KC is exposed
    assert g.current_player == 2 and g.view(2)["discard_top"] == "KC"
    play(g, "buy")  # seat 2 takes KC: KS is exposed
    ts = g.view(1)["turn_state"]
    assert g.view(1)["discard_top"] == "KS" and g.current_player == 1
    assert ts["queue"] == [1], "seat 2 took KC, so it may not take KS next"
    play(g, "pass")
    assert g.phase == "play" and g.current_player == 0


def test_seven_hand_a_rummy_caller_may_not_take_back_its_shed_card_on_its_own_turn():
    """RULES.md 4.3's decision, "nobody takes back its own discard": seat 2 calls Rummy on
    seat 1's 9H and sheds KD; its turn comes next, and the KD on top is its own."""
    g = deal("seven-hand", SEVEN, "KS", "KC QS JD TD")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard 9H", "rummy KD")
    assert g.current_player == 2 and g.phase == "draw" and g.view(2)["discard_top"] == "KD"
    assert rk.Take() not in g.legal_actions()
    illegal(g, "take", "your own discard")


def test_progressive_a_player_may_not_buy_or_take_back_its_own_discard_on_its_own_turn():
    """Deal 12 allows two buys, on one's own turn too: seat 1 buys seat 0's discard, then
    seat 2's, and finds its own KC on top, which it may neither buy nor take back."""
    g = deal("progressive", SH, "KS", "6H 7C 3D 3S 4S JC 5C 6D 7S 8H", first_round=12)
    play(g, "draw", "pass", "pass", "discard KC")  # seat 1
    play(g, "draw", "pass", "discard KD")  # seat 2 (seat 0 passed on KC)
    play(g, "draw", "pass", "discard 8C")  # seat 0 (seat 1 passed on KD)
    play(g, "buy", "buy")  # seat 1, on its own turn: 8C, then KD
    assert g.current_player == 1 and g.phase == "draw" and g.view(1)["discard_top"] == "KC"
    assert rk.Take() not in g.legal_actions() and rk.Buy() not in g.legal_actions()
    illegal(g, "take", "your own discard")


def test_seven_hand_a_bot_may_shed_the_ace_of_clubs_when_it_calls_rummy():
    # the ace of clubs is card 0: the bot's call read "a.card" as a truth value, so AC was never
    # a card to shed, and a caller whose only card to shed was AC crashed (IndexError, seen in a
    # hard bot's rollout of the ladder)
    from rummykit.players import HeuristicPlayer

    hands = [SEVEN[0], SEVEN[1], "2C 3C 4C 5D 6D 8S TS JS QD KD AC"]
    g = deal("seven-hand", hands, "KS", "KC")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard 9H")
    assert g.phase == "call" and g.current_player == 2
    ac = rk.parse_card("AC")
    acts = [a for a in g.legal_actions() if a in (rk.CallRummy(ac), rk.Pass())]
    assert acts == [rk.CallRummy(ac), rk.Pass()]
    assert HeuristicPlayer(2).choose(g.view(2), acts) == rk.CallRummy(ac)
