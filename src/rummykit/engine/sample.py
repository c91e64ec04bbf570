"""Determinization: the seat's known position, with the cards it cannot see re-dealt.

A determinized game is a copy of the position the view describes — the seat's own hand,
the table, the discard pile, the scores, where the turn stands, and the cards every seat
saw go into another hand (taken or bought from the discard pile, swapped off the table)
and not played since, which stay with their holder — with only the unseen cards (the rest
of the other hands and the stock) dealt at random, as OpenSpiel's
``ResampleFromInfostate``.  No fresh deal is made and overwritten.  Search players play
the sampled game forward; it never holds a fact the seat did not have.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, make_pack
from ..melds import MeldRules, TableMeld
from ..rules.registry import Variant, get_variant
from .game import Game, make_setup
from .state import TURN_STATE, Phase, State
from .view import MeldView, View, as_view

_MELDS_SEEN: dict[tuple[Any, ...], TableMeld] = {}


def table_from_melds(melds: tuple[MeldView, ...], rules: MeldRules, limited: bool = True) -> list[TableMeld]:
    """The table's melds from a view's (each a fresh copy; the ones met before are
    copied from a memo)."""
    table = []
    for mv in melds:
        key = (mv.kind, mv.owner, limited, mv.suit, mv.lo, mv.rank, *mv.cards)
        m = _MELDS_SEEN.get(key)
        if m is None:
            m = TableMeld(mv.kind, list(mv.cards), mv.owner, mv.rank, mv.suit, mv.lo, limited)
            m.wilds = m.count_wilds(rules)  # what stands for another card: not a matter of rules
            if len(_MELDS_SEEN) >= 100_000:
                _MELDS_SEEN.clear()
            _MELDS_SEEN[key] = m
        table.append(m.copy())
    return table


def table_from_view(view: Mapping[str, Any], rules: MeldRules, limited: bool = True) -> list[TableMeld]:
    """The table's melds, rebuilt from a view (a dict or a :class:`View`)."""
    return table_from_melds(as_view(view).melds, rules, limited)


def unseen_cards(view: Mapping[str, Any], variant: Variant) -> list[Card]:
    """The cards the seat cannot place: the pack less its hand, the table, the discard
    pile and the cards known to be in other hands."""
    v = as_view(view)
    left = Counter(make_pack(*variant.spec.pack_for(v.players)))
    seen: list[Card] = list(v.hand) + list(v.discard_pile)
    for m in v.melds:
        seen += m.cards
    for s, k in enumerate(v.known):
        if s != v.seat:
            seen += k
    left.subtract(seen)
    if any(k < 0 for k in left.values()):
        raise ValueError("the view shows more of some card than the pack holds")
    return sorted(left.elements())


def determinize(view: Mapping[str, Any], rng: random.Random, variant: Variant | None = None) -> Game:
    """A game consistent with ``view``: see the module docstring.  ``variant`` is needed
    only for house rules that are not a built-in ruleset."""
    return Determinizer(view, variant).sample(rng)


class Determinizer:
    """Reads a view once into the known position, then deals as many games consistent
    with it as asked (:meth:`sample`): a search player samples the same view many times."""

    def __init__(self, view: Mapping[str, Any], variant: Variant | None = None,
                 leaning: Sequence[Mapping[Card, float]] | None = None):
        """``leaning``: for each seat, how much likelier (above 1) or less likely (under 1)
        than the rest each unseen card is to be in its hand, as the seat's play suggests
        (None, or a card not named: as likely as any).  The cards are then dealt with those
        weights (each hand in turn draws its cards without replacement, the stock takes
        the rest in random order): still only hands consistent with the view."""
        v = as_view(view)
        self.view = v
        self.leaning = [dict(x) for x in leaning] if leaning is not None and any(leaning) else None
        for lean in self.leaning or ():
            for c, w in lean.items():
                if not (isinstance(w, (int, float)) and math.isfinite(w) and w > 0):
                    raise ValueError(f"the odds of {c} must be a finite number above 0, not {w!r}")
        self.variant = var = variant or get_variant(v.ruleset)
        n = v.players
        self.setup = make_setup(var, players=n, seed=0, options=None, cards=None, dealer=v.dealer,
                                first_round=v.round)
        self.pool = unseen_cards(v, var)
        if v.seat is None:
            raise ValueError("a spectator's view cannot be determinized: it names no seat")
        self.need = [0 if s == v.seat else v.hand_sizes[s] - len(v.known[s]) for s in range(n)]
        if min(self.need) < 0 or sum(self.need) + v.stock_size > len(self.pool):
            raise ValueError("the view's hands and stock hold more cards than are unseen")
        self.known = self._known_position(v, var)

    def _known_position(self, v: View, var: Variant) -> State:
        """The position as the seat knows it; hands hold the known cards only."""
        sp = var.spec
        n = v.players
        rules = sp.meld_rules(n, v.round)
        st = State(rng=random.Random(0), round_no=v.round, dealer=v.dealer, scores=list(v.scores),
                   kitty=v.kitty, last_round=dict(v.last_round) if v.last_round is not None else None,
                   state_id=v.state_id)
        st.rules = rules
        st.solver = var.solver(n, v.round)
        st.hands = [list(v.hand) if s == v.seat else list(v.known[s]) for s in range(n)]
        st.discard = list(v.discard_pile)
        st.table = table_from_melds(v.melds, rules, sp.wild_limit_on_layoffs)
        st.known = list(v.known)
        st.down = list(v.down)
        st.buys = list(v.buys)
        st.log = list(v.log)
        st.stock_reuses = v.stock_reuses
        st.current = v.turn
        st.phase = Phase(v.phase)
        for key, name, _kind in TURN_STATE:
            x = v.turn_state[key]
            setattr(st, name, list(x) if type(x) is tuple else x)
        return st

    def sample(self, rng: random.Random) -> Game:
        """One game: the unseen cards shuffled with ``rng`` into the other hands and the stock."""
        st = self.known.copy(rng=random.Random(rng.getrandbits(63)))
        pool = list(self.pool)
        rng.shuffle(pool)
        if self.leaning is not None:
            return self._sample_leaning(st, pool, rng)
        k = 0
        for s, need in enumerate(self.need):
            if need:
                st.hands[s].extend(pool[k:k + need])
                k += need
        st.stock = pool[k:k + self.view.stock_size]
        return Game.from_state(self.setup, st)

    def _sample_leaning(self, st: State, pool: list[Card], rng: random.Random) -> Game:
        """Each hand draws its cards from the shuffled ``pool`` with the weights of
        ``leaning`` (weighted sampling without replacement: each card's key is
        ``u ** (1 / weight)``, the largest keys drawn; as logarithms, ``log(u) / weight``),
        the stock the rest in pool order.  The hands draw in seat order: a hand with no
        leaning draws evenly from what the hands before it left (an approximation of the
        joint deal, exact when one hand leans)."""
        assert self.leaning is not None
        left = pool
        for s, need in enumerate(self.need):
            if not need:
                continue
            lean = self.leaning[s] if s < len(self.leaning) else {}
            if not lean:
                st.hands[s].extend(left[:need])
                left = left[need:]
                continue
            keys = [math.log(1.0 - rng.random()) / lean.get(c, 1.0) for c in left]
            order = sorted(range(len(left)), key=keys.__getitem__, reverse=True)
            took = set(order[:need])
            st.hands[s].extend(left[i] for i in order[:need])
            left = [c for i, c in enumerate(left) if i not in took]
        st.stock = left[:self.view.stock_size]
        return Game.from_state(self.setup, st)
