"""Claim windows read ahead: who an out-of-turn window (May I?, buy, a Shanghai or Rummy
call) asks, in the engine's priority order, and what each of those seats would be offered
if every seat ahead of it passes.

The engine asks one seat at a time; a server that asks them all at once shows each seat
what :func:`claim_window` says it would be offered.  A pass inside a window only moves the
queue on, so the position when the window reaches a seat is this one with that seat asked:
the offers are computed for the seat as a parameter (:func:`~.turn.window_options`), and
nothing in the game changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card
from .actions import Action
from .state import Phase, Setup, State
from .turn import window_options
from .view import build_view

WINDOW_KINDS = ("may_i", "buy", "shanghai", "rummy")


@dataclass(frozen=True, slots=True)
class ClaimWindow:
    """An open claim window as the engine will run it."""

    kind: str  # may_i | buy (a May I window under another verb) | shanghai | rummy
    seats: tuple[int, ...]  # the seats still to ask, in priority order (the first is asked now)
    offers: tuple[tuple[Action, ...], ...]  # what each of ``seats`` is offered when asked
    card: Card | None  # the discard in question
    penalty: int  # the stock cards a buyer takes besides it (0 in a call window)

    def offer(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` would be offered if those ahead of it pass; () if it is not asked."""
        try:
            return self.offers[self.seats.index(seat)]
        except ValueError:
            return ()


def window_kind(setup: Setup, st: State) -> str:
    """The kind of the window open now (``st.phase`` is MAY_I or CALL)."""
    if st.phase is Phase.CALL:
        return st.call_kind or "shanghai"
    b = setup.spec.buying
    return "may_i" if b is None or b.verb == "May I" else "buy"


def claim_window(setup: Setup, st: State) -> ClaimWindow | None:
    """The window open now, or None outside one.  Reads the state, changes nothing."""
    if st.phase is not Phase.MAY_I and st.phase is not Phase.CALL:
        return None
    seats = tuple(st.queue)
    return ClaimWindow(
        kind=window_kind(setup, st), seats=seats,
        offers=tuple(tuple(window_options(setup, st, s)) for s in seats),
        card=st.discard[-1] if st.discard else None,
        penalty=setup.spec.buy_penalty(st.round_no) if st.phase is Phase.MAY_I else 0)


def claim_view(setup: Setup, st: State, seat: int) -> dict[str, Any]:
    """What ``seat``, one of the open window's queue, will see when the window reaches it
    (the seats ahead of it having passed): the view of a copy of the position with it asked."""
    if seat not in st.queue:
        raise ValueError(f"seat {seat} is not asked in the window open now")
    ahead = st.copy()
    ahead.queue = ahead.queue[ahead.queue.index(seat):]
    ahead.asked = seat
    return build_view(setup, ahead, seat)
