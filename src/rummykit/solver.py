"""The contract solver: can a hand meet a contract, and with which melds?

``Solver.solve`` is an exact branch-and-bound search over the contract's components on
an array of face counts.  Each component takes a candidate meld built from the cards
left; identical components take candidates in a fixed order (no permutations twice);
a branch stops when even using every card left could not beat the best arrangement
found.  It returns the arrangement with the least leftover penalty.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import CARDS, JOKER_CODE, NUM_FACES, Card
from .melds import MeldRules, Reading, readings
from .rules.spec import Component

TWOS = (1, 14, 27, 40)

# a candidate: (key, kind, rank, suit, lo, cards in table order, value)
Cand = tuple[tuple[int, ...], str, int, int, int, tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class ContractRules:
    """How a contract is judged (RULES.md 4.1)."""

    sizes: str = "at_least"  # "exact": each meld exactly the minimum
    count: str = "exact"  # "at_least": more melds than asked may be added
    not_contiguous: bool = False
    one_run_per_suit: bool = False
    distinct_set_ranks: bool = False
    extra_min: int = 3


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


class Solver:
    """Contract search for one ruleset (meld rules, card values, contract rules)."""

    def __init__(self, rules: MeldRules, values: Sequence[int], crules: ContractRules):
        self.rules = rules
        self.values = list(values)
        self.crules = crules
        self._wild_codes = [JOKER_CODE] + (list(TWOS) if rules.twos_wild else [])

    # -- candidates ------------------------------------------------------------------

    def _set_cands(self, cnt: list[int], r: int, lo: int, hi: int, kind: str) -> Iterator[Cand]:
        rules, val = self.rules, self.values
        tw = rules.twos_wild
        if tw and r == 2:
            nat_codes: Sequence[int] = TWOS
            wild_codes: Sequence[int] = (JOKER_CODE,)
        else:
            nat_codes = (r - 1, 12 + r, 25 + r, 38 + r)
            wild_codes = self._wild_codes
        nats = [(c, cnt[c]) for c in nat_codes if cnt[c]]
        wilds = [(c, cnt[c]) for c in wild_codes if cnt[c]]
        nmax = sum(a for _, a in nats)
        wmax = sum(a for _, a in wilds)
        if rules.set_max is not None:
            hi = min(hi, rules.set_max)
        hi = min(hi, nmax + wmax)
        amin = 1 if rules.natural_required else 0
        for size in range(lo, hi + 1):
            for a in range(min(nmax, size), amin - 1, -1):
                b = size - a
                if b > wmax:
                    break
                if not rules.within_limit(b, a):
                    continue
                for nsel in _sub_multisets(nats, a):
                    for wsel in _sub_multisets(wilds, b):
                        cards = tuple(nsel + wsel)
                        yield (
                            (0, r, size) + cards,
                            kind,
                            r,
                            -1,
                            0,
                            cards,
                            sum(val[c] for c in cards),
                        )

    def _run_cands(self, cnt: list[int], suit: int, lmin: int, lmax: int) -> Iterator[Cand]:
        rules, val = self.rules, self.values
        base = suit * 13
        wild_codes = self._wild_codes
        wtotal = sum(cnt[c] for c in wild_codes)
        present_suit = sum(1 for i in range(13) if cnt[base + i])
        lmax = min(lmax, present_suit + wtotal + (1 if rules.ace_mode == "low_or_high" else 0))
        need_nat = rules.natural_required
        for length in range(lmin, lmax + 1):
            for lo in rules.run_bounds(length):
                faces = [base + (p - 1) % 13 for p in range(lo, lo + length)]
                # two aces in a 14-card run need two ace cards
                present = []
                used_here: dict[int, int] = {}
                for i, f in enumerate(faces):
                    if cnt[f] - used_here.get(f, 0) > 0:
                        present.append(i)
                        used_here[f] = used_here.get(f, 0) + 1
                missing = length - len(present)
                if missing > wtotal or (need_nat and not present):
                    continue
                for t in range(0, min(len(present), wtotal - missing) + 1):
                    w = missing + t
                    if not rules.within_limit(w, length - w):
                        continue
                    for subst in combinations(present, t) if t else ((),):
                        nat_idx = [i for i in present if i not in subst]
                        for f in (faces[i] for i in nat_idx):
                            cnt[f] -= 1
                        pool = [(c, cnt[c]) for c in wild_codes if cnt[c] > 0]
                        for f in (faces[i] for i in nat_idx):
                            cnt[f] += 1
                        nat_set = set(nat_idx)
                        for wsel in _sub_multisets(pool, w):
                            it = iter(wsel)
                            cards = tuple(faces[i] if i in nat_set else next(it) for i in range(length))
                            yield (
                                (1, suit, lo, length) + cards,
                                "run",
                                0,
                                suit,
                                lo,
                                cards,
                                sum(val[c] for c in cards),
                            )

    def candidates(self, cnt: list[int], kind: str, lo: int, hi: int) -> Iterator[Cand]:
        if kind in ("set", "meld"):
            for r in range(1, 14):
                yield from self._set_cands(cnt, r, lo, hi, "set")
        if kind == "pair":
            for r in range(1, 14):
                for c in self._set_cands(cnt, r, 2, 2, "pair"):
                    # a pair needs a natural card even where all-wild melds are legal
                    if any(not self.rules.is_wild(x) or (x != JOKER_CODE and x % 13 == r - 1)
                           for x in c[5]):
                        yield c
        if kind in ("run", "meld"):
            for suit in range(4):
                yield from self._run_cands(cnt, suit, lo, hi)

    # -- search ----------------------------------------------------------------------

    def solve(
        self, comps: Sequence[Component], hand: Sequence[int], *, whole_hand: bool = False
    ) -> list[Reading] | None:
        """The arrangement meeting ``comps`` with least leftover penalty, or None."""
        cnt = [0] * NUM_FACES
        for c in hand:
            cnt[c] += 1
        val = self.values
        total = sum(val[c] for c in hand)
        ncards = len(hand)
        need = sum(c.size for c in comps)
        if need > ncards:
            return None
        cr = self.crules
        exact = cr.sizes == "exact" and not whole_hand
        extra = cr.count == "at_least"
        best: list[object] = [-1, None]  # used value, chosen list
        chosen: list[Cand] = []
        remaining = [ncards]
        ncomp = len(comps)

        def compatible(cand: Cand) -> bool:
            kind = cand[1]
            for other in chosen:
                if kind == "run" and other[1] == "run" and other[3] == cand[3]:
                    if cr.one_run_per_suit:
                        return False
                    if cr.not_contiguous:
                        a_lo, a_hi = cand[4], cand[4] + len(cand[5]) - 1
                        b_lo, b_hi = other[4], other[4] + len(other[5]) - 1
                        if a_hi + 1 == b_lo or b_hi + 1 == a_lo:
                            return False
                elif kind == "set" and other[1] == "set" and cr.distinct_set_ranks:
                    if other[2] == cand[2]:
                        return False
            return True

        def record(used: int) -> bool:
            if whole_hand and remaining[0]:
                return False
            if used > best[0]:  # type: ignore[operator]
                best[0] = used
                best[1] = list(chosen)
            return used == total

        def bound(i: int, used: int) -> int:
            """The most value this branch could still reach."""
            if not exact or extra:
                return total
            k = sum(c.size for c in comps[i:])
            vals = sorted((val[c] for c in range(NUM_FACES) for _ in range(cnt[c])), reverse=True)
            return used + sum(vals[:k])

        def dfs(i: int, used: int, prev_key: tuple[int, ...] | None) -> bool:
            if best[1] is not None and bound(i, used) <= best[0]:  # type: ignore[operator]
                return False
            if i >= ncomp:
                if extra:
                    if record(used):
                        return True
                    return dfs_extra(used, prev_key if i > ncomp else None)
                return record(used)
            comp = comps[i]
            same_as_prev = i > 0 and comps[i - 1] == comp
            lo = comp.size
            if exact:
                hi = comp.size
            else:
                hi = remaining[0] - sum(c.size for c in comps[i + 1 :])
            if hi < lo:
                return False
            for cand in self.candidates(cnt, comp.kind, lo, hi):
                if same_as_prev and prev_key is not None and cand[0] < prev_key:
                    continue
                if not compatible(cand):
                    continue
                cards = cand[5]
                for c in cards:
                    cnt[c] -= 1
                remaining[0] -= len(cards)
                chosen.append(cand)
                done = dfs(i + 1, used + cand[6], cand[0])
                chosen.pop()
                remaining[0] += len(cards)
                for c in cards:
                    cnt[c] += 1
                if done:
                    return True
            return False

        def dfs_extra(used: int, prev_key: tuple[int, ...] | None) -> bool:
            if remaining[0] < cr.extra_min:
                return False
            for cand in self.candidates(cnt, "meld", cr.extra_min, remaining[0]):
                if prev_key is not None and cand[0] < prev_key:
                    continue
                cards = cand[5]
                for c in cards:
                    cnt[c] -= 1
                remaining[0] -= len(cards)
                chosen.append(cand)
                ok = record(used + cand[6]) or dfs_extra(used + cand[6], cand[0])
                chosen.pop()
                remaining[0] += len(cards)
                for c in cards:
                    cnt[c] += 1
                if ok:
                    return True
            return False

        dfs(0, 0, None)
        if best[1] is None:
            return None
        out = []
        for _key, kind, rank, suit, lo, cards, _v in best[1]:  # type: ignore[attr-defined]
            out.append(Reading(kind, tuple(CARDS[c] for c in cards), rank=rank, suit=suit, lo=lo))
        return out

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

        def fits(rd: Reading, comp: Component | None) -> bool:
            size = len(rd.cards)
            if comp is None:  # an extra meld beyond the contract
                return rd.kind in ("set", "run") and size >= cr.extra_min
            if comp.kind == "meld":
                if rd.kind not in ("set", "run"):
                    return False
            elif rd.kind != comp.kind:
                return False
            return size == comp.size if exact else size >= comp.size

        slots: list[Component | None] = list(comps) + [None] * (n - k)
        picked: list[Reading] = []
        used_slot = [False] * n

        def global_ok() -> bool:
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

        def go(i: int) -> bool:
            if i == n:
                return global_ok()
            for rd in options[i]:
                for s in range(n):
                    if used_slot[s] or not fits(rd, slots[s]):
                        continue
                    used_slot[s] = True
                    picked.append(rd)
                    if go(i + 1):
                        return True
                    picked.pop()
                    used_slot[s] = False
            return False

        return list(picked) if go(0) else None
