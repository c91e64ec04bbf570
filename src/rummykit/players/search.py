"""The search player ("hard"): determinized rollouts over the seat's information set.

At a decision that matters — take or draw, buy or pass, which card to discard — it
lists a few candidate actions (the heuristic's favourites), then, for each of many
*determinizations* (the unseen cards dealt at random, consistently with its view: see
:mod:`rummykit.engine.sample`), plays every candidate forward to the end of the round
with heuristic players in every seat.  The same determinization and the same rollout
seeds serve every candidate (common random numbers), so the comparison is about the
action, not the luck.  It picks the candidate with the best mean outcome: its own round
points against the other seats' mean, the right way round for the ruleset's scoring.

Melding, laying off, swaps and calls follow the heuristic (doing them at once is what
the heuristic already does best).  The budget is a number of determinizations and a
time limit per decision, whichever ends first.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import Card, parse_card
from ..engine.actions import Action, Buy, CallShanghai, Discard, Draw, Pass, Take
from ..engine.game import Game
from ..engine.sample import Determinizer
from ..engine.view import View, as_view
from ..rules.registry import Variant, get_variant
from .evaluation import HandEval, facts
from .heuristic import HeuristicPlayer, Seen

# the odds of ``leaning``: ratios of the means ``bench/discard_signal.py`` prints (150 games)
LEAN_SETS = 0.035  # a discarded rank's odds in a hand, contract of sets only
LEAN_MIXED = 0.17  # the same, a contract of sets and runs
LEAN_RUNS = (0.15, 0.36, 0.74)  # runs only: a discarded card's, one place and two from it


class SearchPlayer:
    """See the module docstring.  ``samples``: determinizations per decision;
    ``budget``: seconds per decision (at most); ``width``: discards compared;
    ``horizon``: rounds of the table played forward before a rollout is cut short and
    judged on the cards left in hand; ``margin``: how many standard errors a candidate
    must beat the heuristic's choice by (0: the best mean wins; 2 was the default before
    issue 39's tuning: against three medium the best mean did better, in the seventh,
    whole-hand deal above all); ``most``: when after ``samples`` deals a candidate
    is ahead of the heuristic's choice but inside the margin, go on up to this many deals
    (the budget still rules; default: no more than ``samples``); ``screen``: where
    above 0, every discard is played out over this many deals first, and only the
    ``width`` best of them (and the heuristic's choice) go on to the rest (0: the
    heuristic's ``width`` favourites are compared, none other, as with no more ``samples``
    than the screen's deals: the default).  Against the true hands a screen of 8 lost 1.5 ±
    0.7 points less per discard than medium's three best (``bench/hard_regret.py``), but in
    games against three medium it did worse, not better (docs/bots.md): off by default."""

    name = "hard"

    def __init__(self, seed: int = 0, *, samples: int = 32, budget: float = 1.0, width: int = 3,
                 horizon: int = 2, margin: float = 0.0, most: int | None = None,
                 short_cost: float = 10.0, infer: int = 0, screen: int = 0, variant: Variant | None = None):
        if samples < 1 or budget <= 0 or width < 1 or horizon < 1:
            raise ValueError("samples, budget, width and horizon must be positive")
        if screen < 0:
            raise ValueError(f"screen ({screen}) must be at least 0")
        if most is not None and most < samples:
            raise ValueError(f"most ({most}) must be at least samples ({samples})")
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = samples
        self.most = samples if most is None else most
        self.budget = budget
        self.width = width
        self.horizon = horizon
        self.margin = margin
        self.short_cost = short_cost
        self.infer = infer
        self.screen = screen
        self.variant = variant
        self.heuristic = HeuristicPlayer(seed, variant)
        self.last_stats: dict[str, Any] = {}
        self._t0: float | None = None  # when the decision being made began (explain sets it)

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return self.explain(view, legal_actions)[0]

    # -- which decisions are searched ------------------------------------------------------

    def candidates(self, view: Mapping[str, Any], acts: list[Action], hint: Action) -> list[Action]:
        """The actions worth comparing; one action means: no search needed.  Taking or
        buying a card is weighed only when the card brings the contract closer or goes
        with the hand: otherwise it only adds penalty."""
        tv = as_view(view)
        seen = Seen.of(tv)
        phase = tv.phase
        h = self.heuristic
        top = tv.discard_top
        if phase in ("may_i", "draw") and isinstance(hint, (Take, Draw, Buy, Pass)) and top is not None:
            v, rules, hand, table = h._setup(tv)
            helps = h._helps(v, seen, hand, table, top)[1]
            if not helps and not isinstance(hint, (Take, Buy)):
                # a card that goes with the hand is worth weighing only where a meld may follow
                sp = v.spec
                free = not sp.contracts or (seen.down[seen.seat] and sp.after_contract_melds != "none")
                if not free or not h.evaluate(v, seen, hand + [top], table).partners(top):
                    return [hint]
            if phase == "may_i":
                return [a for a in acts if isinstance(a, (Buy, Pass))]
            return [a for a in acts if isinstance(a, (Take, Buy)) or a == Draw()]
        protecting = isinstance(hint, CallShanghai) and hint.discard is not None  # (AC is card 0)
        if phase == "play" and (isinstance(hint, Discard) or protecting):
            v, rules, hand, table = h._setup(tv)
            options = [a.card for a in acts if isinstance(a, Discard)]
            ranked = h._rank_discards(v, seen, rules, hand, table, options)
            # a discard that fits the table is thrown calling Shanghai, as medium does
            called = {a.discard for a in acts if isinstance(a, CallShanghai) and a.discard is not None}
            screened = 0 < self.screen < self.samples  # (a screen compares every one)
            kept = ranked if screened else ranked[: self.width]
            return [CallShanghai(discard=c) if c in called else Discard(c) for c in kept]
        return [hint]

    # -- the search ------------------------------------------------------------------------

    def explain(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> tuple[Action, str]:
        self._t0 = time.perf_counter()  # the budget counts the whole decision, from here
        view = as_view(view)
        acts = list(legal_actions)
        hint, why = self.heuristic.explain(view, acts)
        cands = self.candidates(view, acts, hint)
        if len(cands) <= 1:
            self.last_stats = {"searched": False, "samples": 0}
            return hint, why
        if hint not in cands:
            cands.insert(0, hint)
        base = cands.index(hint)
        values = self.evaluate(view, cands, base)
        done = len(values[base])
        if not done:  # the budget ran out before one deal was played out
            self.last_stats = {"searched": False, "samples": 0}
            return hint, why
        # (a candidate a screen stopped has fewer deals: its mean is over those)
        means = [sum(x) / len(x) for x in values]
        best = self._verdict(values, base)[0]
        a = cands[best]
        self.last_stats = {"searched": True, "samples": done,
                           "means": dict(zip(map(str, cands), means, strict=True))}
        others = ", ".join(f"{c.text()} {m:+.1f}" for c, m, x in zip(cands, means, values, strict=True)
                           if c != a and len(x) == done)
        if any(len(x) < done for x in values):
            left = sum(len(x) < done for x in values)
            others += f"; {left} other discards set aside after {self.screen} deals"
        if best == base:
            return a, (f"{why} Over {done} deals of the unseen cards nothing did clearly better "
                       f"({a.text()} {means[best]:+.1f} points against the table; {others}).")
        return a, (f"{a.text().capitalize()}: over {done} deals of the unseen cards it did best "
                   f"({means[best]:+.1f} points against the table; {others}).")

    def _verdict(self, values: list[list[float]], base: int) -> tuple[int, bool]:
        """The candidate to play, and whether the evidence was close.  The heuristic's
        choice (``base``) is left only on evidence: a candidate's paired gain (same deals,
        same rollout seeds) must beat its standard error by ``self.margin``.  Close: the
        heuristic's choice stands, but some candidate is ahead of it inside that margin."""
        done = len(values[base])
        best, best_gain, close = base, 0.0, False
        for i in range(len(values)):
            if i == base or len(values[i]) != done:
                continue  # (or stopped by the screen)
            diffs = [a - b for a, b in zip(values[i], values[base], strict=True)]
            gain = sum(diffs) / done
            var = sum((d - gain) ** 2 for d in diffs) / max(1, done - 1)
            if gain > self.margin * math.sqrt(var / done):
                if gain > best_gain:
                    best, best_gain = i, gain
            elif gain > 0:
                close = True
        return best, close and best == base

    def evaluate(self, view: Mapping[str, Any], cands: list[Action], base: int = 0,
                 deals: Determinizer | None = None) -> list[list[float]]:
        """Each candidate's rollout outcomes (higher is better), one per determinization:
        ``samples`` of them, or up to ``most`` while the verdict against ``base`` (the
        heuristic's choice) is close.  ``deals``: where the games played come from (default:
        the seat's view, :class:`Determinizer`; a measurement may deal the true hands)."""
        tv = as_view(view)
        v = self.variant or get_variant(tv.ruleset)
        seat = tv.seat
        assert seat is not None
        sign = 1 if v.spec.high_wins else -1
        values: list[list[float]] = [[] for _ in cands]
        start = self._t0 if self._t0 is not None else time.perf_counter()
        self._t0 = None
        # a margin for what follows the last rollout (and a clock read between actions)
        budget = self.budget * 0.95
        deadline = start + budget
        if deals is None:
            deals = Determinizer(tv, v, self.leaning(tv, v) if self.infer else None)
        done = 0
        target = self.samples
        playing = list(range(len(cands)))  # the candidates still compared
        since, since_t = 0, start  # deals played, and when, since the field last changed
        while done < target:
            now = time.perf_counter()
            if done > since and now - start + (now - since_t) / (done - since) > budget:
                break  # one more determinization would overrun the budget
            deal_seed = self.rng.getrandbits(63)
            play_seed = self.rng.getrandbits(32)
            row = []
            dealt = deals.sample(random.Random(deal_seed))
            for i in playing:
                g = dealt.copy()  # the same deal for every candidate
                g.apply(cands[i])
                got = self._rollout(g, seat, play_seed, sign, deadline)
                if got is None:
                    return values  # out of time: this deal is left unfinished, unused
                row.append(got)
            for i, x in zip(playing, row, strict=True):
                values[i].append(x)
            done += 1
            if done == self.screen and len(playing) > self.width + 1:
                # the screen's best few (and the heuristic's choice) play on; the rest stop
                best = sorted(playing, key=lambda i: -sum(values[i]))[: self.width]
                playing = sorted(set(best) | {base})
                since, since_t = done, time.perf_counter()
            if done == target < self.most and self._verdict(values, base)[1]:
                target = self.most
        return values

    def leaning(self, tv: View, v: Variant) -> list[dict[Card, float]] | None:
        """What the other seats' discards say of their hands, for the deals of the unseen
        cards.  Measured in medium's play (``bench/discard_signal.py``: Contract Rummy for
        four, 150 games, the cards held by seats not yet down): where the contract asks for
        sets, a seat that discarded a card of some rank this deal holds 0.036 cards of it on
        average with sets only (1.04 of a rank it did not discard), 0.21 with sets and runs
        (1.20); where it asks for runs only, 0.068 copies of a card it discarded (0.46 of one
        far from its discards), 0.17 of a card one place from it in its suit, 0.34 two places
        away.  Such cards are dealt to that hand at those odds (``LEAN_*``).  None where
        nothing is said (the basic family)."""
        sp = v.spec
        if not sp.contracts:
            return None
        kinds = {c.kind for c in sp.contract(tv.round)}
        if not kinds <= {"set", "run"}:
            return None  # (a "meld" of either kind, a pair: not measured)
        thrown: list[set[int]] = [set() for _ in range(tv.players)]
        for e in tv.log:
            if e.get("verb") == "discard" and "card" in e:
                thrown[e["seat"]].add(int(parse_card(e["card"])))
        rules = sp.meld_rules(tv.players, tv.round)
        naturals = [f for f in range(52) if not rules.is_wild(Card(f))]
        out: list[dict[Card, float]] = []
        for seat in range(tv.players):
            if seat == tv.seat or tv.down[seat] or not thrown[seat]:
                out.append({})
            elif "set" in kinds:
                odds = LEAN_SETS if kinds == {"set"} else LEAN_MIXED
                ranks = {f % 13 for f in thrown[seat]}
                out.append({Card(f): odds for f in naturals if f % 13 in ranks})
            else:
                lean: dict[Card, float] = {}
                for f in naturals:
                    near = min((abs(f % 13 - x % 13) for x in thrown[seat] if x // 13 == f // 13), default=9)
                    if near < len(LEAN_RUNS):
                        lean[Card(f)] = LEAN_RUNS[near]
                out.append(lean)
        return out

    def _rollout(self, g: Game, seat: int, seed: int, sign: int, deadline: float = math.inf) -> float | None:
        """Play ``g`` forward with heuristic players: how much better ``seat`` did than
        the other seats' mean.  A rollout that reaches the end of the round counts the
        round's points (``sign`` = +1 when points are good); one cut short by the
        horizon judges each hand by :meth:`_leaf`.  None if the clock passes ``deadline``."""
        players = [HeuristicPlayer(seed + s, self.variant) for s in range(g.n)]
        rounds = len(g.history)
        turn0 = g.turn_index
        clock = time.perf_counter
        while len(g.history) == rounds and not g.is_over:
            if clock() > deadline:
                return None
            if g.turn_index - turn0 >= self.horizon * g.n:
                left = [self._leaf(g, s) for s in range(g.n)]
                return (sum(left) - left[seat]) / (g.n - 1) - left[seat]
            who = g.current_player
            acts = g.legal_actions()
            g.apply(acts[0] if len(acts) == 1 else players[who].choose_in_game(g, who, acts))
        else:
            pts = [Fraction(p) for p in g.history[-1]["points"]]
        others = (sum(pts) - pts[seat]) / (g.n - 1)
        return sign * float(pts[seat] - others)

    def _leaf(self, g: Game, seat: int) -> float:
        """What a hand left mid-round is likely to cost: its penalty, plus
        ``short_cost`` for each card it still lacks for the contract (the hand
        evaluation's count, :mod:`.evaluation`)."""
        hand = g.hands[seat]
        cost = float(sum(g.values[c] for c in hand))
        if g.spec.contracts and not g.down[seat]:
            cost += self.short_cost * HandEval(facts(g.variant, g.n, g.round_no), hand).short
        return cost

