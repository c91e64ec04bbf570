"""The help the browser's table gives about a hand and the rules, as pure functions: groups
judged as melds and toward the contract (rules/progress.py), house rules in sentences
(rules/options.py), whether an offered card fits (players/fits.py), the hand arranged
(players/arrange.py), and the buying penalty named once (RuleSpec.buy_penalty)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import deal

import rummykit as rk
from rummykit.cards import parse_card
from rummykit.melds import readings
from rummykit.players.arrange import arrange, partial_melds
from rummykit.players.fits import card_fits
from rummykit.rules import options as words
from rummykit.rules.progress import check_group, check_groups
from rummykit.server.app import ruleset_options, variant_from_rules_text

P = rk.parse_cards


def judged(ruleset: str, round_no: int, groups: list[str], *, down: bool = False,
           options: dict[str, object] | None = None, players: int = 4) -> tuple[list[dict], dict | None]:
    v = rk.get_variant(ruleset).with_options(options)
    checks, contract = check_groups(v, round_no, players, [P(g) for g in groups], down=down)
    return [c.public() for c in checks], None if contract is None else contract.public()


# -- meld checks ---------------------------------------------------------------------------


def test_check_a_set_and_a_run_with_a_joker_meet_a_set_and_a_run_of_four() -> None:
    groups, contract = judged("contract", 2, ["7H 7S 7D", "3H 4H JK 6H"])
    assert groups == [{"ok": True, "kind": "set", "text": "a set of 7s"},
                      {"ok": True, "kind": "run", "text": "a run of hearts from 3H to 6H with one wild card"}]
    assert contract == {"need": 2, "ready": 2, "ok": True, "text": "2 of 2 melds ready: the contract is met"}


def test_check_says_why_a_group_is_no_meld() -> None:
    rules = rk.get_variant("contract").meld_rules(4, 2)
    why = {g: check_group(P(g), rules).text for g in
           ["7H 7S", "3H 4H 5H", "7H 8S 9D", "KH KS KD QH", "3H 4H 9H 6H", "3H 4H 4H 5H", "JK JK JK"]}
    assert why == {
        "7H 7S": "two cards: a meld needs at least 3",
        "3H 4H 5H": "three cards: a run needs at least 4",
        "7H 8S 9D": "not one suit: a run's cards are all of one suit",
        "KH KS KD QH": "not one rank: a set's cards are all of one rank",
        "3H 4H 9H 6H": "a gap between 4H and 6H",
        "3H 4H 4H 5H": "4H twice: a run has one card of each rank",
        "JK JK JK": "only wild cards: a meld needs a natural card",
    }
    assert not any(check_group(P(g), rules).ok for g in why)


def test_check_a_wild_limit_and_aces_are_the_tables_rules() -> None:
    rules = rk.get_variant("ten-card").meld_rules(4, 1)  # never more wilds than naturals
    assert check_group(P("7H JK 2C"), rules).text.startswith("too many wild cards: never more wild")
    basic = rk.get_variant("basic").meld_rules(2)
    assert check_group(P("QH KH AH"), basic).text == "aces are low only (A-2-3)"
    high = rk.get_variant("basic").with_options({"ace_mode": "low_or_high"}).meld_rules(2)
    assert check_group(P("QH KH AH"), high).ok  # the house rule is what judges


def test_check_counts_the_melds_ready_by_kind_and_size() -> None:
    _, contract = judged("contract", 2, ["7H 7S", "3H 4H 5H 6H"])
    assert contract == {"need": 2, "ready": 1, "ok": False,
                        "text": "1 of 2 melds ready: still a set of three"}
    _, contract = judged("contract", 5, ["7H 7S 7D", "KH KS KD", "3C 4C 5C"])  # 2S3+R4
    assert contract is not None and contract["ready"] == 2 and not contract["ok"]
    assert contract["text"] == "2 of 3 melds ready: still a run of four"
    # a set matched where a run is asked does not count: the matching is by kind
    _, contract = judged("contract", 3, ["7H 7S 7D 7C", "3H 4H 5H 6H"])  # 2R4
    assert contract is not None and contract["ready"] == 1


def test_check_melds_of_the_right_sizes_may_still_not_make_the_contract_together() -> None:
    _, contract = judged("contract", 3, ["3H 4H 5H 6H", "7H 8H 9H TH"])  # two runs touching
    assert contract is not None and contract["ready"] == 2 and not contract["ok"]
    assert "two runs of one suit may not be contiguous" in contract["text"]
    _, contract = judged("contract", 1, ["7H 7S 7D", "8H 8S 8D", "9C 9D 9S"])  # exactly the contract
    assert contract is not None and not contract["ok"] and "exactly the contract" in contract["text"]
    _, contract = judged("contract", 1, ["7H 7S 7D", "8H 8S"])
    assert contract is not None and contract["ready"] == 1 and not contract["ok"]


def test_check_has_no_contract_part_once_down_or_without_contracts() -> None:
    groups, contract = judged("contract", 1, ["7H 7S 7D"], down=True)
    assert contract is None and groups[0]["ok"]
    groups, contract = judged("basic", 1, ["7H 7S 7D", "AH 2H"], players=2)
    assert contract is None and [g["ok"] for g in groups] == [True, False]


def test_check_counts_the_melds_laid_this_turn_going_down_in_steps() -> None:
    # Contract deal 1 (two sets of three): 7C 7D 7H is laid as the first step; the meld areas
    # then judge 9C 9D 9H against the set still to lay, and count the one laid
    v = rk.get_variant("contract")
    rd = readings(P("7C 7D 7H"), v.meld_rules(4, 1))[0]
    checks, contract = check_groups(v, 1, 4, [P("9C 9D 9H")], down=False, laid=[rd])
    assert contract is not None and contract.public() == {
        "need": 2, "ready": 2, "ok": True, "text": "2 of 2 melds ready (1 laid): the contract is met"}
    checks, contract = check_groups(v, 1, 4, [P("9C 9D")], down=False, laid=[rd])
    assert contract is not None
    assert contract.public()["text"] == "1 of 2 melds ready (1 laid): still a set of three"


def test_check_a_pair_counts_where_the_contract_asks_for_one() -> None:
    groups, contract = judged("progressive", 14, ["5H 5S 5D 5C 5H", "3C 4C 5C 6C 7C", "9H 9S"])
    assert groups[2] == {"ok": True, "kind": "pair", "text": "a pair of 9s"}
    assert contract is not None and contract["ok"], contract


# -- house rules in words ------------------------------------------------------------------


def test_every_option_of_every_ruleset_has_a_label_help_and_a_sentence_for_each_value() -> None:
    for vid in rk.variant_ids():
        v = rk.get_variant(vid)
        for o in ruleset_options(v):
            key = o["key"]
            assert o["label"] == words.label(key) and not o["label"][0].islower(), key
            assert o["help"].endswith(".") and len(o["help"]) > 20, key
            values: list[object] = {"bool": [True, False], "choice": o.get("choices", [])}.get(
                o["type"], [o["default"], o.get("min", 0), 7, None if o.get("nullable") else 9])
            for x in values:
                s = words.sentence(key, x, v.spec)
                assert not s[0].islower() and s.endswith(".") and "_" not in s, (key, x, s)  # no raw key
            if o["type"] == "choice":
                assert set(o["choice_labels"]) == set(o["choices"]), key
                assert all(o["choice_labels"].values())
                assert len(set(o["sentences"].values())) == len(o["choices"]), key  # one each, different
            if o["type"] == "bool":
                assert o["sentences"]["true"] != o["sentences"]["false"], key
            assert o["sentence"] == words.sentence(key, o["default"], v.spec)


def test_a_tables_differences_are_its_options_as_sentences() -> None:
    contract = rk.get_variant("contract")
    played = contract.with_options({"twos_wild": True, "ace_mode": "low", "deals": 2,
                                    "buying": {"extra_cards": 2}})
    assert words.differences(played, contract) == [
        "The match is 2 deals.", "Aces are low only (A-2-3).", "2s are wild.",
        "May I takes 2 cards from the stock with the discard."]
    assert words.differences(contract, contract) == []
    # an option set to the ruleset's own value is no difference
    assert words.differences(contract.with_options({"twos_wild": False}), contract) == []


def test_a_house_rules_files_differences_are_from_the_ruleset_it_extends() -> None:
    v = variant_from_rules_text("extends = 'contract'\nid = 'ours'\nname = 'Ours'\nmin_run = 3\n"
                                "contracts = ['2S3', 'S3+R3']\ndeals = 2\nhand_size = [10, 10]\n"
                                "whole_hand_rounds = []\ncard_values = { JK = 50 }\n")
    said = words.differences(v, rk.get_variant("contract"))
    assert said == ["The match is 2 deals.", "A run needs at least 3 cards.",
                    "The contracts: 1. two sets of three; 2. a set of three and a run of three.",
                    "Card values: joker = 50."]


def test_buying_is_worded_whole_where_the_base_has_none() -> None:
    basic = rk.get_variant("basic")
    said = words.differences(basic.with_options({"buying": {"extra_cards": 0, "limit": 3}}), basic)
    assert said[0].startswith("May I: when the player to draw passes on the discard")
    assert "May I takes 0 cards from the stock with the discard." in said
    assert "May I: at most 3 a deal." in said


# -- the buying penalty, named once --------------------------------------------------------


def test_buy_penalty_is_the_stock_cards_taken_with_the_discard_in_that_deal() -> None:
    assert rk.get_variant("contract").spec.buy_penalty(1) == 1
    assert rk.get_variant("shanghai").spec.buy_penalty(3) == 2
    assert rk.get_variant("basic").spec.buy_penalty(1) == 0  # no buying at all
    v = rk.get_variant("contract").with_options({"buying": {"extra_cards_by_round": {"3": 0},
                                                            "rounds": [1, 3, 4]}})
    assert [v.spec.buy_penalty(r) for r in (1, 2, 3, 4)] == [1, 0, 0, 1]  # deal 2: no buying


# -- does an offered card fit ----------------------------------------------------------------


HANDS = ["7C 7D KC KD 2H 5S 9S JS 4D 6C", "7H 7S 9C TC JC QC KC AC 2D 3D", "7D KH KS 4H 5H 6H 8H 9H TH JH"]


def test_a_card_fits_when_it_brings_the_contract_closer() -> None:
    g = deal("contract", HANDS, "AD", "QS 3S 4S")
    v = g.view(0)  # two sets of three: pairs of 7s and Ks held
    fits = {c: card_fits(v, parse_card(c), g.variant) for c in ("7H", "KS", "JK", "AD", "3C", "8D")}
    assert fits == {"7H": True, "KS": True, "JK": True, "AD": False, "3C": False, "8D": False}


def test_without_a_contract_a_card_fits_when_it_starts_a_meld_with_the_hand() -> None:
    g = deal("basic", ["7C 8C 6D 9D QD AH 4H 5H 6H 9H", "4C 5C 9C TC 3D 8D TD JH 2S 7S"], "KS", "")
    v = g.view(0)
    fits = {c: card_fits(v, parse_card(c), g.variant) for c in ("7H", "9C", "TD", "KS", "3S", "2H")}
    # 7H: 4H-6H, 9C: 7C 8C and the 9s, TD: 9D QD (two apart), 2H: AH; KS, 3S: nothing near
    assert fits == {"7H": True, "9C": True, "TD": True, "KS": False, "3S": False, "2H": True}
    with pytest.raises(ValueError, match="spectator"):
        card_fits(g.view(None), parse_card("7H"), g.variant)


# -- the hand arranged ---------------------------------------------------------------------


def _whole(hand: list[str], a: dict[str, list]) -> None:
    """Each card of the hand in exactly one group or in the rest."""
    assert Counter(hand) == Counter([c for grp in a["groups"] for c in grp] + a["rest"])


def test_arrange_a_hand_that_meets_the_contract_is_the_solvers_arrangement() -> None:
    g = deal("contract", ["8D 8H JK 5D 5H 5S TC 4D 2H QH", HANDS[1], HANDS[2]], "AD", "QS")
    v = g.view(0)
    a = arrange(v, g.variant).public()
    assert a["groups"] == [[str(c) for c in m] for m in g.variant.find_contract(1, P(v["hand"]), 3)]
    assert a["text"].startswith("You can lay down the contract (two sets of three)")
    _whole(v["hand"], a)


def test_arrange_a_hand_short_of_the_contract_groups_its_kinds_first() -> None:
    g = deal("contract", HANDS, "AD", "QS")  # two sets of three: 7s and Ks first
    v = g.view(0)
    a = arrange(v, g.variant).public()
    assert a["groups"][:2] == [["KC", "KD"], ["7C", "7D"]] or a["groups"][:2] == [["7C", "7D"], ["KC", "KD"]]
    assert "2 cards short" in a["text"]
    _whole(v["hand"], a)
    g3 = deal("contract", HANDS, "AD", "QS", first_round=3)  # two runs of four: suits first
    v3 = g3.view(2)
    a3 = arrange(v3, g3.variant).public()
    assert a3["groups"][:2] == [["4H", "5H", "6H"], ["8H", "9H", "TH", "JH"]]
    assert a3["text"].startswith("Toward the contract (two runs of four): 1 card short.")
    _whole(v3["hand"], a3)


def test_arrange_groups_first_what_working_toward_it_lists() -> None:
    # one evaluation: the hint's "Working toward it" and the Arrange control's first groups are
    # the same partial melds, and say the same shortfall (Arrange had its own greedy grouping
    # and the solver's lower bound, "at least 1 card short", beside the hint's 2)
    from rummykit.players import HeuristicPlayer

    for vid, first_round, seat in (("contract", 1, 0), ("contract", 3, 2), ("may-i", 2, 1)):
        g = deal(vid, HANDS, "AD", "QS", first_round=first_round)
        v = g.view(seat)
        got = HeuristicPlayer(0).progress(v)
        a = arrange(v, g.variant).public()
        assert a["groups"][:len(got["melds"])] == [m["cards"] for m in got["melds"]], (vid, a, got)
        assert f"{got['short']} card" in a["text"], (a["text"], got["text"])
        _whole(v["hand"], a)


def test_arrange_counts_identical_copies_and_gives_each_card_one_group() -> None:
    rules = rk.get_variant("may-i").meld_rules(4, 1)
    groups = partial_melds(P("7C 7C 7D 6C 8C JK 2S"), rules, {"set": 1, "run": 0})
    assert [str(c) for c in groups[0]] == ["7C", "7C", "7D"]
    flat = [c for g in groups for c in g]
    assert Counter(flat) <= Counter(P("7C 7C 7D 6C 8C JK 2S"))
    # a wild card completes a group it makes a meld
    groups = partial_melds(P("7C 7D 3H 5H JK"), rk.get_variant("basic").meld_rules(2), {"set": 1, "run": 1})
    assert any(len(g) == 3 and parse_card("JK") in g for g in groups)


def test_arrange_without_a_contract() -> None:
    g = deal("basic", ["7C 8C 6D 9D QD AH 4H 5H 6H 9H", "4C 5C 9C TC 3D 8D TD JH 2S 7S"], "KS", "")
    v = g.view(0)
    a = arrange(v, g.variant).public()
    assert ["4H", "5H", "6H"] in a["groups"] and "1 meld ready" in a["text"]
    _whole(v["hand"], a)
