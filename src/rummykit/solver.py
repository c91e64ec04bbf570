"""The contract solver: can a hand meet a contract, and with which melds?

``Solver.solve`` is an exact branch-and-bound search over the contract's components on
an array of face counts.  Each component takes a candidate meld built from the cards
left; identical components take candidates in a fixed order (no permutations twice);
a branch stops when even using every card left could not beat the best arrangement
found.  It returns the arrangement with the least leftover penalty.

Why one module of this size (about 1,150 lines, over the package's ~700): it is one
algorithm around one representation — face counts, candidate *skeletons* (a meld's
naturals and wild slots) and the contract's components — and its parts lean on each other:
the bounds (``shortfall``, ``feasible``, the set and run margins) prune ``solve``'s search,
the skeletons feed both, and ``parts_left``/``meets`` answer from the same candidates.
Split, each piece would import the others' private tuples; mypyc compiles it as one unit,
the engine's hottest.  Runs-only contracts are already apart (:mod:`.solver_runs`).
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, TypeVar

from . import solver_runs
from .cards import CARDS, JOKER_CODE, NUM_FACES, Card
from .melds import KIND_CODES, Component, MeldRules, Reading, readings, rebuild_recipe

TWOS = (1, 14, 27, 40)

# a candidate meld: (key, kind, rank, suit, lo, cards in table order, value)
Cand = tuple[tuple[int, ...], str, int, int, int, tuple[int, ...], int]
# a skeleton: (key, kind, rank, suit, lo, naturals (runs: per position, -1 for a wild),
#              natural value, wild slots, natural faces used as (face, copies))
Skel = tuple[tuple[int, ...], str, int, int, int, tuple[int, ...], int, int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True, slots=True)
class ContractRules:
    """How a contract is judged (RULES.md 4.1)."""

    sizes: str = "at_least"  # "exact": each meld exactly the minimum
    count: str = "exact"  # "at_least": more melds than asked may be added
    not_contiguous: bool = False
    one_run_per_suit: bool = False
    distinct_set_ranks: bool = False
    extra_min: int = 3

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuild_recipe(self)


def _sub_multisets(items: Sequence[tuple[int, int]], k: int) -> Iterator[list[int]]:
    """Every way to take ``k`` cards from ``items`` = [(code, available)], as code lists."""
    if k == 0:
        yield []
        return
    if not items:
        return
    code, avail = items[0]
    rest = items[1:]
    cap = sum(a for _, a in rest)
    for take in range(min(avail, k), -1, -1):
        if k - take > cap:
            break
        for tail in _sub_multisets(rest, k - take):
            yield [code] * take + tail


def _use(cards: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    use: dict[int, int] = {}
    for c in cards:
        use[c] = use.get(c, 0) + 1
    return tuple(use.items())


# what shortfall sums, per kind of meld: (kinds, size k, padding, how many to take)
Plan = list[tuple[tuple[str, ...], int, int, int]]
T = TypeVar("T")


def _recall(memo: dict[bytes, T], hand: Sequence[int], limit: int, work: Callable[[], T]) -> T:
    """``work()``'s answer for ``hand`` (any order), remembered in ``memo``; a memo that
    reaches ``limit`` answers starts again.  The key is the sorted faces as bytes: a tuple of
    Cards would stay tracked by the garbage collector (Card objects are), and a memo of
    100,000 of them made each full collection cost a tenth of a second."""
    key = bytes(sorted(hand))
    got = memo.get(key)
    if got is None:
        if len(memo) >= limit:
            memo.clear()
        got = memo[key] = work()
    return got


# an at-least contract's search (its melds, then the extra melds; no bound prunes it), in one
# solve: at most this many steps once an arrangement is found (ten-card's games take at most
# about 1,600; a 40-card hand, grown by a house rule's unlimited buys, took 25 s unbounded).
# Past it the best found so far stands, a legal arrangement, if maybe not the least penalty.
EXTRA_STEPS = 50_000
# ... and at most this many in all, found or not: a whole-hand deal of 53 cards (seven-hand
# "pat" with unlimited buys) searched 1.6 million steps, 2.8 s compiled, for no arrangement.
# Past it the answer is none: an arrangement of so big a hand may then go unseen.
EXTRA_STEPS_MOST = 400_000
SKELETON_CACHE = 4096  # skeleton lists a solver keeps (per rank and suit counts) before starting afresh


class Solver:
    """Contract search for one ruleset (meld rules, card values, contract rules)."""

    def __init__(self, rules: MeldRules, values: Sequence[int], crules: ContractRules):
        self.rules = rules
        self.values = list(values)
        self.crules = crules
        self._wild_codes = [JOKER_CODE] + (list(TWOS) if rules.twos_wild else [])
        self._wild_set = frozenset(self._wild_codes)
        self._windows: dict[int, list[int]] = {}
        self._run_best: dict[int, dict[int, int]] = {}  # k -> suit mask -> fewest cards short
        self._rank_m: dict[tuple[int, int], tuple[int, ...]] = {}  # (n, k) -> set margins
        self._by_comps: dict[int, tuple[Sequence[Component], Plan, dict[bytes, int],
                                        dict[bytes, dict[int, int]]]] = {}
        self._cache: dict[tuple[int, ...], list[Skel]] = {}
        self._parts: dict[tuple[int, ...], list[tuple[Component, ...]]] = {}  # parts_left's answers
        # the positions (bits) where each rank may sit in a run
        self._rank_bits = [(1 << (r + 1)) | (1 << (r + 14)) for r in range(13)]
        self._partner_masks: dict[tuple[bool, int], tuple[list[int], list[bool]]] = {}
        # how close two ranks (0-12) can sit in a run: the least distance between their
        # positions (between two positions of one rank: A..K..A), None if they never meet
        first, last = {"low": (1, 13), "high": (2, 14), "low_or_high": (1, 14)}.get(rules.ace_mode, (1, 25))
        spots = [[p for p in range(first, last + 1) if (p - 1) % 13 == r] for r in range(13)]
        self._rank_gap = [[min((abs(p - q) for p in spots[a] for q in spots[b] if p != q), default=None)
                           for b in range(13)] for a in range(13)]

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its rules, its caches left behind (they only hold answers): compiled
        # with mypyc (setup.py), a native object is rebuilt through __init__
        return (Solver, (self.rules, self.values, self.crules))

    def __copy__(self) -> Solver:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Solver:
        return self  # its caches hold answers that depend on the question alone: shared

    # -- candidates ------------------------------------------------------------------

    def melds_from(self, cnt: list[int], kind: str, lo: int, hi: int) -> list[Reading]:
        """Every meld of ``kind`` (set, run or meld) of ``lo``..``hi`` cards that the cards
        in ``cnt`` can make, its wild slots filled with the most valuable wilds left."""
        wild_total = sum(cnt[c] for c in self._wild_codes)
        out: dict[tuple[int, ...], Reading] = {}
        for sk in self.skeletons(cnt, kind, lo, hi, wild_total):
            size = len(sk[5]) + (sk[7] if sk[1] != "run" else 0)
            if not lo <= size <= hi:
                continue
            for c, n in sk[8]:
                cnt[c] -= n
            pool = sum(cnt[c] for c in self._wild_codes)
            fill = self._fill(cnt, sk[7]) if pool >= sk[7] else None
            for c, n in sk[8]:
                cnt[c] += n
            if fill is None:
                continue
            rd = self._materialize(sk, iter(fill))
            out.setdefault(tuple(int(c) for c in rd.cards) + (rd.lo, rd.rank), rd)
        return list(out.values())

    # -- quick necessary conditions --------------------------------------------------

    def _partners(self, sets: bool, span: int) -> tuple[list[int], list[bool]]:
        """Which cards can share a meld (a set when ``sets``, a run of up to ``span``
        cards): per face, a bit mask of the other faces; and whether two copies of a face
        can (a set, or a run from ace to ace)."""
        key = (sets, span)
        got = self._partner_masks.get(key)
        if got is None:
            gap = self._rank_gap
            masks = []
            for a in range(52):
                ra, sa = a % 13, a // 13
                m = 0
                for b in range(52):
                    g = gap[ra][b % 13]
                    if b != a and ((sets and ra == b % 13) or (sa == b // 13 and g is not None and g < span)):
                        m |= 1 << b
                masks.append(m)
            shared = [sets or (g is not None and g < span) for g in (gap[a % 13][a % 13] for a in range(52))]
            got = self._partner_masks[key] = (masks, shared)
        return got

    def _apart_order(self, naturals: list[int], sets: bool, span: int) -> list[int]:
        """The faces ``naturals``, fewest partners among them first (see :meth:`_apart`)."""
        masks = self._partners(sets, span)[0]
        held = 0
        for c in naturals:
            held |= 1 << c
        return sorted(naturals, key=lambda c: (masks[c] & held).bit_count())

    def _apart(self, cnt: list[int], order: list[int], sets: bool, span: int) -> int:
        """How many natural cards of ``cnt`` no two of which can share a meld (see
        :meth:`_partners`): a lower bound on the melds and leftover cards they need.
        Greedy, taking the faces in ``order`` (from :meth:`_apart_order`): not the most
        such cards, but every one it counts is sound."""
        masks, shared = self._partners(sets, span)
        out = blocked = 0
        for c in order:
            k = cnt[c]
            if k and not blocked >> c & 1:
                out += 1 if shared[c] else k
                blocked |= masks[c]
        return out

    def _cover_possible(self, cnt: list[int], comps: Sequence[Component]) -> bool:
        """Whole-hand deals: sets alone need a set per natural rank; runs alone need as
        many runs in a suit as copies of its most repeated natural card."""
        if self.crules.count == "at_least":
            return True
        kinds = {c.kind for c in comps}
        wild = set(self._wild_codes)
        if kinds == {"set"}:
            ranks = {c % 13 for c in range(52) if cnt[c] and c not in wild}
            if self.rules.twos_wild and any(cnt[c] for c in TWOS) and not ranks:
                return True
            return len(ranks) <= len(comps)
        if kinds == {"run"}:
            # (where a run may run A-K-A, one run holds two copies of its ace)
            two_aces = self.rules.ace_mode in ("low_or_high", "wrap")
            need = 0
            for base in (0, 13, 26, 39):
                most = max((cnt[c] for c in range(base + 1, base + 13) if c not in wild), default=0)
                if base not in wild:
                    aces = cnt[base]
                    most = max(most, (aces + 1) // 2 if two_aces else aces)
                need += most
            return need <= len(comps)
        return True

    def shortfall(self, hand: Sequence[int], comps: Sequence[Component]) -> int:
        """A lower bound on how many more cards ``hand`` needs to meet ``comps``: the
        wild cards the sets and runs would still lack, less the wilds held.  0 does not
        promise the contract (find it with :meth:`solve`); more than 0 rules it out."""
        plan, memo, _ = self._memos(comps)
        return _recall(memo, hand, 100_000, lambda: self._shortfall(hand, plan))

    def _memos(self, comps: Sequence[Component]) -> tuple[Plan, dict[bytes, int],
                                                           dict[bytes, dict[int, int]]]:
        """The plan of ``comps`` and the answers already found for it.  Looked up by the
        object's id (the entry keeps the object alive, so the id stays its own): hashing a
        tuple of components on every call would cost more than the answer."""
        entry = self._by_comps.get(id(comps))
        if entry is None or entry[0] is not comps:
            if len(self._by_comps) >= 256:
                self._by_comps.clear()
            entry = self._by_comps[id(comps)] = (comps, self._shortfall_plan(tuple(comps)), {}, {})
        return entry[1], entry[2], entry[3]

    def shortfalls_without(self, hand: Sequence[int], comps: Sequence[Component]) -> dict[int, int]:
        """``shortfall(hand less c, comps)`` for every distinct card ``c`` in ``hand`` —
        what each discard would leave — computed together: taking one card out changes
        only its rank's set margins and its suit's run margin, so each answer edits the
        whole hand's sorted margins instead of building them again.  The dict returned
        may be shared: do not change it."""
        plan, _, without = self._memos(comps)
        return _recall(without, hand, 20_000, lambda: self._shortfalls_without(hand, plan))

    def _shortfalls_without(self, hand: Sequence[int], plan: Plan) -> dict[int, int]:
        by_rank, masks, wild = self._tally(hand)
        copies = Counter(hand)
        bases = [self._margins(by_rank, masks, kinds, k, take) for kinds, k, _, take in plan]
        out: dict[int, int] = {}
        for c in copies:
            r, s = c % 13, c // 13
            need = 0
            for (kinds, k, pad, take), base in zip(plan, bases, strict=True):
                m = base
                if c < 52:
                    m = base.copy()
                    if "set" in kinds:
                        for x in self._rank_margins(by_rank[r], k):
                            m.remove(x)
                        for x in self._rank_margins(by_rank[r] - 1, k):
                            insort(m, x)
                    if "run" in kinds:
                        old = self._run_best_of(masks[s], k)
                        # each rank has bits of its own in a suit's mask
                        new = old if copies[c] > 1 else self._run_best_of(masks[s] & ~self._rank_bits[r], k)
                        if new != old:
                            if old < k:
                                for _ in range(take):
                                    m.remove(old)
                            if new < k:
                                for _ in range(take):
                                    insort(m, new)
                need += self._least(m, k, pad, take)
            out[int(c)] = max(0, need - wild + (c in self._wild_set))  # (an int key: untracked)
        return out

    def _rank_margins(self, n: int, k: int) -> tuple[int, ...]:
        """The set margins of one rank held ``n`` times (see :meth:`_set_margins`)."""
        key = (n, k)
        got = self._rank_m.get(key)
        if got is None:
            got = self._rank_m[key] = tuple(self._set_margins([n], k))
        return got

    def _run_best_of(self, mask: int, k: int) -> int:
        if not mask:
            return k
        best_of = self._run_best.get(k)
        if best_of is None:
            best_of = self._run_best[k] = {}
        best = best_of.get(mask)
        if best is None:
            best = best_of[mask] = self._run_short(mask, k)
        return best

    def _tally(self, hand: Sequence[int]) -> tuple[list[int], list[int], int]:
        """A hand as the bound sees it: natural cards by rank, each suit's ranks as a bit
        mask, and the number of wild cards."""
        wild_codes = self._wild_set
        rank_bits = self._rank_bits
        by_rank = [0] * 13
        masks = [0, 0, 0, 0]
        wild = 0
        for c in hand:
            if c in wild_codes:
                wild += 1
            if c < 52:
                r = c % 13
                by_rank[r] += 1
                masks[c // 13] |= rank_bits[r]
        return by_rank, masks, wild

    def _margins(self, by_rank: list[int], masks: list[int], kinds: tuple[str, ...], k: int,
                 times: int) -> list[int]:
        """The sorted margins of melds of ``kinds`` and size ``k``, for ``times`` melds."""
        marg: list[int] = []
        if "set" in kinds:
            marg += self._set_margins(by_rank, k)
        if "run" in kinds:
            marg += self._run_margins(masks, k, times)
        marg.sort()
        return marg

    @staticmethod
    def _least(marg: list[int], k: int, pad: int, take: int) -> int:
        """The sum of the ``take`` smallest margins, padded with ``pad`` melds of wild
        cards alone (``k`` each, at least every margin) when there are too few."""
        if len(marg) < take:
            marg = marg + [k] * pad
        return sum(marg[:take])

    def _shortfall(self, hand: Sequence[int], plan: Plan) -> int:
        by_rank, masks, wild = self._tally(hand)
        need = 0
        for kinds, k, pad, take in plan:
            need += self._least(self._margins(by_rank, masks, kinds, k, take), k, pad, take)
        return max(0, need - wild)

    @staticmethod
    def _shortfall_plan(comps: tuple[Component, ...]) -> Plan:
        """What :meth:`_shortfall` sums for ``comps``: for the sets, the runs and the
        either-kind melds asked for, which marginals, of what size ``k``, padded with how
        many ``k`` (a meld from wild cards alone), and how many of the smallest to take.
        For sets and runs ``k`` is the least size among them and the either-kind melds."""
        plan: Plan = []
        for kind in ("set", "run"):
            take = sum(1 for c in comps if c.kind == kind)
            if take:
                sizes = [c.size for c in comps if c.kind in (kind, "meld")]
                plan.append(((kind,), min(sizes), len(sizes), take))
        melds = [c.size for c in comps if c.kind == "meld"]
        if melds:
            plan.append((("set", "run"), min(melds), len(melds), len(melds)))
        return plan

    def feasible(self, cnt: list[int], comps: Sequence[Component]) -> bool:
        """False when ``comps`` surely cannot be met: even sharing no natural card, the
        sets and runs asked for would need more wild cards than the hand holds.  Sound:
        it never rejects a hand that can meet the contract."""
        wild = 0
        for c in self._wild_codes:
            wild += cnt[c]
        allwild = not self.rules.natural_required
        need = 0
        for kind in ("set", "run"):
            times = 0
            k = 0
            for comp in comps:
                if comp.kind == kind:
                    if not times or comp.size < k:
                        k = comp.size
                    times += 1
            if not times:
                continue
            marg = self._set_marginals(cnt, k, times) if kind == "set" else self._run_marginals(cnt, k, times)
            if allwild:
                marg.extend([k] * times)
            if len(marg) < times:
                return False
            marg.sort()
            for i in range(times):
                need += marg[i]
            if need > wild:
                return False
        return True

    def _set_marginals(self, cnt: list[int], k: int, times: int) -> list[int]:
        return self._set_margins([cnt[r] + cnt[13 + r] + cnt[26 + r] + cnt[39 + r] for r in range(13)], k)

    @staticmethod
    def _set_margins(by_rank: list[int], k: int) -> list[int]:
        """What each further set of ``k`` costs in wild cards, rank by rank: the first set
        of a rank held ``n`` times lacks ``k - n``, a second ``k`` more less what is left...
        (as many sets as the rank has natural cards: with several decks a rank may fill
        several sets; sets of wild cards alone are the callers' padding)."""
        out = []
        for n in by_rank:
            prev = 0
            for m in range(1, n + 1):
                d = m * k - n if m * k > n else 0
                out.append(d - prev)
                prev = d
        return out

    def _run_marginals(self, cnt: list[int], k: int, times: int) -> list[int]:
        rank_bits = self._rank_bits
        masks = [0, 0, 0, 0]
        for s in range(4):
            base = 13 * s
            mask = 0
            for r in range(13):
                if cnt[base + r]:
                    mask |= rank_bits[r]
            masks[s] = mask
        return self._run_margins(masks, k, times)

    def _run_margins(self, masks: list[int], k: int, times: int) -> list[int]:
        """The cards the best run of ``k`` in each suit lacks, from each suit's ranks held
        as a bit mask, entered ``times`` times: every run of the suit lacks at least that
        many, and several runs of one contract may share a suit."""
        out: list[int] = []
        for mask in masks:
            best = self._run_best_of(mask, k)
            if best < k:
                out.extend([best] * times)
        return out

    def _run_short(self, mask: int, k: int) -> int:
        """How few cards a run of ``k`` in one suit lacks, given the suit's ranks held
        as ``mask`` (bit positions as in ``_rank_bits``); ``k`` when none of them helps."""
        windows = self._windows.get(k)
        if windows is None:
            windows = self._windows[k] = [
                sum(1 << p for p in range(lo, lo + k)) for lo in self.rules.run_bounds(k)
            ]
        best = k
        for wm in windows:
            have = (mask & wm).bit_count()
            if have and k - have < best:
                best = k - have
                if not best:
                    break
        return best

    # -- search ----------------------------------------------------------------------

    # -- skeletons: natural cards plus a number of wild slots ------------------------

    def _set_skeletons(self, cnt: list[int], r: int, lo: int, hi: int, wild: int) -> list[Skel]:
        """Sets of rank ``r`` with at least ``lo`` cards: which naturals, how many wilds."""
        rules, val = self.rules, self.values
        if rules.twos_wild and r == 2:
            nat_codes: Sequence[int] = TWOS
        else:
            nat_codes = (r - 1, 12 + r, 25 + r, 38 + r)
        nats = [(c, cnt[c]) for c in nat_codes if cnt[c]]
        nmax = sum(a for _, a in nats)
        hi = min(hi, nmax + wild)
        if rules.set_max is not None:
            hi = min(hi, rules.set_max)
        amin = 1 if rules.natural_required else 0
        out: list[Skel] = []
        for a in range(min(nmax, hi), amin - 1, -1):
            for b in range(max(0, lo - a), min(wild, hi - a) + 1):
                if not rules.within_limit(b, a):
                    continue
                for nsel in _sub_multisets(nats, a):
                    cards = tuple(nsel)
                    out.append((cards, "set", r, -1, 0, cards, sum(val[c] for c in cards), b, _use(cards)))
        return out

    def _run_skeletons(self, cnt: list[int], suit: int, lo_len: int, hi_len: int, wild: int) -> list[Skel]:
        """Runs of ``suit`` of ``lo_len``..``hi_len`` cards: the natural card at each
        position, -1 where a wild card goes."""
        rules, val = self.rules, self.values
        base = suit * 13
        distinct = 0
        for i in range(13):
            if cnt[base + i]:
                distinct += 1
        need_nat = rules.natural_required
        if need_nat and not distinct:
            return []
        mode = rules.ace_mode
        top = 26 if mode == "wrap" else 14
        pref = [0] * (top + 1)
        for p in range(1, top + 1):
            pref[p] = pref[p - 1] + (1 if cnt[base + (p - 1) % 13] else 0)
        hi_len = min(hi_len, distinct + wild + (1 if mode == "low_or_high" else 0))
        out: list[Skel] = []
        for length in range(lo_len, hi_len + 1):
            for lo in rules.run_bounds(length):
                hi = lo + length - 1
                have = pref[hi] - pref[lo - 1]
                if length == 14 and cnt[base] == 1:
                    have -= 1  # A..K..A needs two aces
                missing = length - have
                if missing > wild or have <= 0:
                    continue  # all-wild runs come from skeletons(), one per length
                faces = [base + (p - 1) % 13 for p in range(lo, hi + 1)]
                present = [i for i, f in enumerate(faces) if cnt[f] and (i != 13 or cnt[f] > 1)]
                full = [f if (cnt[f] and (i != 13 or cnt[f] > 1)) else -1 for i, f in enumerate(faces)]
                for t in range(0, min(len(present), wild - missing) + 1):
                    w = missing + t
                    if not rules.within_limit(w, length - w) or (need_nat and w == length):
                        continue
                    for subst in combinations(present, t) if t else ((),):
                        if t:
                            lay = list(full)
                            for i in subst:
                                lay[i] = -1
                            layout = tuple(lay)
                        else:
                            layout = tuple(full)
                        v = 0
                        use: dict[int, int] = {}
                        for c in layout:
                            if c >= 0:
                                v += val[c]
                                use[c] = use.get(c, 0) + 1
                        out.append((layout, "run", 0, suit, lo, layout, v, w, tuple(use.items())))
        return out

    def skeletons(self, cnt: list[int], kind: str, lo: int, hi: int, wild: int) -> list[Skel]:
        """Every skeleton of ``kind`` with at least ``lo`` cards (cached per rank and suit:
        those counts rarely change from one turn to the next).  The cache keys are tuples
        of plain ints, built without slicing the counts: this is asked at every solve."""
        cache = self._cache
        if len(cache) > SKELETON_CACHE:  # consecutive turns share most entries; a big one costs pauses
            cache.clear()
        out: list[Skel] = []
        rules = self.rules
        allwild = not rules.natural_required
        if kind == "set" or kind == "meld" or kind == "pair":
            canon_done = False
            twos_wild = rules.twos_wild
            distinct = self.crules.distinct_set_ranks
            pair = kind == "pair"
            for r in range(1, 14):
                if twos_wild and r == 2:
                    a, b, c, d = cnt[TWOS[0]], cnt[TWOS[1]], cnt[TWOS[2]], cnt[TWOS[3]]
                else:
                    a, b, c, d = cnt[r - 1], cnt[12 + r], cnt[25 + r], cnt[38 + r]  # each suit's
                nat = a + b + c + d
                if not nat:
                    # all-wild sets are alike whatever their rank: one rank stands for all
                    # (unless two sets may not share a rank)
                    if not allwild or (canon_done and not distinct):
                        continue
                    canon_done = True
                # a set never holds more than its naturals and the wilds (a longer bound is
                # the same question); nor, here, more than 14 cards unless its naturals
                # alone are more (many decks): longer sets of wilds cost a search its time
                top = nat if nat > 14 else 14  # (min and max of three: no builtin call)
                if hi < top:
                    top = hi
                if nat + wild < top:
                    top = nat + wild
                key: tuple[int, ...] = (0, r, lo, top, wild, a, b, c, d)
                got = cache.get(key)
                if got is None:
                    got = cache[key] = self._set_skeletons(cnt, r, lo, top, wild)
                if pair:
                    for x in got:
                        if len(x[5]) + x[7] == 2 and x[5]:
                            out.append(((0, *x[0]), "pair", x[2], x[3], x[4], x[5], x[6], x[7], x[8]))
                else:
                    out.extend(got)
        if kind == "run" or kind == "meld":
            top = min(hi, 14)  # (runs: 14 cards at most)
            for suit in range(4):
                base = suit * 13
                # the suit's counts as one int, 4 bits each (a face's count is at most the
                # decks, 8; beyond 15 the counts themselves are the key)
                held = 0
                most = 0
                for i in range(base, base + 13):
                    held = (held << 4) | cnt[i]
                    most |= cnt[i]
                if most < 16:
                    rkey: tuple[int, ...] = (1, suit, lo, top, wild, held)
                else:
                    rkey = (2, suit, lo, top, wild, *cnt[base:base + 13])
                got = cache.get(rkey)
                if got is None:
                    got = cache[rkey] = self._run_skeletons(cnt, suit, lo, hi, wild)
                out.extend(got)
            if allwild:
                # all-wild runs are alike: one per length, declared in clubs from the lowest start
                # (one per suit where runs of a suit are limited)
                suits = range(4) if self.crules.one_run_per_suit or self.crules.not_contiguous else (0,)
                for length in range(lo, min(hi, wild) + 1):
                    starts = rules.run_bounds(length)
                    if not len(starts) or not rules.within_limit(length, 0):
                        continue  # no such run, or the wild limit forbids it
                    for suit in suits:
                        layout = (-1,) * length
                        out.append((layout, "run", 0, suit, starts[0], layout, 0, length, ()))
        return out

    # -- search ----------------------------------------------------------------------

    def solve(
        self,
        comps: Sequence[Component],
        hand: Sequence[int],
        *,
        whole_hand: bool = False,
        beside: Sequence[Reading] = (),
        first: bool = False,
    ) -> list[Reading] | None:
        """The arrangement meeting ``comps`` with least leftover penalty, or None.

        Candidates are skeletons (natural cards and a number of wild slots); the slots
        of a whole arrangement are filled with the most valuable wild cards left, which
        is what the least leftover penalty asks for.  The answer depends on the hand
        alone (never on earlier questions), ties broken by a fixed order.  ``beside``:
        melds of the same contract already laid (a contract laid meld by meld), which
        the melds found must stand beside as the rules ask (runs of a suit apart, set
        ranks distinct, one run per suit); they are not part of the answer.  ``first``: any
        arrangement, the first found (whether the contract can be met at all), not the
        least penalty's: a quicker answer."""
        if beside and not self._apart_matters(beside):
            beside = ()
        ncards = len(hand)
        need = 0
        for comp in comps:
            need += comp.size
        if need > ncards:
            return None
        cnt = [0] * NUM_FACES
        for c in hand:
            cnt[c] += 1
        if not self.feasible(cnt, comps):
            return None
        if whole_hand and not self._cover_possible(cnt, comps):
            return None
        val = self.values
        total = 0
        for c in hand:
            total += val[c]
        cr = self.crules
        exact = cr.sizes == "exact" and not whole_hand
        if self._runs_only(comps, whole_hand) and not beside:
            return self._solve_runs(cnt, comps, exact, whole_hand, total)
        extra = cr.count == "at_least"
        ncomp = len(comps)
        wild_total = 0
        for c in self._wild_codes:
            wild_total += cnt[c]
        # the cards that may stay out of the melds (none in a whole-hand deal)
        spare = 0 if whole_hand else ncards - need
        hi_of = {comp: comp.size if exact else ncards - (need - comp.size) for comp in comps}
        naturals = [c for c in range(52) if cnt[c] and c not in self._wild_set]
        orders: dict[tuple[bool, int], list[int]] = {}  # per (a set open?, longest run open)
        if not extra:
            span = max((min(hi_of[c], 14) for c in comps if c.kind in ("run", "meld")), default=0)
            kinds = (any(c.kind != "run" for c in comps), span)
            if ncards - wild_total > ncomp + spare:
                orders[kinds] = self._apart_order(naturals, *kinds)
                if self._apart(cnt, orders[kinds], *kinds) > ncomp + spare:
                    return None  # natural cards that need more melds than the contract has
        wild_codes = self._wild_codes
        wild_vals = sorted((val[c] for c in wild_codes for _ in range(cnt[c])), reverse=True)
        maxwild = wild_vals[0] if wild_vals else 0

        lists: dict[Component, list[Skel]] = {}
        for comp in comps:
            if comp in lists:
                continue
            hi = hi_of[comp]
            found = [x for x in self.skeletons(cnt, comp.kind, comp.size, hi, wild_total)
                     if comp.size <= len(x[5]) + (x[7] if x[1] != "run" else 0) <= hi]
            if not found:
                return None
            found.sort(key=lambda x: -(x[6] + x[7] * maxwild))
            lists[comp] = found
        comps = sorted(comps, key=lambda c: (len(lists[c]), c.kind, c.size))
        cand_lists = [lists[c] for c in comps]
        if whole_hand and not extra:
            coverable = set(wild_codes)
            for lst in lists.values():
                for sk in lst:
                    coverable.update(c for c in sk[5] if c >= 0)
            if any(cnt[c] and c not in coverable for c in range(NUM_FACES)):
                return None
        pot = [lst[0][6] + lst[0][7] * maxwild for lst in cand_lists]
        # a second bound: best naturals and most slots apart, slots worth the real wilds
        topfill = [0]
        for v in wild_vals:
            topfill.append(topfill[-1] + v)
        nat_sfx = [0] * (ncomp + 1)
        slot_sfx = [0] * (ncomp + 1)
        for i in range(ncomp - 1, -1, -1):
            nat_sfx[i] = nat_sfx[i + 1] + max(sk[6] for sk in cand_lists[i])
            slot_sfx[i] = slot_sfx[i + 1] + max(sk[7] for sk in cand_lists[i])
        suffix = [0] * (ncomp + 1)
        for i in range(ncomp - 1, -1, -1):
            suffix[i] = suffix[i + 1] + pot[i]
        same_prev = [i > 0 and comps[i - 1] == comps[i] for i in range(ncomp)]

        # per depth, what the components still open allow (a set?  how long a run?) and
        # how many cards they take at least
        open_kinds = [(any(c.kind != "run" for c in comps[i:]),
                       max((min(hi_of[c], 14) for c in comps[i:] if c.kind in ("run", "meld")), default=0))
                      for i in range(ncomp)]
        open_need = [sum(c.size for c in comps[i:]) for i in range(ncomp)]
        search = _Search(self, cnt, cand_lists, orders, naturals, extra, whole_hand, total, ncards,
                         wild_total, maxwild, suffix, nat_sfx, slot_sfx, topfill, open_kinds, open_need,
                         same_prev)
        if beside:
            search.chosen = [_beside_skeleton(rd) for rd in beside]
        search.first = first
        search.dfs(0, 0, 0)
        best_pick = search.best_pick
        if best_pick is None:
            return None
        best_pick = best_pick[len(beside):]  # (the melds beside, the first chosen, are not found)
        # fill the wild slots with the most valuable wild cards left
        for sk in best_pick:
            for c, n in sk[8]:
                cnt[c] -= n
        slots = sum(sk[7] for sk in best_pick)
        filled = iter(self._fill(cnt, slots))
        return [self._materialize(sk, filled) for sk in best_pick]

    def _apart_matters(self, beside: Sequence[Reading]) -> bool:
        """Whether melds ``beside`` can bar any meld from standing with them (see
        :func:`_apart_ok`): runs where runs of a suit are limited, sets where set ranks
        must differ."""
        cr = self.crules
        runs = cr.one_run_per_suit or cr.not_contiguous
        for rd in beside:
            if (rd.kind == "run" and runs) or (rd.kind == "set" and cr.distinct_set_ranks):
                return True
        return False

    def _runs_only(self, comps: Sequence[Component], whole_hand: bool) -> bool:
        """Whether :func:`solver_runs.best_runs` solves ``comps`` exactly (and faster)."""
        return (self.crules.count == "exact" and len({(c.kind, c.size) for c in comps}) == 1
                and comps[0].kind == "run" and solver_runs.applies(self.rules)
                and not (whole_hand and min(self.values) <= 0))

    def _solve_runs(self, cnt: list[int], comps: Sequence[Component], exact: bool, whole_hand: bool,
                    total: int) -> list[Reading] | None:
        cr = self.crules
        wild_vals = sorted((self.values[c] for c in self._wild_codes for _ in range(cnt[c])), reverse=True)
        got = solver_runs.best_runs(cnt, self.rules, self.values, wild_vals, m=len(comps), k=comps[0].size,
                                    exact=exact, not_contiguous=cr.not_contiguous,
                                    one_per_suit=cr.one_run_per_suit)
        if got is None or (whole_hand and got[0] != total):
            return None
        left = list(cnt)
        for _, _, _, layout in got[1]:
            for c in layout:
                if c >= 0:
                    left[c] -= 1
        filled = iter(self._fill(left, sum(1 for run in got[1] for c in run[3] if c < 0)))
        return [self._materialize(((), "run", 0, suit, lo, layout, 0, 0, ()), filled)
                for suit, lo, _, layout in got[1]]

    def _fill(self, cnt: list[int], slots: int) -> list[int]:
        """The ``slots`` most valuable wild cards in ``cnt``."""
        val = self.values
        pool = sorted((c for c in self._wild_codes for _ in range(cnt[c])), key=lambda c: -val[c])
        return pool[:slots]

    def _materialize(self, sk: Skel, wilds: Iterator[int]) -> Reading:
        if sk[1] == "run":
            cards = tuple(CARDS[c if c >= 0 else next(wilds)] for c in sk[5])
            return Reading("run", cards, suit=sk[3], lo=sk[4])
        # a set's cards in face order: one set, one way of writing it
        cards = tuple(sorted(CARDS[c] for c in (*sk[5], *(next(wilds) for _ in range(sk[7])))))
        return Reading(sk[1], cards, rank=sk[2])

    def _extras(self, cnt: list[int], used_nat: int, slots: int, whole_hand: bool,
                beat: int, chosen: Sequence[Skel], steps: list[int]) -> tuple[int, list[Skel]] | None:
        """Contracts that allow more melds: extra melds (skeletons) from the natural cards
        ``cnt`` still holds, ``slots`` wild slots already taken by the contract's melds.
        A wild-capable card (a 2 where 2s are wild) may be a natural card of one meld and
        fill a wild slot of another, so the slots are filled only at the end, with the
        most valuable wild cards no meld uses as natural.  Returns the best total value
        above ``beat`` and the extra skeletons, or None (in a whole-hand deal only an
        arrangement using every card counts).  ``chosen``: the contract's melds, which the
        extra melds must stand beside as the rules ask (one run per suit, ...); ``steps``: the
        steps left to the solve (EXTRA_STEPS)."""
        found = _ExtraSearch(self, cnt, whole_hand, beat, chosen, steps)
        found.go(None, used_nat, slots)
        if found.best is None:
            return None
        return found.best_val, found.best

    # -- a contract laid meld by meld ---------------------------------------------------

    def parts_left(self, comps: Sequence[Component], laid: Sequence[Reading],
                   exact: bool) -> list[tuple[Component, ...]]:
        """The parts of the contract ``comps`` still to lay once the melds ``laid`` are down,
        one tuple per distinct way of giving each laid meld a part it may stand for
        (``exact``: each meld exactly its size); [] when they cannot stand as melds of the
        contract together (an empty tuple in it: the contract is met).  Remembered: a
        question asked for every meld a seat might lay."""
        key = [int(exact)]  # (plain ints: a tuple of them is left alone by the collector)
        for c in comps:
            key.append(c.code)
        key.append(-1)
        for rd in laid:
            key.append(meld_code(rd))
        memo = self._parts
        k = tuple(key)
        got = memo.get(k)
        if got is None:
            if len(memo) >= 50_000:
                memo.clear()
            got = memo[k] = _parts_left(comps, laid, self.crules, exact)
        return got

    # -- judging a meld that was laid down --------------------------------------------

    def meets(
        self,
        comps: Sequence[Component],
        melds: Sequence[Sequence[Card]] | Sequence[Sequence[Reading]],
        *,
        whole_hand: bool = False,
    ) -> list[Reading] | None:
        """Whether ``melds`` (each a card list, or a list of allowed readings) meet
        ``comps``; returns the readings that do, or None."""
        cr = self.crules
        options: list[list[Reading]] = []
        for m in melds:
            if m and isinstance(m[0], Reading):
                options.append(list(m))  # type: ignore[arg-type]
            else:
                options.append(
                    readings(list(m), self.rules, min_set=2, min_run=2, pair=True)  # type: ignore[arg-type]
                )
        n, k = len(melds), len(comps)
        if n < k or (n > k and cr.count != "at_least"):
            return None
        exact = cr.sizes == "exact" and not whole_hand
        slots: list[Component | None] = list(comps) + [None] * (n - k)
        picked: list[Reading] = []
        return list(picked) if _assign(0, options, slots, [False] * n, picked, cr, exact) else None


def meld_code(rd: Reading) -> int:
    """What of a meld decides which parts of a contract it may be and which melds it may
    stand beside (its kind, suit, first position, length and rank), as one int."""
    return (((KIND_CODES[rd.kind] * 8 + rd.suit + 1) * 32 + rd.lo) * 64 + len(rd.cards)) * 16 + rd.rank


def _parts_left(comps: Sequence[Component], laid: Sequence[Reading], cr: ContractRules,
                exact: bool) -> list[tuple[Component, ...]]:
    if len(laid) > 1 and not _global_ok(list(laid), cr):
        return []
    found: dict[tuple[Component, ...], None] = {}
    _give_parts(list(laid), 0, list(comps), [False] * len(comps), cr, exact, found)
    return list(found)


def _give_parts(laid: list[Reading], i: int, comps: list[Component], used: list[bool], cr: ContractRules,
                exact: bool, found: dict[tuple[Component, ...], None]) -> None:
    """Each laid meld from the ``i``-th on given a part of ``comps`` it may stand for (not
    ``used``): the parts left over, each way, into ``found``."""
    if i == len(laid):
        found[tuple([c for c, u in zip(comps, used, strict=True) if not u])] = None
        return
    tried: set[Component] = set()
    for k, comp in enumerate(comps):
        if used[k] or comp in tried or not _fits(laid[i], comp, cr, exact):
            continue
        tried.add(comp)  # (identical parts: one is as good as another)
        used[k] = True
        _give_parts(laid, i + 1, comps, used, cr, exact, found)
        used[k] = False


def _beside_skeleton(rd: Reading) -> Skel:
    """A laid meld as the skeleton :func:`_apart_ok` reads (its kind, rank, suit, first
    position and length)."""
    layout = (-1,) * len(rd.cards)
    return ((), rd.kind, rd.rank, rd.suit, rd.lo, layout, 0, 0, ())


def fits_component(rd: Reading, comp: Component | None, cr: ContractRules, exact: bool) -> bool:
    """Whether the reading ``rd`` may stand for the contract's ``comp`` (None: an extra
    meld beyond the contract's count); ``exact``: each meld exactly its size."""
    return _fits(rd, comp, cr, exact)


def stand_together(picked: list[Reading], cr: ContractRules) -> bool:
    """Whether the melds ``picked`` of one contract may stand together (runs of a suit
    apart, set ranks distinct, one run per suit, as ``cr`` asks)."""
    return _global_ok(picked, cr)


def _fits(rd: Reading, comp: Component | None, cr: ContractRules, exact: bool) -> bool:
    """Whether the reading ``rd`` may stand for ``comp`` (None: an extra meld)."""
    size = len(rd.cards)
    if comp is None:  # an extra meld beyond the contract
        return rd.kind in ("set", "run") and size >= cr.extra_min
    if comp.kind == "meld":
        if rd.kind not in ("set", "run"):
            return False
    elif rd.kind != comp.kind:
        return False
    return size == comp.size if exact else size >= comp.size


def _global_ok(picked: list[Reading], cr: ContractRules) -> bool:
    """Whether the melds ``picked`` may stand together (runs per suit, set ranks)."""
    for a in range(len(picked)):
        for b in range(a + 1, len(picked)):
            x, y = picked[a], picked[b]
            if x.kind == "run" and y.kind == "run" and x.suit == y.suit:
                if cr.one_run_per_suit:
                    return False
                if cr.not_contiguous and (x.hi + 1 == y.lo or y.hi + 1 == x.lo):
                    return False
            if x.kind == "set" and y.kind == "set" and cr.distinct_set_ranks:
                if x.rank == y.rank:
                    return False
    return True


def _assign(i: int, options: list[list[Reading]], slots: list[Component | None], used_slot: list[bool],
            picked: list[Reading], cr: ContractRules, exact: bool) -> bool:
    """Give the melds from the ``i``-th on a reading and a free slot each (``picked``
    holds the readings chosen); whether every meld found one (module functions, not
    closures: a closure that calls itself is a cycle only the garbage collector frees)."""
    n = len(options)
    if i == n:
        return _global_ok(picked, cr)
    for rd in options[i]:
        for s in range(n):
            if used_slot[s] or not _fits(rd, slots[s], cr, exact):
                continue
            used_slot[s] = True
            picked.append(rd)
            if _assign(i + 1, options, slots, used_slot, picked, cr, exact):
                return True
            picked.pop()
            used_slot[s] = False
    return False


def _apart_ok(sk: Skel, others: Sequence[Skel], cr: ContractRules) -> bool:
    """Whether the meld skeleton ``sk`` may stand beside ``others`` (one run per suit, runs
    of a suit not touching, set ranks distinct, as the rules ask)."""
    kind = sk[1]
    for other in others:
        if kind == "run" and other[1] == "run" and other[3] == sk[3]:
            if cr.one_run_per_suit:
                return False
            if cr.not_contiguous:
                a_lo, a_hi = sk[4], sk[4] + len(sk[5]) - 1
                b_lo, b_hi = other[4], other[4] + len(other[5]) - 1
                if a_hi + 1 == b_lo or b_hi + 1 == a_lo:
                    return False
        elif kind == "set" and other[1] == "set" and cr.distinct_set_ranks:
            if other[2] == sk[2]:
                return False
    return True


class _Search:
    """One :meth:`Solver.solve` search: the branch and bound over the components' candidate
    skeletons, on the face counts ``cnt`` (changed as candidates are taken, and restored).
    A class, not nested functions: closures that call themselves form a reference cycle
    that only the garbage collector frees, and a solve is made often."""

    def __init__(self, solver: Solver, cnt: list[int], cand_lists: list[list[Skel]],
                 orders: dict[tuple[bool, int], list[int]], naturals: list[int], extra: bool,
                 whole_hand: bool, total: int, ncards: int, wild_total: int, maxwild: int,
                 suffix: list[int], nat_sfx: list[int], slot_sfx: list[int], topfill: list[int],
                 open_kinds: list[tuple[bool, int]], open_need: list[int], same_prev: list[bool]):
        self.solver, self.cr, self.val = solver, solver.crules, solver.values
        self.wild_codes = solver._wild_codes
        self.wild_set = solver._wild_set
        self.cnt, self.cand_lists, self.orders, self.naturals = cnt, cand_lists, orders, naturals
        self.extra, self.whole_hand, self.total = extra, whole_hand, total
        self.ncomp = len(cand_lists)
        self.wild_total, self.maxwild = wild_total, maxwild
        self.suffix, self.nat_sfx, self.slot_sfx, self.topfill = suffix, nat_sfx, slot_sfx, topfill
        self.open_kinds, self.open_need, self.same_prev = open_kinds, open_need, same_prev
        self.best_used = -1
        self.best_pick: list[Skel] | None = None
        self.chosen: list[Skel] = []
        # wild slots taken, wild-capable cards left in hand, cards left in hand
        self.slots, self.pool, self.left = 0, wild_total, ncards
        self.extra_steps = [EXTRA_STEPS]  # shared by every extra-meld search of this solve
        self.first = False  # stop at the first arrangement found (Solver.solve's ``first``)

    def apart(self, kinds: tuple[bool, int]) -> int:
        order = self.orders.get(kinds)
        if order is None:
            order = self.orders[kinds] = self.solver._apart_order(self.naturals, kinds[0], kinds[1])
        return self.solver._apart(self.cnt, order, kinds[0], kinds[1])

    def fill_value(self, slots: int) -> int:
        """What the ``slots`` most valuable wild cards left are worth."""
        val = self.val
        return sum(val[c] for c in self.solver._fill(self.cnt, slots))

    def compatible(self, sk: Skel) -> bool:
        return _apart_ok(sk, self.chosen, self.cr)

    def leaf(self, used_nat: int) -> bool:
        slots = self.slots
        if self.extra and not (self.first and not self.whole_hand):
            return self.extra_search(used_nat, slots) or (self.first and self.best_pick is not None)
        if self.whole_hand:
            if self.pool != slots:
                return False
            cnt, wild_codes = self.cnt, self.wild_codes
            for c in range(NUM_FACES):
                if cnt[c] and c not in wild_codes:
                    return False
        used = used_nat + self.fill_value(slots)
        if used > self.best_used:
            self.best_used = used
            self.best_pick = list(self.chosen)
        return used == self.total or self.first

    def avail_best(self, k: int, start: int, slots_left: int) -> int:
        lst = self.cand_lists[k]
        cnt = self.cnt
        for j in range(start, len(lst)):
            sk = lst[j]
            if sk[7] > slots_left:
                continue
            for c, n in sk[8]:
                if cnt[c] < n:
                    break
            else:
                return sk[6] + sk[7] * self.maxwild
        return -1

    def dfs(self, i: int, start: int, used_nat: int) -> bool:
        ncomp = self.ncomp
        if self.extra:  # (no bounds prune an at-least search: its steps are counted instead)
            steps = self.extra_steps
            if steps[0] <= 0 and (self.best_pick is not None or steps[0] <= EXTRA_STEPS - EXTRA_STEPS_MOST):
                return True  # the best found so far stands (EXTRA_STEPS), or none (EXTRA_STEPS_MOST)
            steps[0] -= 1
        if i == ncomp:
            return self.leaf(used_nat)
        slots = self.slots
        extra, whole_hand, maxwild = self.extra, self.whole_hand, self.maxwild
        suffix, nat_sfx, slot_sfx, topfill = self.suffix, self.nat_sfx, self.slot_sfx, self.topfill
        wild_total, same_prev = self.wild_total, self.same_prev
        if not extra:
            best_used = self.best_used
            ceiling = used_nat + slots * maxwild + suffix[i]
            ceiling2 = used_nat + nat_sfx[i] + topfill[min(wild_total, slots + slot_sfx[i])]
            if ceiling2 < ceiling:
                ceiling = ceiling2
            if ceiling <= best_used or (whole_hand and ceiling < self.total):
                return False
            # natural cards that need more melds than are open, or cards left over (worth
            # counting only if there are more natural cards than that)
            room = ncomp - i + (0 if whole_hand else self.left - slots - self.open_need[i])
            if i and self.left - self.pool > room and self.apart(self.open_kinds[i]) > room:
                return False
            free = self.pool - slots
            bound = used_nat + slots * maxwild
            for k in range(i, ncomp):
                b = self.avail_best(k, start if (k == i and same_prev[i]) else 0, free)
                if b < 0:
                    return False
                bound += b
            if bound <= best_used or (whole_hand and bound < self.total):
                return False
        cnt, wild_set, chosen = self.cnt, self.wild_set, self.chosen
        lst = self.cand_lists[i]
        for j in range(start if same_prev[i] else 0, len(lst)):
            sk = lst[j]
            best_used = self.best_used
            if not extra and used_nat + sk[6] + (slots + sk[7]) * maxwild + suffix[i + 1] <= best_used:
                break  # sorted by potential: nothing later can do better
            if (not extra and used_nat + sk[6] + nat_sfx[i + 1]
                    + topfill[min(wild_total, slots + sk[7] + slot_sfx[i + 1])] <= best_used):
                continue
            ok = True
            wn = nn = 0  # wild-capable cards it uses as naturals; natural cards
            for c, n in sk[8]:
                if cnt[c] < n:
                    ok = False
                    break
                nn += n
                if c in wild_set:
                    wn += n
            if not ok or not self.compatible(sk):
                continue
            if self.pool - wn < slots + sk[7]:
                continue
            for c, n in sk[8]:
                cnt[c] -= n
            self.slots = slots + sk[7]
            self.pool -= wn
            self.left -= nn
            chosen.append(sk)
            done = self.dfs(i + 1, j, used_nat + sk[6])
            chosen.pop()
            self.slots = slots
            self.pool += wn
            self.left += nn
            for c, n in sk[8]:
                cnt[c] += n
            if done:
                return True
        return False

    def extra_search(self, used_nat: int, slots: int) -> bool:
        """At-least contracts (more melds may be added): extra melds, their wild slots
        filled, like the contract's, only once every natural card is placed."""
        found = self.solver._extras(self.cnt, used_nat, slots, self.whole_hand, self.best_used, self.chosen,
                                    self.extra_steps)
        if found is not None and found[0] > self.best_used:
            self.best_used = found[0]
            self.best_pick = self.chosen + found[1]
        return self.best_used == self.total


class _ExtraSearch:
    """:meth:`Solver._extras`' search: extra melds from the natural cards ``cnt`` still
    holds, the best total value above ``beat`` in ``best_val`` and its skeletons in
    ``best``."""

    def __init__(self, solver: Solver, cnt: list[int], whole_hand: bool, beat: int,
                 chosen: Sequence[Skel], steps: list[int]):
        self.solver, self.cnt, self.whole_hand = solver, cnt, whole_hand
        self.chosen = chosen  # (read only: the solve's melds, unchanged while this runs)
        self.steps = steps  # the steps left (EXTRA_STEPS), shared with the solve's other searches
        self.best: list[Skel] | None = None
        self.best_val = beat
        self.extra: list[Skel] = []

    def pool(self) -> int:
        cnt = self.cnt
        return sum(cnt[c] for c in self.solver._wild_codes)

    def go(self, prev: tuple[object, ...] | None, nat: int, taken: int) -> None:
        solver, cnt = self.solver, self.cnt
        cr, val = solver.crules, solver.values
        wild_left = self.pool()
        if wild_left < taken:
            return
        value = nat + sum(val[c] for c in solver._fill(cnt, taken))
        left = sum(cnt) - taken
        if value > self.best_val and (left == 0 or not self.whole_hand):
            self.best_val = value
            self.best = list(self.extra)
        if left < cr.extra_min or self.steps[0] <= 0:
            return
        self.steps[0] -= 1
        # a bound: every card left used
        if nat + sum(val[c] * cnt[c] for c in range(NUM_FACES)) <= self.best_val:
            return
        for sk in solver.skeletons(cnt, "meld", cr.extra_min, left, wild_left - taken):
            size = len(sk[5]) + (sk[7] if sk[1] != "run" else 0)
            if size < cr.extra_min:
                continue
            key = (sk[1] == "run", sk[2], sk[3], sk[4], sk[5], sk[7])
            if prev is not None and key < prev:
                continue
            if any(cnt[c] < n for c, n in sk[8]):
                continue
            if not _apart_ok(sk, self.chosen, cr) or not _apart_ok(sk, self.extra, cr):
                continue
            for c, n in sk[8]:
                cnt[c] -= n
            if self.pool() >= taken + sk[7]:
                self.extra.append(sk)
                self.go(key, nat + sk[6], taken + sk[7])
                self.extra.pop()
            for c, n in sk[8]:
                cnt[c] += n
