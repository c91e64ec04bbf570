"""The game facade: a match's :class:`~.state.Setup` and :class:`~.state.State`, its legal
actions (cached per position) and ``apply`` through a table keyed by action type.

The rooms behind it: :mod:`.state` (what a match is made of), :mod:`.flow` (the turn
machine), :mod:`.draw`, :mod:`.melding` and :mod:`.discard` (the actions, each with its
reasons, its options and its play), :mod:`.view` (what a seat sees), :mod:`.record`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..cards import Card, format_cards, make_pack
from ..rules.registry import Variant, get_variant
from .actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Cut,
    Discard,
    Draw,
    IllegalActionError,
    LayOff,
    Meld,
    Pass,
    Swap,
    Take,
    format_action,
    parse_action,
)
from .discard import (
    apply_call_rummy,
    apply_call_shanghai,
    apply_discard,
    call_options,
    discard_options,
    shanghai_discards,
)
from .draw import (
    CUT_ONLY,
    WINDOW_ANSWERS,
    apply_buy,
    apply_cut,
    apply_draw,
    apply_pass,
    apply_take,
    draw_options,
)
from .flow import contract, contract_text, first_dealer, new_state, seat_name, start_round, whole_hand_round
from .melding import apply_layoff, apply_meld, apply_swap, table_options
from .record import check_record, record_of
from .state import Phase, Setup, State
from .validate import check_action, check_game_args, check_seat_index
from .view import View, build_view, build_views, observe

__all__ = ["CALL", "CUT", "DRAW", "MAY_I", "OVER", "PLAY", "Game", "IllegalActionError", "Phase", "new_game",
           "replay"]

CUT, DRAW, MAY_I, PLAY, CALL, OVER = (Phase.CUT, Phase.DRAW, Phase.MAY_I, Phase.PLAY, Phase.CALL, Phase.OVER)

Apply = Callable[[Setup, State, Action, bool], Action]

# one entry per action type: each verifies (raising the reason a player reads), then plays
APPLY: dict[type, Apply] = {
    Cut: apply_cut, Draw: apply_draw, Take: apply_take, Buy: apply_buy, Pass: apply_pass,
    Meld: apply_meld, LayOff: apply_layoff, Swap: apply_swap, Discard: apply_discard,
    CallShanghai: apply_call_shanghai, CallRummy: apply_call_rummy,
}


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


def _well_formed(action: object) -> Action:
    """The action text parsed, or the action object checked field by field
    (:func:`~rummykit.engine.validate.check_action`), before anything changes."""
    try:
        return parse_action(action) if isinstance(action, str) else check_action(action)
    except ValueError as e:
        raise IllegalActionError(str(e)) from None


def compute_legal(setup: Setup, st: State) -> list[Action]:
    """Every action the seat to act may take now, each once."""
    ph = st.phase
    if ph is Phase.PLAY:
        seat = st.current
        acts = [] if setup.spec.meld_before_draw else table_options(setup, st, seat)
        discards = discard_options(setup, st, seat)
        acts.extend(discards)
        acts.extend(shanghai_discards(setup, st, discards))
        if not discards and (not acts or (setup.spec.no_playable_discard and st.down[seat])):
            acts.append(Draw(both=True))
        return acts
    if ph is Phase.DRAW:
        acts = draw_options(setup, st)
        if setup.spec.meld_before_draw:
            acts.extend(table_options(setup, st, st.current))
        return acts
    if ph is Phase.MAY_I:
        return list(WINDOW_ANSWERS)
    if ph is Phase.CALL:
        return call_options(setup, st)
    if ph is Phase.CUT:
        return list(CUT_ONLY)
    return []


def gate(setup: Setup, st: State, a: Action) -> None:
    """The phase's own refusals, before the action's: a pending cut or an open window
    answers only its own question."""
    ph = st.phase
    if ph is Phase.CUT and type(a) is not Cut:
        raise IllegalActionError(f"{seat_name(st.asked if st.asked is not None else st.current)} "
                                 f"must cut the pack first")
    if ph is Phase.CALL and type(a) not in (Pass, Cut) and not _listed(a, legal_of(setup, st)):
        what = "Shanghai" if st.call_kind == "shanghai" else "Rummy"
        raise IllegalActionError(
            f"{seat_name(st.asked or 0)} must first say whether to call {what} on the {st.discard[-1]}: "
            + ", ".join(x.text() for x in legal_of(setup, st)))
    if ph is Phase.MAY_I and type(a) not in (Buy, Pass, Cut):
        raise IllegalActionError(f"{seat_name(st.asked or 0)} must first answer whether to take the "
                                 f"{st.discard[-1]} (buy or pass)")


def legal_of(setup: Setup, st: State) -> list[Action]:
    if st.legal is None:
        st.legal = compute_legal(setup, st)
    return st.legal


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

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` (or its text form) for the seat to act.  An illegal or
        malformed action raises IllegalActionError and changes nothing: an action object is
        checked field by field (:func:`~rummykit.engine.validate.check_action`) first."""
        setup, st = self.setup, self.state
        legal = st.legal
        # one of the listed actions itself (a bot's or a random agent's pick): known good
        fast = legal is not None and any(x is action for x in legal)
        act = action if fast and not isinstance(action, str) else _well_formed(action)
        if st.phase is Phase.OVER:
            raise IllegalActionError("The game is over")
        fast = fast or (legal is not None and _listed(act, legal))
        try:
            if not fast:
                gate(setup, st, act)
            run = APPLY[type(act)](setup, st, act, not fast)
            st.actions.append(format_action(run))
        except IllegalActionError:
            raise  # raised by the checks, which run before anything changes
        except Exception:
            self._restore()  # an engine bug: leave the game as it was, then report it
            raise
        st.state_id += 1
        st.legal = None

    def _restore(self) -> None:
        """Rebuild this game from its set-up and actions (only after an unexpected error
        inside :meth:`apply`, so when all is well it costs nothing)."""
        s = self.setup
        fresh = Game(s.base_variant, players=s.n, seed=s.seed, options=dict(s.options) or None,
                     deck=s.stacked, dealer=s.first_dealer, first_round=s.first_round)
        for text in self.state.actions:
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

    # -- the match, read through: the public facts, typed

    @property
    def scores(self) -> list[Fraction]:
        return self.state.scores

    @scores.setter
    def scores(self, value: list[Fraction]) -> None:
        self.state.scores = value

    @property
    def winners(self) -> list[int]:
        return self.state.winners

    @property
    def round_no(self) -> int:
        return self.state.round_no

    @property
    def history(self) -> list[dict[str, Any]]:
        return self.state.history

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def state_id(self) -> int:
        return self.state.state_id

    @property
    def actions(self) -> list[str]:
        return self.state.actions

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @phase.setter
    def phase(self, value: Phase | str) -> None:
        self.state.phase = Phase(value)
        self.state.legal = None

    @property
    def last_round(self) -> dict[str, Any] | None:
        return self.state.last_round

    if TYPE_CHECKING:
        # every other field of the state reads through as well (set below): see State
        def __getattr__(self, name: str) -> Any: ...

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


def _state_property(name: str) -> property:
    def get(self: Game) -> Any:
        return getattr(self.state, name)

    def put(self: Game, value: Any) -> None:
        setattr(self.state, name, value)
        self.state.legal = None  # a test that sets a position asks afresh

    return property(get, put, doc=f"The state's ``{name}`` (see :class:`~.state.State`).")


# every field of the state reads (and, for tests that set a position, writes) through
for _name in State.field_names():
    if _name not in Game.__dict__:
        setattr(Game, _name, _state_property(_name))


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
                 first_dealer=first_dealer(seed, players, dealer), first_round=first_round)


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
