"""The engine's public view, view(None): what a spectator may see."""

from __future__ import annotations

import json

import pytest

import rummykit as rk
from rummykit.players import make_player

OWN = {"seat", "hand", "taken", "must_place"}


def _positions(ruleset: str, seed: int, steps: int) -> list[rk.Game]:
    g = rk.new_game(ruleset, players=4, seed=seed)
    out = []
    for i in range(steps):
        if g.is_over:
            break
        seat = g.current_player
        g.apply(make_player("medium", seed=i).choose(g.view(seat), g.legal_actions()))
        out.append(rk.replay(g.record()))
    return out


@pytest.mark.parametrize("ruleset", ["contract", "may-i", "shanghai", "basic"])
def test_spectator_view_is_every_seats_public_part_and_no_hand(ruleset: str) -> None:
    for g in _positions(ruleset, 3, 60):
        pub = g.view(None)
        assert pub["seat"] is None and pub["hand"] == [] and pub["taken"] is None and pub["must_place"] == []
        public = {k: x for k, x in pub.items() if k not in OWN}
        for s in range(g.n):
            assert {k: x for k, x in g.view(s).items() if k not in OWN} == public
        json.dumps(pub)


def test_spectator_view_holds_no_card_of_a_hand_that_was_never_shown() -> None:
    g = rk.new_game("contract", players=4, seed=1)
    text = json.dumps(g.view(None))
    assert '"hand": []' in text
    for s in range(4):
        assert json.dumps(g.view(s)["hand"])[1:-1] not in text


def test_a_seat_out_of_range_is_refused_but_none_is_the_public_view() -> None:
    g = rk.new_game("basic", players=2, seed=1)
    with pytest.raises(ValueError, match="seat must be a seat number 0-1, not 2"):
        g.view(2)
    assert g.view(None)["hand_sizes"] == [10, 10]
