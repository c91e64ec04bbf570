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
        self._windows: dict[int, list[int]] = {}
        # the positions (bits) where each rank may sit in a run
        self._rank_bits = [(1 << (r + 1)) | (1 << (r + 14)) for r in range(13)]

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
        wtotal = 0
        for c in wild_codes:
            wtotal += cnt[c]
        distinct = 0
        for i in range(13):
            if cnt[base + i]:
                distinct += 1
        need_nat = rules.natural_required
        if need_nat and not distinct:
            return
        mode = rules.ace_mode
        top = 26 if mode == "wrap" else 14
        pref = [0] * (top + 1)
        for p in range(1, top + 1):
            pref[p] = pref[p - 1] + (1 if cnt[base + (p - 1) % 13] else 0)
        lmax = min(lmax, distinct + wtotal + (1 if mode == "low_or_high" else 0))
        for length in range(lmin, lmax + 1):
            for lo in rules.run_bounds(length):
                hi = lo + length - 1
                have = pref[hi] - pref[lo - 1]
                if length == 14 and cnt[base] == 1:
                    have -= 1  # A..K..A needs two aces
                missing = length - have
                if missing > wtotal or (need_nat and have <= 0):
                    continue
                faces = [base + (p - 1) % 13 for p in range(lo, hi + 1)]
                present = []
                for i, f in enumerate(faces):
                    if cnt[f] and (i != 13 or cnt[f] > 1):
                        present.append(i)
                for t in range(0, min(len(present), wtotal - missing) + 1):
                    w = missing + t
                    if not rules.within_limit(w, length - w):
                        continue
                    for subst in combinations(present, t) if t else ((),):
                        nat_idx = [i for i in present if i not in subst]
                        for k in nat_idx:
                            cnt[faces[k]] -= 1
                        pool = [(c, cnt[c]) for c in wild_codes if cnt[c] > 0]
                        for k in nat_idx:
                            cnt[faces[k]] += 1
                        nat_set = set(nat_idx)
                        for wsel in _sub_multisets(pool, w):
                            it = iter(wsel)
                            cards = tuple(faces[i] if i in nat_set else next(it) for i in range(length))
                            v = 0
                            for c in cards:
                                v += val[c]
                            yield ((1, suit, lo, length) + cards, "run", 0, suit, lo, cards, v)

    def candidates(self, cnt: list[int], kind: str, lo: int, hi: int) -> Iterator[Cand]:
        if kind in ("set", "meld"):
            allwild = not self.rules.natural_required
            for r in range(1, 14):
                if allwild or cnt[r - 1] or cnt[12 + r] or cnt[25 + r] or cnt[38 + r]:
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

    # -- a quick necessary condition ---------------------------------------------------

    def feasible(self, cnt: list[int], comps: Sequence[Component]) -> bool:
        """False when ``comps`` surely cannot be met: even sharing no natural card, the
        sets and runs asked for would need more wild cards than the hand holds.  Sound:
        it never rejects a hand that can meet the contract."""
        rules = self.rules
        wild = 0
        for c in self._wild_codes:
            wild += cnt[c]
        allwild = not rules.natural_required
        need = 0
        for kind, pick in (("set", self._set_marginals), ("run", self._run_marginals)):
            sizes = [c.size for c in comps if c.kind == kind]
            if not sizes:
                continue
            k = min(sizes)
            marg = pick(cnt, k)
            if allwild:
                marg.extend([k] * len(sizes))
            if len(marg) < len(sizes):
                return False
            marg.sort()
            for i in range(len(sizes)):
                need += marg[i]
            if need > wild:
                return False
        return True

    def _set_marginals(self, cnt: list[int], k: int) -> list[int]:
        out = []
        for r in range(13):
            n = cnt[r] + cnt[13 + r] + cnt[26 + r] + cnt[39 + r]
            prev = 0
            for m in (1, 2, 3):
                if n < m:
                    break
                d = m * k - n if m * k > n else 0
                out.append(d - prev)
                prev = d
        return out

    def _run_marginals(self, cnt: list[int], k: int) -> list[int]:
        windows = self._windows.get(k)
        if windows is None:
            windows = self._windows[k] = [
                sum(1 << p for p in range(lo, lo + k)) for lo in self.rules.run_bounds(k)
            ]
        rank_bits = self._rank_bits
        out = []
        for base in (0, 13, 26, 39):
            mask = 0
            for r in range(13):
                if cnt[base + r]:
                    mask |= rank_bits[r]
            if not mask:
                continue
            best = k
            for wm in windows:
                have = (mask & wm).bit_count()
                if have and k - have < best:
                    best = k - have
                    if not best:
                        break
            if best < k:
                out.extend((best, best, best))
        return out

    # -- search ----------------------------------------------------------------------

    def solve(
        self, comps: Sequence[Component], hand: Sequence[int], *, whole_hand: bool = False
    ) -> list[Reading] | None:
        """The arrangement meeting ``comps`` with least leftover penalty, or None."""
        ncards = len(hand)
        need = 0
        for comp in comps:
            need += comp.size
        if need > ncards:
            return None
        cnt = [0] * NUM_FACES
        for c in hand:
            cnt[c] += 1
        val = self.values
        total = 0
        for c in hand:
            total += val[c]
        if not self.feasible(cnt, comps):
            return None
        cr = self.crules
        exact = cr.sizes == "exact" and not whole_hand
        extra = cr.count == "at_least"
        ncomp = len(comps)

        # every candidate meld of each component, from the whole hand, best first
        lists: dict[Component, list[tuple[Cand, tuple[tuple[int, int], ...]]]] = {}
        for comp in comps:
            if comp in lists:
                continue
            hi = comp.size if exact else ncards - (need - comp.size)
            found = []
            for cand in self.candidates(cnt, comp.kind, comp.size, hi):
                use: dict[int, int] = {}
                for c in cand[5]:
                    use[c] = use.get(c, 0) + 1
                found.append((cand, tuple(use.items())))
            if not found:
                return None
            found.sort(key=lambda x: -x[0][6])
            lists[comp] = found
        cand_lists = [lists[c] for c in comps]
        best_of = [lst[0][0][6] for lst in cand_lists]
        suffix = [0] * (ncomp + 1)
        for i in range(ncomp - 1, -1, -1):
            suffix[i] = suffix[i + 1] + best_of[i]
        same_prev = [i > 0 and comps[i - 1] == comps[i] for i in range(ncomp)]

        best_used = -1
        best_pick: list[Cand] | None = None
        chosen: list[Cand] = []
        left = [ncards]

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
            nonlocal best_used, best_pick
            if whole_hand and left[0]:
                return False
            if used > best_used:
                best_used = used
                best_pick = list(chosen)
            return used == total

        def dfs(i: int, start: int, used: int) -> bool:
            if i == ncomp:
                if record(used):
                    return True
                return extra and dfs_extra(used, None)
            if not extra and used + suffix[i] <= best_used:
                return False
            if whole_hand and used + suffix[i] < total and not extra:
                return False
            lst = cand_lists[i]
            for j in range(start if same_prev[i] else 0, len(lst)):
                cand, use = lst[j]
                if not extra and used + cand[6] + suffix[i + 1] <= best_used:
                    break  # the list is sorted by value: nothing later can do better
                ok = True
                for c, k in use:
                    if cnt[c] < k:
                        ok = False
                        break
                if not ok or not compatible(cand):
                    continue
                for c, k in use:
                    cnt[c] -= k
                left[0] -= len(cand[5])
                chosen.append(cand)
                done = dfs(i + 1, j, used + cand[6])
                chosen.pop()
                left[0] += len(cand[5])
                for c, k in use:
                    cnt[c] += k
                if done:
                    return True
            return False

        def dfs_extra(used: int, prev_key: tuple[int, ...] | None) -> bool:
            if left[0] < cr.extra_min:
                return False
            for cand in list(self.candidates(cnt, "meld", cr.extra_min, left[0])):
                if prev_key is not None and cand[0] < prev_key:
                    continue
                cards = cand[5]
                for c in cards:
                    cnt[c] -= 1
                left[0] -= len(cards)
                chosen.append(cand)
                ok = record(used + cand[6]) or dfs_extra(used + cand[6], cand[0])
                chosen.pop()
                left[0] += len(cards)
                for c in cards:
                    cnt[c] += 1
                if ok:
                    return True
            return False

        dfs(0, 0, 0)
        if best_pick is None:
            return None
        out = []
        for _key, kind, rank, suit, lo, cards, _v in best_pick:
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
