"""``Game.claim_window()`` and ``Game.claim_view(seat)``: an open out-of-turn window read
ahead — the seats it asks in priority order and what each is offered if those ahead of it
pass — equal to what the engine offers when the window really reaches the seat, and
asking changes nothing."""

from __future__ import annotations

import random

import pytest
from conftest import deal, play, snapshot
from test_call_rulesets import SEVEN, SH
from test_contract_family import S0, S1, S2

import rummykit as rk
from rummykit.engine.claims import ClaimWindow
from rummykit.engine.game import Game


def reached(g: Game, seat: int) -> Game:
    """A copy of ``g`` after every seat ahead of ``seat`` in the open window passed."""
    h = g.copy()
    while h.current_player != seat:
        h.apply("pass")
    assert h.phase == g.phase and h.discard == g.discard
    return h


def texts(actions: tuple[rk.Action, ...] | list[rk.Action]) -> list[str]:
    return [rk.format_action(a) for a in actions]


def unchanged_by_asking(g: Game) -> ClaimWindow | None:
    """The window, asked for (and each seat's read-ahead view) while checking that asking
    changes nothing: state_id, legal actions, every view and the whole position."""
    before = (g.state_id, texts(g.legal_actions()), snapshot(g))
    cw = g.claim_window()
    if cw is not None:
        for s in cw.seats:
            g.claim_view(s)
    assert (g.state_id, texts(g.legal_actions()), snapshot(g)) == before
    return cw


def check_offers(g: Game) -> None:
    """Every seat of the open window is offered, and sees, what the engine offers it and
    shows it once the seats ahead of it have passed."""
    cw = unchanged_by_asking(g)
    assert cw is not None
    assert cw.seats[0] == g.current_player and cw.offer(cw.seats[0]) == tuple(g.legal_actions())
    for s in cw.seats:
        h = reached(g, s)
        assert texts(cw.offer(s)) == texts(h.legal_actions()), f"seat {s}"
        want = h.view(s)
        got = g.claim_view(s)
        assert {k: v for k, v in got.items() if k != "state_id"} == {
            k: v for k, v in want.items() if k != "state_id"}, f"seat {s}"


# -- May I? windows (contract, may-i, liverpool) ---------------------------------------------


@pytest.mark.parametrize("vid", ["contract", "may-i"])
def test_a_may_i_window_offers_each_seat_what_it_gets_when_the_window_reaches_it(vid: str) -> None:
    g = deal(vid, [S0, S1, S2], "KS", "6H 7C 9H 5S 4S 3S")
    assert g.claim_window() is None  # seat 1 to draw: no window
    play(g, "draw")  # seat 1 declines the KS: seat 2, then seat 0, may take it
    cw = g.claim_window()
    assert cw is not None
    assert (cw.kind, cw.seats, str(cw.card), cw.penalty) == ("may_i", (2, 0), "KS", 1)
    assert [texts(cw.offer(s)) for s in cw.seats] == [["buy", "pass"], ["buy", "pass"]]
    assert cw.offer(1) == ()  # the seat to play is not asked
    check_offers(g)


def test_a_may_i_window_after_a_buy_offers_the_card_under_it() -> None:
    """contract: a taken card exposes the one under it, and a new window asks for it —
    never the seat that took the last one."""
    g = deal("contract", [S0, S1, S2], "KS", "6H 7C 9H 5S 4S 3S 2D 3D")
    play(g, "draw", "pass", "pass", "discard KC")  # seat 1 discards KC on KS
    play(g, "draw", "pass", "discard KD")  # seat 2 discards KD
    play(g, "draw")  # seat 0 declines KD: seat 1 is asked
    cw = g.claim_window()
    assert cw is not None and (cw.seats, str(cw.card)) == ((1,), "KD")
    play(g, "buy")
    cw = g.claim_window()
    assert cw is not None and (cw.seats, str(cw.card)) == ((2,), "KC")
    check_offers(g)


def test_a_liverpool_window_after_the_cut_asks_three_seats_in_turn_order() -> None:
    g = rk.new_game("liverpool", players=4, seed=3, dealer=0)
    play(g, "cut")  # seat 1 plays first
    top = str(g.discard[-1])
    play(g, "draw")
    cw = g.claim_window()
    assert cw is not None
    assert (cw.kind, cw.seats, str(cw.card), cw.penalty) == ("may_i", (2, 3, 0), top, 1)
    check_offers(g)
    play(g, "pass")  # seat 2 passes: the window goes on with the other two
    cw2 = g.claim_window()
    assert cw2 is not None and cw2.seats == (3, 0) and cw2.offers == cw.offers[1:]
    check_offers(g)


# -- a buy window under another verb (shanghai-powe: "buy", two penalty cards) ---------------


def test_a_buy_window_is_kind_buy_with_its_penalty() -> None:
    g = deal("shanghai-powe", [" ".join(h.split()[:10]) for h in SH], "KS", "6H 7C 3D 3S 4S JC 5C 6D")
    play(g, "draw")
    cw = g.claim_window()
    assert cw is not None
    assert (cw.kind, cw.seats, str(cw.card), cw.penalty) == ("buy", (2, 0), "KS", 2)
    check_offers(g)


# -- call windows: the offer depends on the seat --------------------------------------------


def test_a_shanghai_call_window_offers_each_seat_the_lay_off() -> None:
    g = deal("shanghai", SH, "KS", "6H 7C 3D 3S 4S JC")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard 9H")
    cw = g.claim_window()
    assert cw is not None
    assert (cw.kind, cw.seats, str(cw.card), cw.penalty) == ("shanghai", (2, 0), "9H", 0)
    assert [texts(cw.offer(s)) for s in cw.seats] == [["shanghai 9H 2", "pass"]] * 2
    check_offers(g)


def test_a_rummy_call_window_offers_each_seat_its_own_cards() -> None:
    g = deal("seven-hand", SEVEN, "KS", "KC")
    play(g, "draw", "pass", "pass", "meld 7H 7S 7D / 9C 9D 9S", "discard 9H")
    cw = g.claim_window()
    assert cw is not None and (cw.kind, cw.seats) == ("rummy", (2, 0))
    assert "rummy KD" in texts(cw.offer(2)) and "rummy KD" not in texts(cw.offer(0))
    assert "rummy QH" in texts(cw.offer(0)) and "rummy QH" not in texts(cw.offer(2))
    check_offers(g)


# -- every window of some random games -------------------------------------------------------


@pytest.mark.parametrize("vid", ["contract", "liverpool", "may-i", "shanghai", "seven-hand"])
def test_every_window_of_a_random_game_reads_ahead_what_the_engine_offers(vid: str) -> None:
    rng = random.Random(vid)
    g = rk.new_game(vid, players=4, seed=11)
    windows = 0
    for _ in range(400):
        if g.is_over:
            break
        if g.phase in ("may_i", "call"):
            windows += 1
            check_offers(g)
        else:
            assert unchanged_by_asking(g) is None
        g.apply(rng.choice(g.legal_actions()))
    assert windows > 0


def test_claim_view_refuses_a_seat_not_asked() -> None:
    g = deal("contract", [S0, S1, S2], "KS", "6H 7C 9H 5S 4S 3S")
    with pytest.raises(ValueError):
        g.claim_view(1)
    play(g, "draw")
    with pytest.raises(ValueError, match="not asked"):
        g.claim_view(1)
