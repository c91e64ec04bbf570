"""Going down and out in one turn: a contract arrangement the seat can go out from.

The contract melds :func:`~.melding.meld_options` offers are the solver's least-penalty
arrangement and its naturals-only one.  Neither need be one the seat can go out from this
turn: progressive, deal 8, ``AH AS 2C 2H 2H 2S 2S 3H 5H TS QS KH`` goes out as
``AH 2C 2H 2H 3H 5H / AS 2S 2S TS QS`` and then ``KH`` laid off, while the least-penalty
arrangement strands the ``KH``.  A player who sees the way out and finds it missing from
the listed moves calls the game rigged, so when none of the offered melds goes out and one
arrangement would, :func:`with_going_out` adds it to the list.

How one is found: the cards that would go out are covered by the contract's melds, made as
long as need be (the solver's fewest-cards cover), less the card left to discard and the
cards laid off on the melds already down.  Which those are is guessed several ways: the
faces the melds down might take counted free (a run's missing ranks, a set's rank, wild
cards; where swaps are allowed that turn, what a wild on the table stands for), and the
cards a few greedy layings lay off, with each first part of a laying (a run grown only so
far), each first part of what it laid on one meld, and each laying less a card; and where
the contract's runs of one suit must be laid down apart, a card held back to join them
after.  Where a swap may follow the contract, the hand is covered again with a card (and
with every card that can be) traded for the table's wild that stands for it; where the
lay-offs have no wild limit and the contract's melds do (combination), covers with the
limit lifted are cut to melds within it.  Each long meld is then cut to the sizes
the contract allows, the rest of it laid off at once.  Every candidate is played on a copy
of the state (the meld, then lay-offs in every order: natural cards first, then wilds where
they bridge a run to a card in hand, then elsewhere; then the discard), so one is offered
only if the engine itself takes the seat out with it.  Where the rules allow swaps on that
turn, the candidates are tried again with swaps too, but only after every one has been tried
without: a player who can go out by lay-offs alone is offered the meld that does, not one
that needs a wild swapped out first.  The search is bounded (``SOLVES``, ``SPLITS``,
``NODES``, ``EACH``, ``CUTS``; hands over ``MOST`` cards are not searched), and it is a
search, not a proof: checked against a brute force with other players' melds down
(``bench/goout_reference.py``), it still misses a way out in a few positions in ten
thousand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain, combinations

from ..cards import NUM_FACES, Card
from ..melds import MeldRules, Reading, TableMeld, face_at, reading_from_items
from ..rules.spec import Component
from .actions import Action, IllegalActionError, LayOff, Meld
from .discard import discard_options
from .flow import contract, contract_needed, whole_hand_round
from .melding import (
    SWAP_ON_CONTRACT_TURN,
    apply_layoff,
    apply_meld,
    apply_swap,
    best_contract,
    layoff_options,
    swap_options,
)
from .state import Phase, Setup, State

SOLVES = 160  # whole-hand covers tried per position at most
NODES = 800  # positions played forward per position at most
EACH = 100  # of them, for one arrangement's lay-offs at most
EACH_SWAPPING = 100  # and for its lay-offs and swaps, where the rules allow swaps then
MOST = 20  # cards in a hand searched at most (more: only through many buys)
CUTS = 24  # ways of cutting one cover to the contract's sizes tried at most
SPLITS = 48  # whole-hand covers tried at most with a card held back for the new melds


def with_going_out(setup: Setup, st: State, seat: int, acts: list[Action]) -> list[Action]:
    """``acts`` with a contract meld the seat can go out from added after the other melds,
    when the seat has yet to meet the contract, some meld is offered, none of those offered
    goes out this turn and another arrangement does."""
    last = -1
    for i, a in enumerate(acts):
        if type(a) is Meld:
            last = i
    if last < 0 or not contract_needed(setup, st, seat) or whole_hand_round(setup, st):
        return acts
    if len(st.hands[seat]) > MOST:
        return acts  # (a hand grown by many buys: the search would take too long)
    keep = 1 if st.phase is Phase.PLAY and setup.spec.go_out_by_discard else 0  # (to discard)
    rules = st.rules
    assert rules is not None
    hand = st.hands[seat]
    may = _may_fit(setup, st)
    if _stranded(rules, hand, (), may) > keep or not _could_cover(setup, st, hand, may, keep):
        return acts  # (quick bounds: more cards fit nowhere than the seat may keep)
    offered = [a for a in acts if type(a) is Meld]
    # lay-offs alone first, over every candidate; then, where the rules allow swaps that
    # turn, with swaps, over the same candidates and more: a player who can go out plainly
    # is offered the meld that does, not one that needs a wild swapped out first
    candidates = _Candidates(_search(setup, st, seat, set(offered)))  # type: ignore[arg-type]
    for swaps in (False, True) if setup.spec.swap in SWAP_ON_CONTRACT_TURN else (False,):
        budget = [NODES]
        for a in offered:
            if _goes_out(setup, st, seat, a, budget, swaps):  # type: ignore[arg-type]
                return acts
        for found in candidates:
            if _goes_out(setup, st, seat, found, budget, swaps):
                return acts[: last + 1] + [found] + acts[last + 1:]
            if budget[0] <= 0:
                break
    return acts


class _Candidates:
    """The candidate melds of :func:`_search`, made as they are wanted and kept: each pass
    over them goes over those made before, then makes more."""

    def __init__(self, made: Iterator[Meld]) -> None:
        self.made = made
        self.kept: list[Meld] = []

    def __iter__(self) -> Iterator[Meld]:
        yield from self.kept
        for act in self.made:
            self.kept.append(act)
            yield act


def _search(setup: Setup, st: State, seat: int, tried: set[Meld]) -> Iterator[Meld]:
    """The contract melds to try, other than ``tried``, best guesses first."""
    hand = st.hands[seat]
    sp = setup.spec
    comps = contract(setup, st)
    rules = st.rules
    assert rules is not None
    if len(hand) < sum(c.size for c in comps):
        return
    # which cards the melds down take depends on the order they are laid off in and the
    # ends a wild goes to: a few greedy layings, each a guess (never a bound)
    chains: list[list[Card]] = []
    fitted = _table_fits(st, hand, chains) if sp.layoff_on_contract_turn else [[]]
    wilds = frozenset(c for c in hand if rules.is_wild(c)) if sp.layoff_on_contract_turn else frozenset()
    asides = _asides(fitted, chains)
    keep = 1 if st.phase is Phase.PLAY and sp.go_out_by_discard else 0  # (the card to discard)
    covers = _covers(setup, st, hand, asides, keep, comps)
    for cover in chain(_firsts(setup, st, hand, comps, fitted, wilds), covers):
        if cover is None:
            continue
        for cut in _cuts(setup, st, cover):
            act = Meld(tuple(rd.items(rules) for rd in cut))
            if act in tried:
                continue
            tried.add(act)
            yield act


def _firsts(setup: Setup, st: State, hand: Sequence[Card], comps: Sequence[Component],
            fitted: Sequence[Sequence[Card]], wilds: frozenset[Card]) -> Iterator[list[Reading] | None]:
    """The arrangements to try first, each solved when it is wanted."""
    sp = setup.spec
    rules = st.rules
    assert rules is not None
    # the arrangements to try first: the fewest cards left out of the melds that the melds
    # down would not take (nor, where lay-offs follow the contract at once, the new ones:
    # wild cards), the faces the melds down might take (over-counted) counted free, by
    # lay-offs, then by swaps too, then the cards one greedy laying lays off
    frees = [_may_fit(setup, st, False), _may_fit(setup, st)] + [frozenset(fits) | wilds for fits in fitted]
    for free in dict.fromkeys(frees):
        yield setup.variant.out_solver(setup.n, st.round_no, free, melded=True).solve(comps, hand)
    # and the same with only some of the hand's wilds to meld, the rest kept for the melds
    # down (where a meld took a wild that a natural card could stand in for, leaving a run
    # down a wild short of a card in hand): fewest first
    if wilds:
        naturals = [c for c in hand if not rules.is_wild(c)]
        spare = [c for c in hand if rules.is_wild(c)]
        solver = setup.variant.out_solver(setup.n, st.round_no, frees[0], melded=True)
        for k in range(len(spare)):
            yield solver.solve(comps, sorted(naturals + spare[:k]))
    # and where the wild limit binds the contract's melds but not the lay-offs after them
    # (combination), the covers with it lifted: a long meld of many wilds, cut below to a
    # meld within the limit and the rest laid off on it
    if _lifted(setup, rules):
        for free in dict.fromkeys(frees[:2]):
            solver = setup.variant.out_solver(setup.n, st.round_no, free, melded=True, lifted=True)
            yield solver.solve(comps, hand)
    # and where a swap may follow the contract, the hand with a card traded for the wild on
    # the table that stands for it (the wild then comes to the hand, to be laid on the table
    # that turn: on the new melds, it may be what lets the rest go)
    if sp.swap in SWAP_ON_CONTRACT_TURN:
        trades = _trades(st, rules)
        each: list[list[Card]] = []
        for c in sorted(set(hand) & trades.keys()):
            traded = list(hand)
            traded.remove(c)
            traded.append(trades[c][0])
            each.append(traded)
        if len(each) > 1:  # (and every card traded that can be: two swaps or more)
            each.append(_traded(hand, trades))
        for traded in each:
            traded.sort()
            # nothing free (the fewest left out), and what a greedy laying of the traded
            # hand lays off on the melds down
            wild = frozenset(x for x in traded if rules.is_wild(x))
            laid = _lay_greedily([m.copy() for m in st.table], traded, rules)
            for free in dict.fromkeys((frozenset(), frozenset(laid) | wild)):
                solver = setup.variant.out_solver(setup.n, st.round_no, free, melded=True)
                yield solver.solve(comps, traded)


def _covers(setup: Setup, st: State, hand: Sequence[Card], asides: Sequence[tuple[Card, ...]], keep: int,
            comps: Sequence[Component]) -> Iterator[list[Reading] | None]:
    """More arrangements to try, when the first fail: for each choice of cards laid off on
    the melds down (:func:`_asides`), the fewest cards left out of the melds, and where a
    card is kept to discard, each card's whole-hand cover of the rest (the first card kept
    may be barred from the discard)."""
    fewest = setup.variant.out_solver(setup.n, st.round_no)
    solves = SOLVES
    for aside in asides:
        rest = Counter(hand)
        rest.subtract(aside)
        cards = sorted(rest.elements())
        if solves <= 0:
            return
        solves -= 1
        got = fewest.solve(comps, cards)
        if got is None or len(cards) - sum(len(rd.cards) for rd in got) > keep:
            continue
        yield got
        if keep:
            for d in sorted(set(cards)):
                less = list(cards)
                less.remove(d)
                if solves <= 0:
                    return
                solves -= 1
                yield fewest.solve(comps, less, whole_hand=True)
    # then, where the new melds take lay-offs at once and the contract has two runs or more,
    # one natural card more kept back, to be laid off on the new melds themselves: a suit's
    # cards cut into two runs apart (as the contract may require), the card between them
    # laid off after (the whole-hand covers of the rest less that card and the one kept;
    # at most SPLITS of them)
    rules = st.rules
    assert rules is not None
    if not setup.spec.layoff_on_contract_turn or sum(1 for c in comps if c.kind == "run") < 2:
        return
    splits = SPLITS
    for aside in asides[:4]:  # (each greedy laying's whole fits come first)
        rest = Counter(hand)
        rest.subtract(aside)
        cards = sorted(rest.elements())
        for c in _between(rules, cards):
            less = list(cards)
            less.remove(c)
            kept: list[Card | None] = [None]
            if keep:  # (the card to discard: one of another suit, or a wild)
                kept = [x for x in sorted(set(less)) if x // 13 != c // 13 or rules.is_wild(x)]
            for out in kept:
                fewer = list(less)
                if out is not None:
                    fewer.remove(out)
                if splits <= 0:
                    return
                splits -= 1
                yield fewest.solve(comps, fewer, whole_hand=True)


def _between(rules: MeldRules, cards: Sequence[Card]) -> list[Card]:
    """The natural cards of a suit that has enough of them for two runs, each with a card
    of its suit below it and one above (the cards a run may be cut at)."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        if not rules.is_wild(c):
            by_suit.setdefault(c // 13, []).append(c % 13)
    out: list[Card] = []
    for c in sorted(set(cards)):
        ranks = by_suit.get(c // 13, [])
        if rules.is_wild(c) or len(ranks) < 2 * rules.min_run:
            continue
        r = c % 13
        if min(ranks) < r < max(ranks):
            out.append(c)
    return out


def _stranded(rules: MeldRules, hand: Sequence[Card], fits: Sequence[Card],
              faces: frozenset[int] = frozenset()) -> int:
    """How many natural cards of ``hand`` no meld could hold: no set or run of the hand's
    cards and wilds (each card judged alone, ace high and low: a bound, never too many), and
    none of the melds down (``fits``)."""
    wild = 0
    by_rank = [0] * 13
    by_suit = [0] * 4  # bit p: a natural of the suit at run position p (1-14: A low to A high)
    for c in hand:
        if rules.is_wild(c):
            wild += 1
        else:
            r = c % 13
            by_rank[r] += 1
            by_suit[c // 13] |= 1 << (r + 1) | (1 << 14 if r == 0 else 0)
    room = Counter(fits)
    out = 0
    k = rules.min_run
    for c in hand:
        if rules.is_wild(c):
            continue
        if room[c] > 0:
            room[c] -= 1
            continue
        if c in faces:
            continue
        r = c % 13
        if by_rank[r] + wild >= rules.min_set:
            continue
        mask = by_suit[c // 13]
        held = False
        for p in ((r + 1, 14) if r == 0 else (r + 1,)):
            for lo in range(max(1, p - k + 1), min(p, 15 - k) + 1):
                if k - ((mask >> lo) & ((1 << k) - 1)).bit_count() <= wild:
                    held = True
                    break
        if not held:
            out += 1
    return out


def _could_cover(setup: Setup, st: State, hand: Sequence[Card], may: frozenset[int], keep: int) -> bool:
    """A bound: the contract's melds can hold every card of ``hand`` but ``keep`` of those the
    melds down could not take (``may``, over-counted) and the cards that may join two runs
    kept apart; where no lay-off follows the contract this turn, the least-penalty
    arrangement leaves no more points than one card is worth."""
    sp = setup.spec
    comps = contract(setup, st)
    if not sp.layoff_on_contract_turn:
        best = best_contract(setup, st, hand)  # (cached: the offer was read from it)
        if best is None:
            return False
        values = setup.values
        points = sum(values[c] for c in hand) - sum(values[c] for rd in best for c in rd.cards)
        return points <= max(0, max(values[c] for c in hand) if keep else 0)
    # (``may`` holds faces: it changes as the table does, not with each hand, so its solver
    # is kept; the wild limit lifted where the lay-offs have none: a meld and what is laid
    # off on it together)
    rules = st.rules
    assert rules is not None
    if sp.swap in SWAP_ON_CONTRACT_TURN:  # (a card of the hand may be traded for a wild on
        # the table: the card counted free, in ``may``, and the wild counted in the hand)
        hand = sorted(_traded(hand, _trades(st, rules), keep=True))
    got = setup.variant.out_solver(setup.n, st.round_no, may, lifted=_lifted(setup, rules)).solve(comps, hand)
    if got is None:
        return False
    left = Counter(hand)
    left.subtract(c for rd in got for c in rd.cards)
    # runs of one suit that must not touch when laid down may be joined after by a card
    # laid off between them: one card per pair of runs more
    runs = sum(1 for c in comps if c.kind == "run")
    gaps = runs - 1 if runs > 1 and sp.runs_not_contiguous and not sp.one_run_per_suit else 0
    return sum(k for c, k in left.items() if k > 0 and c not in may) <= keep + gaps


def _trades(st: State, rules: MeldRules) -> dict[Card, list[Card]]:
    """The faces a wild on the table stands for where it may be swapped out, and those
    wilds (one per meld that has one for the face)."""
    out: dict[Card, list[Card]] = {}
    for m in st.table:
        if m.wilds:
            for f, i in m.swappable(rules).items():
                out.setdefault(f, []).append(m.cards[i])
    return out


def _traded(hand: Sequence[Card], trades: dict[Card, list[Card]], keep: bool = False) -> list[Card]:
    """``hand`` with every card that can be traded for a wild on the table traded (``keep``:
    the wild added and the card kept too)."""
    out = list(hand)
    held = Counter(hand)
    for f, ws in trades.items():
        for w in ws[:held[f]]:
            if not keep:
                out.remove(f)
            out.append(w)
    return out


def _lifted(setup: Setup, rules: MeldRules) -> bool:
    """Whether the wild limit binds the contract's melds but not the lay-offs that may
    follow them at once (combination)."""
    sp = setup.spec
    return sp.layoff_on_contract_turn and not sp.wild_limit_on_layoffs and rules.wild_limit != "unlimited"


def _may_fit(setup: Setup, st: State, swaps: bool = True) -> frozenset[int]:
    """The faces the melds down might take this turn, over-counted: a set's rank, the ranks
    of a run's suit it does not hold yet (it grows at its ends only; an ace may have a place
    at the other end), every wild card (where lay-offs follow the contract at once: none
    where not), and (``swaps``) where a wild may be swapped out that turn, the faces it
    stands for."""
    if not setup.spec.layoff_on_contract_turn:
        return frozenset()
    rules = st.rules
    assert rules is not None
    out = {c for c in range(NUM_FACES) if rules.is_wild(c)}
    swaps = swaps and setup.spec.swap in SWAP_ON_CONTRACT_TURN
    for m in st.table:
        if swaps and m.wilds:
            out.update(m.swappable(rules))
        if m.kind == "run":
            held = {(m.lo + i - 1) % 13 for i in range(len(m.cards))}  # rank indices (0: ace)
            if rules.ace_mode == "low_or_high" and not (m.lo == 1 and m.lo + len(m.cards) - 1 == 14):
                held.discard(0)  # (an ace at one end may still go at the other)
            out.update(m.suit * 13 + r for r in range(13) if r not in held)
        else:
            out.update(range(m.rank - 1, 52, 13))
    return frozenset(out)


def _table_fits(st: State, hand: Sequence[Card], chains: list[list[Card]] | None = None) -> list[list[Card]]:
    """The cards of ``hand`` the melds down would take, one after another (a run growing),
    laid greedily four ways: the hand in order, each wild at the first end it may go to;
    in reverse order, each wild at the last; the natural cards before the wilds; the
    natural cards alone (the wilds kept for the contract's melds).  ``chains``, if given,
    gets the cards of each laying that went on one meld, where it laid cards on several."""
    rules = st.rules
    assert rules is not None
    order = sorted(hand)
    naturals = [c for c in order if not rules.is_wild(c)]
    naturals_first = naturals + [c for c in order if rules.is_wild(c)]
    out: list[list[Card]] = []
    for cards, last in ((order, False), (order[::-1], True), (naturals_first, True), (naturals, True)):
        where: list[int] = []
        laid = _lay_greedily([m.copy() for m in st.table], cards, rules, last, where)
        if laid not in out:
            out.append(laid)
            if chains is not None and len(set(where)) > 1:
                for i in sorted(set(where)):
                    chains.append([c for c, j in zip(laid, where, strict=True) if j == i])
    return out


def _lay_greedily(melds: list[TableMeld], cards: Sequence[Card], rules: MeldRules,
                  last: bool = False, where: list[int] | None = None) -> list[Card]:
    """Lay ``cards`` off on ``melds`` (which change) one after another, each on the first meld
    that takes it (a wild with its first meaning there, or its ``last``), going round again
    while one fits (a run growing); the cards laid off (``where``, if given, gets the index
    of the meld each went on)."""
    laid: list[Card] = []
    left = list(cards)
    grew = True
    while grew and left and melds:
        grew = False
        for c in list(left):
            for i, m in enumerate(melds):
                ways = m.layoff_meanings(c, rules)
                if ways:
                    m.add(c, ways[len(ways) - 1] if last else ways[0], rules)
                    laid.append(c)
                    if where is not None:
                        where.append(i)
                    left.remove(c)
                    grew = True
                    break
    return laid


def _asides(fitted: Sequence[Sequence[Card]],
            chains: Sequence[Sequence[Card]] = ()) -> list[tuple[Card, ...]]:
    """The sets of cards laid off on the melds down that are tried, for each greedy laying:
    all that fit, each first part of the laying (a run grown only so far), each first part
    of what it laid on one meld (``chains``: a card the laying put on another meld may
    belong to the contract's melds), all but one, one alone; then none."""
    out: list[tuple[Card, ...]] = []
    for fits in fitted:
        out.append(tuple(fits))
    for fits in fitted:
        out.extend(tuple(fits[:k]) for k in range(len(fits) - 1, 0, -1))
    for one in chains:
        out.extend(tuple(one[:k]) for k in range(len(one), 0, -1))
    for fits in fitted:
        for c in sorted(set(fits)):
            less = list(fits)
            less.remove(c)
            out.append(tuple(less))
    for fits in fitted:
        out.extend((c,) for c in sorted(set(fits)))
    out.append(())
    seen: set[tuple[Card, ...]] = set()
    kept = []
    for x in out:
        key = tuple(sorted(x))
        if key not in seen:
            seen.add(key)
            kept.append(x)
    return kept


def _cuts(setup: Setup, st: State, cover: list[Reading]) -> list[list[Reading]]:
    """``cover`` as melds of sizes the contract allows, the rest of each to be laid off (on
    its own meld, or on another): each meld cut to every size a component of its kind has,
    or, where melds may be longer than the contract asks, to every size from the smallest
    up (a set by the cards left out, a run by where its window sits), the whole meld first
    and then the shortest.  The cuts come in the order of how far each meld's is from its
    first, summed (at most ``CUTS``)."""
    sp = setup.spec
    comps = contract(setup, st)
    choices: list[list[Reading]] = []
    for rd in cover:
        n = len(rd.cards)
        sizes = {c.size for c in comps if c.kind in (rd.kind, "meld") and c.size <= n}
        if sp.contract_sizes != "exact" or sp.contract_count == "at_least":
            sizes.update(range(min(sizes, default=n), n + 1))
        ways: list[Reading] = []
        seen: set[tuple[object, ...]] = set()
        for k in sorted(sizes, key=lambda k: (k != n, k)):
            for part in _parts(rd, k):
                key = (part.kind, part.lo, tuple(sorted(part.cards)))
                if key not in seen:
                    seen.add(key)
                    ways.append(part)
        if not ways:
            return []
        choices.append(ways)
    out: list[list[Reading]] = []
    total = sum(len(w) - 1 for w in choices)
    for far in range(total + 1):
        for pick in _by_distance([len(w) for w in choices], far):
            out.append([choices[i][j] for i, j in enumerate(pick)])
            if len(out) >= CUTS:
                return out
    return out


def _by_distance(lens: Sequence[int], far: int) -> Iterator[tuple[int, ...]]:
    """Every index tuple (each below its ``lens``) whose indices sum to ``far``."""
    if not lens:
        if far == 0:
            yield ()
        return
    for j in range(min(far, lens[0] - 1) + 1):
        for rest in _by_distance(lens[1:], far - j):
            yield (j, *rest)


def _parts(rd: Reading, k: int) -> list[Reading]:
    """The melds of ``k`` cards inside ``rd``: a run's windows, a set's choices of cards."""
    n = len(rd.cards)
    if k == n:
        return [rd]
    if rd.kind == "run":
        return [Reading("run", rd.cards[i:i + k], suit=rd.suit, lo=rd.lo + i) for i in range(n - k + 1)]
    out = []
    seen = set()
    for idx in combinations(range(n), k):
        cards = tuple(rd.cards[i] for i in idx)
        if cards not in seen:
            seen.add(cards)
            out.append(Reading(rd.kind, cards, rank=rd.rank))
    return out


def _goes_out(setup: Setup, st: State, seat: int, act: Meld, budget: list[int], swaps: bool = False) -> bool:
    """Whether laying down ``act`` lets the seat go out this turn, by lay-offs (and, with
    ``swaps``, swaps where the rules allow them then) and (where it must) a discard: played
    on a copy of the state."""
    rules = st.rules
    assert rules is not None
    left = Counter(st.hands[seat])
    left.subtract(act.cards())
    rest = sorted(left.elements())
    keep = 1 if st.phase is Phase.PLAY and setup.spec.go_out_by_discard else 0
    if len(rest) > keep and not setup.spec.layoff_on_contract_turn:
        return False  # (no lay-off may follow the contract this turn)
    if not _could_go(setup, st, act, rest, st.phase is Phase.PLAY and setup.spec.go_out_by_discard):
        return False
    budget[0] -= 1
    cp = st.copy()
    try:
        apply_meld(setup, cp, act, True)
    except IllegalActionError:
        return False
    most = min(budget[0], EACH_SWAPPING if swaps else EACH)
    mine = [most]
    got = _out_from(setup, cp, seat, st.round_no, set(), mine, swaps)
    budget[0] -= most - mine[0]
    return got


def _could_go(setup: Setup, st: State, act: Meld, rest: Sequence[Card], discard: bool) -> bool:
    """A quick bound: no more natural cards left than the one to discard are of a rank no
    set holds and a suit no run has, old or new (those could never be laid off)."""
    spare = 1 if discard else 0
    if len(rest) <= spare:
        return True
    rules = st.rules
    assert rules is not None
    new: list[Reading] = []
    for g in act.melds:
        rds = reading_from_items(g, rules, min_set=2, min_run=2, pair=True)
        if not rds:
            return False  # (not a meld: the engine would refuse it)
        new.extend(rds)
    return _unplayable(rules, st.table, new, rest) <= spare


def _unplayable(rules: MeldRules, table: Sequence[TableMeld], new: Sequence[Reading],
                cards: Sequence[Card]) -> int:
    """How many natural ``cards`` are of a rank no set holds and a suit no run has, among
    the melds ``table`` and ``new`` (cards no lay-off could ever place: a bound)."""
    ranks = 0
    suits = 0
    for m in table:
        if m.kind == "run":
            suits |= 1 << m.suit
        else:
            ranks |= 1 << m.rank
    for rd in new:
        if rd.kind == "run":
            suits |= 1 << rd.suit
        else:
            ranks |= 1 << rd.rank
    out = 0
    for c in cards:
        if not rules.is_wild(c) and not (ranks >> (c % 13 + 1)) & 1 and not (suits >> (c // 13)) & 1:
            out += 1
    return out


def _out_from(setup: Setup, st: State, seat: int, rnd: int, seen: set[tuple[object, ...]],
              budget: list[int], swaps: bool = False) -> bool:
    if st.round_no != rnd or st.phase is Phase.OVER:
        return True  # (the seat went out: the deal ended)
    hand = st.hands[seat]
    if st.phase is Phase.PLAY and len(hand) == 1 and discard_options(setup, st, seat):
        return True
    key = (tuple(sorted(hand)), tuple(tuple(m.cards) for m in st.table), tuple(st.pending))
    if key in seen:
        return False
    seen.add(key)
    rules = st.rules
    assert rules is not None
    if _unplayable(rules, st.table, (), hand) > (1 if st.phase is Phase.PLAY else 0):
        return False  # (natural cards no meld could ever take)
    # natural cards first: they go where they go; then a wild where it bridges a run's gap
    # to a natural card in hand, nearest first, then anywhere
    lays: list[LayOff] = []
    for x in layoff_options(setup, st, seat):
        assert type(x) is LayOff
        lays.append(x)
    moves: list[Action] = [*sorted(lays, key=lambda a: _order(rules, st.table, hand, a))]
    # then swaps, where the rules allow them now: a natural card put in for a wild, which
    # goes to the hand (or must go back on the table this turn)
    if swaps:
        moves += swap_options(setup, st, seat)
    for a in moves:
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        cp = st.copy()
        try:
            if type(a) is LayOff:
                apply_layoff(setup, cp, a, True)
            else:
                apply_swap(setup, cp, a, True)
        except IllegalActionError:
            continue
        if _out_from(setup, cp, seat, rnd, seen, budget, swaps):
            return True
    return False


def _order(rules: MeldRules, table: Sequence[TableMeld], hand: Sequence[Card], a: LayOff) -> int:
    """Which lay-offs to try first: a natural card (0); a wild laid at a run's end ``d``
    places short of a natural card of the hand in that direction (``d``: the wilds it takes
    to reach it, some perhaps still to come by swaps); any other wild (``MOST``, after)."""
    if not rules.is_wild(a.card):
        return 0
    m = table[a.meld]
    f = a.meaning
    if m.kind != "run" or not isinstance(f, Card):
        return MOST
    hi = m.lo + len(m.cards)
    at, step = (m.lo - 1, -1) if face_at(m.suit, m.lo - 1) == f and m.lo > 1 else (hi, 1)
    for d in range(1, len(hand) + 1):
        p = at + d * step
        if not 1 <= p <= 14:
            break
        if face_at(m.suit, p) in hand:
            return d
    return MOST
