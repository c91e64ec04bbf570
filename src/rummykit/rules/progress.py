"""Groups of cards judged as melds, and how far they go toward a deal's contract.

For the browser's meld areas: a player drags cards into groups and sees at once whether each
group is a legal meld under the table's rules (house rules included) and, when the contract
is still to be laid, how many of its melds are ready ("1 of 2 melds ready: still a run of 4").
Pure rules: it judges the cards it is given (the readings of each group, and the solver's
check of the groups as a contract), and searches nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..melds import Component, MeldRules, Reading, face_at, readings
from .describe import LIMIT
from .registry import Variant
from .spec import describe_contract

_NUMBER = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "eight", 9: "nine", 10: "ten"}
_RANK_PLURAL = {1: "aces", 10: "10s", 11: "jacks", 12: "queens", 13: "kings"}
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _n(k: int) -> str:
    return _NUMBER.get(k, str(k))


def _cards(k: int) -> str:
    return f"{_n(k)} card" + ("" if k == 1 else "s")


def rank_plural(rank: int) -> str:
    """``7`` → "7s", ``1`` → "aces"."""
    return _RANK_PLURAL.get(rank, f"{rank}s")


@dataclass(frozen=True)
class GroupCheck:
    """One group judged: ``ok`` and ``kind`` ("set", "run" or "pair") when it is a meld,
    and a sentence: what it is, or why it is not one."""

    ok: bool
    text: str
    kind: str | None = None
    readings: tuple[Reading, ...] = ()

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok}
        if self.kind is not None:
            out["kind"] = self.kind
        out["text"] = self.text
        return out


@dataclass(frozen=True)
class ContractCheck:
    """The groups against the deal's contract: ``need`` melds, ``ready`` of them matched by a
    valid group (by kind and size), ``ok`` when the groups may be laid down as the contract."""

    need: int
    ready: int
    ok: bool
    text: str

    def public(self) -> dict[str, Any]:
        return {"need": self.need, "ready": self.ready, "ok": self.ok, "text": self.text}


def describe_reading(rd: Reading, rules: MeldRules) -> str:
    """"a set of 7s", "a run of hearts from 3H to 6H" (and the wild cards in it)."""
    wild = sum(1 for c in rd.cards if rules.is_wild(c))
    if rd.kind == "run":
        lo, hi = face_at(rd.suit, rd.lo), face_at(rd.suit, rd.hi)
        text = f"a run of {_SUIT_NAMES[rd.suit]} from {lo} to {hi}"
    else:
        text = f"a {rd.kind} of {rank_plural(rd.rank)}"
    if wild:
        text += f" with {_n(wild)} wild card" + ("" if wild == 1 else "s")
    return text


def check_group(cards: Sequence[Card], rules: MeldRules, *, pair: bool = False) -> GroupCheck:
    """Whether ``cards`` are one meld under ``rules`` (``pair``: a pair counts too, where the
    contract asks for one), and a sentence saying what it is or why not."""
    cs = list(cards)
    found = readings(cs, rules, pair=pair)
    if found:
        first = found[0]
        return GroupCheck(True, describe_reading(first, rules), first.kind, tuple(found))
    return GroupCheck(False, why_not_meld(cs, rules))


def why_not_meld(cards: Sequence[Card], rules: MeldRules) -> str:
    """Why ``cards`` (which have no reading as a meld) are not one, in a sentence."""
    n = len(cards)
    least = min(rules.min_set, rules.min_run)
    if n == 0:
        return "no cards yet"
    if n < least:
        return f"{_cards(n)}: a meld needs at least {least}"
    naturals = [c for c in cards if not rules.is_wild(c)]
    wilds = n - len(naturals)
    if not naturals:
        if rules.natural_required:
            return "only wild cards: a meld needs a natural card"
        return "not a meld under these rules"
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    limit = f"too many wild cards: {LIMIT[rules.wild_limit]}"
    if len(ranks) == 1:
        if n < rules.min_set:
            return f"{_cards(n)}: a set needs at least {rules.min_set}"
        if rules.set_max is not None and n > rules.set_max:
            return f"{_cards(n)} of one rank: with one deck a set has at most {rules.set_max}"
        if not rules.within_limit(wilds, len(naturals)):
            return limit
        return "not a meld under these rules"
    if len(suits) > 1:
        if len(ranks) == len(naturals):
            return "not one suit: a run's cards are all of one suit"
        return "not one rank: a set's cards are all of one rank"
    # one suit, several ranks: a run that does not work
    seen: set[int] = set()
    for c in naturals:
        if c in seen:
            return f"{c} twice: a run has one card of each rank"
        seen.add(c)
    if n < rules.min_run:
        return f"{_cards(n)}: a run needs at least {rules.min_run}"
    if not rules.within_limit(wilds, len(naturals)):
        return limit
    return _run_gap(naturals, wilds, rules)


def _run_gap(naturals: list[Card], wilds: int, rules: MeldRules) -> str:
    """Why one suit's cards with ``wilds`` wild cards make no run: a gap wider than the wild
    cards fill, or an ace where the rules do not let it stand."""
    suit = naturals[0].suit
    low = sorted(c.rank for c in naturals)
    tries = [low]
    if 1 in low:
        tries.append(sorted(14 if r == 1 else r for r in low))  # the ace high
    best = min(tries, key=lambda rs: rs[-1] - rs[0])
    missing = best[-1] - best[0] + 1 - len(best)
    if missing > wilds:
        for a, b in zip(best, best[1:], strict=False):
            if b - a > 1:
                lo, hi = face_at(suit, a), face_at(suit, b)
                fill = b - a - 1
                if wilds:
                    return (f"a gap between {lo} and {hi}: {_cards(fill)} missing and "
                            f"{_n(wilds)} wild card{'s' if wilds != 1 else ''} to fill the gaps")
                return f"a gap between {lo} and {hi}"
    if 1 in low:
        aces = {"low": "aces are low only (A-2-3)", "high": "aces are high only (Q-K-A)",
                "low_or_high": "an ace is low or high, but a run never turns the corner"}
        if rules.ace_mode in aces:
            return aces[rules.ace_mode]
    if best[-1] - best[0] + 1 + (wilds - missing) > 13 + (rules.ace_mode != "low"):
        return "too long: a run holds each rank once"
    return "not a meld under these rules"


def _match(options: list[list[int]], slots: int) -> tuple[int, list[int | None]]:
    """The most groups given a slot each (``options[g]``: the slots group g may fill), and
    for each slot the group in it: a maximum bipartite matching by augmenting paths."""
    owner: list[int | None] = [None] * slots

    def place(g: int, seen: set[int]) -> bool:
        for s in options[g]:
            if s in seen:
                continue
            seen.add(s)
            held = owner[s]
            if held is None or place(held, seen):
                owner[s] = g
                return True
        return False

    got = sum(place(g, set()) for g in range(len(options)))
    return got, owner


def _fits(rd: Reading, comp: Component, exact: bool) -> bool:
    if comp.kind == "meld":
        if rd.kind not in ("set", "run"):
            return False
    elif rd.kind != comp.kind:
        return False
    size = len(rd.cards)
    return size == comp.size if exact else size >= comp.size


def check_groups(variant: Variant, round_no: int, players: int, groups: Sequence[Sequence[Card]], *,
                 down: bool, hand: Sequence[Card] | None = None, laid: Sequence[Reading] = ()
                 ) -> tuple[list[GroupCheck], ContractCheck | None]:
    """Each group judged as a meld of ``variant`` in deal ``round_no`` with ``players`` at the
    table, and, unless the seat is ``down`` or the deal has no contract, how far the groups go
    toward the contract (``hand``: the seat's hand, for the deals melded with the whole hand;
    ``laid``: the melds of the contract the seat has laid this turn, going down in steps, which
    count as ready and leave the rest of the contract to the groups)."""
    sp = variant.spec
    rules = variant.meld_rules(players, round_no)
    whole = round_no in sp.whole_hand_rounds
    exact = sp.contract_sizes == "exact" and not whole
    full = sp.contract(round_no) if sp.contracts and not down else ()
    comps = full
    if full and laid:
        rests = variant.solver(players, round_no).parts_left(full, list(laid), exact)
        comps = rests[0] if rests else full
    pair = any(c.kind == "pair" for c in full)
    checks = [check_group(g, rules, pair=pair) for g in groups]
    if not full:
        return checks, None
    before = len(full) - len(comps)  # the contract's melds laid already this turn
    options = [[i for i, comp in enumerate(comps) if any(_fits(rd, comp, exact) for rd in ch.readings)]
               for ch in checks]
    ready, owner = _match(options, len(comps))
    need = len(comps)
    valid = [list(g) for g, ch in zip(groups, checks, strict=True) if ch.ok]
    bad = sum(1 for g, ch in zip(groups, checks, strict=True) if g and not ch.ok)
    ok = False
    if ready == need and not bad:
        ok = variant.solver(players, round_no).meets(comps, valid, whole_hand=whole) is not None
        if ok and whole and hand is not None:
            ok = sorted(hand) == sorted(c for g in valid for c in g)
    missing = tuple(comp for i, comp in enumerate(comps) if owner[i] is None)
    total = before + need
    head = f"{before + ready} of {total} meld{'s' if total != 1 else ''} ready"
    if before:
        head += f" ({before} laid)"
    if ok:
        text = f"{head}: the contract is met"
    elif missing:
        text = f"{head}: still {describe_contract(missing)}"
    elif bad:
        text = f"{head}, but {_n(bad)} group{' is' if bad == 1 else 's are'} not a meld"
    elif whole and hand is not None and sorted(hand) != sorted(c for g in valid for c in g):
        text = f"{head}, but this deal's contract lays down the whole hand"
    elif len(valid) > need and sp.contract_count == "exact":
        text = f"{head}, but going down lays exactly the contract's melds: take the others out"
    else:
        text = f"{head}, but not together: {_together(sp)}"
    return checks, ContractCheck(total, before + ready, ok, text)


def _together(sp: Any) -> str:
    """The contract's rules across its melds, in words (why melds of the right kinds and
    sizes may still not make it)."""
    rules = []
    if sp.runs_not_contiguous:
        rules.append("two runs of one suit may not be contiguous")
    if sp.one_run_per_suit:
        rules.append("only one run of a suit")
    if sp.distinct_set_ranks:
        rules.append("two sets of the same rank do not both count")
    return "; ".join(rules) if rules else "the melds do not make the contract"
