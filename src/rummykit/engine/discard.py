"""Ending a turn: the discard, and the calls on a discard (Shanghai, Rummy).

For each action: ``why_not_x`` / ``x_options`` / ``apply_x``, as in :mod:`.draw`.
"""

from __future__ import annotations

from ..cards import TEXT, Card
from .actions import DISCARDS, Action, CallRummy, CallShanghai, Discard, IllegalActionError, LayOff, Pass
from .flow import (
    end_turn,
    event,
    forget,
    next_turn,
    open_call_window,
    playable,
    pop_discard,
    push_discard,
    seat_name,
    went_out,
)
from .state import Phase, Setup, State


def why_not_discard_now(setup: Setup, st: State, seat: int) -> str | None:
    if st.pending:
        w = st.pending[0]
        where = "into a new meld" if setup.spec.swapped_wild_to_new_meld else "on the table"
        return f"You must play the {w} you took from a meld {where} before discarding"
    if len(st.hands[seat]) == 1 and not setup.spec.go_out_by_discard:
        return "You may not go out by discarding your last card in this game"
    return None


def why_not_discard(setup: Setup, st: State, seat: int, c: Card) -> str | None:
    hand = st.hands[seat]
    if c not in hand:
        return f"You do not hold {c}"
    sp = setup.spec
    # (by face: discarding a card just like the one taken, a second joker, would leave the
    # pile as it was too; unless the hand holds nothing else, which no lay-off may leave)
    if sp.no_discard_of_taken_card and c == st.taken and any(x != c for x in hand):
        return f"You may not discard {c}, the card you took from the discard pile this turn"
    if sp.no_playable_discard and st.down[seat] and st.table and playable(st, c):
        return f"You may not discard {c}: it could be played on the table"
    return None


def discard_options(setup: Setup, st: State, seat: int) -> list[Discard]:
    if why_not_discard_now(setup, st, seat) is not None:
        return []
    have = sorted(set(st.hands[seat]))
    sp = setup.spec
    if not sp.no_discard_of_taken_card and not (sp.no_playable_discard and st.down[seat] and st.table):
        return [DISCARDS[c] for c in have]  # no card is barred in itself
    return [DISCARDS[c] for c in have if why_not_discard(setup, st, seat, c) is None]


def verify_discard(setup: Setup, st: State, seat: int, c: Card) -> None:
    why = why_not_discard_now(setup, st, seat) or why_not_discard(setup, st, seat, c)
    if why:
        raise IllegalActionError(why)


def apply_discard(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, Discard)
    if st.phase != Phase.PLAY:
        raise IllegalActionError("Draw first: take the top discard or draw from the stock")
    if check:
        verify_discard(setup, st, st.current, a.card)
    discard(setup, st, st.current, a.card)
    return a


def discard(setup: Setup, st: State, seat: int, c: Card, protect: bool = False) -> None:
    st.hands[seat].remove(c)
    forget(st, seat, c)
    push_discard(st, c, seat)
    st.protected = protect
    called = " calling Shanghai (protected)" if protect else ""
    text = TEXT[c]  # (str(c), without a call into Card's Python method: every discard logs it)
    event(st, seat, "discard", f"{seat_name(seat)} discarded {text}{called}",
          card=text, **({"shanghai": True} if protect else {}))
    if not st.hands[seat]:
        went_out(setup, st, seat)
        return
    end_turn(setup, st, seat)


# ------------------------------------------------------------------ calls


def shanghai_discards(setup: Setup, st: State, discards: list[Discard]) -> list[Action]:
    """Discards that may be made calling Shanghai: those that fit a meld on the table."""
    if not setup.spec.shanghai_call or not st.table:
        return []
    return [CallShanghai(discard=d.card) for d in discards if playable(st, d.card)]


def call_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """What ``seat`` is offered when a call window asks it (the seat asked now, or one
    further down the queue once those ahead of it pass): each call it may make, then pass."""
    assert st.rules is not None
    top = st.discard[-1]
    out: list[Action] = []
    if st.call_kind == "shanghai":
        for i, m in enumerate(st.table):
            for mean in m.layoff_meanings(top, st.rules):
                out.append(CallShanghai(layoff=LayOff(top, i, mean)))
    else:
        out.extend(CallRummy(c) for c in sorted(set(st.hands[seat])))
    out.append(Pass())
    return out


def apply_call_shanghai(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, CallShanghai)
    sp = setup.spec
    if st.phase == Phase.CALL:  # answering a window: listed (the caller checked)
        assert a.layoff is not None
        _shanghai_on_discard(setup, st, a.layoff)
        return a
    if not sp.shanghai_call:
        raise IllegalActionError(f"There is no Shanghai call in {sp.name}")
    if a.discard is None or st.phase != Phase.PLAY:
        raise IllegalActionError("Call Shanghai as you discard (shanghai CARD), or on another player's "
                                 "discard when you are asked")
    if check:
        verify_discard(setup, st, st.current, a.discard)
        if not playable(st, a.discard):
            raise IllegalActionError(f"{a.discard} fits no meld on the table: nothing to protect")
    discard(setup, st, st.current, a.discard, protect=True)
    return a


def _shanghai_on_discard(setup: Setup, st: State, lay: LayOff) -> None:
    caller = st.asked
    assert caller is not None and st.rules is not None
    discarder = st.current
    c = pop_discard(st)
    st.table[lay.meld].add(c, lay.meaning, st.rules)
    hand = st.hands[caller]
    took = hand.pop(st.rng.randrange(len(hand)))
    st.hands[discarder].append(took)
    st.known[caller] = ()  # any of them may be the card drawn at random
    event(st, caller, "shanghai",
          f"{seat_name(caller)} called Shanghai and laid {c} off on meld {lay.meld + 1}; "
          f"{seat_name(discarder)} drew a card at random from {seat_name(caller)}'s hand",
          card=str(c), meld=lay.meld + 1, discarder=discarder)
    st.queue = []
    if not hand:
        st.asked = None
        went_out(setup, st, caller)
        return
    next_turn(setup, st)


def apply_call_rummy(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, CallRummy)
    if st.phase != Phase.CALL:
        raise IllegalActionError("Nobody can call Rummy now" if setup.spec.rummy_call
                                 else f"There is no Rummy call in {setup.spec.name}")
    caller = st.asked
    assert caller is not None and a.card is not None
    called = st.discard[-1]
    st.hands[caller].remove(a.card)
    forget(st, caller, a.card)
    push_discard(st, a.card, caller)
    event(st, caller, "rummy", f"{seat_name(caller)} called Rummy on {called} and discarded {a.card}",
          card=str(a.card), called=str(called))
    st.queue = []
    # the shed card is a discard too: if it would play on the table, the others (in turn
    # order after the caller) may call Rummy on it in turn ("at any time a player discards
    # a card that would play", seed 002); the turn goes on from the first discarder's
    if not open_call_window(setup, st, caller):
        next_turn(setup, st)
    return a
