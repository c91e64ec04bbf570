"""The game: state, legal actions and their application, driven by a RuleSpec.

Every operation comes as a pair: ``_check_x`` raises :class:`IllegalActionError` with a
sentence a player understands and changes nothing; ``_do_x`` applies it and logs a
public event.  ``legal_actions()`` lists what the seat to act may do now; ``apply``
accepts any legal action, listed or not (a meld can be arranged many ways).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import CARDS, Card, format_cards, make_pack, sorted_cards
from ..melds import Rank, Reading, TableMeld, face_at, reading_from_items
from ..rules.registry import Variant, get_variant
from ..rules.spec import Component, describe_contract
from ..solver import ContractRules, Solver
from .actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Cut,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Swap,
    Take,
    format_action,
    parse_action,
)
from .scoring import hand_value, number, score_round, settlement
from .validate import check_action, check_game_args, check_seat_index
from .view import Event, build_view

CUT, DRAW, MAY_I, PLAY, CALL, OVER = "cut", "draw", "may_i", "play", "call", "over"


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why, for a player."""


def _meanings(rd: Reading) -> tuple[tuple[int, int], ...]:
    """What each card of a reading stands for, as (card, face or rank) pairs, in order."""
    if rd.kind == "run":
        return tuple(sorted((int(c), int(face_at(rd.suit, rd.lo + i))) for i, c in enumerate(rd.cards)))
    return tuple(sorted((int(c), rd.rank) for c in rd.cards))


def _seat_name(s: int) -> str:
    return f"Seat {s}"


def _listed(a: Action, legal: list[Action]) -> bool:
    """Whether ``a`` is one of ``legal``, a wild's meaning included by kind: as ints, the
    rank 7 equals the card 8C, so ``==`` alone cannot tell a set's meaning from a run's."""
    if a not in legal:
        return False
    lay = a if type(a) is LayOff else a.layoff if type(a) is CallShanghai else None
    if lay is None or lay.meaning is None:
        return True
    for x in legal:
        if x == a:
            xl = x if type(x) is LayOff else x.layoff if type(x) is CallShanghai else None
            if xl is not None and type(xl.meaning) is type(lay.meaning):
                return True
    return False


class Game:
    """One match of one ruleset.  Build it with :func:`new_game`."""

    def __init__(
        self,
        variant: Variant,
        *,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        deck: Sequence[Card] | str | None = None,
        dealer: int | None = None,
        first_round: int = 1,
    ):
        if not isinstance(variant, Variant):
            raise ValueError(f"variant must be a ruleset id or a Variant, not {variant!r:.40}")
        players, seed, options, cards, dealer, first_round = check_game_args(
            players, seed, options, deck, dealer, first_round)
        base = variant
        variant = variant.with_options(options)
        spec = variant.spec
        lo, hi = spec.players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise ValueError(f"{spec.id} is for {lo}-{hi} players, not {players}")
        self.variant = variant
        self.base_variant = base
        self.spec = spec
        self.options = dict(options or {})
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.values = spec.values_table()
        self.decks, self.jokers = spec.pack_for(players)
        self.pack_size = 52 * self.decks + self.jokers
        self.stacked: list[Card] | None = None
        if cards is not None:
            rest = Counter(make_pack(*spec.pack_for(players)))
            rest.subtract(cards)
            extra = sorted(c for c, k in rest.items() if k < 0)
            if extra:
                raise ValueError(
                    f"the stacked deck has more {format_cards(extra)} than the pack for "
                    f"{players} players holds"
                )
            self.stacked = cards
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0-{players - 1}, not {dealer}")
        drawn = self.rng.randrange(players)  # drawn even when given, so replays agree
        self.first_dealer = dealer if dealer is not None else drawn
        self.dealer = self.first_dealer
        deals = spec.num_deals()
        if not isinstance(first_round, int) or first_round < 1 or (deals is not None and first_round > deals):
            raise ValueError(f"first_round must be a deal 1-{deals or '...'}, not {first_round}")
        self.first_round = first_round
        self.round_no = first_round - 1
        self.scores: list[Fraction] = [Fraction(0)] * players
        self.kitty = 0
        self.history: list[dict[str, Any]] = []
        self.actions: list[str] = []
        self.last_round: dict[str, Any] | None = None
        self.is_over = False
        self.winners: list[int] = []
        self.settlement: list[Fraction] | None = None  # Progressive: units paid and received
        self.state_id = 0
        self._legal: list[Action] | None = None
        self._contract_cache: dict[tuple[int, ...], list[Reading] | None] = {}
        self._wh_solver: Solver | None = None
        self._start_round()

    # ------------------------------------------------------------------ round set-up

    @property
    def deals(self) -> int | None:
        return self.spec.num_deals()

    def _start_round(self) -> None:
        self.round_no += 1
        n = self.n
        # how melds are judged this deal (a deal may change it: seven-hand's one-run pat)
        self.rules = self.spec.meld_rules(n, self.round_no)
        self.solver = self.variant.solver(n, self.round_no)
        self._wh_solver = None
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.discard: list[Card] = []
        self.discard_by: list[int | None] = []  # who discarded each card of the pile (None: turned up)
        self.table: list[TableMeld] = []
        self.down = [False] * n
        self.down_turn = [-1] * n
        self.played_before = [False] * n
        self.buys = [0] * n
        # cards every seat saw go into a hand (taken, bought, swapped) and not since played
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.log: list[Event] = []
        self._contract_text: tuple[tuple[Component, ...], bool, str] | None = None
        self.stock_reuses = 0
        self.turn_index = 0
        self.current = (self.dealer + 1) % n
        self.asked: int | None = None
        self.queue: list[int] = []
        self.last_taker: int | None = None
        self.call_kind: str | None = None  # "shanghai" or "rummy" while a call window is open
        self.protected = False  # the top discard was protected by a Shanghai call
        self._contract_cache.clear()
        self._reset_turn()
        self._gather_pack()
        if self.spec.cut_bonus:
            self.phase = CUT
            self.asked = (self.dealer - 1) % n
        else:
            self._deal()

    def _reset_turn(self) -> None:
        self.taken: Card | None = None
        self.melds_this_turn = 0
        self.played_this_turn = False
        self.pending: list[Card] = []
        self.skip_draw = False

    def _gather_pack(self) -> None:
        """The whole pack, shuffled (or stacked), face down as the stock."""
        if self.stacked is not None and self.round_no == self.first_round:
            # the stacked cards on top (checked in __init__), the rest shuffled beneath them
            rest = Counter(self._full_pack())
            rest.subtract(self.stacked)
            below = [c for c, k in sorted(rest.items()) for _ in range(k)]
            self.rng.shuffle(below)
            pack = list(self.stacked) + below
        else:
            pack = self._full_pack()
            self.rng.shuffle(pack)
        self.stock = pack[::-1]  # the top card is the end of the list

    def _deal(self) -> None:
        n = self.n
        size = self.spec.cards_dealt(self.round_no, n)
        for _ in range(size):
            for k in range(1, n + 1):
                self.hands[(self.dealer + k) % n].append(self.stock.pop())
        if self.spec.starter_extra_card:
            self.hands[self.current].append(self.stock.pop())
            self.skip_draw = True
        self._push_discard(self.stock.pop(), None)
        self.phase = PLAY if self.skip_draw else DRAW
        self.asked = None
        self._event(None, "deal", f"Deal {self.round_no}: {size} cards each; "
                    f"{self.discard[-1]} turned up", card=str(self.discard[-1]), dealer=self.dealer)

    def _full_pack(self) -> list[Card]:
        return make_pack(self.decks, self.jokers)

    def _push_discard(self, c: Card, seat: int | None) -> None:
        self.discard.append(c)
        self.discard_by.append(seat)

    def _pop_discard(self) -> Card:
        self.discard_by.pop()
        return self.discard.pop()

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> int:
        """The seat to act now: the seat asked in a window, else whose turn it is."""
        return self.asked if self.asked is not None else self.current

    @property
    def contract(self) -> tuple[Any, ...]:
        return self.spec.contract(self.round_no) if self.spec.contracts else ()

    def contract_text(self) -> str:
        if not self.spec.contracts:
            return "no contract"
        whole = self.whole_hand_round
        memo = self._contract_text
        if memo is None or memo[0] is not self.contract or memo[1] != whole:
            memo = self._contract_text = (self.contract, whole, describe_contract(self.contract, whole))
        return memo[2]

    @property
    def whole_hand_round(self) -> bool:
        return self.round_no in self.spec.whole_hand_rounds

    def _event(self, seat: int | None, verb: str, text: str, **data: Any) -> None:
        self.log.append(Event(seat=seat, verb=verb, text=text, **data))

    # ------------------------------------------------------------------ permissions

    def _buy_limit(self) -> int | None:
        b = self.spec.buying
        assert b is not None
        return b.limit_by_round.get(self.round_no, b.limit)

    def _eligible_buyers(self) -> list[int]:
        b = self.spec.buying
        if b is None or not self.spec.buy_allowed(self.round_no) or not self.discard or self.protected:
            return []
        lim = self._buy_limit()
        out = []
        discarder = self.discard_by[-1]  # nobody takes back its own discard
        for k in range(1, self.n):
            s = (self.current + k) % self.n
            if s == discarder:
                continue
            if lim is not None and self.buys[s] >= lim:
                continue
            if b.no_successive and s == self.last_taker:
                continue
            out.append(s)
        return out

    def _own_buy_block(self) -> str | None:
        """Why the player to draw may not buy the upcard on its own turn, or None."""
        b = self.spec.buying
        if b is None or not b.own_turn or not self.spec.buy_allowed(self.round_no):
            return f"There is no buying on your own turn in {self.spec.name}" if b is None or not b.own_turn \
                else "There is no buying in this deal"
        if self.phase != DRAW:
            return "Buy the upcard before you draw"
        if not self.discard:
            return "The discard pile is empty"
        lim = self._buy_limit()
        if lim is not None and self.buys[self.current] >= lim:
            return f"You have used all {lim} of your buys this deal"
        return None

    def _playable(self, c: Card) -> bool:
        """Whether ``c`` could be laid off on some meld on the table."""
        return any(m.layoff_meanings(c, self.rules) for m in self.table)

    def _call_options(self) -> list[Action]:
        seat = self.asked
        assert seat is not None
        top = self.discard[-1]
        out: list[Action] = []
        if self.call_kind == "shanghai":
            for i, m in enumerate(self.table):
                for mean in m.layoff_meanings(top, self.rules):
                    out.append(CallShanghai(layoff=LayOff(top, i, mean)))
        else:
            out.extend(CallRummy(c) for c in sorted(set(self.hands[seat])))
        out.append(Pass())
        return out

    def _contract_needed(self, seat: int) -> bool:
        return bool(self.spec.contracts) and not self.down[seat]

    def _layoff_block(self, seat: int) -> str | None:
        """Why ``seat`` may not lay off now, or None."""
        sp = self.spec
        if sp.contracts:
            if not self.down[seat]:
                return f"You must meet the contract — {self.contract_text()} — before laying off"
            if self.down_turn[seat] == self.turn_index and not sp.layoff_on_contract_turn:
                return "You may not lay off on the turn you meet the contract; wait for your next turn"
            return None
        if self.round_no in sp.whole_hand_meld_deals and not self.down[seat]:
            return "In this deal nobody may lay off before melding the whole hand"
        if not sp.layoff_before_own_meld and not self.down[seat]:
            return "You must lay down a meld of your own before laying off"
        return None

    def _meld_block(self, seat: int) -> str | None:
        sp = self.spec
        if sp.contracts:
            if not self.down[seat]:
                return None
            mode = sp.after_contract_melds
            if mode == "none":
                return "After the contract you may only lay off, not lay down new melds"
            if mode == "later_turns" and self.down_turn[seat] == self.turn_index:
                return "New melds after the contract wait for a later turn"
            return None
        if sp.melds_per_turn == "one" and self.melds_this_turn >= 1:
            return "You may lay down only one meld a turn"
        return None

    def _swap_block(self, seat: int) -> str | None:
        mode = self.spec.swap
        if mode == "none":
            return "Melded wild cards cannot be taken back in this game"
        if mode == "to_hand":
            return None
        if not self.down[seat]:
            return "You must meet the contract before swapping for a joker"
        if mode in ("layoff_same_turn", "new_meld_same_turn") and self.down_turn[seat] == self.turn_index:
            return "You may swap for a joker only on a turn after the one you met the contract"
        if mode == "table_same_turn":
            return self._layoff_block(seat)
        return None

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (one best arrangement per meld
        kind: :meth:`apply` also takes any other legal arrangement)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _legal_now(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[Action]:
        ph = self.phase
        if ph == OVER:
            return []
        if ph == CUT:
            return [Cut()]
        if ph == MAY_I:
            return [Buy(), Pass()]
        if ph == CALL:
            return self._call_options()
        seat = self.current
        early = self.spec.meld_before_draw
        if ph == DRAW:
            acts: list[Action] = []
            if self.discard and not self.protected:
                acts.append(Take())
            acts.append(Draw())
            if self._own_buy_block() is None:
                acts.append(Buy())
            if early:
                acts.extend(self._meld_options(seat))
                acts.extend(self._layoff_options(seat))
                acts.extend(self._swap_options(seat))
            return acts
        acts = []
        if not early:
            acts.extend(self._meld_options(seat))
            acts.extend(self._layoff_options(seat))
            acts.extend(self._swap_options(seat))
        discards = self._discard_options(seat)
        acts.extend(discards)
        if self.spec.shanghai_call and self.table:
            acts.extend(CallShanghai(discard=d.card) for d in discards
                        if isinstance(d, Discard) and self._playable(d.card))
        if not discards and not acts:
            acts.append(Draw(both=True))
        elif not discards and self.spec.no_playable_discard and self.down[seat]:
            acts.append(Draw(both=True))
        return acts

    def _best_contract(self, hand: Sequence[int]) -> list[Reading] | None:
        """The solver's best contract arrangement for ``hand``: a function of the hand
        alone (no memo of earlier questions), so one position always offers one meld."""
        key = tuple(sorted(hand))
        if key in self._contract_cache:
            return self._contract_cache[key]
        got = self.solver.solve(self.contract, hand, whole_hand=self.whole_hand_round)
        self._contract_cache[key] = got
        return got

    def _meld_options(self, seat: int) -> list[Action]:
        if self._meld_block(seat) is not None:
            return []
        hand = self.hands[seat]
        sp = self.spec
        rules = self.rules
        if self._contract_needed(seat):
            best = self._best_contract(hand)
            if best is None:
                return []
            act = Meld(tuple(rd.items(rules) for rd in best))
            return [act] if self._leaves_ok(seat, act.cards(), best) is None else []
        if not sp.contracts and self.round_no in sp.whole_hand_meld_deals and not self.down[seat]:
            return self._whole_hand_options(seat)
        out: list[Action] = []
        seen = set()
        cnt = [0] * 53
        for c in hand:
            cnt[c] += 1
        for kind, lo in (("set", rules.min_set), ("run", rules.min_run)):
            for rd in self.solver.melds_from(cnt, kind, lo, len(hand)):
                if rd.cards in seen:
                    continue
                seen.add(rd.cards)
                act = Meld((rd.items(rules),))
                if self._leaves_ok(seat, act.cards(), (rd,)) is None:
                    out.append(act)
        return out

    def _whole_hand_options(self, seat: int) -> list[Action]:
        """Wrotham deals 4-6: melds of the whole hand at once, keeping at most one card
        to discard."""
        hand = self.hands[seat]
        comps = (Component("meld", 3),)
        out: list[Action] = []
        tried = set()
        for skip in [None, *sorted(set(hand))]:
            rest = list(hand)
            if skip is not None:
                rest.remove(skip)
            key = tuple(sorted(rest))
            if key in tried or len(rest) < 3:
                continue
            tried.add(key)
            sol = self._whole_hand_solver().solve(comps, rest, whole_hand=True)
            if sol is not None:
                act = Meld(tuple(rd.items(self.rules) for rd in sol))
                if self._leaves_ok(seat, act.cards(), sol) is None:
                    out.append(act)
        return out

    def _whole_hand_solver(self) -> Solver:
        if self._wh_solver is None:
            self._wh_solver = Solver(self.rules, self.values, ContractRules(count="at_least"))
        return self._wh_solver

    def _leaves_ok(
        self, seat: int, cards: Sequence[Card], melds: Sequence[Reading] = (), onto: LayOff | None = None
    ) -> str | None:
        """Why playing ``cards`` from hand (as new ``melds``, or laid off ``onto`` a meld)
        would leave an illegal position, or None."""
        left = len(self.hands[seat]) - len(cards)
        sp = self.spec
        if left == 1 and not sp.go_out_by_discard and not sp.no_playable_discard:
            rest = Counter(self.hands[seat])
            rest.subtract(cards)
            last = next(c for c, k in rest.items() if k > 0)
            if not self._fits_after(last, melds, onto):
                return (
                    f"That would leave you only {last}, which you could neither play nor discard "
                    f"(in this game you go out only by playing every card)"
                )
        if left == 0:
            if not sp.go_out_without_discard and not self.whole_hand_round:
                return "You must keep a card to discard: in this game you go out by discarding"
            return None
        if self.whole_hand_round and self._contract_needed(seat):
            return (
                f"In this deal the contract — {self.contract_text()} — must use every card "
                f"in your hand"
            )
        if left == 1 and sp.no_discard_of_taken_card and self.taken is not None:
            rest = Counter(self.hands[seat])
            rest.subtract(cards)
            last = next(c for c, k in rest.items() if k > 0)
            if last == self.taken:
                return (
                    f"That would leave only {last}, the card you took from the discard pile, "
                    f"which you may not discard this turn"
                )
        return None

    def _fits_after(self, c: Card, melds: Sequence[Reading], onto: LayOff | None) -> bool:
        """Whether ``c`` could be laid off once ``melds`` are down or ``onto`` is done."""
        rules = self.rules
        for i, m in enumerate(self.table):
            if onto is not None and onto.meld == i:
                m = TableMeld(m.kind, list(m.cards), m.owner, m.rank, m.suit, m.lo, m.limited, m.wilds)
                m.add(onto.card, onto.meaning, rules)
            if m.layoff_meanings(c, rules):
                return True
        return any(
            TableMeld.from_reading(rd, 0, rules, self.spec.wild_limit_on_layoffs).layoff_meanings(c, rules)
            for rd in melds
        )

    def _accepts(self, m: TableMeld) -> list[Card]:
        """Natural faces ``m`` accepts now (wilds are checked separately)."""
        rules = self.rules
        if m.kind == "set":
            if rules.set_max is not None and len(m.cards) >= rules.set_max:
                return []
            return [CARDS[s * 13 + m.rank - 1] for s in range(4)]
        if m.kind != "run":
            return []
        return [face_at(m.suit, m.lo - 1), face_at(m.suit, m.hi + 1)]

    def _layoff_options(self, seat: int) -> list[Action]:
        """Every lay-off, by meld then by card, each move once."""
        if not self.table or self._layoff_block(seat) is not None:
            return []
        hand = self.hands[seat]
        have = sorted(set(hand))
        rules = self.rules
        out: dict[LayOff, None] = {}
        for i, m in enumerate(self.table):
            fits = set(self._accepts(m))
            for c in have:
                if rules.is_wild(c) or c in fits:
                    for mean in m.layoff_meanings(c, rules):
                        out[LayOff(c, i, mean)] = None
        acts = list(out)
        if len(hand) <= 2:
            acts = [a for a in acts if self._leaves_ok(seat, [a.card], onto=a) is None]
        return list(acts)

    def _swap_options(self, seat: int) -> list[Action]:
        if self.spec.swap == "none" or self._swap_block(seat) is not None:
            return []
        have = set(self.hands[seat])
        out: list[Action] = []
        for i, m in enumerate(self.table):
            if not m.wilds:
                continue
            for face in m.swappable(self.rules):
                if face in have:
                    act = Swap(face, i)
                    if self._check_swap_follow_up(seat, act) is None:
                        out.append(act)
        return out

    def _check_swap_follow_up(self, seat: int, act: Swap) -> str | None:
        """A swapped wild that must be laid the same turn needs somewhere to go."""
        mode = self.spec.swap
        m = self.table[act.meld]
        wild = m.cards[m.swappable(self.rules)[act.card]]
        if mode in ("layoff_same_turn", "table_same_turn"):
            if any(t.layoff_meanings(wild, self.rules) for t in self.table):
                return None
            return f"The {wild} you would take could not be laid off anywhere this turn"
        if mode == "new_meld_same_turn":
            cnt = [0] * 53
            for c in self.hands[seat]:
                cnt[c] += 1
            cnt[act.card] -= 1
            cnt[wild] += 1
            for kind, lo in (("set", self.rules.min_set), ("run", self.rules.min_run)):
                for rd in self.solver.melds_from(cnt, kind, lo, lo):
                    if rd.wilds():
                        return None
            return f"The {wild} you would take could not go into a new meld this turn"
        return None

    def _discard_options(self, seat: int) -> list[Action]:
        reason_any = self._discard_block(seat)
        if reason_any is not None:
            return []
        return [Discard(c) for c in sorted(set(self.hands[seat])) if self._discard_reason(seat, c) is None]

    def _discard_block(self, seat: int) -> str | None:
        if self.pending:
            w = self.pending[0]
            where = "into a new meld" if self.spec.swap == "new_meld_same_turn" else "on the table"
            return f"You must play the {w} you took from a meld {where} before discarding"
        if len(self.hands[seat]) == 1 and not self.spec.go_out_by_discard:
            return "You may not go out by discarding your last card in this game"
        return None

    def _discard_reason(self, seat: int, c: Card) -> str | None:
        hand = self.hands[seat]
        if c not in hand:
            return f"You do not hold {c}"
        sp = self.spec
        if sp.no_discard_of_taken_card and c == self.taken and hand.count(c) == 1:
            return f"You may not discard {c}, the card you took from the discard pile this turn"
        if sp.no_playable_discard and self.down[seat] and self.table:
            if any(m.layoff_meanings(c, self.rules) for m in self.table):
                return f"You may not discard {c}: it could be played on the table"
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` (or its text form) for the seat to act.  An illegal or
        malformed action raises IllegalActionError and changes nothing: an action object is
        checked field by field (:func:`~rummykit.engine.validate.check_action`) first."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as e:
                raise IllegalActionError(str(e)) from None
        else:
            try:
                action = check_action(action)  # every field's type, before anything changes
            except ValueError as e:
                raise IllegalActionError(str(e)) from None
        if self.phase == OVER:
            raise IllegalActionError("The game is over")
        legal = self._legal
        fast = legal is not None and _listed(action, legal)
        try:
            run = self._dispatch(action, check=not fast)
            self.actions.append(format_action(run))
        except IllegalActionError:
            raise  # raised by the checks, which run before anything changes
        except Exception:
            self._restore()  # an engine bug: leave the game as it was, then report it
            raise
        self.state_id += 1
        self._legal = None

    def _restore(self) -> None:
        """Rebuild this game from its set-up and actions (only after an unexpected error
        inside :meth:`apply`, so when all is well it costs nothing)."""
        fresh = Game(self.base_variant, players=self.n, seed=self.seed, options=self.options or None,
                     deck=self.stacked, dealer=self.first_dealer, first_round=self.first_round)
        for text in self.actions:
            fresh.apply(text)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    def _dispatch(self, a: Action, *, check: bool) -> Action:
        ph = self.phase
        if isinstance(a, Cut):
            if ph != CUT:
                raise IllegalActionError("There is nothing to cut now")
            self._do_cut()
            return a
        if ph == CUT:
            raise IllegalActionError(f"{_seat_name(self.current_player)} must cut the pack first")
        if ph == CALL:
            if isinstance(a, Pass):
                self._do_pass()
                return a
            if not _listed(a, self._legal_now()):
                what = "Shanghai" if self.call_kind == "shanghai" else "Rummy"
                raise IllegalActionError(
                    f"{_seat_name(self.asked or 0)} must first say whether to call {what} on the "
                    f"{self.discard[-1]}: " + ", ".join(x.text() for x in self._legal_now())
                )
            if isinstance(a, CallShanghai) and a.layoff is not None:
                self._do_shanghai_call(a.layoff)
            elif isinstance(a, CallRummy) and a.card is not None:
                self._do_rummy_call(a.card)
            return a
        if isinstance(a, Buy) and ph == DRAW and self.spec.buying is not None and self.spec.buying.own_turn:
            why = self._own_buy_block()
            if why:
                raise IllegalActionError(why)
            self._do_buy(own_turn=True)
            return a
        if isinstance(a, (Buy, Pass)):
            if ph != MAY_I:
                b = self.spec.buying
                what = b.verb if b is not None else "May I"
                raise IllegalActionError(f"Nobody is being offered the discard ({what}) now")
            if isinstance(a, Buy):
                self._do_buy()
            else:
                self._do_pass()
            return a
        if ph == MAY_I:
            raise IllegalActionError(
                f"{_seat_name(self.asked or 0)} must first answer whether to take the "
                f"{self.discard[-1]} (buy or pass)"
            )
        if isinstance(a, CallRummy):
            raise IllegalActionError(
                "Nobody can call Rummy now" if self.spec.rummy_call
                else f"There is no Rummy call in {self.spec.name}"
            )
        if isinstance(a, CallShanghai):
            if not self.spec.shanghai_call:
                raise IllegalActionError(f"There is no Shanghai call in {self.spec.name}")
            if a.discard is None or ph != PLAY:
                raise IllegalActionError(
                    "Call Shanghai as you discard (shanghai CARD), or on another player's "
                    "discard when you are asked"
                )
            if check:
                self._check_discard(self.current, Discard(a.discard))
                if not self._playable(a.discard):
                    raise IllegalActionError(f"{a.discard} fits no meld on the table: nothing to protect")
            self.protected = True
            self._do_discard(self.current, a.discard, protect=True)
            return a
        seat = self.current
        if isinstance(a, Take):
            if ph != DRAW:
                raise IllegalActionError("You have already drawn this turn")
            if not self.discard:
                raise IllegalActionError("The discard pile is empty; draw from the stock")
            if self.protected:
                raise IllegalActionError(
                    f"The {self.discard[-1]} was protected by a Shanghai call: draw from the stock"
                )
            self._do_take(seat)
            return a
        if isinstance(a, Draw):
            if a.both:
                if ph != PLAY or a not in self._legal_now():
                    raise IllegalActionError(
                        "'draw both' is only for a player who has drawn and has no legal discard"
                    )
                self._do_draw_both(seat)
                return a
            if ph != DRAW:
                raise IllegalActionError("You have already drawn this turn")
            self._do_draw(seat)
            return a
        early = self.spec.meld_before_draw
        if isinstance(a, (Meld, LayOff, Swap)) and early:
            if ph != DRAW:
                raise IllegalActionError(
                    "In this game you meld and lay off only at the start of your turn, before drawing"
                )
        elif ph != PLAY:
            raise IllegalActionError("Draw first: take the top discard or draw from the stock")
        if isinstance(a, Meld):
            readings = self._check_meld(seat, a)
            return self._do_meld(seat, a, readings)
        if isinstance(a, LayOff):
            mean = self._check_layoff(seat, a) if check else a.meaning
            a = LayOff(a.card, a.meld, mean)
            self._do_layoff(seat, a)
            return a
        if isinstance(a, Swap):
            if check:
                self._check_swap(seat, a)
            self._do_swap(seat, a)
            return a
        if isinstance(a, Discard):
            if check:
                self._check_discard(seat, a)
            self._do_discard(seat, a.card)
            return a
        raise IllegalActionError(f"Unknown action {a!r}")

    # -- cut -------------------------------------------------------------------------

    def _do_cut(self) -> None:
        seat = self.asked if self.asked is not None else (self.dealer - 1) % self.n
        size = self.rng.randint(self.pack_size // 4, (3 * self.pack_size) // 4)
        needed = self.n * self.spec.cards_dealt(self.round_no, self.n) + 1
        hit = size == needed
        if hit:
            self.scores[seat] -= self.spec.cut_bonus
        self.asked = None
        self._event(
            seat, "cut",
            f"{_seat_name(seat)} cut {size} cards" + (
                f": exactly the {needed} needed, {self.spec.cut_bonus} off the score" if hit else
                f" ({needed} would have won {self.spec.cut_bonus} points)"),
            size=size, needed=needed, bonus=hit,
        )
        self._deal()

    # -- drawing ---------------------------------------------------------------------

    def _forget(self, seat: int, c: Card) -> None:
        """``c`` left ``seat``'s hand in public view: one fewer card known to be there."""
        if c in self.known[seat]:
            self.known[seat].remove(c)

    def _do_take(self, seat: int) -> None:
        c = self._pop_discard()
        self.hands[seat].append(c)
        self.known[seat].append(c)
        self.taken = c
        self.phase = PLAY
        self._event(seat, "take", f"{_seat_name(seat)} took {c} from the discard pile", card=str(c))

    def _do_draw(self, seat: int) -> None:
        self.last_taker = None
        buyers = self._eligible_buyers()
        if buyers:
            self.queue = buyers
            self.asked = buyers[0]
            self.phase = MAY_I
            self._event(seat, "decline", f"{_seat_name(seat)} passed on {self.discard[-1]}",
                        card=str(self.discard[-1]))
            return
        self._finish_draw(seat)

    def _finish_draw(self, seat: int) -> None:
        self.asked = None
        self.queue = []
        c = self._pop_stock()
        if c is None:
            return
        self.hands[seat].append(c)
        self.phase = PLAY
        self._event(seat, "draw", f"{_seat_name(seat)} drew from the stock", source="stock")

    def _do_draw_both(self, seat: int) -> None:
        if self.discard:
            c = self._pop_discard()
            self.hands[seat].append(c)
            self.known[seat].append(c)
            self._event(seat, "take", f"{_seat_name(seat)} had no discard and took {c} "
                        f"from the discard pile", card=str(c))
        s = self._pop_stock()
        if s is None:
            return
        self.hands[seat].append(s)
        self._event(seat, "draw", f"{_seat_name(seat)} drew from the stock", source="stock")

    def _pop_stock(self) -> Card | None:
        """The top stock card, rebuilding the stock when it is empty; None when the
        round ended instead."""
        if not self.stock and not self._restock():
            return None
        return self.stock.pop()

    def _restock(self) -> bool:
        sp = self.spec
        if sp.max_stock_reuses is not None and self.stock_reuses >= sp.max_stock_reuses:
            if sp.stock_empty == "end_round":
                self._end_round(None, sp.nobody_out, "the stock ran out")
            else:
                self._end_round(
                    None, sp.on_reuse_limit,
                    f"the stock ran out after being rebuilt {self.stock_reuses} times (the limit)",
                    limit="max_stock_reuses",
                )
            return False
        mode = sp.stock_empty
        pile = self.discard
        if mode == "end_round":
            self._end_round(None, sp.nobody_out, "the stock ran out")
            return False
        if mode == "reshuffle_keep_top":
            if len(pile) < 2:
                self._end_round(None, sp.nobody_out, "the stock and the discard pile ran out")
                return False
            top = pile.pop()
            self.rng.shuffle(pile)
            self.stock, self.discard, self.discard_by = pile, [top], self.discard_by[-1:]
        else:
            if not pile:
                self._end_round(None, sp.nobody_out, "the stock and the discard pile ran out")
                return False
            if mode == "turn_over_shuffle":
                self.rng.shuffle(pile)
                self.stock = pile
            else:
                self.stock = pile[::-1]
            self.discard, self.discard_by = [], []
            if mode == "turn_over_keep_upcard" and len(self.stock) > 1:
                self._push_discard(self.stock.pop(), None)
        self.stock_reuses += 1
        self._event(None, "restock", f"The discard pile became the stock ({len(self.stock)} cards)",
                    reuses=self.stock_reuses)
        return True

    # -- May I window ----------------------------------------------------------------

    def _do_buy(self, own_turn: bool = False) -> None:
        seat = self.current if own_turn else self.asked
        assert seat is not None and self.spec.buying is not None
        b = self.spec.buying
        c = self._pop_discard()
        self.hands[seat].append(c)
        self.known[seat].append(c)
        self.buys[seat] += 1
        self.kitty += b.cost
        extra = b.extra_cards_by_round.get(self.round_no, b.extra_cards)
        got = 0
        self._event(seat, "buy", f"{_seat_name(seat)} said {b.verb!r} and took {c}"
                    + (f" and {extra} from the stock" if extra else ""), card=str(c), extra=extra)
        for _ in range(extra):
            s = self._pop_stock()
            if s is None:
                return
            self.hands[seat].append(s)
            got += 1
        if own_turn:
            return  # then the normal turn: draw or take the card now on top
        self.last_taker = seat
        if b.next_card and self.discard:
            self.queue = self._eligible_buyers()
            if self.queue:
                self.asked = self.queue[0]
                return
        self._finish_draw(self.current)

    def _do_pass(self) -> None:
        self.queue.pop(0)
        if self.queue:
            self.asked = self.queue[0]
            return
        if self.phase == CALL:
            self._next_turn()
            return
        self._finish_draw(self.current)

    # -- calls after a discard -----------------------------------------------------------

    def _open_call_window(self, seat: int) -> bool:
        """After ``seat``'s discard: a Shanghai or Rummy window if the discard could be
        played on the table and someone may call."""
        sp = self.spec
        if not self.discard or not self.table or (not sp.shanghai_call and not sp.rummy_call):
            return False
        if self.protected or not self._playable(self.discard[-1]):
            return False
        kind = "shanghai" if sp.shanghai_call else "rummy"
        queue = [(seat + k) % self.n for k in range(1, self.n)]
        if kind == "rummy":
            queue = [s for s in queue if len(self.hands[s]) >= 2]
        if not queue:
            return False
        self.call_kind = kind
        self.queue = queue
        self.asked = queue[0]
        self.phase = CALL
        return True

    def _do_shanghai_call(self, lay: LayOff) -> None:
        caller = self.asked
        assert caller is not None
        discarder = self.current
        c = self._pop_discard()
        self.table[lay.meld].add(c, lay.meaning, self.rules)
        hand = self.hands[caller]
        took = hand.pop(self.rng.randrange(len(hand)))
        self.hands[discarder].append(took)
        self.known[caller] = []  # any of them may be the card drawn at random
        self._event(
            caller, "shanghai",
            f"{_seat_name(caller)} called Shanghai and laid {c} off on meld {lay.meld + 1}; "
            f"{_seat_name(discarder)} drew a card at random from {_seat_name(caller)}'s hand",
            card=str(c), meld=lay.meld + 1, discarder=discarder,
        )
        self.queue = []
        if not hand:
            self.asked = None
            self._went_out(caller)
            return
        self._next_turn()

    def _do_rummy_call(self, shed: Card) -> None:
        caller = self.asked
        assert caller is not None
        called = self.discard[-1]
        self.hands[caller].remove(shed)
        self._forget(caller, shed)
        self._push_discard(shed, caller)
        self._event(caller, "rummy", f"{_seat_name(caller)} called Rummy on {called} and discarded {shed}",
                    card=str(shed), called=str(called))
        self.queue = []
        self._next_turn()

    # -- melding ---------------------------------------------------------------------

    def _resolve(self, seat: int, a: Meld, *, contract: bool) -> list[list[Reading]]:
        rules = self.rules
        out = []
        for i, g in enumerate(a.melds):
            if contract:
                rds = reading_from_items(g, rules, min_set=2, min_run=2, pair=True)
            else:
                rds = reading_from_items(g, rules)
            if not rds:
                cards = format_cards(c for c, _ in g)
                what = f"meld {i + 1} ({cards})" if len(a.melds) > 1 else cards
                raise IllegalActionError(f"{what} is not a legal meld in {self.spec.name}")
            out.append(rds)
        return out

    def _check_meld(self, seat: int, a: Meld) -> list[Reading]:
        why = self._meld_block(seat)
        if why:
            raise IllegalActionError(why)
        cards = a.cards()
        need = Counter(cards)
        have = Counter(self.hands[seat])
        missing = [c for c in need if need[c] > have[c]]
        if missing:
            raise IllegalActionError(f"You do not hold {format_cards(sorted(missing))}")
        sp = self.spec
        if self._contract_needed(seat):
            options = self._resolve(seat, a, contract=True)
            whole = self.whole_hand_round
            got = self.solver.meets(self.contract, options, whole_hand=whole)
            for i, rds in enumerate(options):
                if got is None or len(rds) < 2:
                    continue
                # the wilds of this meld read several ways: which ones meet the contract?
                fits = [rd for rd in rds if self.solver.meets(
                    self.contract, options[:i] + [[rd]] + options[i + 1 :], whole_hand=whole)]
                # readings where every card stands for the same thing (a 13-card run read
                # A-K or 2-A) are one meld
                if len({_meanings(rd) for rd in fits}) > 1:
                    raise IllegalActionError(
                        "Say what the wild cards stand for; the legal readings are: "
                        + "; ".join(self._reading_text(rd) for rd in fits[:6])
                    )
            if got is None:
                raise IllegalActionError(
                    f"That is not the contract: you must lay down exactly {self.contract_text()}"
                    + (" (each meld exactly that size)" if sp.contract_sizes == "exact"
                       and not self.whole_hand_round else "")
                )
            readings = got
        else:
            whole = not sp.contracts and self.round_no in sp.whole_hand_meld_deals and not self.down[seat]
            if len(a.melds) > 1 and not whole and not self._contract_needed(seat):
                raise IllegalActionError("Lay down one meld at a time")
            options = self._resolve(seat, a, contract=False)
            readings = []
            for rds in options:
                if len(rds) > 1:
                    alts = "; ".join(self._reading_text(rd) for rd in rds[:6])
                    raise IllegalActionError(
                        f"Say what the wild cards stand for; the legal readings are: {alts}"
                    )
                readings.append(rds[0])
            if whole and len(self.hands[seat]) - len(cards) > 1:
                raise IllegalActionError(
                    "In this deal you may meld only when you can lay down your whole hand at once"
                )
        why = self._leaves_ok(seat, cards, readings)
        if why:
            raise IllegalActionError(why)
        return readings

    def _do_meld(self, seat: int, a: Meld, readings: list[Reading]) -> Action:
        hand = self.hands[seat]
        rules = self.rules
        contract_meld = self._contract_needed(seat)
        limited = self.spec.wild_limit_on_layoffs
        groups = []
        for rd in readings:
            for c in rd.cards:
                hand.remove(c)
                self._forget(seat, c)
                if c in self.pending:
                    self.pending.remove(c)
            self.table.append(TableMeld.from_reading(rd, seat, rules, limited))
            groups.append(rd)
        if not self.down[seat]:
            self.down[seat] = True
            self.down_turn[seat] = self.turn_index
        self.melds_this_turn += len(readings)
        self.played_this_turn = True
        first = len(self.table) - len(readings) + 1
        desc = "; ".join(
            f"#{first + i} {format_cards(rd.cards)} ({rd.describe()})" for i, rd in enumerate(groups)
        )
        self._event(
            seat, "meld",
            f"{_seat_name(seat)} {'met the contract with' if contract_meld else 'melded'} {desc}",
            melds=[[str(c) for c in rd.cards] for rd in groups], contract=contract_meld,
        )
        canon = Meld(tuple(rd.items(rules) for rd in readings))
        if not hand:
            self._went_out(seat)
        return canon

    def _reading_text(self, rd: Reading) -> str:
        return " ".join(
            f"{c}={m}" if self.rules.is_wild(c) else str(c)
            for c, m in zip(rd.cards, rd.meanings(), strict=True)
        )

    def _check_layoff(self, seat: int, a: LayOff) -> Card | Rank | None:
        why = self._layoff_block(seat)
        if why:
            raise IllegalActionError(why)
        if not 0 <= a.meld < len(self.table):
            raise IllegalActionError(
                f"There is no meld {a.meld + 1} on the table (melds are numbered 1-{len(self.table)})"
                if self.table else "There are no melds on the table to lay off on"
            )
        if a.card not in self.hands[seat]:
            raise IllegalActionError(f"You do not hold {a.card}")
        m = self.table[a.meld]
        ways = m.layoff_meanings(a.card, self.rules)
        if not ways:
            raise IllegalActionError(f"{a.card} does not fit meld {a.meld + 1} ({m.describe()})")
        if a.meaning is None:
            if len(ways) > 1:
                alts = " or ".join(f"layoff {a.card}={w} {a.meld + 1}" for w in ways)
                raise IllegalActionError(f"Say which end the {a.card} goes: {alts}")
            mean = ways[0]
        else:
            # by kind as well as value: as ints, the rank 7 equals the card 8C
            same = [w for w in ways if type(w) is type(a.meaning) and w == a.meaning]
            if not same:
                raise IllegalActionError(
                    f"{a.card} cannot stand for {a.meaning} on meld {a.meld + 1} ({m.describe()})"
                )
            mean = same[0]
        why = self._leaves_ok(seat, [a.card], onto=LayOff(a.card, a.meld, mean))
        if why:
            raise IllegalActionError(why)
        return mean

    def _do_layoff(self, seat: int, a: LayOff) -> None:
        m = self.table[a.meld]
        self.hands[seat].remove(a.card)
        self._forget(seat, a.card)
        m.add(a.card, a.meaning, self.rules)
        if a.card in self.pending and self.spec.swap != "new_meld_same_turn":
            self.pending.remove(a.card)
        self.played_this_turn = True
        self._event(seat, "layoff", f"{_seat_name(seat)} laid off {a.card} on meld {a.meld + 1}",
                    card=str(a.card), meld=a.meld + 1,
                    meaning=None if a.meaning is None else str(a.meaning))
        if not self.hands[seat]:
            self._went_out(seat)

    def _check_swap(self, seat: int, a: Swap) -> None:
        why = self._swap_block(seat)
        if why:
            raise IllegalActionError(why)
        if not 0 <= a.meld < len(self.table):
            raise IllegalActionError(f"There is no meld {a.meld + 1} on the table")
        if a.card not in self.hands[seat]:
            raise IllegalActionError(f"You do not hold {a.card}")
        m = self.table[a.meld]
        if m.kind != "run":
            raise IllegalActionError("Wild cards in sets are dead: only a run's wild can be swapped")
        if a.card not in m.swappable(self.rules):
            raise IllegalActionError(
                f"No wild card in meld {a.meld + 1} ({m.describe()}) stands for {a.card}"
            )
        why = self._check_swap_follow_up(seat, a)
        if why:
            raise IllegalActionError(why)

    def _do_swap(self, seat: int, a: Swap) -> None:
        m = self.table[a.meld]
        i = m.swappable(self.rules)[a.card]
        wild = m.cards[i]
        m.cards[i] = a.card
        m.wilds -= 1
        hand = self.hands[seat]
        hand.remove(a.card)
        hand.append(wild)
        self._forget(seat, a.card)
        self.known[seat].append(wild)
        if self.spec.swap != "to_hand":
            self.pending.append(wild)
        self.played_this_turn = True
        self._event(seat, "swap", f"{_seat_name(seat)} put {a.card} in meld {a.meld + 1} and took {wild}",
                    card=str(a.card), meld=a.meld + 1, wild=str(wild))

    # -- discarding and the end of a turn --------------------------------------------

    def _check_discard(self, seat: int, a: Discard) -> None:
        why = self._discard_block(seat) or self._discard_reason(seat, a.card)
        if why:
            raise IllegalActionError(why)

    def _do_discard(self, seat: int, c: Card, protect: bool = False) -> None:
        self.hands[seat].remove(c)
        self._forget(seat, c)
        self._push_discard(c, seat)
        self.protected = protect
        called = " calling Shanghai (protected)" if protect else ""
        self._event(seat, "discard", f"{_seat_name(seat)} discarded {c}{called}",
                    card=str(c), **({"shanghai": True} if protect else {}))
        if not self.hands[seat]:
            self._went_out(seat)
            return
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        if self.played_this_turn:
            self.played_before[seat] = True
        if self.spec.stalemate_detection and self._stalemate():
            self._end_round(None, "stalemate", "nobody can ever go out (stalemate)")
            return
        if self._open_call_window(seat):
            return
        self._next_turn()

    def _next_turn(self) -> None:
        limit = self.spec.max_turns
        if limit is not None and self.turn_index + 1 >= limit:
            self._end_round(None, self.spec.nobody_out,
                            f"the round reached its limit of {limit} turns with nobody out",
                            limit="max_turns")
            return
        self.asked = None
        self.call_kind = None
        self.current = (self.current + 1) % self.n
        self.turn_index += 1
        self._reset_turn()
        self.phase = DRAW

    def _stalemate(self) -> bool:
        """Sound: every hand holds one card (so nobody can meld), and no card off the
        table fits any table meld, so the table never changes and nobody goes out."""
        if any(len(h) != 1 for h in self.hands):
            return False
        loose = set(self.stock) | set(self.discard) | {h[0] for h in self.hands}
        return not any(m.layoff_meanings(c, self.rules) for m in self.table for c in loose)

    def _went_out(self, seat: int) -> None:
        rummy = not self.played_before[seat] and self.spec.going_rummy != "none"
        self._end_round(seat, "out", f"{_seat_name(seat)} went out", rummy=rummy)

    def _end_round(self, winner: int | None, mode: str, reason: str, rummy: bool = False,
                   limit: str | None = None) -> None:
        sp = self.spec
        pts = score_round(sp, self.values, self.hands, winner, mode, rummy)
        for s in range(self.n):
            self.scores[s] += pts[s]
        result: dict[str, Any] = {
            "round": self.round_no,
            "winner": winner,
            "reason": reason,
            "ended_by": "out" if winner is not None else mode,
            "rummy": bool(rummy and winner is not None),
            "hands": [format_cards(sorted_cards(h)) for h in self.hands],
            "hand_values": [hand_value(h, self.values) for h in self.hands],
            "points": [number(p) for p in pts],
            "scores": [number(s) for s in self.scores],
            "stock_reuses": self.stock_reuses,
            # the table limit that ended the round: "max_turns", "max_stock_reuses" or None
            "limit": limit,
        }
        self._event(winner, "round_end", f"Round {self.round_no} ended: {reason}", result=result)
        self.last_round = result
        self.history.append(result)
        self.phase = OVER
        self.asked = None
        if self._match_over():
            self.is_over = True
            self._finish_match()
            return
        self.dealer = (self.dealer + 1) % self.n
        self._start_round()

    def _match_over(self) -> bool:
        deals = self.deals
        if deals is not None and self.round_no >= deals:
            return True
        target = self.spec.match_target(self.n)
        return target is not None and any(s >= target for s in self.scores)

    def _finish_match(self) -> None:
        sp = self.spec
        if sp.scoring == "winner_takes":
            best = max(self.scores)
        else:
            best = min(self.scores)
        self.winners = [s for s in range(self.n) if self.scores[s] == best]
        if sp.settlement == "position":
            self.settlement = settlement(self.scores, self.kitty)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees: its own hand, everything public, nothing hidden.
        ``None``: a spectator's view, the public facts only."""
        if seat is not None:
            seat = check_seat_index(seat, self.n)
        return build_view(self, seat)

    def record(self) -> dict[str, Any]:
        from .record import make_record

        return make_record(self)


def new_game(
    variant: str | Variant,
    players: int = 4,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    deck: Sequence[Card] | str | None = None,
    dealer: int | None = None,
    first_round: int = 1,
) -> Game:
    """A new match of ``variant`` (an id or a :class:`Variant`).

    ``deck`` stacks the first deal's pack, top card first (cards not named are shuffled
    beneath); ``dealer`` fixes the first dealer; ``first_round`` starts at a later deal."""
    v = get_variant(variant) if isinstance(variant, str) else variant
    if not isinstance(v, Variant):
        raise ValueError(f"variant must be a ruleset id (see rk.variant_ids()) or a Variant, not {v!r:.40}")
    return Game(v, players=players, seed=seed, options=options, deck=deck, dealer=dealer,
                first_round=first_round)

