"""Turn helpers for rule tests."""

from __future__ import annotations

import rummykit as rk
from rummykit.engine.game import Game


def pass_window(g: Game) -> None:
    while g.phase == "may_i":
        g.apply("pass")


def draw_and_discard_it(g: Game) -> None:
    """The seat to play draws from the stock (everyone passes on the discard) and
    discards the card it drew, so hands stay as dealt."""
    seat = g.current
    round_no = g.round_no
    g.apply("draw")
    pass_window(g)
    if g.round_no != round_no or g.is_over:
        return
    drawn = g.hands[seat][-1]
    g.apply(f"discard {drawn}")


def run_out_stock(g: Game, max_turns: int = 5000) -> None:
    """Draw-and-discard until the round ends or the stock is empty at a turn's start."""
    r = g.round_no
    for _ in range(max_turns):
        if g.round_no != r or g.is_over or not g.stock:
            return
        draw_and_discard_it(g)
    raise AssertionError("the stock never ran out")


def events(g: Game, verb: str) -> list[dict]:
    return [e for e in g.log if e["verb"] == verb]


def count_restocks_until_round_ends(g: Game, max_turns: int = 20000) -> int:
    r = g.round_no
    restocks = 0
    for _ in range(max_turns):
        restocks = max(restocks, g.stock_reuses)
        if g.round_no != r or g.is_over:
            return restocks
        draw_and_discard_it(g)
    raise AssertionError("the round never ended")


def values(variant: str) -> list[int]:
    return rk.get_variant(variant).spec.values_table()
