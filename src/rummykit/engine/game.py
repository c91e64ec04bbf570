"""The game facade: a match's :class:`~.state.Setup` and :class:`~.state.State`, its legal
actions (cached per position) and ``apply``, both through :mod:`.turn` (compiled with mypyc
where the install built it; this class stays Python).

The rooms behind it: :mod:`.state` (what a match is made of), :mod:`.flow` (the turn
machine), :mod:`.draw`, :mod:`.melding` and :mod:`.discard` (the actions, each with its
reasons, its options and its play), :mod:`.view` (what a seat sees), :mod:`.record`.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import Card, format_cards, make_pack
from ..melds import MeldRules, TableMeld
from ..rules.registry import Variant, get_variant
from .actions import (
    Action,
    IllegalActionError,
)
from .claims import ClaimWindow, claim_view, claim_window
from .events import Event
from .flow import contract, contract_text, first_dealer, new_state, start_round, whole_hand_round
from .record import check_record, record_of
from .state import Phase, Setup, State
from .turn import APPLY as APPLY  # the table of apply functions, as before (tests patch it)
from .turn import action_texts, checked, legal_of, play
from .validate import check_game_args, check_seat_index
from .view import View, build_view, build_views, observe

__all__ = ["CALL", "CUT", "DRAW", "MAY_I", "OVER", "PLAY", "Game", "IllegalActionError", "Phase", "new_game",
           "replay"]

CUT, DRAW, MAY_I, PLAY, CALL, OVER = (Phase.CUT, Phase.DRAW, Phase.MAY_I, Phase.PLAY, Phase.CALL, Phase.OVER)


class Game:
    """One match of one ruleset.  Build it with :func:`new_game`."""

    __slots__ = ("setup", "state")

    setup: Setup
    state: State

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
        setup = make_setup(variant, players=players, seed=seed, options=options, cards=cards,
                           dealer=dealer, first_round=first_round)
        self.setup = setup
        self.state = new_state(setup)
        start_round(setup, self.state)

    @classmethod
    def from_state(cls, setup: Setup, state: State) -> Game:
        """A game at ``state`` (a copy, a determinized sample): no shuffle, no deal."""
        g = cls.__new__(cls)
        g.setup = setup
        g.state = state
        return g

    def copy(self) -> Game:
        """An independent game at the same position (a search plays it forward)."""
        return Game.from_state(self.setup, self.state.copy())

    __copy__ = copy  # copy.copy(g) too: a game sharing its state with another is a trap

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> int:
        """The seat to act now: the seat asked in a window, else whose turn it is."""
        st = self.state
        return st.asked if st.asked is not None else st.current

    @property
    def contract(self) -> tuple[Any, ...]:
        return contract(self.setup, self.state)

    def contract_text(self) -> str:
        return contract_text(self.setup, self.state)

    @property
    def whole_hand_round(self) -> bool:
        return whole_hand_round(self.setup, self.state)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (one best arrangement per meld
        kind: :meth:`apply` also takes any other legal arrangement)."""
        return list(legal_of(self.setup, self.state))

    def claim_window(self) -> ClaimWindow | None:
        """The out-of-turn window open now (May I?, buy, Shanghai or Rummy call), or None:
        its kind, the seats it asks in priority order and what each would be offered if
        those ahead of it pass.  Changes nothing (see :mod:`.claims`)."""
        return claim_window(self.setup, self.state)

    def claim_view(self, seat: int) -> dict[str, Any]:
        """``view(seat)`` as it will be when the open window reaches ``seat`` (those ahead
        of it having passed): what a bot answering early reads.  Changes nothing."""
        return claim_view(self.setup, self.state, check_seat_index(seat, self.setup.n))

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` (or its text form) for the seat to act.  An illegal or
        malformed action raises IllegalActionError and changes nothing: an action object is
        checked field by field (:func:`~rummykit.engine.validate.check_action`) first."""
        setup, st = self.setup, self.state
        act, fast = checked(setup, st, action)
        try:
            play(setup, st, act, fast)
        except IllegalActionError:
            raise  # raised by the checks, which run before anything changes
        except Exception:
            self._restore()  # an engine bug: leave the game as it was, then report it
            raise

    def _restore(self) -> None:
        """Rebuild this game from its set-up and actions (only after an unexpected error
        inside :meth:`apply`, so when all is well it costs nothing)."""
        s = self.setup
        fresh = Game(s.base_variant, players=s.n, seed=s.seed, options=dict(s.options) or None,
                     deck=s.stacked, dealer=s.first_dealer, first_round=s.first_round)
        for text in action_texts(self.state):
            fresh.apply(text)
        self.state = fresh.state

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees: its own hand, everything public, nothing hidden.
        ``None``: a spectator's view, the public facts only."""
        if seat is not None:
            seat = check_seat_index(seat, self.setup.n)
        return build_view(self.setup, self.state, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(seat)`` of each of ``seats`` at once, cheaper than one by one: the public part
        is built once and the dicts share it (read them, don't change them)."""
        checked = [None if s is None else check_seat_index(s, self.setup.n) for s in seats]
        return build_views(self.setup, self.state, checked)

    def observe(self, seat: int | None) -> View:
        """The same facts as :meth:`view`, typed (cards as :class:`Card`, frozen): what
        bots, the determinizer and the RL encoders read."""
        if seat is not None:
            seat = check_seat_index(seat, self.setup.n)
        return observe(self.setup, self.state, seat)

    def record(self) -> dict[str, Any]:
        return record_of(self.setup, self.state)

    # -- the position, read through: typed and read-only.  Lists come out as tuples (a
    # snapshot: writing into one raises, where a list copy would quietly change nothing);
    # the public API's lists (scores, winners, history) as fresh lists.  A test that needs
    # a position sets it with :func:`.position.set_position`; nothing else writes a state.

    @property
    def scores(self) -> list[Fraction]:
        """Each seat's running total (exact: Block Rummy may split a kitty)."""
        return list(self.state.scores)

    @property
    def winners(self) -> list[int]:
        return list(self.state.winners)

    @property
    def round_no(self) -> int:
        return self.state.round_no

    @property
    def history(self) -> list[dict[str, Any]]:
        """Each finished deal's result (the dicts are the game's own: read them)."""
        return list(self.state.history)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def state_id(self) -> int:
        return self.state.state_id

    @property
    def actions(self) -> list[str]:
        """Every action played so far, as text (the record's list)."""
        return action_texts(self.state)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def last_round(self) -> dict[str, Any] | None:
        return self.state.last_round

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def current(self) -> int:
        """Whose turn it is (in a claim window, :attr:`current_player` is the seat asked)."""
        return self.state.current

    @property
    def turn_index(self) -> int:
        return self.state.turn_index

    @property
    def asked(self) -> int | None:
        return self.state.asked

    @property
    def queue(self) -> tuple[int, ...]:
        """The seats still to be asked in an open claim window, in order."""
        return tuple(self.state.queue)

    @property
    def call_kind(self) -> str | None:
        return self.state.call_kind

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple([tuple(h) for h in self.state.hands])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, its top card last."""
        return tuple(self.state.stock)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, its top card last."""
        return tuple(self.state.discard)

    @property
    def table(self) -> tuple[TableMeld, ...]:
        """The melds on the table (each the game's own: read it, don't change it)."""
        return tuple(self.state.table)

    @property
    def down(self) -> tuple[bool, ...]:
        return tuple(self.state.down)

    @property
    def buys(self) -> tuple[int, ...]:
        return tuple(self.state.buys)

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self.state.known)

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self.state.log)

    @property
    def last_deal_log(self) -> tuple[Event, ...]:
        """The deal before this one's log, whole, to its last event (the move that ended it
        and the result): a new deal starts a fresh :attr:`log` at once, so no view shows
        those last events.  Empty in the first deal.  Every event in it is public."""
        return tuple(self.state.last_log)

    @property
    def kitty(self) -> int:
        return self.state.kitty

    @property
    def stock_reuses(self) -> int:
        return self.state.stock_reuses

    @property
    def taken(self) -> Card | None:
        return self.state.taken

    @property
    def pending(self) -> tuple[Card, ...]:
        return tuple(self.state.pending)

    @property
    def rules(self) -> MeldRules | None:
        """How melds are judged this deal."""
        return self.state.rules

    # -- the match's set-up, read through (compatibility: g.spec, g.n, ...)

    @property
    def variant(self) -> Variant:
        return self.setup.variant

    @property
    def base_variant(self) -> Variant:
        return self.setup.base_variant

    @property
    def spec(self) -> Any:
        return self.setup.spec

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.setup.options)

    @property
    def n(self) -> int:
        return self.setup.n

    @property
    def seed(self) -> int:
        return self.setup.seed

    @property
    def values(self) -> tuple[int, ...]:
        return self.setup.values

    @property
    def decks(self) -> int:
        return self.setup.decks

    @property
    def jokers(self) -> int:
        return self.setup.jokers

    @property
    def pack_size(self) -> int:
        return self.setup.pack_size

    @property
    def stacked(self) -> tuple[Card, ...] | None:
        return self.setup.stacked

    @property
    def first_dealer(self) -> int:
        return self.setup.first_dealer

    @property
    def first_round(self) -> int:
        return self.setup.first_round

    @property
    def deals(self) -> int | None:
        return self.setup.deals


def make_setup(variant: Variant, *, players: int, seed: int, options: Mapping[str, Any] | None,
               cards: Sequence[Card] | None, dealer: int | None, first_round: int) -> Setup:
    """A match's frozen set-up; ValueError says what does not fit the ruleset."""
    base = variant
    variant = variant.with_options(options)
    spec = variant.spec
    lo, hi = spec.players
    if not lo <= players <= hi:
        raise ValueError(f"{spec.id} is for {lo}-{hi} players, not {players}")
    decks, jokers = spec.pack_for(players)
    if cards is not None:
        rest = Counter(make_pack(decks, jokers))
        rest.subtract(cards)
        extra = sorted(c for c, k in rest.items() if k < 0)
        if extra:
            raise ValueError(f"the stacked deck has more {format_cards(extra)} than the pack for "
                             f"{players} players holds")
    if dealer is not None and not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0-{players - 1}, not {dealer}")
    deals = spec.num_deals()
    if first_round < 1 or (deals is not None and first_round > deals):
        raise ValueError(f"first_round must be a deal 1-{deals or '...'}, not {first_round}")
    return Setup(variant=variant, spec=spec, base_variant=base, options=dict(options or {}), n=players,
                 seed=seed, values=tuple(spec.values_table()), decks=decks, jokers=jokers,
                 stacked=None if cards is None else tuple(cards),
                 first_dealer=first_dealer(seed, players, dealer), first_round=first_round, deals=deals)


SEED_BITS = 53


def fresh_seed() -> int:
    """A seed for a game whose cards must stay secret, from the operating system's random
    numbers: one of 2**53 - 1.  A player who knows the engine cannot search that many seeds
    for the one that deals their own hand (2**31 took about ten CPU-hours in pure Python),
    and the number stays exact in JSON readers that hold numbers as doubles."""
    return secrets.randbelow(2**SEED_BITS - 1) + 1


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


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record; ValueError says what is wrong with a bad one."""
    from ..rules.registry import RulesError, build_spec

    rec = check_record(record)
    if rec.rules is not None:
        v = Variant(build_spec(rec.rules, "record rules"), rec.rules)
    else:
        try:
            v = get_variant(rec.ruleset)
        except RulesError:
            raise
        except ValueError as e:
            raise ValueError(f"ruleset: {e}") from None
    g = new_game(v, players=rec.players, seed=rec.seed, options=rec.options or None,
                 deck=" ".join(rec.deck) if isinstance(rec.deck, list) else rec.deck,
                 dealer=rec.dealer, first_round=rec.first_round)
    for i, text in enumerate(rec.actions):
        try:
            g.apply(text)
        except IllegalActionError as e:
            raise ValueError(f"action {i + 1} of the record ({text!r:.60}) is illegal: {e}") from None
    return g
