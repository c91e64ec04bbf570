"""Determinization: a whole game rebuilt from one seat's view, with the cards that seat
cannot see dealt at random.

The rebuilt game agrees with everything the view shows: the seat's own hand, the table,
the discard pile, the scores, where the turn stands, and the cards every seat saw go into
another hand (taken or bought from the discard pile, swapped off the table) and not
played since, which stay with their holder.  The other cards (the rest of the other
hands and the stock) are a uniform shuffle of the unseen cards.  Search players play
the sampled game forward; it never holds a fact the seat did not have.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

from ..cards import Card, make_pack, parse_card, parse_cards
from ..melds import MeldRules, TableMeld
from ..rules.registry import Variant, get_variant
from .game import CUT, Game

RANKS = "A23456789TJQK"


def table_from_view(view: dict[str, Any], rules: MeldRules, limited: bool = True) -> list[TableMeld]:
    """The table's melds, rebuilt from a view's ``melds`` and ``meld_info`` (what each
    card stands for gives a run's suit and first position, or a set's rank)."""
    table = []
    for cards, info in zip(view["melds"], view["meld_info"], strict=True):
        first = info["stands_for"][0]
        kind = info["kind"]
        if kind == "run":
            c = parse_card(first)
            m = TableMeld(kind, parse_cards(cards), info["owner"], 0, c.suit, c.rank, limited)
        else:
            rank = RANKS.index(first[0]) + 1
            m = TableMeld(kind, parse_cards(cards), info["owner"], rank, -1, 0, limited)
        m.wilds = m.count_wilds(rules)
        table.append(m)
    return table


def unseen_cards(view: dict[str, Any], variant: Variant) -> list[Card]:
    """The cards the seat cannot place: the pack less its hand, the table, the discard
    pile and the cards known to be in other hands."""
    seat = view["seat"]
    left = Counter(make_pack(*variant.spec.pack_for(view["players"])))
    seen: list[Card] = parse_cards(view["hand"]) + parse_cards(view["discard_pile"])
    for m in view["melds"]:
        seen += parse_cards(m)
    for s, k in enumerate(view["known"]):
        if s != seat:
            seen += parse_cards(k)
    left.subtract(seen)
    if any(k < 0 for k in left.values()):
        raise ValueError("the view shows more of some card than the pack holds")
    return sorted(left.elements())


def determinize(view: dict[str, Any], rng: random.Random, variant: Variant | None = None) -> Game:
    """A game consistent with ``view``: see the module docstring.  ``variant`` is needed
    only for house rules that are not a built-in ruleset."""
    v = variant or get_variant(view["ruleset"])
    n = view["players"]
    g = Game(v, players=n, seed=rng.getrandbits(63), dealer=view["dealer"], first_round=view["round"])
    g.scores = [Fraction(s) for s in view["scores"]]
    g.kitty = view["kitty"]
    g.last_round = view["last_round"]
    if view["phase"] == CUT:
        return g
    seat = view["seat"]
    ts = view["turn_state"]
    pool = unseen_cards(view, v)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    known = [parse_cards(k) for k in view["known"]]
    for s in range(n):
        if s == seat:
            hands.append(parse_cards(view["hand"]))
            continue
        need = view["hand_sizes"][s] - len(known[s])
        hands.append(known[s] + pool[:need])
        del pool[:need]
    if len(pool) < view["stock_size"]:
        raise ValueError("the view's hands and stock hold more cards than are unseen")
    g.hands = hands
    g.stock = pool[: view["stock_size"]]
    g.discard = parse_cards(view["discard_pile"])
    g.table = table_from_view(view, g.rules, g.spec.wild_limit_on_layoffs)
    g.known = known
    g.down = list(view["down"])
    g.buys = list(view["buys"])
    g.log = [dict(ev) for ev in view["log"]]
    g.stock_reuses = view["stock_reuses"]
    g.current = view["turn"]
    g.phase = view["phase"]
    g.turn_index = ts["turn_index"]
    g.down_turn = list(ts["down_turn"])
    g.played_before = list(ts["played_before"])
    g.asked = ts["asked"]
    g.queue = list(ts["queue"])
    g.call_kind = ts["call_kind"]
    g.protected = ts["protected"]
    g.last_taker = ts["last_taker"]
    g.taken = None if ts["taken"] is None else parse_card(ts["taken"])
    g.pending = parse_cards(ts["pending"])
    g.melds_this_turn = ts["melds_this_turn"]
    g.played_this_turn = ts["played_this_turn"]
    g.skip_draw = ts["skip_draw"]
    g._legal = None
    return g

