"""After the game: a review of one seat's decisions, judged only on what that seat knew.

For every decision of the seat in a finished game (or in the finished deals of a game)
where it had a choice, the review takes the seat's own view at that moment — its hand,
the public table, the log — and nothing else.  The cards the seat could not see are dealt
at random, consistently with that view (:mod:`rummykit.engine.sample`), and the ``hard``
bot's evaluation judges the moves: the moves it would compare (its hand evaluation's
candidates), the move made, and a take that would go out at once, are each played forward
from the same deals with the same seeds (common random numbers) by ``medium`` players in
every seat, and scored as the hard bot scores its rollouts — the seat's points against the
other seats' mean, the right way round for the ruleset (a rollout cut short after
``horizon`` rounds of the table judges each hand by its cards left and the cards it lacks
for the contract).  Where the hard bot would search nothing and the move made is its move,
the hand evaluation settles the decision without rollouts.

Fairness is built in: :func:`judge` is given the seat's :class:`~rummykit.engine.view.View`
and the text of the move made, never the game; the legal moves are those of a game dealt
from the view; the random numbers are seeded from the view's own text (and the review's
``seed``), so two games that differ only in cards the seat had not seen give the same
review of every decision before it saw them.

The move made agrees with the best move when no move did better by more than ``margin``
standard errors of the paired difference (the hard bot's own test before it leaves its
first choice); the points lost are the difference in expected points where one clearly did
better (measured on other deals than those that picked it), else 0.  Luck is kept apart:
a deal's result for the seat (its points against the table, from the deal's public result)
is split into what the choices decided — each move's expected points against par, the
medium bot's move there (the policy every rollout plays on: against it the differences add
up) — and what the cards and the other players decided, the rest.  See
``docs/review.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any

from ..cards import Card
from ..engine.actions import (
    Action,
    Buy,
    CallRummy,
    Discard,
    Draw,
    IllegalActionError,
    Pass,
    Take,
    parse_action,
)
from ..engine.game import Game, replay
from ..engine.record import check_record
from ..engine.sample import Determinizer
from ..engine.state import Phase
from ..engine.view import View
from ..rules.registry import Variant
from .heuristic import HeuristicPlayer, Seen
from .search import SearchPlayer

__all__ = ["Choice", "Decision", "DealReview", "Review", "judge", "review"]

MOMENTS = 5  # the costliest decisions shown per deal
FAR = 10**9  # a horizon that never cuts a rollout short


# ------------------------------------------------------------------ the data


@dataclass(frozen=True)
class Choice:
    """One legal move at a decision: its expected points for the seat against the table
    (None: not played out, the hand evaluation ranked it below the moves compared), the
    share of the sampled deals in which the seat went out before its turn ended, and, for a
    discard, the share in which another player picked the card up."""

    action: str
    ev: float | None = None
    out: float | None = None
    fed: float | None = None


@dataclass(frozen=True)
class Decision:
    """One decision of the seat, judged from its view then.  ``step``: the index in the
    record's actions of the move made (the view is the position before it); ``turn``: the
    deal's turn, every seat's turns counted from 1; ``best``: the move with the best
    expected points; ``lost``: the expected points the move made gave up against it (0 when
    it agrees: nothing did clearly better); ``se``: the standard error of that difference;
    ``settled``: the hand evaluation decided it without rollouts; ``out_move``: a listed move
    that went out this turn in every sampled deal, where the move made did not; ``view``:
    the seat's view then (kept for the moments a player reads; None for the others);
    ``par``: the medium bot's move there (the hard bot's first choice, and how every rollout
    plays on), and ``vs_par``: the expected points the move made won (+) or lost (-) against
    it, 0 where it is the same move: what the luck-and-choices split adds up."""

    step: int
    deal: int
    turn: int
    phase: str
    hand: tuple[str, ...]
    taken: str
    best: str
    agree: bool
    lost: float
    se: float | None
    samples: int
    settled: bool
    choices: tuple[Choice, ...]
    why: str
    evidence: str
    out_move: str | None = None
    view: dict[str, Any] | None = None
    par: str = ""
    vs_par: float = 0.0


@dataclass(frozen=True)
class DealReview:
    """One deal: its decisions, the few that cost the most (``moments``: indices into
    ``decisions``, in the order played), and the deal's result for the seat: ``points``, its
    own points in the deal; ``result``, its points against the other seats' mean, + good."""

    deal: int
    contract: str
    decisions: tuple[Decision, ...]
    moments: tuple[int, ...]
    points: float
    result: float

    @property
    def reviewed(self) -> int:
        return len(self.decisions)

    @property
    def searched(self) -> int:
        return sum(not d.settled for d in self.decisions)

    @property
    def agreed(self) -> int:
        return sum(d.agree for d in self.decisions)

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.reviewed if self.decisions else None

    @property
    def points_lost(self) -> float:
        """The points lost against the best move, decision by decision (a better move missed
        at every turn, a card held too long, counts at every turn: see ``by_choices``)."""
        return sum(d.lost for d in self.decisions)

    @property
    def by_choices(self) -> float:
        """What the seat's choices decided: the expected points of its moves against par (the
        medium bot's move at each decision), summed.  Against the policy the rollouts play on,
        these add up: in expectation, the seat's result less the medium bot's with the same
        cards against the same players."""
        return sum(d.vs_par for d in self.decisions)

    @property
    def by_cards(self) -> float:
        """What the cards (and the other players) decided: the rest of the result."""
        return self.result - self.by_choices

    def totals(self) -> dict[str, Any]:
        return {"reviewed": self.reviewed, "searched": self.searched, "agreed": self.agreed,
                "agreement": self.agreement, "points_lost": round(self.points_lost, 2),
                "result": round(self.result, 2), "choices": round(self.by_choices, 2),
                "cards": round(self.by_cards, 2)}


@dataclass(frozen=True)
class Review:
    """A review of ``seat``'s decisions (see the module docstring): one :class:`DealReview`
    per finished deal reviewed, the game's totals, and :meth:`as_dict` for JSON."""

    ruleset: str
    name: str
    players: int
    seat: int
    scoring: str  # "penalty" (low is good) or "winner_takes"
    settings: dict[str, Any]
    deals: tuple[DealReview, ...]
    over: bool = True  # the whole game is over (else only its finished deals are reviewed)

    def totals(self) -> dict[str, Any]:
        ds = self.deals
        reviewed = sum(d.reviewed for d in ds)
        agreed = sum(d.agreed for d in ds)
        lost = sum(d.points_lost for d in ds)
        result = sum(d.result for d in ds)
        choices = sum(d.by_choices for d in ds)
        return {"deals": len(ds), "reviewed": reviewed, "searched": sum(d.searched for d in ds),
                "agreed": agreed, "agreement": agreed / reviewed if reviewed else None,
                "points_lost": round(lost, 2), "result": round(result, 2), "choices": round(choices, 2),
                "cards": round(result - choices, 2)}

    def moments(self) -> list[Decision]:
        """The moments a player reads, in the order played: each deal's costliest."""
        return [d.decisions[i] for d in self.deals for i in d.moments]

    def as_dict(self) -> dict[str, Any]:
        """JSON-safe: every field, each deal's totals and the game's."""
        out = {k: v for k, v in asdict(self).items() if k != "deals"}
        out["deals"] = []
        for d in self.deals:
            dd = asdict(d)
            dd["totals"] = d.totals()
            out["deals"].append(dd)
        out["totals"] = self.totals()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Review:
        """The review again from :meth:`as_dict`'s dict (e.g. read back from JSON)."""
        deals = []
        for dd in data["deals"]:
            decisions = tuple(
                Decision(**{**{k: v for k, v in x.items() if k not in ("hand", "choices")},
                            "hand": tuple(x["hand"]), "choices": tuple(Choice(**c) for c in x["choices"])})
                for x in dd["decisions"])
            deals.append(DealReview(deal=dd["deal"], contract=dd["contract"], decisions=decisions,
                                    moments=tuple(dd["moments"]), points=dd["points"], result=dd["result"]))
        return cls(ruleset=data["ruleset"], name=data["name"], players=data["players"], seat=data["seat"],
                   scoring=data["scoring"], settings=dict(data["settings"]), deals=tuple(deals),
                   over=data.get("over", True))


@dataclass(frozen=True)
class Settings:
    """How hard the review looks: ``samples`` deals of the unseen cards per decision,
    ``horizon`` rounds of the table before a rollout is judged on the hands (None: to the
    deal's end), ``margin`` standard errors a move must beat the move made by, ``seed``."""

    samples: int = 32
    horizon: int | None = 4
    margin: float = 2.0
    seed: int = 0


# ------------------------------------------------------------------ judging one decision


def view_seed(view: View, settings: Settings) -> int:
    """The decision's random seed: a hash of the view's own text (what the seat saw) and
    the review's settings — never of a hidden card."""
    text = json.dumps(view.as_dict(), sort_keys=True, separators=(",", ":"), default=str)
    head = f"{settings.seed}|{settings.samples}|{settings.horizon}|{settings.margin}|"
    return int.from_bytes(hashlib.sha256((head + text).encode()).digest()[:8], "big")


def judge(view: View, taken_text: str, variant: Variant, settings: Settings, step: int = 0) -> Decision:
    """The decision the seat of ``view`` made by playing ``taken_text``, judged from the
    view alone (see the module docstring)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no decisions to review")
    key = view_seed(view, settings)
    rng = random.Random(key)
    deals = Determinizer(view, variant)
    first = deals.sample(random.Random(rng.getrandbits(63)))
    acts = first.legal_actions()  # the seat's moves: a function of what it sees
    taken = parse_action(taken_text)
    horizon = FAR if settings.horizon is None else settings.horizon
    bot = SearchPlayer(key % 2**32, samples=settings.samples, budget=math.inf, horizon=horizon, screen=0,
                       margin=settings.margin, variant=variant)
    hint, hint_why = bot.heuristic.explain(view, acts)
    cands = bot.candidates(view, acts, hint)
    if hint not in cands:
        cands.insert(0, hint)
    if (view.phase == Phase.DRAW and Take() in acts and Take() not in cands
            and _goes_out_now(first, Take(), seat, key)):
        cands.append(Take())
    if taken not in cands:
        cands.append(taken)
    top = view.discard_top
    turn = int(view.turn_state["turn_index"]) + 1
    hand = tuple(map(str, view.hand))
    if len(cands) == 1:  # the hard bot searches nothing here, and the move made is its move
        return Decision(step=step, deal=view.round, turn=turn, phase=str(view.phase), hand=hand,
                        taken=taken.text(), best=taken.text(), agree=True, lost=0.0, se=None, samples=0,
                        settled=True, choices=_choices(acts, cands, None, None, None), why=hint_why,
                        evidence="The hand evaluation settles it: the hard bot compares no other move here.",
                        par=hint.text())
    own_turn = view.turn == seat and view.phase in (Phase.DRAW, Phase.PLAY, Phase.CALL)
    r = _roll(bot, deals, cands, seat, rng, settings.samples, own_turn)
    n = settings.samples
    t = cands.index(taken)
    h = cands.index(hint)
    means = [sum(x) / n for x in r.values]
    # the best: the highest mean (a tie goes to the move made, then to the hard bot's first choice)
    best = max(range(len(cands)), key=lambda i: (means[i], i == t, i == h))
    gain, se = _paired(r.values[best], r.values[t])
    clear = best != t and gain > settings.margin * se
    lost = round(max(0.0, _cross_fitted(r.values, t)), 2) if clear else 0.0
    clear = clear and lost > 0  # halves that disagree: within what the evaluation can tell
    out_move = None
    if own_turn and r.outs[t] < 1:
        goers = [i for i in range(len(cands)) if r.outs[i] == 1]
        if goers:
            out_move = cands[max(goers, key=lambda i: means[i])].text()
    why = _why(bot.heuristic, view, variant, cands, best if clear else t, t, hint, hint_why, lost, r,
               turn, out_move, clear)
    ev = "; ".join(f"{_say(a, top)} {m:+.1f}" + (" (yours)" if i == t else "")
                   for i, (a, m) in enumerate(zip(cands, means, strict=True)))
    evidence = (f"Over {n} deals of the cards you could not see, in points against the table: {ev}."
                + ("" if clear or best == t else " The difference is within the evaluation's precision."))
    return Decision(step=step, deal=view.round, turn=turn, phase=str(view.phase), hand=hand,
                    taken=taken.text(), best=cands[best].text(), agree=not clear, lost=lost,
                    se=round(se, 2), samples=n,
                    settled=False, choices=_choices(acts, cands, means, r.outs if own_turn else None, r.feds),
                    why=why, evidence=evidence, out_move=out_move, par=hint.text(),
                    vs_par=round(means[t] - means[h], 2))


@dataclass
class _Rolls:
    """The rollouts of a decision's candidates: each one's outcome per deal, and the share
    of the deals in which the seat went out this turn, and in which its discard was taken."""

    values: list[list[float]]
    outs: list[float]
    feds: list[float | None]
    n: int


def _roll(bot: SearchPlayer, deals: Determinizer, cands: list[Action], seat: int, rng: random.Random,
          samples: int, own_turn: bool) -> _Rolls:
    """Every candidate played out from the same ``samples`` deals with the same seeds."""
    sign = 1 if deals.variant.spec.high_wins else -1
    values: list[list[float]] = [[] for _ in cands]
    outs = [0] * len(cands)
    feds = [0] * len(cands)
    for _ in range(samples):
        deal_seed = rng.getrandbits(63)
        play_seed = rng.getrandbits(32)
        dealt = deals.sample(random.Random(deal_seed))
        for i, a in enumerate(cands):
            v, out, fed = _play_out(bot, dealt.copy(), a, seat, play_seed, sign)
            values[i].append(v)
            outs[i] += out and own_turn
            feds[i] += fed
    return _Rolls(values, [k / samples for k in outs],
                  [k / samples if isinstance(a, Discard) else None for k, a in zip(feds, cands, strict=True)],
                  samples)


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over the same deals, and its standard error."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    gain = sum(diffs) / n
    return gain, math.sqrt(sum((d - gain) ** 2 for d in diffs) / max(1, n - 1) / n)


def _cross_fitted(values: list[list[float]], t: int) -> float:
    """What move ``t`` lost against the best, measured on deals other than those that chose
    the best: each half of the deals picks its best for the other half to measure.  (The
    best of several noisy means is biased upward; this estimate is not.)"""
    n = len(values[t])
    halves = (range(0, n, 2), range(1, n, 2))

    def best_on(ks: range) -> int:
        return max(range(len(values)), key=lambda i: (sum(values[i][k] for k in ks), i == t))

    picked = [best_on(ks) for ks in halves]
    return sum(sum(values[picked[1 - j]][k] - values[t][k] for k in ks) / len(ks)
               for j, ks in enumerate(halves)) / 2


def _choices(acts: Sequence[Action], cands: Sequence[Action], means: Sequence[float] | None,
             outs: Sequence[float] | None, feds: Sequence[float | None] | None) -> tuple[Choice, ...]:
    """Every legal move (and the move made, if it was another arrangement), the ones played
    out first, best first."""
    rows = []
    for i, a in enumerate(cands):
        rows.append(Choice(a.text(), None if means is None else round(means[i], 2),
                           None if outs is None else outs[i], None if feds is None else feds[i]))
    if means is not None:
        rows.sort(key=lambda c: -(c.ev or 0.0))
    rows += [Choice(a.text()) for a in acts if a not in cands]
    return tuple(rows)


def _play_out(bot: SearchPlayer, g: Game, a: Action, seat: int, seed: int,
              sign: int) -> tuple[float, bool, bool]:
    """Play ``a`` in ``g``, then the game forward with medium players, as the hard bot's
    rollouts do: (the seat's points against the others' mean, + good; whether the seat went
    out before the turn passed; whether another seat picked up the card ``a`` discarded)."""
    st = g.state
    turn0 = st.turn_index
    rounds = len(g.history)
    watch = a.card if isinstance(a, (Discard, CallRummy)) and a.card is not None else None
    g.apply(a)
    pile = len(st.discard)
    if watch is not None and not (st.discard and st.discard[-1] == watch):
        watch = None
    players = [HeuristicPlayer(seed + s, bot.variant) for s in range(g.n)]
    fed = False
    last = turn0
    while len(g.history) == rounds and not g.is_over:
        if st.turn_index - turn0 >= bot.horizon * g.n:
            left = [bot._leaf(g, s) for s in range(g.n)]
            return (sum(left) - left[seat]) / (g.n - 1) - left[seat], False, fed
        who = g.current_player
        acts = g.legal_actions()
        b = acts[0] if len(acts) == 1 else players[who].choose_in_game(g, who, acts)
        if watch is not None:
            if len(st.discard) != pile or not st.discard or st.discard[-1] != watch:
                watch = None  # buried, or gone: nobody can pick it up now
            elif who != seat and isinstance(b, (Take, Buy)):
                fed, watch = True, None
        last = st.turn_index
        g.apply(b)
    result = g.history[rounds]
    out = result.get("winner") == seat and last == turn0
    pts = [Fraction(p) for p in result["points"]]
    others = (sum(pts) - pts[seat]) / (g.n - 1)
    return sign * float(pts[seat] - others), out, fed


def _goes_out_now(g: Game, a: Action, seat: int, seed: int) -> bool:
    """Whether the seat, playing ``a`` then as the medium bot plays, goes out before its
    turn ends (in the game ``g``, a deal of the unseen cards: after a take, the seat's own
    moves this turn touch no card it cannot see)."""
    g = g.copy()
    st = g.state
    turn0 = st.turn_index
    rounds = len(g.history)
    try:
        g.apply(a)
    except IllegalActionError:
        return False
    me = HeuristicPlayer(seed % 2**32, g.variant)
    while len(g.history) == rounds and not g.is_over and st.turn_index == turn0 and g.current_player == seat:
        acts = g.legal_actions()
        g.apply(acts[0] if len(acts) == 1 else me.choose_in_game(g, seat, acts))
    return len(g.history) > rounds and g.history[rounds].get("winner") == seat


# ------------------------------------------------------------------ the sentences


def _say(a: Action, top: Card | None) -> str:
    """A move as a player says it: 'take 7H', 'draw from the stock', 'discard 9C'."""
    if isinstance(a, Take):
        return f"take {top}" if top is not None else "take"
    if isinstance(a, Draw):
        return "draw from the stock" if not a.both else "draw both"
    if isinstance(a, Buy):
        return f"buy {top}" if top is not None else "buy"
    if isinstance(a, Pass):
        return f"pass on {top}" if top is not None else "pass"
    return a.text()


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _why(h: HeuristicPlayer, view: View, variant: Variant, cands: list[Action], best: int, t: int,
         hint: Action, hint_why: str, lost: float, r: _Rolls, turn: int, out_move: str | None,
         clear: bool) -> str:
    """One sentence why the better move is better (or why the move made was sound), from
    the hand evaluation where it explains it, else from what the rollouts found."""
    top = view.discard_top
    n = r.n
    b, a = cands[best], cands[t]
    if out_move is not None:
        return (f"You could have gone out on turn {turn}: {_say(parse_action(out_move), top)} went out this "
                f"turn in every one of {n} deals of the cards you could not see.")
    if not clear:
        if a == hint:
            return hint_why
        other = cands[best] if best != t else hint
        return (f"{_cap(_say(a, top))} did about as well as {_say(other, top)} over the deals of the cards "
                "you could not see.")
    fb, fa = r.feds[best], r.feds[t]
    if isinstance(a, Discard) and fa is not None and fa >= 0.5 and (fb is None or fb < fa):
        lead = f"Discard {b.card} rather than {a.card}" if isinstance(b, Discard) else _cap(_say(b, top))
        where = f" ({b.card} in {round((fb or 0) * n)})" if isinstance(b, Discard) else ""
        return (f"{lead}: another player picked {a.card} up in {round(fa * n)} of {n} deals of the cards you "
                f"could not see{where}.")
    if isinstance(b, Discard) and isinstance(a, Discard):
        said = _discard_versus(h, view, variant, b.card, a.card)
        if said:
            return f"Discard {b.card} rather than {a.card}: {said}"
    if b == hint:
        return hint_why
    return (f"{_cap(_say(b, top))}: played on with {n} guesses at the hidden cards, it left you about "
            f"{lost:.1f} points better off against the table than {_say(a, top)}.")


def _discard_versus(h: HeuristicPlayer, view: View, variant: Variant, better: Card, made: Card) -> str | None:
    """Why the hand evaluation discards ``better`` before ``made`` (None when it ranks
    ``made`` first: then the rollouts, not the evaluation, found the difference)."""
    v, rules, hand, table = h._setup(view)
    v = variant
    seen = Seen.of(view)
    ranked = h._discard_facts(v, seen, rules, hand, table, list(dict.fromkeys(hand)), draw=False)
    ws = {w.card: w for w in ranked}
    wb, wm = ws.get(better), ws.get(made)
    if wb is None or wm is None or not wb.key < wm.key:
        return None
    if wm.wild and not wb.wild:
        return f"{made} is a wild card; keep it while another card may go."
    if wm.back and not wb.back:
        return f"you had just taken {made}; throwing it back gains nothing."
    contract = bool(v.spec.contracts)
    if seen.down[seen.seat] and contract:
        if wm.table and not wb.table:
            return f"{made} fits a meld on the table, so it could have been laid off; {better} fits none."
        if wm.wanted and not wb.wanted:
            return f"the next player took cards that go with {made}; nobody wants {better}."
        if wb.value > wm.value:
            return (f"neither fits a meld on the table, and {better} costs more ({wb.value} points against "
                    f"{wm.value}).")
        return None
    e = h.evaluate(v, seen, hand, table)
    said = h._why_first(v, seen, e, wb, wm, h._contract_words(v, seen))
    # the evaluation's sentence calls the card discarded "it": name it
    for before in ("; it goes with", "(it goes with"):
        said = said.replace(before, before.replace("it ", f"{better} "))
    return f"{better} goes with" + said[len("it goes with"):] if said.startswith("it goes with") else said


# ------------------------------------------------------------------ the whole review


@dataclass(frozen=True)
class _Task:
    step: int
    view: View
    taken: str


def _scan(record: Mapping[str, Any], seat: int, deal: int | None) -> tuple[Game, list[_Task], dict[int, str]]:
    """Replay ``record``: the seat's decisions (a view and the move made, where it had a
    choice) in the finished deals asked for, the game at its end, and each deal's contract."""
    rec = dict(record)
    g = replay(dict(rec, actions=[]))
    tasks: list[_Task] = []
    contracts: dict[int, str] = {}
    for step, text in enumerate(rec["actions"]):
        contracts.setdefault(g.round_no, g.contract_text())
        if g.current_player == seat and g.phase != Phase.CUT and (deal is None or g.round_no == deal):
            if len(g.legal_actions()) > 1:
                tasks.append(_Task(step, g.observe(seat), text))
        try:
            g.apply(text)
        except IllegalActionError as e:
            raise ValueError(f"action {step + 1} of the record ({text!r:.60}) is illegal: {e}") from None
    finished = len(g.history) + (g.first_round - 1)
    return g, [t for t in tasks if t.view.round <= finished], contracts


def review(record: Mapping[str, Any] | Game, seat: int, *, deal: int | None = None, samples: int = 32,
           seed: int = 0, horizon: int | None = 4, margin: float = 2.0, workers: int = 1,
           progress: Callable[[int, int], None] | None = None, executor: Executor | None = None) -> Review:
    """Review ``seat``'s decisions in the game of ``record`` (a game record, or a Game),
    every finished deal or only ``deal`` (its number, from 1).  ``samples`` deals of the
    unseen cards per decision; ``horizon`` rounds of the table before a rollout is judged
    on the hands (None: to the deal's end); ``workers`` processes (or an ``executor`` to
    run in); ``progress(done, total)`` after each decision.  ValueError for a bad record,
    seat or deal."""
    if isinstance(record, Game):
        record = record.record()
    check_record(record)
    players = record["players"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be a seat of this game, 0-{players - 1}, not {seat!r}")
    if samples < 2:
        raise ValueError(f"samples must be at least 2, not {samples}")
    if horizon is not None and horizon < 1:
        raise ValueError(f"horizon must be at least 1 (or None: to the deal's end), not {horizon}")
    g, tasks, contracts = _scan(record, seat, deal)
    first = g.first_round
    finished = list(range(first, first + len(g.history)))
    if not finished:
        raise ValueError("no deal of this game is finished yet: there is nothing to review")
    if deal is not None and deal not in finished:
        raise ValueError(f"deal {deal} is not a finished deal of this game; the finished deals are "
                         f"{finished[0]}-{finished[-1]}")
    settings = Settings(samples=samples, horizon=horizon, margin=margin, seed=seed)
    variant = g.variant
    done: dict[int, Decision] = {}
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    if executor is None and workers > 1 and total > 1:
        with ProcessPoolExecutor(max_workers=min(workers, total)) as pool:
            _run(pool, tasks, variant, settings, done, progress)
    elif executor is not None:
        _run(executor, tasks, variant, settings, done, progress)
    else:
        for i, t in enumerate(tasks):
            done[i] = judge(t.view, t.taken, variant, settings, t.step)
            if progress is not None:
                progress(len(done), total)
    sign = 1 if variant.spec.high_wins else -1
    out = []
    for k, result in enumerate(g.history):
        number = first + k
        if deal is not None and number != deal:
            continue
        mine = [i for i, t in enumerate(tasks) if t.view.round == number]
        decisions = [done[i] for i in mine]
        moments = _moments(decisions)
        decisions = [_with_view(d, tasks[mine[j]].view) if j in moments else d
                     for j, d in enumerate(decisions)]
        pts = [Fraction(p) for p in result["points"]]
        rel = sign * float(pts[seat] - (sum(pts) - pts[seat]) / (len(pts) - 1))
        out.append(DealReview(deal=number, contract=contracts.get(number, ""), decisions=tuple(decisions),
                              moments=tuple(moments), points=float(pts[seat]), result=round(rel, 2)))
    return Review(ruleset=variant.id, name=variant.name, players=g.n, seat=seat,
                  scoring="winner_takes" if sign > 0 else "penalty",
                  settings={"samples": samples, "horizon": horizon, "margin": margin, "seed": seed},
                  deals=tuple(out), over=g.is_over)


def _run(pool: Executor, tasks: list[_Task], variant: Variant, settings: Settings, done: dict[int, Decision],
         progress: Callable[[int, int], None] | None) -> None:
    futures = {pool.submit(judge, t.view, t.taken, variant, settings, t.step): i for i, t in enumerate(tasks)}
    try:
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            if progress is not None:
                progress(len(done), len(tasks))
    finally:
        for f in futures:
            f.cancel()


def _moments(decisions: Sequence[Decision]) -> list[int]:
    """The few decisions a player should read (at most ``MOMENTS``), in the order played:
    where a listed move went out and the move made did not, then the costliest."""
    flagged = [i for i, d in enumerate(decisions) if d.out_move is not None]
    costly = sorted((i for i, d in enumerate(decisions) if d.lost > 0 and d.out_move is None),
                    key=lambda i: -decisions[i].lost)
    return sorted((flagged + costly)[:MOMENTS])


def _with_view(d: Decision, view: View) -> Decision:
    """``d`` with the seat's view then, as plain JSON (the moments a player reads)."""
    return replace(d, view=json.loads(json.dumps(view.as_dict())))

