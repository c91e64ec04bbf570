"""Contracts of runs alone, where any number of wild cards may go in a run and a run needs
no natural card (Progressive Rummy: deal 12 asks for five runs of three from 15-17 cards):
an exact dynamic programme instead of a search over run combinations.

Runs of one suit are intervals of positions; what they are worth depends only on how many
of them cover each position.  A sweep over the positions of one suit keeps the runs still
open by age (capped at the minimum length: only "long enough yet" matters), and at each
position decides how many of the oldest runs end, how many new runs start and how many of
the covering runs take a natural card there (the others a wild slot — a natural card may
be worth less than the wild that stands in for it, so fewer naturals can be better).  The
suits are then combined on (runs, wild slots), and the slots are worth the most valuable
wild cards of the hand.  Exact: every set of runs is some sweep, and every sweep is a set
of runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from .melds import MeldRules

# one run: (suit, first position, length, natural face per position or -1 for a wild slot)
Run = tuple[int, int, int, tuple[int, ...]]
State = tuple[tuple[int, ...], int]  # (ages of open runs, oldest first; aces used at position 1)
Table = dict[tuple[int, int], int]  # (runs, wild slots) -> best natural value
# how a (runs, slots) row of a state was reached: (state before, runs, slots, ended, begun, naturals)
Back = tuple[State, int, int, int, int, int]
Rows = dict[tuple[int, int], tuple[int, Back | None]]


def applies(rules: MeldRules) -> bool:
    """Whether the programme judges runs exactly as :mod:`melds` does under ``rules``."""
    return (rules.wild_limit == "unlimited" and not rules.natural_required
            and rules.ace_mode in ("low", "high", "low_or_high") and rules.ace_both_ends)


def _positions(rules: MeldRules) -> range:
    mode = rules.ace_mode
    return range(1, 14) if mode == "low" else range(2, 15) if mode == "high" else range(1, 15)


class SuitSweep:
    """The sweep over one suit: ``table()`` gives the best natural value of every (runs,
    slots); ``runs(r, w)`` the runs that reach it."""

    def __init__(self, cnt: Sequence[int], suit: int, rules: MeldRules, values: Sequence[int], *,
                 k: int, exact: bool, max_runs: int, max_slots: int, not_contiguous: bool,
                 top_wild: int) -> None:
        self.suit, self.k, self.exact = suit, k, exact
        self.max_runs, self.max_slots = max_runs, max_slots
        self.not_contiguous = not_contiguous
        self.top_wild = top_wild
        self.positions = _positions(rules)
        base = suit * 13
        self.faces = [base + (p - 1) % 13 for p in self.positions]
        wild2 = rules.twos_wild
        # wild-capable 2s are part of the wild pool, never counted as naturals here
        self.supply = [0 if (wild2 and f % 13 == 1) else cnt[f] for f in self.faces]
        self.value = [values[f] for f in self.faces]
        self.shared_ace = rules.ace_mode == "low_or_high"
        self._layers: list[dict[State, Rows]] = []

    def table(self) -> Table:
        k, exact, max_runs, max_slots = self.k, self.exact, self.max_runs, self.max_slots
        layer: dict[State, Rows] = {((), 0): {(0, 0): (0, None)}}
        self._layers = [layer]
        last = len(self.faces) - 1
        for i in range(len(self.faces)):
            nxt: dict[State, Rows] = {}
            supply, val = self.supply[i], self.value[i]
            # fewer naturals than the position could take pays only where a wild is worth more
            substitute = val < self.top_wild
            for state, rows in layer.items():
                ages, aces1 = state
                can_end = sum(1 for a in ages if a >= k)
                for e in range(can_end if exact else 0, can_end + 1):
                    rest = ages[e:]
                    grown = tuple(a + 1 if a < k else k for a in rest)
                    for b in range(0, max_runs + 1 - len(rest)):
                        if b and self.not_contiguous and e:
                            break  # a run may not start right after another of its suit ends
                        cover = len(rest) + b
                        have = max(0, supply - aces1) if (self.shared_ace and i == last) else supply
                        new_ages = grown + (1,) * b
                        top = min(have, cover)
                        for nat in range(top, -1 if substitute else top - 1, -1):
                            slots = cover - nat
                            gain = nat * val
                            key = (new_ages, nat if (self.shared_ace and i == 0) else aces1)
                            got = nxt.get(key)
                            for (r, w), (v, _) in rows.items():
                                r2, w2 = r + b, w + slots
                                if r2 > max_runs or w2 > max_slots:
                                    continue
                                if got is None:
                                    got = nxt[key] = {}  # only states some sweep reaches
                                old = got.get((r2, w2))
                                v2 = v + gain
                                if old is None or v2 > old[0]:
                                    got[(r2, w2)] = (v2, (state, r, w, e, b, nat))
            layer = nxt
            self._layers.append(layer)
        out: Table = {}
        self._ends: dict[tuple[int, int], State] = {}
        for state, rows in layer.items():
            if any(a < k for a in state[0]):
                continue  # a run too short at the end of the suit
            for rw, (v, _) in rows.items():
                if rw not in out or v > out[rw]:
                    out[rw] = v
                    self._ends[rw] = state
        return out

    def runs(self, r: int, w: int) -> list[Run]:
        """The runs of the best sweep ending with ``r`` runs and ``w`` slots."""
        state = self._ends[(r, w)]
        steps = []
        for i in range(len(self.faces), 0, -1):
            back = self._layers[i][state][(r, w)][1]
            assert back is not None
            prev, r0, w0, e, b, nat = back
            steps.append((e, b, nat))
            state, r, w = prev, r0, w0
        steps.reverse()
        open_runs: list[list[int]] = []  # [start index, then the face or -1 per position]
        done: list[list[int]] = []
        for i, (e, b, nat) in enumerate(steps):
            done.extend(open_runs[:e])
            open_runs = open_runs[e:] + [[i] for _ in range(b)]
            for j, run in enumerate(open_runs):
                run.append(self.faces[i] if j < nat else -1)
        done.extend(open_runs)
        pos = self.positions
        return [(self.suit, pos[run[0]], len(run) - 1, tuple(run[1:])) for run in done]


def best_runs(cnt: Sequence[int], rules: MeldRules, values: Sequence[int], wild_values: Sequence[int], *,
              m: int, k: int, exact: bool, not_contiguous: bool,
              one_per_suit: bool) -> tuple[int, list[Run]] | None:
    """The ``m`` runs (each of ``k`` cards, or at least ``k``) worth most — natural cards
    plus the ``wild_values`` (most valuable first) of the slots — or None."""
    pool = len(wild_values)
    fill = [0]
    for x in wild_values:
        fill.append(fill[-1] + x)
    per_suit = m if not one_per_suit else 1
    sweeps = [SuitSweep(cnt, s, rules, values, k=k, exact=exact, max_runs=per_suit, max_slots=pool,
                        not_contiguous=not_contiguous, top_wild=wild_values[0] if pool else 0)
              for s in range(4)]
    # combine the suits on (runs, slots): best natural value and each suit's share
    best: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]] = {(0, 0): (0, ())}
    for sw in sweeps:
        t = sw.table()
        nxt: dict[tuple[int, int], tuple[int, tuple[tuple[int, int], ...]]] = {}
        for (r, w), (v, parts) in best.items():
            for (r2, w2), v2 in t.items():
                rr, ww = r + r2, w + w2
                if rr > m or ww > pool:
                    continue
                old = nxt.get((rr, ww))
                if old is None or v + v2 > old[0]:
                    nxt[(rr, ww)] = (v + v2, parts + ((r2, w2),))
        best = nxt
    top: tuple[int, tuple[tuple[int, int], ...]] | None = None
    for (r, w), (v, parts) in best.items():
        if r == m and (top is None or v + fill[w] > top[0]):
            top = (v + fill[w], parts)
    if top is None:
        return None
    runs: list[Run] = []
    for sw, (r, w) in zip(sweeps, top[1], strict=True):
        if r:
            runs.extend(sw.runs(r, w))
    return top[0], runs
