"""An exact branch-and-bound reference for Contract Rummy's contract search.

The question ``Variant.find_contract`` answers for the ``contract`` ruleset: does this hand
meet deal ``round_no``'s contract, and which arrangement leaves the least penalty in hand?
Written here from RULES.md (§1, §2 and its clarifications, §4.1, §4.6), the ruleset's data
file and the solver's docstrings, not from the solver's code (it imports only the card codes):

* contracts: 1 two sets · 2 a set and a run · 3 two runs · 4 three sets · 5 two sets and a
  run · 6 a set and two runs · 7 three runs; a set is 3 cards of one rank, a run 4 cards of
  one suit in sequence;
* deals 1-6: exactly the contract's melds, each exactly its minimum size ("you can only meld
  the minimum number of cards required");  deal 7: the whole hand at once, three runs that
  may be longer than 4 (and nothing left over, else not met);
* two decks (four players): identical cards may sit in one set; sets have no upper bound;
* ace low or high, never wrapping (run positions 1..14, A..K..A needs both aces);
* wild cards: jokers, and 2s with the house rule ``twos_wild``; any number of wilds in a meld,
  but at least one natural card; a 2 in a set of 2s, or in its own suit at its own place in a
  run, stands for itself and is a natural card (it may be natural in one meld and wild in
  another);
* two runs of the same suit in one contract may overlap or have a gap, but may not be
  contiguous (one's top position just below the other's bottom);
* values: A 15, 2-9 their pips, T J Q K 10, joker 15 (a wild 2 still counts 2).

The search: a candidate meld is its natural cards plus a number of wild *slots* (wild cards
are interchangeable for meeting the contract; the slots of a whole arrangement are filled at
the end with the most valuable wild cards no meld uses as a natural card, which is what the
least leftover asks).  Melds are chosen one contract component at a time (identical components
in a fixed candidate order, so no arrangement is tried twice); a branch stops when its
optimistic bound — the melded value so far plus the most valuable cards left, as many as the
remaining melds and owed slots hold — cannot beat the best arrangement found; a state (remaining
card counts, component, slots owed, runs chosen) already reached with at least as much value is not searched
again.  Meant to be plainly right and reasonably quick, not tuned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

JOKER = 52
TWOS = (1, 14, 27, 40)  # face codes: suit * 13 + rank - 1
# RULES.md §4.1, `contract` row: (kind, size) per component, deal by deal
CONTRACTS: dict[int, tuple[tuple[str, int], ...]] = {
    1: (("set", 3), ("set", 3)),
    2: (("set", 3), ("run", 4)),
    3: (("run", 4), ("run", 4)),
    4: (("set", 3), ("set", 3), ("set", 3)),
    5: (("set", 3), ("set", 3), ("run", 4)),
    6: (("set", 3), ("run", 4), ("run", 4)),
    7: (("run", 4), ("run", 4), ("run", 4)),
}
WHOLE_HAND = frozenset({7})
# RULES.md §4.6, `contract`: A 15, 2-9 pips, T-K 10, joker 15
VALUES = [(15 if r == 1 else r if r <= 9 else 10) for _ in range(4) for r in range(1, 14)] + [15]


@dataclass(frozen=True, slots=True)
class Cand:
    """A candidate meld: natural cards (face, copies), wild slots, and what the search needs."""

    take: tuple[tuple[int, int], ...]
    slots: int
    nat_value: int
    wild_nat: int  # wild-capable cards among the naturals (2s standing for themselves)
    kind: str
    rank: int  # sets
    suit: int  # runs
    lo: int  # runs: first position (1 = low ace .. 14 = high ace)
    hi: int


class ContractBnB:
    """The reference for the ``contract`` ruleset with four players (two decks)."""

    def __init__(self, twos_wild: bool = False):
        self.twos_wild = twos_wild
        self.wild_faces = (JOKER, *TWOS) if twos_wild else (JOKER,)
        self.is_wild = [f in self.wild_faces for f in range(53)]

    # -- candidates ------------------------------------------------------------------------

    def _sets(self, cnt: list[int], lo: int, hi: int, wilds: int) -> list[Cand]:
        out = []
        for r in range(1, 14):
            faces = [s * 13 + r - 1 for s in range(4) if cnt[s * 13 + r - 1]]

            def pick(i: int, chosen: list[tuple[int, int]], r: int = r, faces: list[int] = faces) -> None:
                if i == len(faces):
                    a = sum(k for _, k in chosen)
                    if a == 0:  # at least one natural card
                        return
                    wn = sum(k for f, k in chosen if self.is_wild[f])
                    for b in range(max(0, lo - a), min(hi - a, wilds - wn) + 1):
                        out.append(Cand(tuple(chosen), b, sum(VALUES[f] * k for f, k in chosen), wn,
                                        "set", r, -1, 0, 0))
                    return
                f = faces[i]
                for k in range(cnt[f] + 1):
                    pick(i + 1, chosen + [(f, k)] if k else chosen)

            pick(0, [])
        return out

    def _runs(self, cnt: list[int], lo_len: int, hi_len: int, wilds: int) -> list[Cand]:
        out = []
        for s in range(4):
            for length in range(lo_len, min(hi_len, 14) + 1):
                for lo in range(1, 16 - length):  # ace low or high, never wrapping
                    hi = lo + length - 1
                    need: dict[int, int] = {}
                    for p in range(lo, hi + 1):
                        f = s * 13 + (p - 1) % 13
                        need[f] = need.get(f, 0) + 1
                    faces = [(f, min(n, cnt[f])) for f, n in need.items() if cnt[f]]

                    def pick(i: int, chosen: list[tuple[int, int]], s: int = s, lo: int = lo, hi: int = hi,
                             length: int = length, faces: list[tuple[int, int]] = faces) -> None:
                        if i == len(faces):
                            a = sum(k for _, k in chosen)
                            wn = sum(k for f, k in chosen if self.is_wild[f])
                            if a and length - a <= wilds - wn:
                                out.append(Cand(tuple(chosen), length - a,
                                                sum(VALUES[f] * k for f, k in chosen), wn,
                                                "run", 0, s, lo, hi))
                            return
                        f, most = faces[i]
                        for k in range(most + 1):
                            pick(i + 1, chosen + [(f, k)] if k else chosen)

                    pick(0, [])
        return out

    # -- the search ------------------------------------------------------------------------

    def solve(self, round_no: int, hand: Sequence[int]) -> tuple[int, list[list[int]]] | None:
        """(least leftover penalty, the melds as face lists) or None when the contract
        cannot be met."""
        comps = CONTRACTS[round_no]
        whole = round_no in WHOLE_HAND
        cnt = [0] * 53
        for c in hand:
            cnt[int(c)] += 1
        n = len(hand)
        total = sum(VALUES[f] * cnt[f] for f in range(53))
        need = sum(size for _, size in comps)
        if need > n:
            return None
        wild_faces = self.wild_faces
        wilds = sum(cnt[f] for f in wild_faces)
        maxwild = max((VALUES[f] for f in wild_faces if cnt[f]), default=0)

        lists: dict[tuple[str, int], list[Cand]] = {}
        for comp in set(comps):
            kind, size = comp
            hi = n - (need - size) if whole else size
            got = (self._sets if kind == "set" else self._runs)(cnt, size, hi, wilds)
            got.sort(key=lambda c: -(c.nat_value + c.slots * maxwild))
            lists[comp] = got
        if any(not lst for lst in lists.values()):
            return None
        order = sorted(comps, key=lambda c: (len(lists[c]), c))
        cand_lists = [lists[c] for c in order]
        same_prev = [i > 0 and order[i] == order[i - 1] for i in range(len(order))]
        sizes_left = [0] * (len(order) + 1)
        pot_left = [0] * (len(order) + 1)
        for i in range(len(order) - 1, -1, -1):
            sizes_left[i] = sizes_left[i + 1] + order[i][1]
            best_c = cand_lists[i][0]
            pot_left[i] = pot_left[i + 1] + best_c.nat_value + best_c.slots * maxwild

        # the cards left by value (for the optimistic bound), and a running key of the counts
        by_value = [0] * 16
        for f in range(53):
            by_value[VALUES[f]] += cnt[f]
        key = [sum(cnt[f] << (3 * f) for f in range(53))]  # counts stay below 8
        state = [wilds]  # wild-capable cards left
        seen: dict[tuple[object, ...], int] = {}
        best = [total - 1 if whole else -1]  # the most melded value found (whole hand: all or nothing)
        best_pick: list[list[Cand] | None] = [None]
        chosen: list[Cand] = []

        def fill(slots: int) -> int:
            """The value of the ``slots`` most valuable wild cards left."""
            vals = sorted((VALUES[f] for f in wild_faces for _ in range(cnt[f])), reverse=True)
            return sum(vals[:slots])

        def top(m: int) -> int:
            """The value of the ``m`` most valuable cards left."""
            s = 0
            for v in range(15, 1, -1):
                k = by_value[v]
                if k >= m:
                    return s + m * v
                s += k * v
                m -= k
            return s

        def take(c: Cand, sign: int) -> None:
            for f, k in c.take:
                cnt[f] -= sign * k
                by_value[VALUES[f]] -= sign * k
                key[0] -= sign * (k << (3 * f))
            state[0] -= sign * c.wild_nat

        def compatible(c: Cand) -> bool:
            if c.kind != "run":
                return True
            for o in chosen:
                if o.kind == "run" and o.suit == c.suit and (o.hi + 1 == c.lo or c.hi + 1 == o.lo):
                    return False
            return True

        def dfs(i: int, start: int, used: int, owed: int) -> bool:
            """True once the best possible (nothing left over) is found."""
            if i == len(order):
                if whole and (state[0] != owed or sum(by_value) != owed):
                    return False  # the whole hand: only the wilds filling slots may be left
                got = used + fill(owed)
                if got > best[0]:
                    best[0] = got
                    best_pick[0] = list(chosen)
                return got == total
            # optimistic: the most valuable cards left fill every card still to be melded
            bound = used + (sum(VALUES[f] * cnt[f] for f in range(53)) if whole
                            else top(owed + sizes_left[i]))
            if bound <= best[0]:
                return False
            # the runs chosen belong to the state: they decide which runs may still come
            runs = tuple(sorted((c.suit, c.lo, c.hi) for c in chosen if c.kind == "run"))
            k = (i, start if same_prev[i] else 0, owed, key[0], runs)
            if seen.get(k, -1) >= used:
                return False
            seen[k] = used
            lst = cand_lists[i]
            for j in range(start if same_prev[i] else 0, len(lst)):
                c = lst[j]
                if used + owed * maxwild + c.nat_value + c.slots * maxwild + pot_left[i + 1] <= best[0]:
                    break  # sorted by that potential: nothing further does better
                if any(cnt[f] < k2 for f, k2 in c.take):
                    continue
                if state[0] - c.wild_nat < owed + c.slots or not compatible(c):
                    continue
                take(c, 1)
                chosen.append(c)
                done = dfs(i + 1, j, used + c.nat_value, owed + c.slots)
                chosen.pop()
                take(c, -1)
                if done:
                    return True
            return False

        dfs(0, 0, 0, 0)
        pick = best_pick[0]
        if pick is None:
            return None
        # the melds: naturals, then the most valuable wild cards no meld uses as natural
        left = list(cnt)
        for c in pick:
            for f, k in c.take:
                left[f] -= k
        pool = sorted((f for f in wild_faces for _ in range(left[f])), key=lambda f: -VALUES[f])
        melds = []
        for c in pick:
            melds.append([f for f, k in c.take for _ in range(k)] + [pool.pop(0) for _ in range(c.slots)])
        return total - best[0], melds


def hand_value(cards: Sequence[int]) -> int:
    return sum(VALUES[int(c)] for c in cards)
