"""The hand evaluation: what a hand is worth toward this deal's melds.

One evaluation, read by every bot that thinks (``easy`` and ``medium`` choose with it,
``hard``'s rollouts are played by ``medium`` and its cut-short rollouts are judged by it)
and by the hints, whose sentences name what it found.  It counts what the rules count:

- the contract's melds as the deal asks for them: sets and runs of the sizes of this
  deal's contract (the basic family: any set or run of the ruleset's least size);
- sets of identical copies where the pack has them (two decks: ``QS QS QD`` is a set, so
  ``QS QS`` is a pair toward one), at most four cards with one deck;
- runs one card per place, within the ruleset's ace rule;
- the contract's own rules: two sets of one rank that may not both count, one run per
  suit, two runs of a suit that may not touch;
- the wild cards held, and how many each meld may take (at most one; never more than its
  natural cards; at least one natural card);
- the cards that are out of reach — the discard pile, the table, what other players took
  — so a meld whose missing cards are all gone is worth less ("outs": the copies of the
  missing cards still unseen);
- what the next player wants (the cards it took from the pile, the cards it passed on),
  and the points a hand risks when someone is about to go out.

The core is :meth:`HandEval.plan`: the contract's best partial melds (one group of the
hand's cards per meld the contract asks for, each with what it still lacks), found by a
small search over the candidate groups, least cards short first, then the most outs.
``short`` is how many more cards the hand needs, wild cards counted where the meld may take
them: the number a discard must not raise.  The search is exact over its candidates, which
are not every way to split a hand: a run takes every card of its place that the hand holds
(never leaving one to a set of its rank, a wild card in its place), and a set of a rank held
four times or more splits only in halves where wilds are limited.  So in a few hands it
counts a card more than needed (of random hands biased toward melds, about 1 in 3,000 whose
contract the exact solver finds it calls one card short); a hand it counts short of nothing
always meets the contract, and it never counts fewer than the solver's lower bound
(``tests/test_hints.py``).

Card faces are ints here (0-51, 52 the joker), as the engine counts them.

Why one module of this size (about 790 lines, over the package's ~700): it is compiled with
mypyc as one unit (a hard bot's decision evaluates hands some hundred thousand times), and
its parts are one computation: the deal's facts, the cards seen, the candidate groups and
the plan search over them.  The sentences built from it live in :mod:`.heuristic`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..cards import NUM_FACES, format_cards
from ..melds import MeldRules, TableMeld
from ..rules.registry import Variant

RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
RANK_PLURALS = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                "tens", "jacks", "queens", "kings")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
SIZE_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
              9: "nine", 10: "ten"}
NODES = 4000  # plan search steps at most: a guard (whole games of five rulesets took 584 at most)


class Group(NamedTuple):
    """One partial meld of a plan: the hand's cards toward one meld the contract asks for."""

    kind: str  # "set" or "run"
    size: int  # the meld's size the contract asks for
    naturals: tuple[int, ...]  # the hand's natural cards in it (a set's copies repeat), in order
    wilds: tuple[int, ...]  # the hand's wild cards the plan puts in it
    short: int  # cards it still lacks
    key: int  # a set's rank (0-12); a run's suit * 32 + its first place (1: ace low)
    outs: int  # unseen cards that would shorten it

    @property
    def cards(self) -> tuple[int, ...]:
        return self.naturals + self.wilds

    def goal(self) -> str:
        """``a set of queens``, ``a run of four in hearts``, ``a pair of queens``."""
        if self.kind == "set":
            return f"a {'pair' if self.size == 2 else 'set'} of {RANK_PLURALS[self.key]}"
        return f"a run of {SIZE_WORDS.get(self.size, str(self.size))} in {SUIT_WORDS[self.key // 32]}"

    def words(self) -> str:
        """``QS QS (a pair toward a set of queens)``; ``TC TD TH (a set of tens)``."""
        cards = format_cards(self.cards)
        if not self.short:
            return f"{cards} ({self.goal()})"
        if self.kind == "set" and len(self.cards) == 2 and not self.wilds and self.size > 2:
            return f"{cards} (a pair toward {self.goal()})"
        return f"{cards} (toward {self.goal()}, {self.short} short)"


class Plan(NamedTuple):
    short: int  # cards the hand still lacks for the contract (wild cards counted)
    groups: tuple[Group, ...]  # one per meld the contract asks for (those with cards)
    outs: int  # unseen cards that would shorten some group


class Facts:
    """What does not change within a deal: the melds asked for and the rules judging
    them (one per ruleset, players and deal; see :func:`facts`)."""

    def __init__(self, v: Variant, players: int, round_no: int):
        sp = v.spec
        self.variant = v
        rules = self.rules = v.meld_rules(players, round_no)
        decks, jokers = sp.pack_for(players)
        self.values = list(v.values)
        # a natural card's mean value: the unit a meld's worth is weighed in against points
        self.unit = sum(self.values[c] for c in range(52) if not rules.is_wild(c)) / max(
            1, sum(1 for c in range(52) if not rules.is_wild(c)))
        self.wild = [rules.is_wild(c) for c in range(NUM_FACES)]
        # a wild 2 that stands for itself (its own place in a run of its suit, a set of
        # twos) is a natural card there (RULES.md 1)
        self.wild_faces = [c for c in range(NUM_FACES) if self.wild[c]]
        self.set_natural = [not self.wild[c] or (c < 52 and c % 13 == 1) for c in range(NUM_FACES)]
        self.copies = [decks] * 52 + [jokers]
        self.decks = decks
        comps = sp.contract(round_no)
        self.contract = comps
        self.free = not comps  # the basic family: any sets and runs
        # (a pair, Progressive's deal 14, is a set of two)
        kinds = [("set", 2) if c.kind == "pair" else (c.kind, c.size) for c in comps]
        order = {"run": 0, "set": 1, "meld": 2}
        self.comps: tuple[tuple[str, int], ...] = tuple(sorted(kinds, key=lambda c: (order[c[0]], c[1])))
        if self.free:
            self.set_size, self.run_size = rules.min_set, rules.min_run
        else:
            sets = [k for kind, k in self.comps if kind in ("set", "meld")]
            runs = [k for kind, k in self.comps if kind in ("run", "meld")]
            self.set_size = min(sets) if sets else 0  # 0: the contract asks for no set
            self.run_size = min(runs) if runs else 0
        self.exact = sp.contract_sizes == "exact"
        self.distinct_ranks = sp.distinct_set_ranks
        self.one_run_per_suit = sp.one_run_per_suit
        self.not_contiguous = sp.runs_not_contiguous
        self.whole_hand = round_no in sp.whole_hand_rounds
        self.set_max = rules.set_max  # 4 with one deck
        # each run size's places: (suit, first place, the faces at its places)
        self._windows: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
        # the windows holding each face, per run size
        self._windows_of: dict[int, list[list[tuple[int, ...]]]] = {}
        self._suit_windows: dict[int, list[list[tuple[int, int, tuple[int, ...]]]]] = {}

    def windows(self, k: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """Every place a run of ``k`` may take: (suit, first place, its faces)."""
        got = self._windows.get(k)
        if got is None:
            got = []
            for s in range(4):
                for lo in self.rules.run_bounds(k):
                    faces = tuple(dict.fromkeys(s * 13 + (p - 1) % 13 for p in range(lo, lo + k)))
                    got.append((s, lo, faces))
            self._windows[k] = got
        return got

    def suit_windows(self, k: int) -> list[list[tuple[int, int, tuple[int, ...]]]]:
        """:meth:`windows` by suit, each as (its ranks as a bit mask, first place, faces)."""
        got = self._suit_windows.get(k)
        if got is None:
            got = [[], [], [], []]
            for s, lo, faces in self.windows(k):
                mask = 0
                for x in faces:
                    mask |= 1 << (x % 13)
                got[s].append((mask, s * 32 + lo, faces))
            self._suit_windows[k] = got
        return got

    def windows_of(self, k: int) -> list[list[tuple[int, ...]]]:
        got = self._windows_of.get(k)
        if got is None:
            got = [[] for _ in range(52)]
            for _s, _lo, faces in self.windows(k):
                for x in faces:
                    got[x].append(faces)
            self._windows_of[k] = got
        return got

    def wild_room(self, naturals: int, short: int) -> int:
        """How many of a meld's ``short`` missing cards wild cards may fill, given its
        ``naturals``."""
        rules = self.rules
        if naturals == 0 and rules.natural_required:
            return 0
        lim = rules.wild_limit
        if lim == "unlimited":
            return short
        if lim == "at_most_one":
            return min(1, short)
        return min(short, naturals)  # not more wilds than naturals


_FACTS: dict[tuple[int, int, int], Facts] = {}


def facts(v: Variant, players: int, round_no: int) -> Facts:
    """The deal's :class:`Facts` (kept per ruleset object, players and deal)."""
    key = (id(v), players, round_no)
    got = _FACTS.get(key)
    if got is None or got.variant is not v:
        if len(_FACTS) >= 512:
            _FACTS.clear()
        got = _FACTS[key] = Facts(v, players, round_no)
    return got


class Table(NamedTuple):
    """What a seat has seen of the deal, beyond its hand: read off a view or a game."""

    dead: Sequence[int]  # per face: copies out of reach (the pile, the table, other hands' known cards)
    wanted: Sequence[int]  # per face: how much the next player wants it (its known cards' partners)


def seen_cards(pile: Iterable[int], melds: Iterable[TableMeld | Sequence[int]],
               known: Sequence[Sequence[int]], seat: int, players: int, log: Sequence[object] = (),
               rules: MeldRules | None = None) -> Table:
    """The :class:`Table` from the discard pile, the table's melds, the cards known to be
    in each hand and the deal's log (the next player's passes: a card it passed on is one
    it does not want)."""
    dead = [0] * NUM_FACES
    for c in pile:
        dead[c] += 1
    for m in melds:
        for c in (m.cards if isinstance(m, TableMeld) else m):
            dead[c] += 1
    wanted = [0] * NUM_FACES
    nxt = (seat + 1) % players
    for s, cards in enumerate(known):
        if s == seat:
            continue
        for c in cards:
            dead[c] += 1
            if s == nxt and c < 52:
                r, base = c % 13, c - c % 13
                for o in range(r, 52, 13):  # its rank: toward a set
                    wanted[o] += 1
                for d in (-2, -1, 1, 2):  # its suit, near: toward a run
                    if 0 <= r + d < 13:
                        wanted[base + r + d] += 1
    if log:
        from ..cards import parse_card
        nxt_seat = nxt
        seen = 0
        for e in reversed(log):  # the last laps only
            seen += 1
            if seen > 6 * players:
                break
            if isinstance(e, dict) and e.get("verb") == "decline" and e.get("seat") == nxt_seat:
                c = parse_card(e["card"])
                if c < 52:
                    for o in range(c % 13, 52, 13):
                        if wanted[o] > 0:
                            wanted[o] -= 1
    return Table(dead, wanted)


NO_TABLE = Table([0] * NUM_FACES, [0] * NUM_FACES)


# a picked group while searching: (is set, size, naturals, short, key, outs)
Picked = tuple[bool, int, tuple[int, ...], int, int, int]
# a candidate group: (least short, -outs, is set, key, the faces of a run's places)
Cand = tuple[int, int, bool, int, tuple[int, ...]]


class HandEval:
    """One hand, evaluated toward the deal's melds (see the module docstring).  Cheap to
    build; the plan and each card's worth are computed when first asked."""

    def __init__(self, f: Facts, hand: Sequence[int], table: Table = NO_TABLE):
        self.f = f
        self.hand = [int(c) for c in hand]
        self.table = table
        cnt = [0] * NUM_FACES
        wild = f.wild
        nwild = 0
        for c in self.hand:
            cnt[c] += 1
            if wild[c]:
                nwild += 1
        self.cnt = cnt
        self.nwild = nwild
        dead = table.dead
        copies = f.copies
        live = [0] * NUM_FACES
        by_rank = [0] * 13
        live_rank = [0] * 13
        set_natural = f.set_natural
        for c in range(52):
            if not set_natural[c]:
                continue
            n = cnt[c]
            x = copies[c] - n - dead[c]
            if x > 0:
                live[c] = x
                live_rank[c % 13] += x
            if n:
                by_rank[c % 13] += n
        self.live = live  # per face: copies neither in this hand nor seen anywhere else
        self.live_rank = live_rank
        self.by_rank = by_rank
        self._plan: Plan | None = None
        self._faces = [c for c in range(52) if cnt[c] and not wild[c]]  # the natural faces held
        self._nat_wild = 0  # wild cards the picked groups hold as natural cards (a 2 as itself)
        self._cnt = cnt
        self._spare: set[int] = set()  # faces some best plan leaves a copy of unused
        self._spare_wild = False  # whether some best plan leaves a wild card unused
        self._without: dict[int, int] = {}
        self._least = -1  # the number short, once found without the plan
        self._ties = True
        self._cands: list[list[Cand]] | None = None
        self._after: list[list[int]] = []
        self._set_order: list[list[int]] = []
        # the search's state
        self._picked: list[Picked | None] = []
        self._best: list[Picked | None] = []
        self._best_short = 0
        self._best_outs = 0
        self._floor = -1
        self._nwild = 0
        self._nodes = 0
        self._stop = False

    # -- the plan

    @property
    def plan(self) -> Plan:
        """The contract's best partial melds (see the module docstring)."""
        got = self._plan
        if got is None:
            got = self._plan = self._make_plan()
        return got

    @property
    def short(self) -> int:
        """How many more cards the hand needs for the contract (0 in the basic family)."""
        if self._plan is not None:
            return self._plan.short
        got = self._least
        if got < 0:
            if not self.f.comps:
                got = 0
            else:
                self._prepare()
                self._search(self.cnt, self.nwild, -1, False)
                got = self._best_short
            self._least = got
        return got

    def reaches(self, floor: int) -> bool:
        """Whether the hand lacks at most ``floor`` cards (a search that stops at the first
        plan that does)."""
        if not self.f.comps:
            return True
        if self._plan is not None or self._least >= 0:
            return self.short <= floor
        if floor < 0:
            return False
        self._prepare()
        self._search(self.cnt, self.nwild, floor, False)
        return self._best_short <= floor

    def short_without(self, c: int) -> int:
        """``short`` for the hand less one ``c``: the plan's, or one more.  Found with the
        plan: some best plan leaves a copy of ``c`` (or a wild card) unused, or none does."""
        if not self.f.comps:
            return 0
        plan = self.plan
        if self.f.wild[c] and self._spare_wild:
            return plan.short
        if c in self._spare:
            return plan.short
        f = self.f
        for g in plan.groups:
            if f.wild[c] or (g.wilds and c in g.naturals and f.wild_room(
                    len(g.naturals) - 1, g.short + len(g.wilds) + 1) < len(g.wilds)):
                # a wild card the plan needs, or a card whose group could then hold fewer
                # wilds (at least one natural card; no more wilds than naturals): count again
                got = self._without.get(c)
                if got is None:
                    rest = list(self.hand)
                    rest.remove(c)
                    got = self._without[c] = HandEval(self.f, rest, self.table).short
                return got
        return plan.short + 1

    def short_with(self, c: int) -> int:
        """``short`` for the hand with ``c`` added."""
        if not self.f.comps:
            return 0
        return HandEval(self.f, self.hand + [c], self.table).short

    def _make_plan(self) -> Plan:
        f = self.f
        comps = f.comps
        if not comps:
            return Plan(0, (), 0)
        self._prepare()
        self._search(self.cnt, self.nwild, -1, True)
        wild = f.wild
        left = list(self.cnt)
        picked = [p for p in self._best if p is not None]
        for p in picked:
            for c in p[2]:
                left[c] -= 1
        wilds = []
        for c in f.wild_faces:
            wilds.extend([c] * left[c])
        # the wild cards go first to the groups closest to done
        groups = []
        for p in sorted(picked, key=lambda p: p[3]):
            is_set, k, nat, short, key, outs = p
            if is_set and not f.exact:  # a larger set counts: its rank's other cards too
                more = []
                for c in range(key, 52, 13):
                    if f.set_natural[c] and not wild[c]:
                        more.extend([c] * left[c])
                        left[c] = 0
                nat = tuple(sorted(nat + tuple(more)))
            w = min(len(wilds), f.wild_room(len(p[2]), short))
            groups.append(Group("set" if is_set else "run", k, nat, tuple(wilds[:w]), short - w, key, outs))
            wilds = wilds[w:]
        groups.sort(key=lambda g: (g.kind != "set", g.key))
        return Plan(self._best_short, tuple(groups), self._best_outs)

    def _prepare(self) -> None:
        """The candidate groups of each component, from the whole hand (cards taken out
        later only make a candidate lack more: its least stays a bound)."""
        if self._cands is not None:
            return
        comps = self.f.comps
        by_kind: dict[tuple[str, int], list[Cand]] = {}
        cands = []
        for kind, k in comps:
            got = by_kind.get((kind, k))
            if got is None:
                got = by_kind[(kind, k)] = self._candidates(kind, k)
            cands.append(got)
        # bounds: after component j takes candidate i, the least the components after it
        # can lack: those of j's block of identical components (from candidate i on: a
        # candidate taken again lacks at least its size less its faces held twice) and
        # the whole least of every block after
        n = len(comps)
        self._after = after = [[0] * 0 for _ in range(n)]
        later = 0
        j = n - 1
        while j >= 0:
            first = j
            while first > 0 and comps[first - 1] == comps[j]:
                first -= 1
            lst = cands[j]
            k = comps[j][1]
            size = j - first + 1
            if size == 1:
                after[j] = [later] * (len(lst) + 1)
                later += lst[0][0] if lst else k
                j = first - 1
                continue
            again = [self._again(c, k) for c in lst]
            # smallest[i]: the ``size`` smallest lacks among candidates i.. (and again)
            smallest: list[list[int]] = [[] for _ in range(len(lst) + 1)]
            for i in range(len(lst) - 1, -1, -1):
                smallest[i] = sorted(smallest[i + 1] + [lst[i][0]] + again[i])[:size]
            for jj in range(first, j + 1):
                m = j - jj  # identical components after jj
                row = []
                for i in range(len(lst) + 1):
                    vals = smallest[i][:m]
                    row.append(sum(vals) + k * (m - len(vals)) + later)
                after[jj] = row
            vals = smallest[0]
            later += sum(vals) + k * (size - len(vals))
            j = first - 1
        self._cands = cands
        # the order a set takes its rank's cards in: where runs count too, the cards with
        # the fewest of their suit near them first (leaving run pieces to the runs)
        cnt = self.cnt
        order = []
        runs = self.f.run_size > 0
        by_rank = self.by_rank
        for r in range(13):
            faces = [r, r + 13, r + 26, r + 39]
            if runs and by_rank[r] > 1:
                near = []
                for c in faces:
                    n = 0
                    if cnt[c]:
                        lo, hi = max(0, r - 2), min(12, r + 2)
                        base = c - r
                        for x in range(base + lo, base + hi + 1):
                            n += cnt[x]
                    near.append((n, c))
                near.sort()
                faces = [c for _, c in near]
            order.append(faces)
        self._set_order = order

    def _candidates(self, kind: str, k: int) -> list[Cand]:
        f = self.f
        cnt = self.cnt
        lst: list[Cand] = []
        if kind != "run":
            by_rank = self.by_rank
            split = f.rules.wild_limit != "unlimited" and sum(1 for c in f.comps if c[0] != "run") > 1
            for r in range(13):
                n = by_rank[r]
                if n:
                    lst.append((k - n if n < k else 0, -self.live_rank[r], True, r, ()))
                    if split and 4 <= n < 2 * k:
                        # where wilds are limited, a rank held four times or more may
                        # start two sets: this one takes half
                        half = (n + 1) // 2
                        lst.append((k - half, -self.live_rank[r], True, r, (half,)))
        if kind != "set":
            # one window per set of cards held (the one with the most outs): a run's
            # cards fit several windows, which differ only in the cards they wait for
            held: dict[tuple[int, ...], int] = {}
            for s, windows in enumerate(f.suit_windows(k)):
                mask = 0
                for r in range(13):
                    if cnt[s * 13 + r]:
                        mask |= 1 << r
                if not mask:
                    continue
                for wmask, key, faces in windows:
                    if wmask & mask:
                        self._window(lst, held, k, key, faces)
        lst.sort()
        return lst

    def _window(self, lst: list[Cand], held: dict[tuple[int, ...], int], k: int, key: int,
                faces: tuple[int, ...]) -> None:
        """The run candidate of one window, unless one holding the same cards is listed
        (the one with the most outs stays; where touching runs may not both count, the
        lowest and the highest windows both stay)."""
        cnt = self.cnt
        live = self.live
        got = []
        outs = 0
        for x in faces:
            if cnt[x]:
                got.append(x)
            else:
                outs += live[x]
        if not got:
            return
        cards = tuple(got)
        contiguity = self.f.not_contiguous
        if contiguity and cards in held:
            cards = cards + (-1,)
        at = held.get(cards)
        cand: Cand = (k - len(got), -outs, False, key, faces)
        if at is None:
            held[cards] = len(lst)
            lst.append(cand)
        elif contiguity or cand < lst[at]:
            lst[at] = cand

    def _again(self, c: Cand, k: int) -> list[int]:
        """What a candidate taken again and again (copies) would lack each further time."""
        out: list[int] = []
        if c[2]:
            n = self.by_rank[c[3]] - k
            while n > 0:
                out.append(max(0, k - n))
                n -= k
            return out
        cnt = self.cnt
        u = 2
        while True:
            have = 0
            for x in c[4]:
                if cnt[x] >= u:
                    have += 1
            if not have:
                return out
            out.append(k - have)
            u += 1

    def _search(self, cnt: list[int], nwild: int, floor: int, ties: bool) -> None:
        """The best plan for ``cnt`` and ``nwild`` wild cards (fewest short, then the most
        outs) into ``_best``; ``floor`` >= 0: stop at any plan lacking at most that many.
        ``ties``: every best plan is visited (for the most outs, and what the best plans
        leave spare); else only the number short is wanted."""
        n = len(self.f.comps)
        self._picked = []
        self._best = [None] * n
        self._ties = ties
        self._best_short = floor + 1 if floor >= 0 else 10**9
        self._best_outs = -1
        self._floor = floor
        self._nwild = nwild
        self._nodes = 0
        self._stop = False
        self._cnt = cnt
        self._spare = set()
        self._spare_wild = False
        self._dfs(cnt, 0, 0, 0)

    def _leaf(self) -> None:
        f = self.f
        comps = f.comps
        short = room = outs = 0
        j = 0
        for p in self._picked:
            if p is None:
                k = comps[j][1]
                short += k
                room += f.wild_room(0, k)
            else:
                short += p[3]
                room += f.wild_room(len(p[2]), p[3])
                if p[3]:
                    outs += p[5]
            j += 1
        nwild = 0
        cnt = self._cnt
        for c in f.wild_faces:
            nwild += cnt[c]  # the wild cards not held as natural ones
        total = short - min(nwild, room)
        if not self._ties:
            if total < self._best_short:
                self._best_short = total
                if total <= self._floor:
                    self._stop = True
            return
        if total > self._best_short:
            return
        if total < self._best_short:
            self._best_short = total
            self._best_outs = -1
            self._spare = set()
            self._spare_wild = False
            if total <= self._floor:
                self._stop = True
        if outs > self._best_outs:
            self._best_outs = outs
            self._best = list(self._picked)
        # what a best plan leaves unused: a copy still in ``cnt``, a set's card where
        # another of its rank is left, a wild card beyond the room for them
        spare = self._spare
        for c in self._faces:
            if cnt[c]:
                spare.add(c)
        for p in self._picked:
            if p is not None and p[0]:
                r = p[4]
                for x in range(r, 52, 13):
                    if cnt[x] and not f.wild[x]:
                        spare.update(p[2])
                        break
        if room < nwild:
            # a wild card left over: it stands in for a card taken from a group that
            # would then have room for one more wild
            self._spare_wild = True
            for p in self._picked:
                if p is not None and f.wild_room(len(p[2]) - 1, p[3] + 1) > f.wild_room(len(p[2]), p[3]):
                    spare.update(p[2])

    def _dfs(self, cnt: list[int], j: int, start: int, short: int) -> None:
        self._nodes += 1
        comps = self.f.comps
        if j == len(comps):
            self._leaf()
            return
        k = comps[j][1]
        assert self._cands is not None
        lst = self._cands[j]
        i0 = start if j > 0 and comps[j - 1] == comps[j] else 0
        # a branch stops when even its best case cannot beat the best plan (ties go on,
        # for the outs, unless only the number short is wanted)
        bar = self._best_short - (not self._ties)
        after = self._after[j]
        nwild = self._nwild
        set_natural = self.f.set_natural
        for i in range(i0, len(lst)):
            if short + lst[i][0] + after[i] - nwild > bar or self._nodes > NODES:
                break  # least short first: none further can do better
            _least, negouts, is_set, key, faces = lst[i]
            took: list[int] = []
            if is_set:
                want = faces[0] if faces else k
                for c in self._set_order[key]:
                    if not set_natural[c]:
                        continue
                    while cnt[c] and len(took) < want:
                        cnt[c] -= 1
                        took.append(c)
                outs = self.live_rank[key]
            else:
                for x in faces:
                    if cnt[x]:
                        cnt[x] -= 1
                        took.append(x)
                outs = -negouts
            if took:
                p: Picked = (is_set, k, tuple(took), k - len(took) if len(took) < k else 0, key, outs)
                if self._allowed(p):
                    self._picked.append(p)
                    self._dfs(cnt, j + 1, i, short + p[3])
                    self._picked.pop()
                for c in took:
                    cnt[c] += 1
                if self._stop:
                    return
            bar = self._best_short - (not self._ties)
        # this meld from nothing yet (and so the identical ones after it)
        if short + k + after[len(lst)] - nwild <= bar:
            self._picked.append(None)
            self._dfs(cnt, j + 1, len(lst), short + k)
            self._picked.pop()

    def _allowed(self, g: Picked) -> bool:
        """Whether ``g`` may count beside the groups picked before it in one contract: two
        sets of a rank where they may not both count, two runs of a suit where a player
        may meld only one, two runs of a suit that touch where they may not."""
        f = self.f
        if g[0]:
            if not f.distinct_ranks:
                return True
            for o in self._picked:
                if o is not None and o[0] and o[4] == g[4]:
                    return False
            return True
        if not (f.one_run_per_suit or f.not_contiguous):
            return True
        suit, lo, k = g[4] // 32, g[4] % 32, g[1]
        for o in self._picked:
            if o is None or o[0] or o[4] // 32 != suit:
                continue
            if f.one_run_per_suit:
                return False
            olo = o[4] % 32
            if lo == olo + o[1] or olo == lo + k:
                return False
        return True

    # -- each card's worth

    def prospect(self, c: int) -> tuple[int, int]:
        """How close ``c`` is to a meld of a kind this deal wants, beyond the plan: the
        fewest cards its best partial meld in the hand lacks, and that meld's outs.
        (0, outs) for a card of a finished meld; a wild card is (-1, 0)."""
        f = self.f
        if f.wild[c]:
            return (-1, 0)
        best_short, best_outs = 99, 0
        r = c % 13
        if f.set_size:
            n = self.by_rank[r]
            if f.set_max is None or n <= f.set_max:
                best_short, best_outs = max(0, f.set_size - n), self.live_rank[r]
        k = f.run_size
        if k:
            cnt = self.cnt
            wild = f.wild
            live = self.live
            for faces in f.windows_of(k)[c]:
                have = 0
                outs = 0
                for x in faces:
                    if cnt[x] and not wild[x]:
                        have += 1
                    else:
                        outs += live[x]
                if k - have < best_short or (k - have == best_short and outs > best_outs):
                    best_short, best_outs = k - have, outs
        return (best_short, best_outs)

    def prospect_group(self, c: int) -> Group | None:
        """The partial meld :meth:`prospect` weighs for ``c``, as the hand's cards in it,
        if it holds another card besides ``c``; else the best that does (fewest short,
        then most outs), or None when ``c`` goes with no card (or is wild).  For the
        hint's sentence, which names one meld's cards, not every card ``c`` could go
        with (4H's partners 2H and 7H are in no run of four together)."""
        f = self.f
        if f.wild[c]:
            return None
        cnt = self.cnt
        wild = f.wild
        live = self.live
        chosen: Group | None = None  # prospect's own choice
        paired: Group | None = None  # the best holding a partner
        best: tuple[int, int] = (99, 0)
        r = c % 13
        if f.set_size:
            n = self.by_rank[r]
            if f.set_max is None or n <= f.set_max:
                cards = [o for o in range(r, 52, 13) if not wild[o] for _ in range(cnt[o])]
                short = max(0, f.set_size - n)
                chosen = Group("set", f.set_size, tuple(cards), (), short, r, self.live_rank[r])
                best = (short, self.live_rank[r])
                if n > 1:
                    paired = chosen
        k = f.run_size
        if k:
            for s, lo, faces in f.windows(k):
                if c not in faces:
                    continue
                held = tuple(x for x in faces if cnt[x] and not wild[x])
                outs = sum(live[x] for x in faces if not (cnt[x] and not wild[x]))
                g = Group("run", k, held, (), k - len(held), s * 32 + lo, outs)
                if g.short < best[0] or (g.short == best[0] and outs > best[1]):
                    chosen, best = g, (g.short, outs)
                if len(held) > 1 and (paired is None or (g.short, -outs) < (paired.short, -paired.outs)):
                    paired = g
        if chosen is not None and len(chosen.naturals) > 1:
            return chosen
        return paired

    def partners(self, c: int) -> list[int]:
        """The cards of the hand ``c`` goes with toward a meld this deal wants (its rank's
        other cards, copies included, where sets are wanted; its suit's cards within a
        run's reach where runs are)."""
        f = self.f
        out: list[int] = []
        if f.wild[c]:
            return out
        r = c % 13
        if f.set_size and self.by_rank[r] > 1:
            for o in range(r, 52, 13):
                if not f.wild[o]:
                    out.extend([o] * (self.cnt[o] - (o == c)))
        k = f.run_size
        if k:
            near: set[int] = set()
            for faces in f.windows_of(k)[c]:
                for x in faces:
                    if x != c and self.cnt[x] and not f.wild[x]:
                        near.add(x)
            out.extend(sorted(near - set(out)))
        return out


__all__ = ["Facts", "Group", "HandEval", "NO_TABLE", "Plan", "Table", "facts", "seen_cards"]
