"""How good are the hints?  Rates of three faults over seeded games, per ruleset.

    python bench/hint_quality.py                  # every ruleset, 40 games each
    python bench/hint_quality.py --quick          # 6 games each, as CI runs it (about a minute)
    python bench/hint_quality.py --rulesets contract,may-i --games 100 --lineup medium --show 3

The hint a person sees (the terminal's ``h``, the browser's hint) is the ``medium`` bot's
``explain()`` on the seat's view.  At every discard decision of every seat in seeded games,
this script asks for it and counts:

- **pair-breaks**: in a deal whose contract is sets only (the basic family: any deal), seat
  not yet down, the hint discards one of two identical cards (``QS QS``: a set's start where
  the pack has copies; with one deck, two cards of a rank) while some other legal discard is
  a natural card that goes with nothing in the hand (no card of its rank; where the deal
  wants runs, no card of its suit within a run's reach); ``no one near out``: of them, those
  whose sentence does not say an opponent may go out (with an opponent a card or two from
  going out, points come first: a costly pair goes before a cheap loner, measured better
  against the true hands, docs/bots.md);
- **wild discards**: the hint discards a wild card while a natural card is a legal discard
  (``unexplained``: and its sentence does not say why, naming the wild card's fate: the word
  "wild" with "cannot" / "no meld");
- **wrong reasons**: the hint's sentence names kept cards "toward" melds, and one of them is
  not what it says: a card named toward the contract (``keep A B C, they go toward ...``) that
  goes with no other card of the hand in a meld this deal asks for (its rank where sets count,
  its suit within a run's reach where runs count), or a group written ``CARDS (a pair toward a
  set of queens)``, ``CARDS (toward a run of four in hearts, 2 short)``, ``CARDS (a set of
  tens)`` that is not such a group of the hand's cards (one rank for a set, one suit within the
  run's length for a run, of a kind the deal asks for, two cards at least).

The checks read the sentence and the position only: they share no code with the bots'
evaluation (the rule facts — contract, wild cards, decks — come from the ruleset's data).
Figures only: nothing is asserted.

Positions: ``--lineup random`` (default) plays every seat at random, so the positions are the
same whatever the bots are (as in issue 39's measurement); ``--lineup medium`` plays every
seat with the medium bot (positions a person meets against it, down seats included; they
change when the bot changes).  Game ``i`` of a ruleset is seeded ``seed + i``; random seats
are seeded from it too.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.players import HeuristicPlayer  # noqa: E402

RANK_NAMES = {"aces": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "sevens": 7,
              "eights": 8, "nines": 9, "tens": 10, "jacks": 11, "queens": 12, "kings": 13}
SUIT_NAMES = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
SIZE_NAMES = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
CARD = r"(?:[A2-9TJQK][CDHS]|JK)"
GROUP = re.compile(rf"((?:{CARD} )*{CARD}) \(([^()]*)\)")
OLD_KEEP = re.compile(rf"keep ((?:{CARD} )*{CARD}), they go toward")


class Rules:
    """The rule facts the checks need, from the ruleset's data."""

    def __init__(self, v: rk.rules.registry.Variant, players: int, round_no: int):
        sp = v.spec
        self.comps = sp.contract(round_no)
        self.rules = v.meld_rules(players, round_no)
        self.decks = sp.pack_for(players)[0]
        kinds = {c.kind for c in self.comps}
        self.free = not self.comps
        self.sets = self.free or bool(kinds & {"set", "meld", "pair"})
        self.runs = self.free or bool(kinds & {"run", "meld"})
        self.sets_only = self.free or kinds <= {"set"}
        sizes = [c.size for c in self.comps if c.kind in ("run", "meld")]
        self.run_len = min(sizes) if sizes else self.rules.min_run

    def wild(self, c: rk.Card) -> bool:
        return self.rules.is_wild(c)

    def run_reach(self, a: rk.Card, b: rk.Card) -> bool:
        """Two naturals of one suit that one run of the deal's length can hold."""
        if a.suit != b.suit or a.rank == b.rank:
            return False
        d = abs(a.rank - b.rank)
        mode = self.rules.ace_mode
        if mode == "wrap":
            d = min(d, 13 - d)  # K-A-2: round the corner
        elif mode in ("low_or_high", "high") and 1 in (a.rank, b.rank):
            other = b.rank if a.rank == 1 else a.rank
            d = d if mode == "low_or_high" else 14 - other
            d = min(d, 14 - other)
        return d < self.run_len

    def partner(self, c: rk.Card, hand: list[rk.Card], skip_one: bool = True) -> bool:
        """Whether ``c`` goes with another card of ``hand`` in a meld this deal asks for."""
        rest = list(hand)
        if skip_one:
            rest.remove(c)
        for o in rest:
            if self.wild(o):
                continue
            if self.sets and o.rank == c.rank:
                return True
            if self.runs and self.run_reach(c, o):
                return True
        return False


def group_ok(cards: list[rk.Card], words: str, hand: list[rk.Card], r: Rules) -> bool:
    """Whether ``cards`` are what ``words`` say, in ``hand``."""
    left = Counter(hand)
    for c in cards:
        if left[c] <= 0:
            return False
        left[c] -= 1
    naturals = [c for c in cards if not r.wild(c)]
    if "set of twos" in words:  # a wild 2 standing for itself is a natural card there (RULES.md 1)
        naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 2 or not naturals:
        return False
    if " set of " in words or words.startswith("a set"):
        if not r.sets:
            return False
        m = re.search(r"set of (\w+)", words)
        rank = RANK_NAMES.get(m.group(1)) if m else None
        if rank is None:
            return False
        if any(c.rank != rank for c in naturals):
            return False
        if r.decks == 1 and len(set(naturals)) < len(naturals):
            return False
        return True
    if "run of" in words:
        if not r.runs:
            return False
        m = re.search(r"run of (\w+) in (\w+)", words)
        if not m or m.group(2) not in SUIT_NAMES:
            return False
        suit = SUIT_NAMES[m.group(2)]
        length = SIZE_NAMES.get(m.group(1), r.run_len)
        naturals = [c for c in naturals if not (r.wild(c) and c.suit == suit)]
        if any(c.suit != suit for c in naturals) or len({c.rank for c in naturals}) < len(naturals):
            return False
        saved = r.run_len
        r.run_len = length
        try:
            return all(r.run_reach(a, b) for i, a in enumerate(naturals) for b in naturals[i + 1:])
        finally:
            r.run_len = saved
    return True  # words that claim no meld


def judge_reason(why: str, hand: list[rk.Card], r: Rules) -> tuple[bool, bool]:
    """(the sentence names kept cards toward melds, and some claim is wrong)."""
    m = OLD_KEEP.search(why)
    if m:  # the old form: "keep A B C D, they go toward <contract>"
        cards = rk.parse_cards(m.group(1))
        wrong = any(not r.wild(c) and not r.partner(c, hand) for c in cards)
        return True, wrong
    claims = [(rk.parse_cards(g.group(1)), g.group(2)) for g in GROUP.finditer(why)
              if "toward" in g.group(2) or g.group(2).startswith(("a set", "a run"))]
    if not claims:
        return False, False
    return True, any(not group_ok(cards, words, hand, r) for cards, words in claims)


def loner(c: rk.Card, hand: list[rk.Card], r: Rules) -> bool:
    return not r.wild(c) and not r.partner(c, hand)


def run(vid: str, games: int, seed: int, lineup: str, show: int) -> dict[str, int]:
    v = rk.get_variant(vid)
    sp = v.spec
    players = 4 if sp.players[0] <= 4 <= sp.players[1] else sp.players[0]
    out = Counter[str]()
    shown = Counter[str]()
    for i in range(games):
        g = rk.new_game(vid, players=players, seed=seed + i, options={"max_turns": 300})
        rng = random.Random(seed + i)
        bots = [HeuristicPlayer(seed + i + s) for s in range(players)]
        hinter = HeuristicPlayer(seed + i + 7)
        while not g.is_over:
            seat = g.current_player
            acts = g.legal_actions()
            discards = [a for a in acts if isinstance(a, rk.Discard)]
            view = g.observe(seat)
            if discards and len(acts) > 1:
                action, why = hinter.explain(view, acts)
                if isinstance(action, rk.CallShanghai) and action.discard is not None:
                    action = rk.Discard(action.discard)  # a discard protected by the call: judged as one
                if isinstance(action, rk.Discard):
                    judge(v, g, seat, view, action, why, discards, out, shown, show)
            if lineup == "random":
                a = acts[rng.randrange(len(acts))]
            else:
                a = bots[seat].choose(view, acts)
            g.apply(a)
    return dict(out)


def judge(v: rk.rules.registry.Variant, g: rk.engine.game.Game, seat: int, view: object,
          action: rk.Discard, why: str, discards: list[rk.Discard], out: Counter[str],
          shown: Counter[str], show: int) -> None:
    r = Rules(v, g.n, g.round_no)
    hand = list(g.observe(seat).hand)
    down = g.observe(seat).down[seat] and not r.free
    c = action.card
    out["discards"] += 1
    legal = [a.card for a in discards]
    naturals = [x for x in legal if not r.wild(x)]
    if r.wild(c) and naturals:
        out["wild"] += 1
        explained = "wild" in why and ("cannot" in why or "no meld" in why)
        if not explained:
            out["wild_unexplained"] += 1
            if shown["wild"] < show:
                shown["wild"] += 1
                print(f"  {v.id} wild: {rk.format_cards(hand)} -> {why}")
    if not down:
        if r.sets_only:
            out["sets_discards"] += 1
            copies = sum(1 for x in hand if x == c)
            pair = copies == 2 if r.decks > 1 else sum(1 for x in hand if x.rank == c.rank) == 2
            if pair and not r.wild(c) and any(loner(x, hand, r) for x in naturals if x != c):
                out["pair_breaks"] += 1
                if "may go out" in why:  # points at risk: an opponent a card or two from going out
                    out["pair_breaks_risk"] += 1
                if shown["pair"] < show:
                    shown["pair"] += 1
                    print(f"  {v.id} pair-break: {rk.format_cards(hand)} -> {why}")
        named, wrong = judge_reason(why, hand, r)
        if named:
            out["reasons"] += 1
            if wrong:
                out["wrong"] += 1
                if shown["wrong"] < show:
                    shown["wrong"] += 1
                    print(f"  {v.id} wrong reason: {rk.format_cards(hand)} -> {why}")


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}% ({a}/{b})" if b else "    - (0/0)"


def line(name: str, got: Counter[str]) -> None:
    calm = got["pair_breaks"] - got["pair_breaks_risk"]
    print(f"{name:<16} {got['discards']:>8}  {pct(got['pair_breaks'], got['sets_discards']):<26} "
          f"{pct(calm, got['sets_discards']):<20} "
          f"{pct(got['wild_unexplained'], got['discards']):<24} {pct(got['wrong'], got['reasons']):<22}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="6 games per ruleset (CI)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default=",".join(rk.variant_ids()))
    ap.add_argument("--lineup", choices=("random", "medium"), default="random")
    ap.add_argument("--show", type=int, default=0, help="print this many examples of each fault")
    args = ap.parse_args()
    games = 6 if args.quick else args.games
    print(f"hint quality: {games} games per ruleset, seats played by {args.lineup}, seeds "
          f"{args.seed}..{args.seed + games - 1}")
    print(f"{'ruleset':<16} {'discards':>8}  {'pair-breaks (sets deals)':<26} {'no one near out':<20} "
          f"{'wild (unexplained)':<24} "
          f"{'wrong reasons':<22}")
    total = Counter[str]()
    t0 = time.process_time()
    for vid in args.rulesets.split(","):
        got = run(vid, games, args.seed, args.lineup, args.show)
        total.update(got)
        line(vid, Counter(got))
    line("all", total)
    print(f"(wild discards, explained or not: {pct(total['wild'], total['discards'])}; "
          f"{time.process_time() - t0:.0f} s of CPU)")


if __name__ == "__main__":
    main()
