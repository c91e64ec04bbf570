"""Going down: the contract laid meld by meld, and the positions a turn may end from.

A seat that has yet to meet its contract lays it down one meld at a time within its turn,
each step a :class:`~.actions.Meld` of one meld (a ``Meld`` holding several melds is the
same steps at once, so ``meld A / B`` and the records made before steps play as they did).
At each step the melds listed, and the only ones accepted, are exactly those after which
the rest of the contract can still be made from the cards left, in a way the rules let
the turn end from: one solver question per candidate (:func:`step_options`,
:func:`completable`).  So every arrangement of the contract is reached by listed steps (in
the order of its melds, or any other), and with the lay-offs, swaps and discard listed once
it is down, every way out of the turn: by construction, not by a search for one.

Which melds are candidates: every meld the hand can make of a kind and size an open part of
the contract asks for (the solver's skeletons: its natural cards, kept back or not, and its
wild slots), with every choice of the wild cards that fill its slots.  Two readings are one
candidate only where no later move could tell them apart: the order of different wild
cards among a meld's slots where no wild is ever swapped back (``swap = "none"``: which
wild stands where changes no lay-off), and a meld of wild cards alone, listed once per kind
and length as the solver declares it (laid with a meaning that matters — lay-offs onto it —
it is the same as the longer meld of what is laid onto it, which is listed).

Each step is public as it is laid: the meld goes onto the table, numbered, in every seat's
view, and the log says it is laid toward the contract; the seat is down when the last one
is laid.  Why not hold the steps back and show the contract at once when it completes: no
other seat acts between two steps of one turn (nobody can use what they see before the
contract is down, in the same turn), so nothing is learned earlier that could be used;
holding them back would need a private "set aside" part of the hand in the state, the view,
the determinizer and every client, one more place a hidden card could leak, while the table
every client already draws shows a step where a player expects it, as at a real table.

The end of a turn: :func:`why_not_end` says why cards left in hand (after a meld or a
lay-off) would leave a position the turn cannot end from (a last card that can be neither
played nor discarded, a discard needed to go out, a whole-hand deal's card left over).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations

from ..cards import CARDS, NUM_FACES, Card
from ..melds import KIND_CODES, Reading, TableMeld
from ..rules.spec import Component
from ..solver import ContractRules, Skel, fits_component, meld_code, stand_together
from .actions import Action, LayOff, Meld
from .flow import contract, contract_needed, contract_text, whole_hand_round
from .state import Setup, State

# ------------------------------------------------------------------ the end of a turn


def why_not_end(setup: Setup, st: State, seat: int, left: Sequence[Card],
                melds: Sequence[Reading] = (), onto: LayOff | None = None,
                table: Sequence[TableMeld] | None = None) -> str | None:
    """Why a turn could not end with ``left`` in ``seat``'s hand once ``melds`` are laid
    down (or a card laid ``onto`` a meld), or None: a last card that could be neither
    played nor discarded, a discard needed to go out, a whole-hand deal's card left over,
    the card taken from the pile as the only discard.  ``table``: the table's melds judged
    (default: the game's)."""
    n = len(left)
    sp = setup.spec
    if n == 1 and not sp.go_out_by_discard and not sp.no_playable_discard:
        last = left[0]
        if not fits_after(setup, st, last, melds, onto, table):
            return (f"That would leave you only {last}, which you could neither play nor discard "
                    f"(in this game you go out only by playing every card)")
    whole = whole_hand_round(setup, st)
    if n == 0:
        if not sp.go_out_without_discard and not whole:
            return "You must keep a card to discard: in this game you go out by discarding"
        return None
    if whole and contract_needed(setup, st, seat):
        return f"In this deal the contract — {contract_text(setup, st)} — must use every card in your hand"
    if n == 1 and sp.no_discard_of_taken_card and st.taken is not None and left[0] == st.taken:
        return (f"That would leave only {left[0]}, the card you took from the discard pile, "
                f"which you may not discard this turn")
    return None


def why_not_leave(setup: Setup, st: State, seat: int, cards: Sequence[Card],
                  melds: Sequence[Reading] = (), onto: LayOff | None = None) -> str | None:
    """Why playing ``cards`` from hand (as new ``melds``, or laid off ``onto`` a meld)
    would leave a position the turn cannot end from, or None (:func:`why_not_end`)."""
    hand = st.hands[seat]
    if len(hand) - len(cards) >= 2 and not whole_hand_round(setup, st):
        return None  # (two cards or more left: one to play or discard, one to keep)
    return why_not_end(setup, st, seat, take_away(hand, cards), melds, onto)


def take_away(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` less ``cards`` (each copy once)."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def fits_after(setup: Setup, st: State, c: Card, melds: Sequence[Reading], onto: LayOff | None,
               table: Sequence[TableMeld] | None = None) -> bool:
    """Whether ``c`` could be laid off once ``melds`` are down or ``onto`` is done (on
    ``table``, default the game's)."""
    rules = st.rules
    assert rules is not None
    for i, m in enumerate(st.table if table is None else table):
        if onto is not None and onto.meld == i:
            m = m.copy()
            m.add(onto.card, onto.meaning, rules)
        if m.layoff_meanings(c, rules):
            return True
    limited = setup.spec.wild_limit_on_layoffs
    return any(TableMeld.from_reading(rd, 0, rules, limited).layoff_meanings(c, rules) for rd in melds)


def _ending_can_bar(setup: Setup, st: State) -> bool:
    """Whether the rules can bar a turn's end by what is left in hand after a contract
    (else any way of completing it will do)."""
    sp = setup.spec
    return not whole_hand_round(setup, st) and (
        not sp.go_out_without_discard or (not sp.go_out_by_discard and not sp.no_playable_discard)
        or sp.no_discard_of_taken_card)


# ------------------------------------------------------------------ the contract so far


def laid_toward(setup: Setup, st: State, seat: int) -> list[Reading]:
    """The melds ``seat`` has laid toward its contract this turn (none once it is down):
    a seat not yet down owns no meld on the table but the steps of its contract."""
    if not contract_needed(setup, st, seat):
        return []
    return [m.to_reading() for m in st.table if m.owner == seat]


def going_down(setup: Setup, st: State, seat: int) -> bool:
    """Whether ``seat`` is part way through laying its contract down: it may only go on."""
    if not contract_needed(setup, st, seat):
        return False
    for m in st.table:
        if m.owner == seat:
            return True
    return False


def exact_sizes(setup: Setup, st: State) -> bool:
    return setup.spec.contract_sizes == "exact" and not whole_hand_round(setup, st)


def open_parts(setup: Setup, st: State, laid: Sequence[Reading]) -> list[tuple[Component, ...]]:
    """The contract's parts still to lay once ``laid`` are down, one tuple per distinct way
    of giving each laid meld a part it may stand for; [] when they cannot stand as melds of
    the contract together (an empty tuple in it: the contract is met)."""
    solver = st.solver
    assert solver is not None
    return solver.parts_left(contract(setup, st), laid, exact_sizes(setup, st))


# ------------------------------------------------------------------ the solver, remembered


def _code(comps: Sequence[Component], hand: Sequence[int], whole: bool,
          beside: Sequence[Reading], first: bool) -> tuple[object, ...]:
    """A solve's question as plain ints and bytes (a cache keyed by tuples of Cards would
    keep them all tracked by the garbage collector): whole hand and first found, the parts,
    -1, the melds beside, then the hand's cards sorted."""
    key: list[object] = [int(whole) + 2 * int(first)]
    for c in comps:
        key.append(c.code)
    key.append(-1)
    for rd in beside:
        key.append(meld_code(rd))
    key.append(bytes(sorted(hand)))
    return tuple(key)


def solve(setup: Setup, st: State, comps: Sequence[Component], hand: Sequence[int],
          whole: bool, beside: Sequence[Reading] = (), first: bool = True) -> list[Reading] | None:
    """A way to lay ``comps`` from ``hand`` beside the melds ``beside``, or None: the first
    the solver finds (``first``), else the least penalty's (kept for the deal: the answer
    depends on the question alone)."""
    solver = st.solver
    assert solver is not None
    if beside and not solver._apart_matters(beside):
        beside = ()
    key = _code(comps, hand, whole, beside, first)
    cache = st.contract_cache
    if key in cache:
        return cache[key]
    if len(cache) >= 20_000:
        cache.clear()
    got = cache[key] = solver.solve(comps, hand, whole_hand=whole, beside=beside, first=first)
    return got


# ------------------------------------------------------------------ the steps


def step_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """Every meld ``seat`` may lay next toward its contract: those after which the rest of
    it can still be made, in a way the turn may end from (see the module docstring)."""
    if not st.table or not going_down(setup, st, seat):
        # (the first meld: nothing is listed unless the contract can be made at all, the
        # question asked at nearly every turn of a seat not yet down, answered before
        # anything else is built)
        if solve(setup, st, contract(setup, st), st.hands[seat], whole_hand_round(setup, st)) is None:
            return []
    return _Steps(setup, st, seat).listed()


DFS_NODES = 400  # melds tried at most in one candidate's search over the others (then: the solver)


class _Steps:
    """One position's steps: the candidates, each judged.  Whether the rest of the contract
    can be laid after a candidate is first looked for among the other candidates (every
    meld the hand can make for the parts left is one: a depth-first search, each meld taken
    from the cards left), then, if that search runs long, asked of the solver; ways found
    are kept, so a candidate whose cards leave one of them whole needs no search."""

    def __init__(self, setup: Setup, st: State, seat: int) -> None:
        self.setup, self.st, self.seat = setup, st, seat
        solver = st.solver
        assert solver is not None
        self.solver = solver
        cr = self.cr = solver.crules
        self.exact = exact_sizes(setup, st)
        self.whole = whole_hand_round(setup, st)
        self.bars = _ending_can_bar(setup, st)
        self.apart = cr.not_contiguous or cr.one_run_per_suit or cr.distinct_set_ranks
        self.hand = st.hands[seat]
        cnt = [0] * NUM_FACES
        for c in self.hand:
            cnt[c] += 1
        self.cnt = cnt  # the cards left once the melds being tried are laid
        self.left = len(self.hand)  # how many
        self.laid = laid_toward(setup, st, seat)
        self.ways: list[tuple[tuple[Component, ...], list[Reading], list[tuple[int, int]]]] = []
        self.cands: list[Reading] = []
        self.needs: list[list[tuple[int, int]]] = []
        self.sizes: list[int] = []
        self.after_memo: dict[int, list[tuple[Component, ...]]] = {}
        self.by_comp: dict[Component, list[int]] = {}
        self.chain: list[Reading] = []  # the melds laid and being tried, in order
        self.nodes = 0
        self.found: list[Reading] = []  # the way the last search found

    def listed(self) -> list[Action]:
        setup, st = self.setup, self.st
        opens = open_parts(setup, st, self.laid)
        if not opens:
            return []
        # nothing is listed unless the rest of the contract can be made at all (where one
        # part is left, the candidates say it)
        if any(len(parts) > 1 for parts in opens):
            makeable = False
            for parts in opens:
                if parts:
                    got = solve(setup, st, parts, self.hand, self.whole, self.laid)
                    if got is not None:
                        makeable = True
                        self._keep_less_each(got)
            if not makeable:
                return []
        rules = st.rules
        assert rules is not None
        self.cands = cands = candidates(setup, st, self.hand, opens, self.needs)
        self.sizes = [len(rd.cards) for rd in cands]
        out: list[Action] = []
        judged: dict[tuple[int, ...], bool] = {}
        for i, rd in enumerate(cands):
            key = (meld_code(rd), *sorted(rd.cards))
            ok = judged.get(key)
            if ok is None:
                ok = judged[key] = self.judge(i)
            if ok:
                out.append(Meld((rd.items(rules),)))
        return out

    def _keep_less_each(self, way: list[Reading]) -> None:
        """``way`` lays the open parts: each of its melds laid next leaves the others as a
        way of laying the parts left."""
        for i, m in enumerate(way):
            rest = way[:i] + way[i + 1:]
            for parts in open_parts(self.setup, self.st, [*self.laid, m]):
                if _fills(rest, list(parts), self.cr, self.exact):
                    self.ways.append((parts, rest, _need_all(rest)))

    def after(self, rd: Reading) -> list[tuple[Component, ...]]:
        """The parts left once ``rd`` is laid (see :func:`open_parts`): which parts a meld
        may be depends on its kind and length; whether it may stand beside those laid, on
        more (asked apart)."""
        if self.apart and self.laid and not stand_together([*self.laid, rd], self.cr):
            return []
        key = KIND_CODES[rd.kind] * 100 + len(rd.cards)
        got = self.after_memo.get(key)
        if got is None:
            got = self.after_memo[key] = open_parts(self.setup, self.st, [*self.laid, rd])
        return got

    def _take(self, j: int, sign: int) -> None:
        cnt = self.cnt
        for c, k in self.needs[j]:
            cnt[c] -= sign * k
        self.left -= sign * self.sizes[j]

    def judge(self, i: int) -> bool:
        self._take(i, 1)
        self.chain = [*self.laid, self.cands[i]]
        try:
            return self._judge(self.cands[i])
        finally:
            self._take(i, -1)

    def _judge(self, rd: Reading) -> bool:
        setup, st, seat = self.setup, self.st, self.seat
        rest: list[Card] | None = None
        for parts in self.after(rd):
            if not parts:  # (the contract's last meld)
                rest = take_away(self.hand, rd.cards)
                if why_not_end(setup, st, seat, rest, (rd,)) is None:
                    return True
                continue
            for wparts, way, need in self.ways:
                if ((wparts is parts or wparts == parts) and self._room(need) and self._beside(way)
                        and self._ends(rd, way)):
                    return True
            self.nodes = 0
            found = self._search(list(parts), 0)
            if found == 1:
                self.add(parts, self.found)
                return True
            if found == 0 and not self.bars:
                continue  # (searched through: no way, or none the rules would take)
            if rest is None:
                rest = take_away(self.hand, rd.cards)
            if completable_parts(setup, st, seat, parts, rest, self.chain, rd, self):
                return True
        return False

    def _search(self, parts: list[Component], start: int) -> int:
        """Whether ``parts`` can be laid from the cards left as candidate melds beside the
        chain, ending the turn well: 1 yes, 0 no, -1 the search ran out of room."""
        if not parts:
            way = self.chain[len(self.laid) + 1:]
            if (self.whole and self.left) or not self._ends(self.chain[len(self.laid)], way):
                return 0
            self.found = way
            return 1
        comp = parts[0]
        fits = self.by_comp.get(comp)
        if fits is None:
            fits = self.by_comp[comp] = [j for j, m in enumerate(self.cands)
                                         if fits_component(m, comp, self.cr, self.exact)]
        same = len(parts) > 1 and parts[1] == comp
        out = 0
        for j in fits:
            if j < start:
                continue
            self.nodes += 1
            if self.nodes > DFS_NODES:
                return -1
            if not self._room(self.needs[j], False):
                continue
            m = self.cands[j]
            if self.apart and not stand_together([*self.chain, m], self.cr):
                continue
            self._take(j, 1)
            self.chain.append(m)
            got = self._search(parts[1:], j if same else 0)
            self.chain.pop()
            self._take(j, -1)
            if got == 1:
                return 1
            if got < 0:
                out = -1
                break
        return out

    def _room(self, need: list[tuple[int, int]], whole: bool = True) -> bool:
        """Whether the cards left hold ``need`` (and, in a whole-hand deal where ``whole``
        says so, nothing else)."""
        cnt = self.cnt
        n = 0
        for c, k in need:
            if cnt[c] < k:
                return False
            n += k
        return not (whole and self.whole) or n == self.left

    def _beside(self, way: list[Reading]) -> bool:
        return not self.apart or stand_together([*self.chain, *way], self.cr)

    def _ends(self, rd: Reading, way: list[Reading]) -> bool:
        if not self.bars:
            return True
        rest = take_away(self.hand, rd.cards)
        return why_not_end(self.setup, self.st, self.seat, _left_after(rest, way), [rd, *way]) is None

    def add(self, parts: tuple[Component, ...], way: list[Reading]) -> None:
        self.ways.append((parts, way, _need_all(way)))


def _need_all(way: list[Reading]) -> list[tuple[int, int]]:
    need: dict[int, int] = {}
    for m in way:
        for c in m.cards:
            need[c] = need.get(c, 0) + 1
    return list(need.items())


def _fills(way: list[Reading], parts: list[Component], cr: ContractRules, exact: bool) -> bool:
    """Whether the melds ``way`` are exactly the contract's ``parts``, one each."""
    if not way:
        return not parts
    first = way[0]
    tried: set[Component] = set()
    for k, comp in enumerate(parts):
        if comp in tried or not fits_component(first, comp, cr, exact):
            continue
        tried.add(comp)
        if _fills(way[1:], parts[:k] + parts[k + 1:], cr, exact):
            return True
    return False


def candidates(setup: Setup, st: State, hand: Sequence[Card],
               opens: Sequence[tuple[Component, ...]],
               needs: list[list[tuple[int, int]]] | None = None) -> list[Reading]:
    """Every meld ``hand`` can make that an open part of the contract may take (see the
    module docstring for which readings count as one), each once; ``needs``, if given,
    gets each one's faces, each with its count (in no particular order)."""
    solver = st.solver
    rules = st.rules
    assert solver is not None and rules is not None
    exact = exact_sizes(setup, st)
    asks: dict[tuple[str, int, int], None] = {}
    for parts in opens:
        need = 0
        for comp in parts:
            need += comp.size
        for comp in parts:
            hi = comp.size if exact or comp.kind == "pair" else len(hand) - (need - comp.size)
            if hi >= comp.size:
                asks[(comp.kind, comp.size, hi)] = None
    cnt = [0] * NUM_FACES
    for card in hand:
        cnt[card] += 1
    wild_codes = solver._wild_codes
    wild_total = 0
    for c in wild_codes:
        wild_total += cnt[c]
    orders = setup.spec.wild_swaps  # (whether which wild fills which slot can matter)
    seen: set[tuple[object, ...]] = set()  # (a meld's kind, place and cards: each reading once)
    out: list[Reading] = []
    fill_memo: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for kind, lo, hi in asks:
        for sk in solver.skeletons(cnt, kind, lo, hi, wild_total):
            size = len(sk[5]) + (sk[7] if sk[1] != "run" else 0)
            if not lo <= size <= hi:
                continue
            if sk[7]:
                for c, n in sk[8]:
                    cnt[c] -= n
                ordered = orders and sk[1] == "run"
                fkey = [sk[7], int(ordered)]  # (the wild cards left, as many as the slots)
                for c in wild_codes:
                    fkey.append(cnt[c])
                key_fill = tuple(fkey)
                got_fills = fill_memo.get(key_fill)
                if got_fills is None:
                    got_fills = fill_memo[key_fill] = _wild_fills(cnt, wild_codes, sk[7], ordered)
                fills = got_fills
                for c, n in sk[8]:
                    cnt[c] += n
            else:
                fills = _NO_FILL
            for fill in fills:
                rd = _reading(sk, fill)
                key = (KIND_CODES[rd.kind], rd.suit, rd.lo, rd.rank, bytes(rd.cards))
                if key in seen:
                    continue
                seen.add(key)
                out.append(rd)
                if needs is not None:
                    needs.append(_need_of(sk[8], fill))
    return out


def _need_of(use: tuple[tuple[int, int], ...], fill: tuple[int, ...]) -> list[tuple[int, int]]:
    """A skeleton's natural faces and counts (``use``) with the wild cards ``fill`` added."""
    out = list(use)
    for w in fill:
        for i in range(len(out)):
            c, k = out[i]
            if c == w:
                out[i] = (c, k + 1)
                break
        else:
            out.append((w, 1))
    return out


_NO_FILL: list[tuple[int, ...]] = [()]  # (read only)


def _wild_fills(cnt: list[int], wild_codes: list[int], k: int, ordered: bool) -> list[tuple[int, ...]]:
    """Every choice of ``k`` wild cards from ``cnt`` (each multiset once, in the order of
    ``wild_codes``; ``ordered``: every distinct order of each too)."""
    if k == 0:
        return _NO_FILL
    pool = [(c, cnt[c]) for c in wild_codes if cnt[c]]
    out: list[tuple[int, ...]] = []
    _multisets(pool, 0, k, [], out)
    if not ordered:
        return out
    every: list[tuple[int, ...]] = []
    for ms in out:
        every.extend(dict.fromkeys(permutations(ms)))
    return every


def _multisets(pool: list[tuple[int, int]], i: int, k: int, acc: list[int],
               out: list[tuple[int, ...]]) -> None:
    if k == 0:
        out.append(tuple(acc))
        return
    if i == len(pool):
        return
    code, have = pool[i]
    for take in range(min(have, k), -1, -1):
        acc.extend([code] * take)
        _multisets(pool, i + 1, k - take, acc, out)
        del acc[len(acc) - take:]


def _reading(sk: Skel, fill: tuple[int, ...]) -> Reading:
    """The meld of a solver skeleton with its wild slots filled by ``fill``, in order."""
    kind = sk[1]
    layout = sk[5]
    if kind == "run":
        cards: list[Card] = []
        k = 0
        for c in layout:
            if c >= 0:
                cards.append(CARDS[c])
            else:
                cards.append(CARDS[fill[k]])
                k += 1
        return Reading("run", tuple(cards), suit=sk[3], lo=sk[4])
    return Reading(kind, tuple(sorted([CARDS[c] for c in layout] + [CARDS[c] for c in fill])), rank=sk[2])


def completable(setup: Setup, st: State, seat: int, laid: Sequence[Reading], rd: Reading) -> bool:
    """Whether, ``laid`` being down and ``rd`` laid next, the rest of the contract can be
    made from the cards left in a way the turn may end from."""
    rest = take_away(st.hands[seat], rd.cards)
    now = [*laid, rd]
    for parts in open_parts(setup, st, now):
        if not parts:
            if why_not_end(setup, st, seat, rest, (rd,)) is None:
                return True
        elif completable_parts(setup, st, seat, parts, rest, now, rd, None):
            return True
    return False


def completable_parts(setup: Setup, st: State, seat: int, parts: tuple[Component, ...], rest: list[Card],
                      now: list[Reading], rd: Reading, steps: _Steps | None) -> bool:
    """Whether ``parts`` can be laid from ``rest`` beside ``now`` (``rd`` the last of them)
    in a way the turn may end from (``steps``: where to keep the way found)."""
    got = solve(setup, st, parts, rest, whole_hand_round(setup, st), now)
    if got is None:
        return False
    if steps is not None:
        steps.add(parts, got)
    if not _ending_can_bar(setup, st):
        return True
    return _ends_well(setup, st, seat, parts, rest, now, rd, got)


def _left_after(rest: Sequence[Card], melds: Sequence[Reading]) -> list[Card]:
    left = Counter(rest)
    for m in melds:
        left.subtract(m.cards)
    return sorted(left.elements())


def _ends_well(setup: Setup, st: State, seat: int, parts: tuple[Component, ...], rest: list[Card],
               now: list[Reading], rd: Reading, best: list[Reading]) -> bool:
    """Whether some way of laying ``parts`` from ``rest`` (beside ``now``) leaves a position
    the turn may end from (``best``: the solver's, tried first).  Exact: a way keeping two
    cards or more back always may; keeping none, where going out without a discard may; one
    card, where it may stay (not the card taken, where that may not be discarded) and, where
    it may not be discarded, where it fits the table, the melds laid, or a meld of the way."""
    if why_not_end(setup, st, seat, _left_after(rest, best), [rd, *best]) is None:
        return True
    whole = whole_hand_round(setup, st)
    faces = sorted(set(rest))
    # two cards or more kept back
    for i, a in enumerate(faces):
        less = take_away(rest, (a,))
        got = solve(setup, st, parts, less, whole, now)
        if got is not None and len(_left_after(less, got)) >= 1:
            return True
        for b in faces[i:]:
            if b == a and rest.count(a) < 2:
                continue
            if solve(setup, st, parts, take_away(less, (b,)), whole, now) is not None:
                return True
    sp = setup.spec
    # none kept back
    if sp.go_out_without_discard and solve(setup, st, parts, rest, True, now) is not None:
        return True
    # one card kept back
    for c in faces:
        if sp.no_discard_of_taken_card and st.taken is not None and c == st.taken:
            continue
        less = take_away(rest, (c,))
        got = solve(setup, st, parts, less, True, now)
        if got is None:
            continue
        if sp.go_out_by_discard or sp.no_playable_discard or fits_after(setup, st, c, [rd, *got], None):
            return True
        if _a_meld_takes(setup, st, parts, less, now, c):
            return True
    return False


def _a_meld_takes(setup: Setup, st: State, parts: tuple[Component, ...], cards: list[Card],
                  now: list[Reading], c: Card) -> bool:
    """Whether ``parts`` can be laid from all of ``cards`` beside ``now`` with one meld
    that ``c`` could then be laid off on."""
    rules = st.rules
    assert rules is not None
    limited = setup.spec.wild_limit_on_layoffs
    for m in candidates(setup, st, cards, [parts]):
        if not TableMeld.from_reading(m, 0, rules, limited).layoff_meanings(c, rules):
            continue
        left = take_away(cards, m.cards)
        for rest_parts in open_parts(setup, st, [*now, m]):
            if not rest_parts:
                if not left:
                    return True
            elif solve(setup, st, rest_parts, left, True, [*now, m]) is not None:
                return True
    return False
