"""The heuristic player ("medium"): plans with the contract solver, from its view alone.

It measures how far its hand is from the contract (``Solver.shortfall``), takes or buys a
discard only when that brings the contract closer and the hand is not already swollen,
melds and lays off as soon as it can, calls Shanghai and Rummy when offered, and
discards the card that least hurts its plan — high cards first when an opponent is close
to going out, and not a card that feeds a meld on the table when it has a choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..cards import NUM_FACES, Card, format_cards
from ..engine.actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Swap,
    Take,
)
from ..engine.game import Game
from ..engine.sample import table_from_melds
from ..engine.view import View, as_view
from ..melds import MeldRules, TableMeld
from ..rules.registry import Variant, get_variant
from ..rules.spec import describe_contract

Why = Callable[[], str]  # the sentence, built only when someone asks (rollouts never do)


class Seen(NamedTuple):
    """The few facts of a seat's view the heuristic weighs (typed: cards are Cards)."""

    seat: int
    players: int
    phase: str
    round: int
    top: Card | None  # the top discard
    down: Sequence[bool]
    hand_sizes: Sequence[int]
    taken: Card | None  # the card the seat took from the discard pile this turn

    @classmethod
    def of(cls, v: View) -> Seen:
        assert v.seat is not None
        return cls(v.seat, v.players, v.phase, v.round, v.discard_top, v.down, v.hand_sizes, v.taken)


class HeuristicPlayer:
    """See the module docstring.  ``variant`` is needed only for house rules that are not
    a built-in ruleset; otherwise the view's ``ruleset`` names it."""

    name = "medium"

    def __init__(self, seed: int = 0, variant: Variant | None = None, careless: float = 0.0):
        self.rng = random.Random(seed)
        self.variant = variant
        self.careless = careless  # "easy": chance of a careless discard; ignores danger
        if careless:
            self.name = "easy"

    # -- what the view says ---------------------------------------------------------------

    def _setup(self, view: View) -> tuple[Variant, MeldRules, list[Card], list[TableMeld]]:
        v = self.variant or get_variant(view.ruleset)
        rules = v.meld_rules(view.players, view.round)
        table = table_from_melds(view.melds, rules, v.spec.wild_limit_on_layoffs)
        return v, rules, list(view.hand), table

    def _shortfall(self, v: Variant, view: Seen, cards: Sequence[Card]) -> int:
        if not v.spec.contracts or view.down[view.seat]:
            return 0
        return v.solver(view.players, view.round).shortfall(cards, v.spec.contract(view.round))

    @staticmethod
    def _useful(c: Card, hand: Sequence[Card], rules: MeldRules) -> int:
        """How many other cards in hand ``c`` works with (same rank, or near in suit)."""
        return _usefulness(hand, rules)(c)

    # -- choosing ---------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        """The action :meth:`explain` suggests, without building its sentence.  ``view``:
        the seat's View, or its dict."""
        acts = list(legal_actions)
        if len(acts) == 1:
            return acts[0]
        tv = as_view(view)
        v, rules, hand, table = self._setup(tv)
        return self._decide(v, Seen.of(tv), rules, hand, table, acts)[0]

    def explain(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> tuple[Action, str]:
        """The suggested action and one sentence why."""
        acts = list(legal_actions)
        if len(acts) == 1:
            return acts[0], "It is the only legal action."
        tv = as_view(view)
        v, rules, hand, table = self._setup(tv)
        action, why = self._decide(v, Seen.of(tv), rules, hand, table, acts)
        return action, why()

    def choose_in_game(self, g: Game, seat: int, acts: list[Action]) -> Action:
        """The same choice, read straight off a game the caller owns — a search
        player's own sampled game, where reading the view again would be slow."""
        if len(acts) == 1:
            return acts[0]
        st = g.state
        seen = Seen(seat, g.n, st.phase, st.round_no, st.discard[-1] if st.discard else None, st.down,
                    [len(h) for h in st.hands], st.taken)
        assert st.rules is not None
        return self._decide(g.variant, seen, st.rules, list(st.hands[seat]), st.table, acts)[0]  # no sentence

    def _decide(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        phase = view.phase
        if phase == "may_i":
            return self._window(v, view, hand, acts)
        if phase == "call":
            return self._call(v, view, rules, hand, table, acts)
        if phase == "draw":
            return self._draw(v, view, rules, hand, table, acts)
        return self._play(v, view, rules, hand, table, acts)

    def _contract_words(self, v: Variant, view: Seen) -> str:
        if not v.spec.contracts:
            return "your melds"
        return describe_contract(v.spec.contract(view.round))

    def _window(self, v: Variant, view: Seen, hand: list[Card],
                acts: list[Action]) -> tuple[Action, Why]:
        top = view.top
        assert top is not None
        dealt = v.spec.cards_dealt(view.round, view.players)
        danger = min(n for s, n in enumerate(view.hand_sizes) if s != view.seat) <= 3
        if Buy() not in acts or len(hand) > dealt + 3 or danger:
            before = after = 0  # no buying: not worth measuring
        else:
            before = self._shortfall(v, view, hand)
            after = self._shortfall(v, view, hand + [top])
        if after < before:
            return Buy(), lambda: (f"Take {top}: it brings {self._contract_words(v, view)} closer "
                                   f"({before} cards short, then {after}).")
        return Pass(), lambda: (f"Pass on {top}: it does not bring {self._contract_words(v, view)} "
                                "closer enough to pay for.")

    def _call(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        calls = [a for a in acts if isinstance(a, (CallShanghai, CallRummy))]
        if not calls:
            return Pass(), lambda: "Pass: there is nothing to call."
        if isinstance(calls[0], CallShanghai):
            return calls[0], lambda: ("Call Shanghai: the discard goes on the table "
                                      "and your hand gets smaller.")
        best = self._rank_discards(v, view, rules, hand, table, [a.card for a in calls
                                                                  if isinstance(a, CallRummy) and a.card])
        shed = best[0]
        return CallRummy(shed), lambda: f"Call Rummy and shed {shed}: the card least useful to you."

    def _draw(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        for a in acts:  # meld-before-draw rulesets: play first
            if isinstance(a, (Meld, LayOff, Swap)):
                return self._play(v, view, rules, hand, table, acts)
        top = view.top
        if Take() in acts and top is not None:
            before = self._shortfall(v, view, hand)
            after = self._shortfall(v, view, hand + [top])
            if after < before:
                return Take(), lambda: (f"Take {top}: it brings {self._contract_words(v, view)} closer "
                                        f"({before} cards short, then {after}).")
            if not v.spec.contracts or view.down[view.seat]:
                if any(m.layoff_meanings(top, rules) for m in table) and not rules.is_wild(top):
                    return Take(), lambda: f"Take {top}: it can be laid off at once."
                if self._useful(top, hand, rules) >= 2:
                    return Take(), lambda: f"Take {top}: it goes with cards you hold."
        return Draw(), lambda: "Draw from the stock: the discard does not help."

    def _play(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        melds = [a for a in acts if isinstance(a, Meld)]
        if melds:
            values = v.values
            best = max(melds, key=lambda m: (len(m.cards()), sum(values[c] for c in m.cards())))
            return best, lambda: (f"Meld {' / '.join(format_cards(c for c, _ in g) for g in best.melds)}: "
                                  f"lay down {self._contract_words(v, view)} as soon as you can.")
        swaps = [a for a in acts if isinstance(a, Swap)]
        if swaps:
            return swaps[0], lambda: (f"Swap {swaps[0].card} for the wild card it stands for, "
                                      "and play the wild.")
        layoffs = [a for a in acts if isinstance(a, LayOff)]
        if layoffs:
            naturals = [a for a in layoffs if a.meaning is None] or layoffs
            a = naturals[0]
            return a, lambda: f"Lay off {a.card} on meld {a.meld + 1}: one card fewer to pay for."
        discards = [a for a in acts if isinstance(a, Discard)]
        if discards:
            order = self._rank_discards(v, view, rules, hand, table, [a.card for a in discards])
            c = order[0]
            if self.careless and self.rng.random() < self.careless:
                c = self.rng.choice(order[: max(1, len(order) // 2)])
            return Discard(c), lambda: self._discard_reason(v, view, rules, hand, c)
        return acts[0], lambda: "It is the only way to go on."

    def _danger(self, view: Seen) -> bool:
        if self.careless:
            return False
        return min(n for s, n in enumerate(view.hand_sizes) if s != view.seat) <= 3

    def _rank_discards(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                       table: list[TableMeld], options: list[Card]) -> list[Card]:
        values = v.values
        danger = self._danger(view)
        usefulness = _usefulness(hand, rules)
        if v.spec.contracts and not view.down[view.seat]:
            shorts = v.solver(view.players, view.round).shortfalls_without(hand, v.spec.contract(view.round))
        else:
            shorts = {}
        # the card just taken from the discard pile goes back only if nothing else can:
        # throwing it back gains nothing, and seats doing so in turn never end the deal
        taken = view.taken
        scored = []
        for c in dict.fromkeys(options):
            short = shorts.get(c, 0)
            feeds = not self.careless and any(m.layoff_meanings(c, rules) for m in table)
            useful = usefulness(c)
            back = c == taken
            if danger:
                key = (back, short, -values[c], feeds, useful)
            else:
                key = (back, short, useful, feeds, -values[c])
            scored.append((key, self.rng.random(), c))
        scored.sort()
        return [c for _, _, c in scored]

    def _discard_reason(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                        c: Card) -> str:
        if self._danger(view):
            return f"Discard {c}: an opponent is close to going out, so shed a costly card."
        usefulness = _usefulness(hand, rules)
        keep = [o for o in hand if o != c and usefulness(o) > 0]
        if keep and v.spec.contracts and not view.down[view.seat]:
            shown = format_cards(sorted(keep)[:4])
            return f"Discard {c}: keep {shown}, they go toward {self._contract_words(v, view)}."
        return f"Discard {c}: it is the card least useful to your plan."


def _usefulness(hand: Sequence[Card], rules: MeldRules) -> Callable[[Card], int]:
    """For each card: how many other natural cards in ``hand`` it works with — 2 for each
    of the same rank, 1 for each of its suit within two ranks — and 99 for a wild card.
    Copies of the card itself do not count.  One pass over the hand, then a few lookups
    per card (the rollouts of the search player ask this very often)."""
    face = [0] * NUM_FACES
    by_rank = [0] * 14
    for o in hand:
        if not rules.is_wild(o):
            face[o] += 1
            by_rank[o % 13 + 1] += 1

    def useful(c: Card) -> int:
        if rules.is_wild(c):
            return 99
        r = c % 13 + 1
        n = 2 * (by_rank[r] - face[c])
        for d in (-2, -1, 1, 2):
            if 1 <= r + d <= 13:
                n += face[c + d]
        return n

    return useful

