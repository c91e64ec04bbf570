"""Whether an offered card fits a seat's hand: for the claim preference "ask me only when the
card fits" (a May I / buy offer answered "pass" at once for a seat that set it, when the card
does not fit).  Read from the seat's own view only.

- A seat with a contract still to lay: the card fits when it brings the contract closer, i.e.
  the solver's shortfall (how many cards the hand still lacks, a lower bound) is smaller with
  the card than without it — the measure the medium bot buys by.
- No contract (the basic family), or the contract already down: the card fits when it is
  wild, makes a meld or the two-card start of one with a card in hand (same rank, or same suit
  within two ranks), or could be laid off on a meld on the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..engine.sample import table_from_melds
from ..engine.view import as_view
from ..melds import MeldRules
from ..rules.registry import Variant


def near(card: Card, other: Card, rules: MeldRules) -> bool:
    """Whether two natural cards could start a meld together: same rank, or same suit within
    two ranks (an ace counting high too where aces may be high)."""
    if card.rank == other.rank:
        return True
    if card.suit != other.suit:
        return False
    a, b = card.rank, other.rank
    gaps = [abs(a - b)]
    if rules.ace_mode != "low" and 1 in (a, b):
        gaps.append(abs((14 if a == 1 else a) - (14 if b == 1 else b)))
    return min(gaps) <= 2


def starts_meld(card: Card, hand: Sequence[Card], rules: MeldRules) -> bool:
    """Whether ``card`` is wild or goes with a natural card of ``hand`` toward a meld."""
    if rules.is_wild(card):
        return True
    return any(not rules.is_wild(o) and near(card, o, rules) for o in hand)


def card_fits(view: Mapping[str, Any], card: Card, variant: Variant) -> bool:
    """Whether taking ``card`` helps the seat whose ``view`` this is (see the module's
    docstring); ``variant``: the table's rules, house rules included."""
    v = as_view(view)
    seat = v.seat
    if seat is None:
        raise ValueError("a spectator's view has no hand for a card to fit")
    hand = list(v.hand)
    sp = variant.spec
    if sp.contracts and not v.down[seat]:
        solver = variant.solver(v.players, v.round)
        comps = sp.contract(v.round)
        return solver.shortfall([*hand, card], comps) < solver.shortfall(hand, comps)
    rules = variant.meld_rules(v.players, v.round)
    if starts_meld(card, hand, rules):
        return True
    table = table_from_melds(v.melds, rules, sp.wild_limit_on_layoffs)
    return any(m.layoff_meanings(card, rules) for m in table)
