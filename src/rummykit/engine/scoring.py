"""Round and match scoring (RULES.md 4.6).  Scores are exact: Block Rummy may split a
win into halves or thirds, so totals are Fractions that print as ints when whole."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..rules.spec import RuleSpec


def hand_value(hand: Sequence[int], values: Sequence[int]) -> int:
    return sum(values[c] for c in hand)


def score_round(
    spec: RuleSpec,
    values: Sequence[int],
    hands: Sequence[Sequence[int]],
    winner: int | None,
    nobody_mode: str,
    rummy: bool,
) -> list[Fraction]:
    """Points each seat adds to its total for one round.

    ``winner`` went out (None: nobody did); ``nobody_mode`` is how a round nobody went
    out of is scored (block, stalemate, penalty); ``rummy``: the winner went rummy.
    """
    n = len(hands)
    hv = [hand_value(h, values) for h in hands]
    pts = [Fraction(0)] * n
    if winner is not None:
        if spec.high_wins:
            won = Fraction(sum(hv[s] for s in range(n) if s != winner))
            if rummy and spec.going_rummy == "double":
                won *= 2
            elif rummy and spec.going_rummy == "plus10":
                won += 10
            pts[winner] = won
        else:
            pts = [Fraction(0 if s == winner else hv[s]) for s in range(n)]
        return pts
    if nobody_mode == "stalemate":
        return pts
    if nobody_mode == "block" and spec.high_wins:
        low = min(hv)
        lows = [s for s in range(n) if hv[s] == low]
        pot = Fraction(sum(v - low for v in hv))
        for s in lows:
            pts[s] = pot / len(lows)
        return pts
    return [Fraction(v) for v in hv]


def settlement(totals: Sequence[Fraction], kitty: int, paid: Sequence[int] | None = None) -> list[Fraction]:
    """Progressive Rummy's settlement by position: the k-th placed (k >= 2) pays
    2(k-1) units and the winner receives their sum plus the kitty.  Tied players share
    their places' payments equally.  ``paid``: what each seat paid into the kitty (a unit a
    buy), counted against it, so that the units won are the units lost."""
    n = len(totals)
    order = sorted(range(n), key=lambda s: totals[s])
    pay = [Fraction(0)] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        group = order[i : j + 1]
        share = Fraction(sum(2 * k for k in range(i, j + 1)), len(group))
        for s in group:
            pay[s] = -share
        i = j + 1
    winners = [s for s in range(n) if totals[s] == totals[order[0]]]
    pot = Fraction(kitty) - sum(pay, Fraction(0))
    for s in winners:
        pay[s] += pot / len(winners)
    if paid is not None:
        for s in range(n):
            pay[s] -= paid[s]
    return pay


def number(x: Fraction | int) -> int | str:
    """A JSON-safe exact number: an int, or a string like ``"25/2"``."""
    if type(x) is int:
        return x
    f = x if type(x) is Fraction else Fraction(x)
    return f.numerator if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
