"""The public surface that tests outside this repository rely on (README, "The API"), each
name used once, and the README's quick start run as written: a loop that ends."""

import re
from pathlib import Path

import rummykit as rk

README = Path(__file__).resolve().parents[1] / "README.md"
P = rk.parse_cards


def test_readme_quick_start_runs_and_its_loop_ends():
    text = README.read_text()
    code = re.search(r"## Quick start\n\n```python\n(.*?)```", text, re.S)
    assert code, "the README has a Quick start code block"
    scope: dict = {}
    exec(compile(code.group(1), "README.md", "exec"), scope)  # noqa: S102 - our own README
    g = scope["g"]
    assert g.is_over and len(g.history) == 7


def test_new_game_with_deck_dealer_and_first_round():
    v = rk.get_variant("contract")
    top = P("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    g = rk.new_game(v, players=3, seed=0, deck=top, dealer=0, first_round=4)
    assert g.round_no == 4 and g.n == 3 and g.current_player == 1
    assert all(c in g.hands[1] for c in P("AH 4H 7H TH"))  # dealt one at a time from seat 1


def test_variant_with_options_values_and_spec():
    v = rk.get_variant("contract")
    w = v.with_options({"card_values": {**v.spec.card_values, "A": 20}})
    assert v.values[rk.parse_card("AS")] == 15 and w.values[rk.parse_card("AS")] == 20
    assert v.spec.pack_for(4) == (2, 3)
    assert v.spec.cards_dealt(1, 4) == 10 and v.spec.cards_dealt(4, 4) == 12
    assert rk.get_variant("wrotham").spec.starter_extra_card and not v.spec.starter_extra_card


def test_game_round_no_winners_history_n_and_action_classes():
    g = rk.new_game("liverpool", players=3, seed=2)
    assert g.legal_actions() == [rk.Cut()] and g.n == 3 and g.round_no == 1
    g.apply(rk.Cut())
    acts = g.legal_actions()
    assert rk.Draw() in acts and rk.Take() in acts
    for cls in (rk.Draw, rk.Take, rk.Meld, rk.LayOff, rk.Swap, rk.Discard, rk.Buy, rk.Pass, rk.Cut,
                rk.CallShanghai, rk.CallRummy):
        assert issubclass(cls, rk.Action)
    assert rk.parse_action("discard 7H") == rk.Discard(rk.parse_card("7H"))
    assert rk.format_action(rk.LayOff(rk.parse_card("9H"), 2)) == "layoff 9H 3"
    g2 = rk.new_game("basic", players=2, seed=4)
    import random

    rng = random.Random(4)
    while not g2.is_over:
        g2.apply(rng.choice(g2.legal_actions()))
    assert g2.history and all("reason" in r for r in g2.history)
    assert g2.winners == [s for s in range(2) if g2.scores[s] == max(g2.scores)]
