"""Getting cards: the cut, drawing, taking the discard, and the May I / buy window.

Each ``apply_x(setup, state, action, check)`` raises :class:`IllegalActionError` with a
sentence a player understands before anything changes, else plays the action and
returns it as recorded.  ``check=False``: the action is one of the listed legal actions.
"""

from __future__ import annotations

from ..cards import TEXT
from .actions import Action, Buy, Cut, Draw, IllegalActionError, Pass, Take
from .discard import discard_options
from .flow import (
    buy_event,
    buy_limit,
    deal,
    eligible_buyers,
    event,
    finish_draw,
    know,
    next_turn,
    open_buy_window,
    pop_discard,
    pop_stock,
    seat_name,
)
from .melding import table_options
from .state import Phase, Setup, State

# ------------------------------------------------------------------ the cut


def apply_cut(setup: Setup, st: State, a: Action, check: bool) -> Action:
    if st.phase != Phase.CUT:
        raise IllegalActionError("There is nothing to cut now")
    n = setup.n
    seat = st.asked if st.asked is not None else (st.dealer - 1) % n
    sp = setup.spec
    size = st.rng.randint(setup.pack_size // 4, (3 * setup.pack_size) // 4)
    needed = n * sp.cards_dealt(st.round_no, n) + 1
    hit = size == needed
    if hit:  # the bonus is good for the cutter: points off, or points won where most wins
        st.scores[seat] += sp.cut_bonus if sp.high_wins else -sp.cut_bonus
    st.asked = None
    gain = "points won" if sp.high_wins else "off the score"
    event(st, seat, "cut",
          f"{seat_name(seat)} cut {size} cards" + (
              f": exactly the {needed} needed, {sp.cut_bonus} {gain}" if hit else
              f" ({needed} would have won {sp.cut_bonus} points)"),
          size=size, needed=needed, bonus=hit)
    deal(setup, st)
    return a


# ------------------------------------------------------------------ draw and take


def draw_options(setup: Setup, st: State) -> list[Action]:
    """What the seat to play may do to get its card (Phase.DRAW)."""
    acts: list[Action] = []
    if st.discard and not st.protected and st.discard_by[-1] != st.current:
        acts.append(Take())
    acts.append(Draw())
    if why_not_own_buy(setup, st) is None:
        acts.append(Buy())
    return acts


def apply_take(setup: Setup, st: State, a: Action, check: bool) -> Action:
    if st.phase != Phase.DRAW:
        raise IllegalActionError("You have already drawn this turn")
    if not st.discard:
        raise IllegalActionError("The discard pile is empty; draw from the stock")
    if st.protected:
        raise IllegalActionError(
            f"The {st.discard[-1]} was protected by a Shanghai call: draw from the stock")
    seat = st.current
    if st.discard_by[-1] == seat:  # (a buy or a Rummy call left it on top: RULES.md 4.3)
        raise IllegalActionError(f"The {st.discard[-1]} is your own discard: nobody takes back "
                                 f"their own discard; draw from the stock")
    c = pop_discard(st)
    st.hands[seat].append(c)
    know(st, seat, c)
    st.taken = c
    st.phase = Phase.PLAY
    text = TEXT[c]  # (str(c) without a call into Card's Python method)
    event(st, seat, "take", f"{seat_name(seat)} took {text} from the discard pile", card=text)
    return a


def apply_draw(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, Draw)
    seat = st.current
    if a.both:
        if st.phase != Phase.PLAY or not draw_both_allowed(setup, st):
            raise IllegalActionError(
                "'draw both' is only for a player who has drawn and has no legal discard")
        _draw_both(setup, st, seat)
        return a
    if st.phase != Phase.DRAW:
        raise IllegalActionError("You have already drawn this turn")
    st.last_taker = None
    buyers = eligible_buyers(setup, st)
    if buyers:
        open_buy_window(st, buyers)
        text = TEXT[st.discard[-1]]
        event(st, seat, "decline", f"{seat_name(seat)} passed on {text}", card=text)
        return a
    finish_draw(setup, st, seat)
    return a


def draw_both_allowed(setup: Setup, st: State) -> bool:
    """'draw both': a seat that has drawn and has no legal discard (and, unless it is
    down in a game barring playable discards, nothing else to do either)."""
    seat = st.current
    if discard_options(setup, st, seat):
        return False
    if setup.spec.no_playable_discard and st.down[seat]:
        return True
    return setup.spec.meld_before_draw or not table_options(setup, st, seat)


def _draw_both(setup: Setup, st: State, seat: int) -> None:
    """No legal discard: the top discard and the top stock card both join the hand."""
    if st.discard:
        c = pop_discard(st)
        st.hands[seat].append(c)
        know(st, seat, c)
        event(st, seat, "take", f"{seat_name(seat)} had no discard and took {c} from the discard pile",
              card=str(c))
    s = pop_stock(setup, st)
    if s is None:
        return
    st.hands[seat].append(s)
    event(st, seat, "draw", f"{seat_name(seat)} drew from the stock", source="stock")


# ------------------------------------------------------------------ buying


def why_not_own_buy(setup: Setup, st: State) -> str | None:
    """Why the player to draw may not buy the upcard on its own turn, or None."""
    sp = setup.spec
    b = sp.buying
    if b is None or not b.own_turn:
        return f"There is no buying on your own turn in {sp.name}"
    if not sp.buy_allowed(st.round_no):
        return "There is no buying in this deal"
    if st.phase != Phase.DRAW:
        return "Buy the upcard before you draw"
    if not st.discard:
        return "The discard pile is empty"
    if st.discard_by[-1] == st.current:
        return f"The {st.discard[-1]} is your own discard: nobody takes back their own discard"
    lim = buy_limit(setup, st)
    if lim is not None and st.buys[st.current] >= lim:
        return f"You have used all {lim} of your buys this deal"
    return None


def _no_window(setup: Setup) -> IllegalActionError:
    b = setup.spec.buying
    what = b.verb if b is not None else "May I"
    return IllegalActionError(f"Nobody is being offered the discard ({what}) now")


def apply_buy(setup: Setup, st: State, a: Action, check: bool) -> Action:
    b = setup.spec.buying
    if st.phase == Phase.DRAW and b is not None and b.own_turn:
        why = why_not_own_buy(setup, st)
        if why:
            raise IllegalActionError(why)
        _buy(setup, st, st.current, own_turn=True)
        return a
    if st.phase != Phase.MAY_I:
        raise _no_window(setup)
    assert st.asked is not None
    _buy(setup, st, st.asked, own_turn=False)
    return a


def _buy(setup: Setup, st: State, seat: int, *, own_turn: bool) -> None:
    b = setup.spec.buying
    assert b is not None
    c = pop_discard(st)
    st.hands[seat].append(c)
    know(st, seat, c)
    st.buys[seat] += 1
    st.kitty += b.cost
    extra = setup.spec.buy_penalty(st.round_no)
    log, at = st.log, len(st.log)
    got = 0
    for _ in range(extra):
        s = pop_stock(setup, st)
        if s is None:
            break  # the stock ran out: the round is over
        st.hands[seat].append(s)
        got += 1
    # the buy's line, before anything drawing the penalty cards logged (a rebuilt stock, the
    # round's end), naming the cards really taken
    text = f"{seat_name(seat)} said {b.verb!r} and took {TEXT[c]}"
    if got:
        text += f" and {got} from the stock"
    if got < extra:
        text += f" (the stock ran out: {got} of {extra} penalty cards)"
    buy_event(log, at, seat, text, TEXT[c], got)
    if got < extra:
        return
    if own_turn:
        return  # then the normal turn: draw or take the card now on top
    st.last_taker = seat
    if b.next_card and st.discard:
        st.queue = eligible_buyers(setup, st)
        if st.queue:
            st.asked = st.queue[0]
            return
    finish_draw(setup, st, st.current)


def apply_pass(setup: Setup, st: State, a: Action, check: bool) -> Action:
    """Pass in a May I window or a call window: the next seat is asked, or it closes."""
    if st.phase not in (Phase.MAY_I, Phase.CALL):
        raise _no_window(setup)
    st.queue.pop(0)
    if st.queue:
        st.asked = st.queue[0]
    elif st.phase == Phase.CALL:
        next_turn(setup, st)
    else:
        finish_draw(setup, st, st.current)
    return a


WINDOW_ANSWERS: list[Action] = [Buy(), Pass()]
CUT_ONLY: list[Action] = [Cut()]
