"""The heuristic player ("medium"), and the hint: plays from the hand evaluation.

Every choice reads one :class:`~.evaluation.HandEval` of the seat's hand (see
:mod:`.evaluation`): it takes or buys a discard only when that brings the contract closer
(fewer cards short) and the hand is not already swollen or in danger, melds and lays off as
soon as it can, calls Shanghai and Rummy when offered, and discards by, in order: a wild
card only when nothing else may (or when everyone is down and no meld on the table can take
it); not the card just taken; a card no best plan needs; the card whose best meld in the
making lacks the most; the fewest unseen cards to help it; one that feeds neither the table
nor the next player; the costliest.  When an opponent is close to going out, points at risk
(half the card's value less what its meld in the making is worth) come before prospects, and
the plan's need first only while the contract is a card away or less.

Every sentence :meth:`HeuristicPlayer.explain` gives is built from the evaluation that chose
the action: the melds kept and what each lacks, the card's fate, the danger, the count of
cards short before and after a take or a buy.

Why one module of this size (about 720 lines, over the package's ~700): each choice and the
sentence that explains it are written side by side, reading the same facts, so a hint can
never give a reason the choice did not weigh (issue 39's complaint); split apart, the
sentences would have to recompute what the choice saw.  The evaluation itself is its own
module (:mod:`.evaluation`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..cards import Card, format_cards
from ..engine.actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Cut,
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
from ..melds import MeldRules, Reading, TableMeld
from ..rules.registry import Variant, get_variant
from ..rules.spec import describe_contract
from .evaluation import RANK_PLURALS, SIZE_WORDS, SUIT_WORDS, Group, HandEval, Table, facts, seen_cards

Why = Callable[[], str]  # the sentence, built only when someone asks (rollouts never do)
DANGER = 3  # an opponent with this many cards or fewer may go out soon


class Seen:
    """The facts of a seat's view the heuristic weighs (typed: cards are Cards), read off
    a :class:`View` or straight off a game (a search player's own sampled game)."""

    __slots__ = ("seat", "players", "phase", "round", "top", "down", "hand_sizes", "taken", "pile",
                 "known", "log", "_table", "_evals")

    def __init__(self, seat: int, players: int, phase: str, round: int, top: Card | None,
                 down: Sequence[bool], hand_sizes: Sequence[int], taken: Card | None,
                 pile: Sequence[int] = (), known: Sequence[Sequence[int]] = (), log: Sequence[Any] = ()):
        self.seat = seat
        self.players = players
        self.phase = phase
        self.round = round
        self.top = top  # the top discard
        self.down = down
        self.hand_sizes = hand_sizes
        self.taken = taken  # the card the seat took from the discard pile this turn
        self.pile = pile  # the discard pile, bottom to top
        self.known = known  # cards seen going into each hand
        self.log = log  # the deal's events (the next player's passes)
        self._table: Table | None = None
        self._evals: dict[tuple[int, ...], HandEval] = {}

    @classmethod
    def of(cls, v: View) -> Seen:
        assert v.seat is not None
        return cls(v.seat, v.players, v.phase, v.round, v.discard_top, v.down, v.hand_sizes, v.taken,
                   v.discard_pile, v.known, v.log)

    @classmethod
    def of_game(cls, g: Game, seat: int) -> Seen:
        st = g.state
        return cls(seat, g.n, st.phase, st.round_no, st.discard[-1] if st.discard else None, st.down,
                   [len(h) for h in st.hands], st.taken, st.discard, st.known, st.log)

    def table(self, melds: Sequence[TableMeld]) -> Table:
        """What the seat has seen beyond its hand (see :func:`.evaluation.seen_cards`)."""
        got = self._table
        if got is None:
            got = self._table = seen_cards(self.pile, melds, self.known, self.seat, self.players, self.log)
        return got

    def danger(self) -> bool:
        """Whether an opponent holds so few cards that it may go out soon."""
        return min(n for s, n in enumerate(self.hand_sizes) if s != self.seat) <= DANGER

    def next_out(self, contract: bool) -> int:
        """How near the next player (first to take this turn's discard) is to laying a
        taken card off and going out: 3 with one card left, 2 with two, 1 with three, else
        0 (and 0 while a ``contract`` keeps it from laying off: not down yet)."""
        nxt = (self.seat + 1) % self.players
        if contract and not self.down[nxt]:
            return 0
        return max(0, 4 - self.hand_sizes[nxt])

    def fewest(self) -> int:
        """The fewest cards an opponent holds."""
        return min(n for s, n in enumerate(self.hand_sizes) if s != self.seat)

    def close(self) -> list[int]:
        """The opponents close to going out."""
        return [s for s, n in enumerate(self.hand_sizes) if s != self.seat and n <= DANGER]


KEEP = {0: 2.0, 1: 1.0, 2: 0.3}  # what a card's meld is worth when points are at risk, by cards it lacks
# the share of that worth left when the nearest opponent holds this many cards: it may go out
# before the meld is made (against the true hands, ``bench/near_out.py``: in Contract Rummy for
# four, with an opponent on one card, 4.1 ± 0.7 points better per changed discard at 0.3 of the
# worth, 3.7 ± 0.6 at 0.15, 6.6 ± 1.2 on the few changed at 0.6; on two cards, 3.6 ± 1.2 at 0.5;
# Basic Rummy for two, 1.5 ± 0.5 at 0.3; 40 changed decisions each; these shares together:
# the bench's figures)
KEEP_NEAR = {1: 0.2, 2: 0.5}


class Weigh:
    """What choosing one discard weighs (smallest ``key`` first)."""

    __slots__ = ("card", "back", "wild", "value", "table", "wanted", "need", "lack", "outs", "risk", "out",
                 "key")

    def __init__(self, card: Card):
        self.card = card
        self.back = False  # the card just taken from the pile
        self.wild = False  # a wild card that may still be placed
        self.value = 0  # its penalty
        self.table = False  # it fits a meld on the table
        self.wanted = False  # it goes with cards the next player took
        self.need = 0  # how many more cards short the contract is without it
        self.lack = 0  # how many cards its best meld in the making lacks
        self.outs = 0  # unseen cards that would help that meld
        self.risk: float | None = None  # points at risk less its meld's worth, when in danger
        # the next player could take it, lay it off and go out: 3 with one card left (it
        # surely can), 2 with two, 1 with three (it may), else 0
        self.out = 0
        self.key: tuple[Any, ...] = ()


class HeuristicPlayer:
    """See the module docstring.  ``variant`` is needed only for house rules that are not
    a built-in ruleset; otherwise the view's ``ruleset`` names it."""

    name = "medium"

    def __init__(self, seed: int = 0, variant: Variant | None = None, careless: float = 0.0):
        self.rng = random.Random(seed)
        self.variant = variant
        # "easy": the chance of a careless discard (any natural card); it never buys, and
        # ignores danger and what it feeds
        self.careless = careless
        if careless:
            self.name = "easy"

    # -- what the view says ---------------------------------------------------------------

    def _setup(self, view: View) -> tuple[Variant, MeldRules, list[Card], list[TableMeld]]:
        v = self.variant or get_variant(view.ruleset)
        rules = v.meld_rules(view.players, view.round)
        table = table_from_melds(view.melds, rules, v.spec.wild_limit_on_layoffs)
        return v, rules, list(view.hand), table

    def evaluate(self, v: Variant, view: Seen, hand: Sequence[Card], table: Sequence[TableMeld]) -> HandEval:
        """The evaluation of ``hand`` (the seat's, or it with a card more or less) in this
        position: the one every choice and every sentence reads."""
        key = tuple(sorted(hand))
        got = view._evals.get(key)
        if got is None:
            got = view._evals[key] = HandEval(facts(v, view.players, view.round), hand, view.table(table))
        return got

    def _short(self, v: Variant, view: Seen, hand: Sequence[Card], table: Sequence[TableMeld]) -> int:
        """How many cards ``hand`` lacks for the contract (0 once down, or with none)."""
        if not v.spec.contracts or view.down[view.seat]:
            return 0
        return self.evaluate(v, view, hand, table).short

    def _helps(self, v: Variant, view: Seen, hand: list[Card], table: Sequence[TableMeld],
               top: Card) -> tuple[int, bool]:
        """How many cards the hand lacks, and whether ``top`` would bring it closer."""
        before = self._short(v, view, hand, table)
        if not before:
            return before, False
        return before, self.evaluate(v, view, hand + [top], table).reaches(before - 1)

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
            if isinstance(acts[0], Cut):
                return acts[0], self._cut_words(as_view(view))
            return acts[0], "It is the only legal action."
        tv = as_view(view)
        v, rules, hand, table = self._setup(tv)
        action, why = self._decide(v, Seen.of(tv), rules, hand, table, acts)
        return action, why()

    def _cut_words(self, tv: View) -> str:
        """Why cut (the only move): what the cut may win, where the rules give a bonus."""
        sp = (self.variant or get_variant(tv.ruleset)).spec
        if not sp.cut_bonus:
            return "Cut the pack: it is the only legal action."
        needed = tv.players * sp.cards_dealt(tv.round, tv.players) + 1
        gain = "points won" if sp.high_wins else "points off your score"
        return (f"Cut the pack: a cut of exactly {needed} cards (the deal and the upcard) is "
                f"{sp.cut_bonus} {gain}; the size of the cut is chance.")

    def choose_in_game(self, g: Game, seat: int, acts: list[Action]) -> Action:
        """The same choice, read straight off a game the caller owns — a search
        player's own sampled game, where reading the view again would be slow."""
        if len(acts) == 1:
            return acts[0]
        st = g.state
        assert st.rules is not None
        return self._decide(g.variant, Seen.of_game(g, seat), st.rules, list(st.hands[seat]), st.table,
                            acts)[0]  # no sentence

    def _decide(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        phase = view.phase
        if phase == "may_i":
            return self._window(v, view, hand, table, acts)
        if phase == "call":
            return self._call(v, view, rules, hand, table, acts)
        if phase == "draw":
            return self._draw(v, view, rules, hand, table, acts)
        return self._play(v, view, rules, hand, table, acts)

    def _contract_words(self, v: Variant, view: Seen) -> str:
        if not v.spec.contracts:
            return "your melds"
        return describe_contract(v.spec.contract(view.round))

    def _window(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld],
                acts: list[Action]) -> tuple[Action, Why]:
        top = view.top
        assert top is not None
        dealt = v.spec.cards_dealt(view.round, view.players)
        danger = view.danger()
        swollen = len(hand) > dealt + 3
        helps = False
        if self.careless:  # "easy" never buys
            return Pass(), lambda: f"Pass on {top}: (an easy player never buys)."
        if Buy() in acts and not swollen and not danger:  # else not worth measuring
            before, helps = self._helps(v, view, hand, table, top)
        if helps:
            return Buy(), lambda: self._buy_words(v, view, hand, table, top, before)
        return Pass(), lambda: self._pass_words(v, view, hand, table, top, danger, swollen, dealt)

    def _call(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        calls = [a for a in acts if isinstance(a, (CallShanghai, CallRummy))]
        if not calls:
            return Pass(), lambda: "Pass: there is nothing to call."
        if isinstance(calls[0], CallShanghai):
            return calls[0], lambda: ("Call Shanghai: the discard goes on the table "
                                      "and your hand gets smaller.")
        sheds = [a.card for a in calls if isinstance(a, CallRummy) and a.card is not None]  # (AC is 0)
        best = self._rank_discards(v, view, rules, hand, table, sheds)
        shed = best[0]
        return CallRummy(shed), lambda: (f"Call Rummy and shed {shed}: "
                                         + self._discard_reason(v, view, rules, hand, table, shed, False))

    def _draw(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        for a in acts:  # meld-before-draw rulesets: play first
            if isinstance(a, (Meld, LayOff, Swap)):
                return self._play(v, view, rules, hand, table, acts)
        top = view.top
        if Take() in acts and top is not None:
            before, helps = self._helps(v, view, hand, table, top)
            if helps:
                return Take(), lambda: self._take_words(v, view, hand, table, top, before)
            if v.spec.contracts and not view.down[view.seat] and not before and not rules.is_wild(top):
                joins = self._joins_contract(v, view, hand, top)
                if joins is not None:
                    return Take(), lambda: (
                        f"Take {top}: you can lay down {self._contract_words(v, view)} already, and {top} "
                        f"goes down with it ({format_cards(joins.cards)}), so fewer cards stay in your hand "
                        "than with a card drawn blind.")
            if not v.spec.contracts or view.down[view.seat]:
                if any(m.layoff_meanings(top, rules) for m in table) and not rules.is_wild(top):
                    return Take(), lambda: f"Take {top}: it can be laid off at once."
                # a card that goes with the hand's cards is worth taking only where a meld may
                # still follow: never once down where the contract is the only meld of a deal;
                # and while an opponent is a card or two from going out, only if its partner
                # would stay (a pair's worth is small then: taken, a jack made a pair and the
                # other jack went, copy for copy, turn after turn between two seats)
                if ((not v.spec.contracts or v.spec.after_contract_melds != "none")
                        and self._goes_with(v, view, hand, table, top)
                        and not (self._near_share(v, view) < 1
                                 and self._swaps_a_copy(v, view, rules, hand, table, top))):
                    return Take(), lambda: self._take_words(v, view, hand, table, top, 0)
        return Draw(), lambda: self._draw_words(
            v, view, hand, table, top, top is not None and any(m.layoff_meanings(top, rules) for m in table))

    @staticmethod
    def _near_share(v: Variant, view: Seen) -> float:
        """The share of a meld in the making's worth left as an opponent nears going out
        (``KEEP_NEAR``): where the seat's own cards count against it in full, a penalty of its
        own (the contract family) or the one opponent's gain (two players); not where the
        winner scores the others' hands among three or more, each hand a part of one seat's
        gain (there the rule measured no better: ``bench/near_out.py``, Basic Rummy for four
        -1.6 ± 0.7 points per changed discard, Traditional -0.1 ± 0.5)."""
        if v.spec.high_wins and view.players > 2:
            return 1.0
        return KEEP_NEAR.get(view.fewest(), 1.0)

    def _swaps_a_copy(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                      table: list[TableMeld], top: Card) -> bool:
        """Whether, ``top`` taken, the card the hand would throw first is of its rank: a card
        of the same rank for another, the hand no nearer a meld."""
        first = self._rank_discards(v, view, rules, hand + [top], table, list(dict.fromkeys(hand)))
        return bool(first) and not rules.is_wild(first[0]) and first[0].rank == top.rank

    def _joins_contract(self, v: Variant, view: Seen, hand: list[Card], top: Card) -> Reading | None:
        """With the contract in hand: the meld ``top`` joins in the least-penalty way to lay
        it down with ``top`` (a set of four, a longer run), where that leaves no more penalty
        than laying it down without; None otherwise (and in a deal that melds the whole hand)."""
        if view.round in v.spec.whole_hand_rounds:
            return None
        solver = v.solver(view.players, view.round)
        comps = v.spec.contract(view.round)
        without = solver.solve(comps, hand)
        withit = solver.solve(comps, hand + [top])
        if without is None or withit is None:
            return None
        values = v.values

        def left(cards: list[Card], melds: list[Reading]) -> int:
            rest = list(cards)
            for m in melds:
                for c in m.cards:
                    rest.remove(c)
            return sum(values[c] for c in rest)

        if left(hand + [top], withit) > left(hand, without):
            return None
        return next((m for m in withit if top in m.cards), None)

    def _goes_with(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld], top: Card) -> bool:
        """Basic family: whether ``top`` makes a meld with the hand's cards, or goes with
        a card of its rank, or with two of its suit within two places."""
        e = self.evaluate(v, view, hand + [top], table)
        if e.prospect(top)[0] == 0:
            return True
        r, s = top % 13, top // 13
        near = 0
        for x in e.partners(top):
            if x % 13 == r:
                return True
            near += x // 13 == s and abs(x % 13 - r) <= 2
        return near >= 2

    def _play(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
              table: list[TableMeld], acts: list[Action]) -> tuple[Action, Why]:
        melds = [a for a in acts if isinstance(a, Meld)]
        if melds:
            best = self._meld_step(v, view, hand, table, melds)
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
                slips = [x for x in order if not rules.is_wild(x)]
                if slips:  # a newcomer's slip: any natural card
                    c = self.rng.choice(slips)
                    return Discard(c), lambda: f"Discard {c}: (a careless discard)."
            if CallShanghai(discard=c) in acts:  # it fits a meld on the table: protect it
                return CallShanghai(discard=c), lambda: (
                    f"Discard {c} calling Shanghai: "
                    f"{self._discard_reason(v, view, rules, hand, table, c, False)} "
                    f"{c} fits a meld on the table: the call keeps another player from laying it off "
                    "and drawing a card from your hand.")
            return Discard(c), lambda: self._discard_reason(v, view, rules, hand, table, c)
        return acts[0], lambda: "It is the only way to go on."

    @staticmethod
    def _meld_step(v: Variant, view: Seen, hand: list[Card], table: list[TableMeld],
                   melds: list[Meld]) -> Meld:
        """The meld to lay: toward the contract, the next meld of the least-penalty way to lay
        the rest of it (the solver's, the arrangement a player would choose); else, and for
        single melds, the one of the most cards, then the most points."""
        values = v.values
        if v.spec.contracts and not view.down[view.seat]:
            rules = v.solver(view.players, view.round).rules
            listed = {a.melds[0]: a for a in melds if len(a.melds) == 1}
            for plan in HeuristicPlayer._contract_plans(v, view, hand, table):
                for rd in plan:
                    got = listed.get(rd.items(rules))
                    if got is not None:
                        return got
        return max(melds, key=lambda m: (len(m.cards()), sum(values[c] for c in m.cards())))

    @staticmethod
    def _contract_plans(v: Variant, view: Seen, hand: list[Card],
                        table: list[TableMeld]) -> Iterator[list[Reading]]:
        """The least-penalty ways to lay the rest of the contract from ``hand`` (the melds
        the seat laid toward it this turn counted), one per way of reading what is laid."""
        sp = v.spec
        laid = [m.to_reading() for m in table if m.owner == view.seat]
        whole = view.round in sp.whole_hand_rounds
        solver = v.solver(view.players, view.round)
        exact = sp.contract_sizes == "exact" and not whole
        for parts in solver.parts_left(sp.contract(view.round), laid, exact):
            plan = solver.solve(parts, hand, whole_hand=whole, beside=laid) if parts else None
            if plan:
                yield plan

    # -- discarding ------------------------------------------------------------------

    def _danger(self, view: Seen) -> bool:
        return not self.careless and view.danger()

    def _dead_wild(self, rules: MeldRules, view: Seen, table: Sequence[TableMeld], c: Card) -> bool:
        """A wild card nobody can place: the seat is down, so is every other (nobody may
        take it for a meld of their own), and no meld on the table may take it."""
        return all(view.down) and not any(m.layoff_meanings(c, rules) for m in table)

    def _discard_facts(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                       table: list[TableMeld], options: list[Card], draw: bool = True) -> list[Weigh]:
        """What the choice of a discard weighs, for each of ``options``, best discard first
        (see the module docstring); ties are broken at random (``draw``: from the player's
        own generator; else not at all, for a sentence, which must not move it on)."""
        values = v.values
        danger = self._danger(view)
        contract = bool(v.spec.contracts)
        down = view.down[view.seat] and contract
        e = self.evaluate(v, view, hand, table)
        short = e.short if contract and not down else 0
        wanted = e.table.wanted
        unit = e.f.unit
        taken = view.taken
        fits = _fitting(table, rules) if not self.careless and table else set()
        near = view.next_out(contract) if table and not self.careless else 0
        share = self._near_share(v, view)
        out = []
        for c in dict.fromkeys(options):
            w = Weigh(c)
            # a wild card goes only when nothing else may; then the card just taken from the
            # discard pile: throwing it back gains nothing, and seats doing so in turn never
            # end the deal
            w.back = c == taken
            w.wild = rules.is_wild(c) and not self._dead_wild(rules, view, table, c)
            w.value = values[c]
            if not self.careless:
                w.table = c in fits or (rules.is_wild(c) and any(m.layoff_meanings(c, rules) for m in table))
                w.wanted = wanted[c] > 0
                w.out = near if w.table else 0
            if down:
                w.key = (w.wild, w.back, w.table, w.wanted, -w.value)
            else:
                w.need = e.short_without(c) - short if contract else 0
                w.lack, w.outs = e.prospect(c)
                feeds = 2 * w.table + w.wanted
                if danger:
                    # points at risk against the chance of a meld: half the card's value
                    # (someone may go out before it is used) less what its meld is worth,
                    # the less the nearer that someone is to going out
                    w.risk = 0.5 * w.value - unit * KEEP.get(w.lack, 0.0) * share
                    need = w.need if short <= 1 else 0  # out of reach in time: only points count
                    # a card the next player would surely go out with goes last of all; one it
                    # may go out with, after the contract's needs
                    w.key = (w.wild, w.back, w.out == 3, need, w.out, -w.risk, w.outs, feeds)
                else:
                    w.key = (w.wild, w.back, w.need, -w.lack, w.outs, feeds, -w.value)
            w.key = w.key + (self.rng.random() if draw else 0.0,)
            out.append(w)
        out.sort(key=lambda w: w.key)
        return out

    def _rank_discards(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                       table: list[TableMeld], options: list[Card]) -> list[Card]:
        """``options``, the best discard first."""
        return [w.card for w in self._discard_facts(v, view, rules, hand, table, options)]

    # -- the sentences: each built from the evaluation that chose ---------------------

    def _plan_words(self, e: HandEval, skip: Card | None = None) -> list[str]:
        """The plan's groups worth naming (two cards or more), ``skip`` left out of them."""
        out = []
        for g in e.plan.groups:
            cards = list(g.cards)
            if skip is not None and skip in cards and cards.count(skip) > e.cnt[skip] - 1:
                continue
            if len(cards) >= 2:
                out.append(g.words())
        return out

    def _discard_reason(self, v: Variant, view: Seen, rules: MeldRules, hand: list[Card],
                        table: list[TableMeld], c: Card, lead: bool = True) -> str:
        """Why ``c``: the first thing the ranking weighed in which ``c`` beat the next best
        discard, in words, and the melds the hand keeps."""
        head = f"Discard {c}: " if lead else ""
        ranked = self._discard_facts(v, view, rules, hand, table, list(dict.fromkeys(hand)), draw=False)
        me = next(w for w in ranked if w.card == c)
        rest = [w for w in ranked if w.card != c]
        e = self.evaluate(v, view, hand, table)
        contract = bool(v.spec.contracts)
        down = view.down[view.seat] and contract
        words = self._contract_words(v, view)
        kept = self._plan_words(e, c) if contract else self._free_words(e, c)
        keep = f" Keep {_and(kept)}." if kept and not down else ""
        if rules.is_wild(c):
            if self._dead_wild(rules, view, table, c):
                return (head + "everyone is down and no meld on the table can take another wild card, "
                        f"so {c} could only cost you {_points(me.value)}.")
            return head + f"every card you may discard is a wild card; {c} is the one to spare." + keep
        # the card it beat: the first that weighs differently (one tied with it on every
        # weight, its twin, lost to a coin's toss and explains nothing); with points at risk,
        # the first that weighs differently up to the risk (one tied with it on the risk and
        # beaten on its outs says nothing of why a costly pair went before a cheap loner)
        upto = 6 if me.risk is not None else len(me.key)
        nxt = next((w for w in rest if w.key[:upto] != me.key[:upto]),
                   next((w for w in rest if w.key != me.key), rest[0] if rest else None))
        if nxt is None:
            return head + "it is the only card you may discard."
        if down:
            if nxt.table and not me.table:
                return head + (f"no meld on the table takes it; {nxt.card} does, so keep that to lay off "
                               "next turn.")
            if nxt.wanted and not me.wanted:
                return head + (f"no meld on the table takes it, and the next player took cards that go "
                               f"with {nxt.card}.")
            return head + ("no meld on the table takes it, and it is the costliest card you can spare "
                           f"({_points(me.value)}).")
        why = self._why_first(v, view, e, me, nxt, words)
        # a card as costly or more kept back only because the next player could go out with it
        held = [w for w in rest if w.out == 3 and not w.wild and w is not nxt and w.value >= me.value]
        if held:
            h = max(held, key=lambda w: w.value).card
            why += (f" Not {h}: Seat {(view.seat + 1) % view.players} has one card left and could take "
                    "it, lay it off on the table and go out.")
        return head + why + keep

    def _why_first(self, v: Variant, view: Seen, e: HandEval, me: Weigh, nxt: Weigh, words: str) -> str:
        """The sentence for the first weight in which ``me`` beat ``nxt``."""
        c = me.card
        contract = bool(v.spec.contracts)
        if nxt.wild and not me.wild:
            if me.back:
                return (f"keep the wild card {nxt.card}, even if that throws back {c}, the card you "
                        "just took.")
            return f"keep the wild card {nxt.card}; " + self._lone_words(e, me, words)
        if nxt.back and not me.back:
            return f"you just took {nxt.card}; throwing it back would gain nothing."
        nxt_seat = f"Seat {(view.seat + 1) % view.players}"
        if nxt.out == 3 and me.out < 3:
            return (f"{nxt_seat} has one card left and could take {nxt.card}, lay it off on the table "
                    f"and go out; {c} fits no meld there.")
        if me.risk is not None and nxt.risk is not None:
            who = ", ".join(f"Seat {s}" for s in view.close())
            short = e.short if contract else 0
            if me.need < nxt.need and short <= 1:
                return (f"{who} may go out soon, and {nxt.card} is needed for {words}; {c} is not "
                        f"({self._lone_words(e, me, words, bare=True)}).")
            if nxt.out > me.out:
                return (f"{nxt_seat} has {_cards(4 - nxt.out)} left and could take {nxt.card}, lay it off "
                        f"on the table and be close to going out; {c} fits no meld there.")
            if me.risk > nxt.risk:
                far = f"; you are {_cards(short)} from {words}" if contract and short >= 2 else ""
                tail = f", more than its chance of a meld is worth{far}." if me.lack <= 2 else f"{far}."
                ones = [s for s in view.close() if view.hand_sizes[s] == 1]
                if ones:
                    one = " and ".join(f"Seat {s}" for s in ones)
                    has = "has" if len(ones) == 1 else "have"
                    who = f"{one} {has} one card left and may go out at once;"
                else:
                    who += " may go out soon and"
                return f"{who} {c} costs {_points(me.value)}" + tail
        if me.need < nxt.need:
            return (f"{nxt.card} is needed for your best melds toward {words}; "
                    + self._lone_words(e, me, words))
        if me.lack > nxt.lack:
            return self._lone_words(e, me, words)
        if me.lack == nxt.lack and me.outs < nxt.outs:
            return (self._lone_words(e, me, words, bare=True, outs=False)
                    + f", and fewer of the cards that would help {c} are still unseen ({me.outs}, "
                    f"against {nxt.outs} for {nxt.card}).")
        if (2 * me.table + me.wanted) < (2 * nxt.table + nxt.wanted):
            fed = ("fits a meld on the table" if nxt.table else "goes with cards the next player took")
            return f"{nxt.card} is as useful to you but {fed}; {c} feeds nobody."
        if me.value > nxt.value:
            return (self._lone_words(e, me, words, bare=True)
                    + f", and it costs the most of such cards ({_points(me.value)}).")
        return self._lone_words(e, me, words)

    def _lone_words(self, e: HandEval, w: Weigh, words: str, bare: bool = False, outs: bool = True) -> str:
        """What ``w``'s card has toward the deal's melds, in words: nothing, or the one
        partial meld in the making it is part of (its cards, goal and what it lacks) and,
        with ``outs``, how many unseen cards would help it."""
        c = w.card
        partners = e.partners(c)
        if not partners:
            text = f"it goes with no card in your hand toward {words} ({self._nothing_words(e)})"
        else:
            g = e.prospect_group(c)
            if g is None:  # more of a rank than a set may hold
                text = f"{format_cards(sorted([c] + partners))} is a spare start beside your best melds"
                n = w.outs
            else:
                text = f"{g.words()} is a spare start beside your best melds"
                n = g.outs
            if outs:
                text += f", with {_cards(n)} unseen that would help"
        return text if bare else text + "."

    @staticmethod
    def _nothing_words(e: HandEval) -> str:
        f = e.f
        bits = []
        if f.set_size:
            bits.append("no other card of its rank")
        if f.run_size:
            bits.append(f"no card of its suit within a run of {f.run_size}")
        return " and ".join(bits) or "no meld"

    def _free_words(self, e: HandEval, skip: Card) -> list[str]:
        """The basic family: the hand's melds in the making (two cards or more) once
        ``skip`` is gone, each one meld's cards (:meth:`HandEval.prospect_group`)."""
        rest = list(e.hand)
        rest.remove(skip)
        after = HandEval(e.f, rest, e.table)
        out = []
        seen: set[int] = set()
        for x in sorted(rest):
            if x in seen or e.f.wild[x]:
                continue
            g = after.prospect_group(x)
            if g is not None and not seen.intersection(g.naturals):
                seen.update(g.naturals)
                out.append(g.words())
        return out[:3]

    def _take_words(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld], top: Card,
                    before: int) -> str:
        e = self.evaluate(v, view, hand + [top], table)
        after = e.short
        g = _group_of(e, top) or e.prospect_group(top)  # its meld in the plan, else its best
        made = f"it makes {g.words()}" if g is not None else f"it goes with {format_cards(e.partners(top))}"
        if not v.spec.contracts or view.down[view.seat]:
            return f"Take {top}: {made}."
        words = self._contract_words(v, view)
        # (as a buy says it: "3 cards short, then 2" read as a riddle to a tester)
        if after == 0:
            return f"Take {top}: {made}, so you can lay down {words} (it was {_cards(before)} short)."
        return f"Take {top}: {made}, so {words} is {_cards(after)} short instead of {before}."

    def _buy_words(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld], top: Card,
                   before: int) -> str:
        extra = v.spec.buy_penalty(view.round)
        e = self.evaluate(v, view, hand + [top], table)
        after = e.short
        g = _group_of(e, top)
        made = f"it makes {g.words()}" if g is not None else "it brings the contract closer"
        cards = f"{extra} penalty card{'s' if extra != 1 else ''}"
        if not extra:
            cost = ""
        elif view.round in v.spec.whole_hand_rounds:  # every card goes down at once: it must fit too
            cost = (f"; the {cards} from the stock must find {'a meld' if extra == 1 else 'melds'} too, "
                    "as the whole hand goes down at once, and nobody is close to going out")
        else:
            cost = (f"; the {cards} from the stock cost{'s' if extra == 1 else ''} nothing yet, and nobody "
                    "is close to going out")
        words = self._contract_words(v, view)
        if after == 0 and extra and view.round in v.spec.whole_hand_rounds:
            fit = "fits" if extra == 1 else "fit"
            return (f"Buy {top}: {made}, so your melds for {words} are there (it was {_cards(before)} "
                    f"short), if the {cards} from the stock {fit} them too: the whole hand goes down at "
                    "once; nobody is close to going out.")
        if after == 0:
            return f"Buy {top}: {made}, so you can lay down {words} (it was {_cards(before)} short){cost}."
        return f"Buy {top}: {made}, so {words} is {_cards(after)} short instead of {before}{cost}."

    def _pass_words(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld], top: Card,
                    danger: bool, swollen: bool, dealt: int) -> str:
        if danger:
            who = ", ".join(f"Seat {s}" for s in view.close())
            return f"Pass on {top}: {who} may go out soon, and every card bought adds to your penalty."
        if swollen:
            return f"Pass on {top}: your hand is already {_cards(len(hand) - dealt)} bigger than dealt."
        if not v.spec.contracts or view.down[view.seat]:
            return f"Pass on {top}: you are down; a bought card is one more to place."
        return f"Pass on {top}: {self._no_help(v, view, hand, table, top)}"

    def _draw_words(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld],
                    top: Card | None, fits: bool = True) -> str:
        """Why draw from the stock; ``fits``: whether a meld on the table takes ``top``."""
        if top is None:
            return "Draw from the stock: the discard pile is empty."
        if (v.spec.contracts and view.down[view.seat] and v.spec.after_contract_melds == "none"
                and not fits):
            return (f"Draw from the stock: you are down, so you may only lay off now, and no meld "
                    f"on the table takes {top}.")
        if not v.spec.contracts or view.down[view.seat]:
            return f"Draw from the stock: {top} goes with nothing you can use now."
        return f"Draw from the stock: {self._no_help(v, view, hand, table, top)}"

    def _no_help(self, v: Variant, view: Seen, hand: list[Card], table: list[TableMeld], top: Card) -> str:
        """Why ``top`` does not bring the contract closer, from the evaluation."""
        words = self._contract_words(v, view)
        e = self.evaluate(v, view, hand, table)
        if e.short == 0:
            return f"you can already lay down {words}; {top} adds nothing to it."
        if e.f.wild[top]:
            return f"{top} would not bring {words} closer."
        g = self.evaluate(v, view, hand + [top], table).prospect_group(top)
        if g is None:
            return f"{top} goes with no card in your hand toward {words}."
        others = list(g.naturals)
        others.remove(top)
        other = "your other " if top in others else ""  # a copy of it (two decks)
        return (f"{top} goes with {other}{format_cards(others)} toward {g.goal()}, but your best melds "
                f"toward {words} stay {_cards(e.short)} short with it.")

    # -- "working toward it" --------------------------------------------------------

    def progress(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The contract this deal and what the hand has toward it, from the same evaluation
        the hint reads (the terminal's contract line, the browser's hint): ``{"contract",
        "short", "melds": [{"cards", "toward", "short"}], "text"}`` — the plan's partial
        melds of two cards or more, pairs of a set included (``short``: None where there is
        no contract, or once down).  Where the hand can meet the contract now, or has laid
        part of it this turn, the melds and the text are the solver's way to lay the rest
        (the melds the hint lays, :meth:`_contract_plans`), each 0 short."""
        tv = as_view(view)
        v, rules, hand, table = self._setup(tv)
        seen = Seen.of(tv)
        words = self._contract_words(v, seen)
        if not v.spec.contracts:
            return {"contract": None, "short": None, "melds": [],
                    "text": "Melds: any sets and runs you can make."}
        if tv.down[seen.seat]:
            return {"contract": words, "short": None, "melds": [],
                    "text": f"Contract ({words}): you are down; lay off and go out."}
        e = self.evaluate(v, seen, hand, table)
        groups = [g for g in e.plan.groups if len(g.cards) >= 2]
        melds = [{"cards": [str(Card(c)) for c in g.cards], "toward": g.goal(), "short": g.short}
                 for g in groups]
        out = {"contract": words, "short": e.short, "melds": melds}
        part = "; ".join(g.words() for g in groups) if groups else "nothing yet"
        begun = any(m.owner == seen.seat for m in table)  # part of it laid this turn
        if e.short == 0 or begun:
            found = next(self._contract_plans(v, seen, hand, table), None)
            if found is not None:
                # the melds the hint lays (its meld step reads the same plans), not the
                # evaluation's groups: the two may meet the contract differently
                laid = " / ".join(format_cards(rd.cards) for rd in found)
                ready = [{"cards": [str(c) for c in rd.cards], "toward": _reading_goal(rd), "short": 0}
                         for rd in found]
                now = "lay the rest of it now" if begun else "you can lay it down now"
                return {**out, "short": 0, "melds": ready, "text": f"Contract ({words}): {now}: {laid}."}
            return {**out, "text": f"Contract ({words}): the melds are there, but not yet with every "
                                   f"card of your hand. Working toward it: {part}."}
        cards = f"{e.short} card{'s' if e.short != 1 else ''}"
        return {**out, "text": f"Contract ({words}): {cards} short. Working toward it: {part}."}


def _fitting(table: Sequence[TableMeld], rules: MeldRules) -> set[int]:
    """The natural faces some meld on the table would take (its rank's cards for a set, the
    cards at either end of a run)."""
    out: set[int] = set()
    for m in table:
        if m.kind == "set":
            faces = [m.rank - 1 + 13 * s for s in range(4)]
        elif m.kind == "run":
            faces = [m.suit * 13 + (p - 1) % 13 for p in (m.lo - 1, m.hi + 1)]
        else:
            continue
        for f in faces:
            if f not in out and not rules.is_wild(f) and m.layoff_meanings(Card(f), rules):
                out.add(f)
    return out


def _reading_goal(rd: Reading) -> str:
    """``a set of eights``, ``a pair of fives``, ``a run of four in spades``: what a
    solver's meld is."""
    if rd.kind in ("set", "pair"):
        return f"a {rd.kind} of {RANK_PLURALS[rd.rank - 1]}"
    return f"a run of {SIZE_WORDS.get(len(rd.cards), str(len(rd.cards)))} in {SUIT_WORDS[rd.suit]}"


def _group_of(e: HandEval, c: Card) -> Group | None:
    for g in e.plan.groups:
        if c in g.cards and len(g.cards) >= 2:
            return g
    return None


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


__all__ = ["HeuristicPlayer", "Seen"]


def _cards(n: int) -> str:
    """"1 card", "2 cards": a count of cards in words."""
    return f"{n} card{'' if n == 1 else 's'}"


def _points(n: int) -> str:
    """"1 point", "10 points"."""
    return f"{n} point{'' if n == 1 else 's'}"
