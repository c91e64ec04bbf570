"""A position's legal actions (cached in the state until the next action) and playing one:
what :class:`~.game.Game` delegates ``legal_actions()`` and ``apply()`` to.  Functions over
the setup and the state, like the action rooms they call."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

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
from .flow import contract_text, seat_name
from .going_down import going_down, step_options
from .melding import apply_layoff, apply_meld, apply_swap, meld_options, pat_now, table_options
from .state import Phase, Setup, State
from .validate import check_action

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
    if (ph is Phase.PLAY or ph is Phase.DRAW) and going_down(setup, st, st.current):
        return step_options(setup, st, st.current)  # (part of the contract is down: the rest)
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
        elif pat_now(setup, st):
            acts.extend(meld_options(setup, st, st.current))  # going out with the hand as held
        return acts
    if ph is Phase.MAY_I or ph is Phase.CALL:
        return window_options(setup, st, st.asked if st.asked is not None else st.current)
    if ph is Phase.CUT:
        return list(CUT_ONLY)
    return []


def window_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """What an open May I / buy or call window offers ``seat``, one of its queue, when the
    window reaches it (the seats ahead of it having passed: a pass only moves the queue on,
    so the position is this one with ``seat`` asked).  Reads the state, changes nothing."""
    if st.phase is Phase.MAY_I:
        return list(WINDOW_ANSWERS)
    if st.phase is Phase.CALL:
        return call_options(setup, st, seat)
    return []


def gate(setup: Setup, st: State, a: Action) -> None:
    """The phase's own refusals, before the action's: a pending cut or an open window
    answers only its own question."""
    ph = st.phase
    if (ph is Phase.PLAY or ph is Phase.DRAW) and type(a) is not Meld and going_down(setup, st, st.current):
        raise IllegalActionError(f"Finish laying down your contract first ({contract_text(setup, st)}): "
                                 f"lay its next meld")
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



def checked(setup: Setup, st: State, action: object) -> tuple[Action, bool]:
    """``action`` parsed or checked (IllegalActionError if malformed or the game is over),
    and whether it is one of the listed legal actions."""
    legal = st.legal
    # one of the listed actions itself (a bot's or a random agent's pick): known good
    fast = legal is not None and any(x is action for x in legal)
    act = cast(Action, action) if fast and not isinstance(action, str) else _well_formed(action)
    if st.phase is Phase.OVER:
        raise IllegalActionError("The game is over")
    fast = fast or (legal is not None and _listed(act, legal))
    return act, fast


def play(setup: Setup, st: State, act: Action, fast: bool) -> None:
    """Verify ``act`` (unless ``fast``: listed legal), play it, record it."""
    if not fast:
        gate(setup, st, act)
    run = APPLY[type(act)](setup, st, act, not fast)
    st.actions.append(run)  # its text is written when the record is read (action_texts)
    st.state_id += 1
    st.legal = None


def action_texts(st: State) -> list[str]:
    """The record's actions as text.  ``play`` keeps each action as played and its text
    is written here, once, when the record is first read: random play, search and RL
    never read it, so never pay for it."""
    acts = st.actions
    for i in range(len(acts) - 1, -1, -1):
        a = acts[i]
        if isinstance(a, str):
            break
    else:
        i = -1
    for j in range(i + 1, len(acts)):
        acts[j] = format_action(cast(Action, acts[j]))
    return cast(list[str], acts)
