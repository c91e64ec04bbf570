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
from .view import Event

RANKS = "A23456789TJQK"


_MELDS_SEEN: dict[tuple[Any, ...], TableMeld] = {}


def table_from_view(view: dict[str, Any], rules: MeldRules, limited: bool = True) -> list[TableMeld]:
    """The table's melds, rebuilt from a view's ``melds`` and ``meld_info`` (what each
    card stands for gives a run's suit and first position, or a set's rank).  Each meld
    is a fresh copy; the ones met before are copied from a memo."""
    table = []
    for cards, info in zip(view["melds"], view["meld_info"], strict=True):
        first = info["stands_for"][0]
        kind = info["kind"]
        key = (kind, info["owner"], limited, first, *cards)
        m = _MELDS_SEEN.get(key)
        if m is None:
            if kind == "run":
                c = parse_card(first)
                m = TableMeld(kind, parse_cards(cards), info["owner"], 0, c.suit, c.rank, limited)
            else:
                rank = RANKS.index(first[0]) + 1
                m = TableMeld(kind, parse_cards(cards), info["owner"], rank, -1, 0, limited)
            m.wilds = m.count_wilds(rules)  # what stands for another card: not a matter of rules
            if len(_MELDS_SEEN) >= 100_000:
                _MELDS_SEEN.clear()
            _MELDS_SEEN[key] = m
        table.append(m.copy())
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
    return Determinizer(view, variant).sample(rng)


class Determinizer:
    """Reads a view once, then deals as many games consistent with it as asked
    (:meth:`sample`): a search player samples the same view many times."""

    def __init__(self, view: dict[str, Any], variant: Variant | None = None):
        self.view = view
        self.variant = v = variant or get_variant(view["ruleset"])
        self.cut = view["phase"] == CUT
        if self.cut:
            return
        self.rules = v.meld_rules(view["players"], view["round"])
        self.pool = unseen_cards(view, v)
        self.hand = parse_cards(view["hand"])
        self.known = [parse_cards(k) for k in view["known"]]
        self.discard = parse_cards(view["discard_pile"])
        self.table = table_from_view(view, self.rules, v.spec.wild_limit_on_layoffs)
        ts = view["turn_state"]
        self.taken = None if ts["taken"] is None else parse_card(ts["taken"])
        self.pending = parse_cards(ts["pending"])
        self.log = [ev if isinstance(ev, Event) else Event(ev) for ev in view["log"]]
        n = view["players"]
        if sum(max(0, view["hand_sizes"][s] - len(self.known[s])) for s in range(n) if s != view["seat"]) \
                + view["stock_size"] > len(self.pool):
            raise ValueError("the view's hands and stock hold more cards than are unseen")

    def sample(self, rng: random.Random) -> Game:
        """One game: the unseen cards shuffled with ``rng`` into the other hands and the stock."""
        view, v = self.view, self.variant
        n = view["players"]
        g = Game(v, players=n, seed=rng.getrandbits(63), dealer=view["dealer"], first_round=view["round"])
        g.scores = [Fraction(s) for s in view["scores"]]
        g.kitty = view["kitty"]
        g.last_round = view["last_round"]
        if self.cut:
            return g
        seat = view["seat"]
        ts = view["turn_state"]
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        for s in range(n):
            if s == seat:
                hands.append(list(self.hand))
                continue
            need = view["hand_sizes"][s] - len(self.known[s])
            hands.append(self.known[s] + pool[:need])
            del pool[:need]
        g.hands = hands
        g.stock = pool[: view["stock_size"]]
        g.discard = list(self.discard)
        g.discard_by = list(ts["discarded_by"])
        g.table = [m.copy() for m in self.table]
        g.known = [list(k) for k in self.known]
        g.down = list(view["down"])
        g.buys = list(view["buys"])
        g.log = list(self.log)
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
        g.taken = self.taken
        g.pending = list(self.pending)
        g.melds_this_turn = ts["melds_this_turn"]
        g.played_this_turn = ts["played_this_turn"]
        g.skip_draw = ts["skip_draw"]
        g.state_id = view["state_id"]
        g._legal = None
        return g
