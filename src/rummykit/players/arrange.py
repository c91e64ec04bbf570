"""The hand grouped toward this deal's contract: the browser's "Arrange" control.

Read from the seat's own view only.  When the hand can meet the contract now, the groups are
the solver's arrangement (``Variant.find_contract``: the contract's melds with the least
left over); otherwise first the contract's best partial melds as the hand evaluation finds them (the
hint's "Working toward it", :meth:`HeuristicPlayer.progress`), then the other cards' best
partial melds — sets or their starts (cards of one rank; the identical copies of a pack of
several decks count), and runs or their pieces (cards of one suit in sequence, or with single
ranks missing) — each card in one group only; the wild cards complete the groups they bring
to a meld, and the rest follows.  Without a contract (or once down): those partial melds
alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, format_cards, parse_card
from ..engine.view import as_view
from ..melds import MeldRules
from ..rules.registry import Variant
from ..rules.spec import describe_contract


@dataclass(frozen=True)
class Arrangement:
    """Groups of the hand (each toward a meld) in order, then the cards left, and a sentence."""

    groups: list[list[Card]]
    rest: list[Card]
    text: str

    def public(self) -> dict[str, Any]:
        return {"groups": [[str(c) for c in g] for g in self.groups], "rest": [str(c) for c in self.rest],
                "text": self.text}


def _positions(rank: int, rules: MeldRules) -> list[int]:
    """Where a rank may stand in a run: an ace low (1) and, where aces may be high, 14."""
    if rank != 1:
        return [rank]
    if rules.ace_mode == "low":
        return [1]
    if rules.ace_mode == "high":
        return [14]
    return [1, 14]


def _candidates(pool: Counter[Card], rules: MeldRules) -> list[tuple[str, list[Card], int]]:
    """Every group the natural cards in ``pool`` could start: (kind, cards, gaps): a rank's
    cards, copies included, and each suit's pieces with at most one rank missing between
    neighbours (gaps: how many are missing in all)."""
    out: list[tuple[str, list[Card], int]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, dict[int, Card]] = {}
    for c in sorted(pool):
        by_rank.setdefault(c.rank, []).extend([c] * pool[c])
        for p in _positions(c.rank, rules):
            by_suit.setdefault(c.suit, {})[p] = c
    for cards in by_rank.values():
        if len(cards) >= 2:
            most = rules.set_max or len(cards)
            out.append(("set", cards[:most], 0))
    for spots in by_suit.values():
        order = sorted(spots)
        for step in (1, 2):  # pieces in sequence, and pieces with single ranks missing
            piece = [order[0]]
            for p in order[1:] + [99]:
                if p - piece[-1] <= step and len(piece) < 14:
                    piece.append(p)
                    continue
                gaps = piece[-1] - piece[0] + 1 - len(piece)
                cards = [spots[x] for x in piece]
                # (an ace met at both ends is one card; a piece in sequence is found at step 1)
                if len(piece) >= 2 and len(set(cards)) == len(cards) and (step == 1 or gaps):
                    out.append(("run", cards, gaps))
                piece = [p]
    return out


def _wanted(variant: Variant, round_no: int, contract: bool) -> dict[str, int]:
    """How much each kind of group is worth toward the deal: the contract's kinds only,
    both kinds without one."""
    if not contract:
        return {"set": 1, "run": 1}
    kinds = {c.kind for c in variant.spec.contract(round_no)}
    return {"set": int(bool(kinds & {"set", "pair", "meld"})), "run": int(bool(kinds & {"run", "meld"}))}


def partial_melds(hand: Sequence[Card], rules: MeldRules, wanted: Mapping[str, int]) -> list[list[Card]]:
    """The hand's natural cards as groups toward melds, greedily: the group worth most first
    (of a kind ``wanted``, then complete, then the most cards, then the fewest gaps), its cards
    taken out, again; then each wild card on a group it makes a meld (within the wild limit)."""
    pool = Counter(c for c in hand if not rules.is_wild(c))
    groups: list[tuple[str, list[Card]]] = []
    while True:
        cands = _candidates(+pool, rules)
        if not cands:
            break

        def worth(cand: tuple[str, list[Card], int]) -> tuple[int, int, int, int, list[int]]:
            kind, cards, gaps = cand
            least = rules.min_set if kind == "set" else rules.min_run
            whole = int(len(cards) >= least and not gaps)
            return (wanted.get(kind, 0), whole, len(cards) - gaps, -gaps, [-int(c) for c in cards])

        kind, cards, _ = max(cands, key=worth)
        groups.append((kind, cards))
        pool.subtract(cards)
    wilds = [c for c in hand if rules.is_wild(c)]
    for w in list(wilds):
        short = [g for g in groups if len(g[1]) < (rules.min_set if g[0] == "set" else rules.min_run)
                 or (g[0] == "run" and _gaps(g[1], rules) > sum(rules.is_wild(c) for c in g[1]))]
        short = [g for g in short if rules.within_limit(sum(rules.is_wild(c) for c in g[1]) + 1,
                                                        sum(not rules.is_wild(c) for c in g[1]))]
        if not short:
            break
        kind, cards = max(short, key=lambda g: (wanted.get(g[0], 0), len(g[1])))
        cards.append(w)
        wilds.remove(w)
    order = sorted(groups, key=lambda g: (-wanted.get(g[0], 0), -len(g[1])))
    return [cards for _, cards in order]


def _gaps(cards: Sequence[Card], rules: MeldRules) -> int:
    """The ranks missing inside a run piece (its wild cards not counted)."""
    ranks = sorted(c.rank for c in cards if not rules.is_wild(c))
    if len(ranks) < 2:
        return 0
    spans = [ranks[-1] - ranks[0]]
    if ranks[0] == 1 and rules.ace_mode != "low":
        high = sorted(14 if r == 1 else r for r in ranks)
        spans.append(high[-1] - high[0])
    return min(spans) + 1 - len(ranks)


def _left(hand: Sequence[Card], groups: Sequence[Sequence[Card]], rules: MeldRules) -> list[Card]:
    """The cards of ``hand`` in no group: naturals by suit and rank, then the wild cards."""
    left = Counter(hand)
    for g in groups:
        left.subtract(g)
    rest = list((+left).elements())
    return sorted(rest, key=lambda c: (rules.is_wild(c), c.suit, c.rank))


def arrange(view: Mapping[str, Any], variant: Variant) -> Arrangement:
    """The seat's hand (from its ``view``) grouped toward this deal's contract, under the
    table's rules ``variant`` (house rules included); see the module's docstring."""
    v = as_view(view)
    seat = v.seat
    if seat is None:
        raise ValueError("a spectator's view has no hand to arrange")
    hand = list(v.hand)
    sp = variant.spec
    rules = variant.meld_rules(v.players, v.round)
    contract = bool(sp.contracts) and not v.down[seat]
    if not hand:
        return Arrangement([], [], "No cards in your hand.")
    if contract:
        words = describe_contract(sp.contract(v.round), v.round in sp.whole_hand_rounds)
        found = variant.find_contract(v.round, hand, v.players)
        if found is not None:
            return Arrangement(found, _left(hand, found, rules),
                               f"You can lay down the contract ({words}): "
                               + " / ".join(format_cards(g) for g in found) + ".")
    planned: list[list[Card]] = []
    short = 0
    said = ""
    if contract:
        # first the contract's best partial melds as the hint's "Working toward it" reads them
        # (the one hand evaluation: pairs of a set count), then the other cards' groups
        from .heuristic import HeuristicPlayer

        got = HeuristicPlayer(0, variant).progress(v)
        planned = [[parse_card(c) for c in m["cards"]] for m in got["melds"]]
        short = got["short"] or 0
        said = got["text"]
    groups = planned + partial_melds(_left(hand, planned, rules), rules, _wanted(variant, v.round, contract))
    rest = _left(hand, groups, rules)
    melds = sum(1 for g in groups if variant.is_valid_meld(g, v.players))
    started = len(groups) - melds
    if contract:
        # (none short, yet no way down: a whole-hand deal whose melds leave a card; the
        # evaluation's own sentence says so)
        text = (f"Toward the contract ({words}): {short} card{'s' if short != 1 else ''} short."
                if short else said)
    else:
        text = "Your melds and the cards that go together."
    bits = []
    if melds:
        bits.append(f"{melds} meld{'s' if melds != 1 else ''} ready")
    if started:
        bits.append(f"{started} started")
    if bits:
        text += " " + ", ".join(bits).capitalize() + "."
    elif not groups:
        text += " No cards go together yet."
    return Arrangement(groups, rest, text)
