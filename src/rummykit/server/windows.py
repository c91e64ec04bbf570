"""A table's claim windows: when the engine asks seats one at a time whether they want a
discard (May I / buy, Shanghai, Rummy), every seat in its queue is asked at once.

The engine says what each seat would be offered if those ahead of it pass
(``Game.claim_window()``); the answers are stored as they come and fed to the engine in its
own order when the window closes (all answered, or the countdown's end), so the engine's
priority decides, never the fastest click.  :meth:`ClaimWindows.settle` opens and closes
windows and ends the game as the engine's position asks, after every change.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action, format_action
from ..engine.game import IllegalActionError
from .wire import Refused

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("rummykit.server")

WINDOW_PHASES = ("may_i", "call")


@dataclass
class Window:
    """An open claim window: the engine's queue, asked at once."""

    kind: str  # may_i | buy | shanghai | rummy
    state_id: int  # the table's state_id when it opened; answers carry it
    seats: list[int]  # the engine's queue, in its priority order
    legal: dict[int, list[str]]  # what each seat may answer (seats ahead assumed to pass)
    deadline: float
    answers: dict[int, str] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # something changed: look again
    card: str | None = None  # the card offered (the discard in question)
    penalty: int = 0  # the stock cards a buyer takes besides it (0 for a call)
    verb: str | None = None  # what the ruleset calls taking it out of turn ("May I", "I want it")

    def complete(self) -> bool:
        return all(s in self.answers for s in self.seats)

    def public(self, seat: int | None) -> dict[str, Any]:
        return {"kind": self.kind, "state_id": self.state_id, "seats": list(self.seats),
                "answered": seat in self.answers if seat is not None else False,
                "answered_seats": sorted(self.answers), "card": self.card, "penalty": self.penalty,
                "verb": self.verb}


class ClaimWindows:
    """The table's open window (``open``), its answers, and settling the engine's position."""

    def __init__(self, table: Table):
        self.table = table
        self.open: Window | None = None

    # -- answers ----------------------------------------------------------------------------

    def answer(self, seat: int, action: Action) -> None:
        """A person's answer to the open window (the caller checked the seat is asked)."""
        w = self.open
        assert w is not None
        text = format_action(action)
        if seat in w.answers:
            if w.answers[seat] == text:  # a repeated click does nothing more
                self.table._send_to(seat)
                return
            raise Refused("illegal", f"you have already answered this offer ({w.answers[seat]})")
        if text not in w.legal.get(seat, []):
            raise Refused("illegal", f"{text!r} is not an answer to this offer; answer one of: "
                          + ", ".join(w.legal.get(seat, [])))
        self.record_answer(seat, text)

    def record_answer(self, seat: int, text: str) -> None:
        """Take ``seat``'s answer: a change of its own (stored, then told)."""
        w = self.open
        assert w is not None
        self._note_answer(w, seat, text)
        t = self.table
        t.state_id += 1
        t._changed(gather=True)

    def _note_answer(self, w: Window, seat: int, text: str) -> None:
        w.answers[seat] = text
        self.table.claims.append((w.state_id, seat, text))

    def pass_for_prefs(self, seat: int) -> bool:
        """A person's claim preference (extras.py) answers "pass" for the seat to the open
        offer, if it says so and the seat has not answered; whether it did."""
        w = self.open
        t = self.table
        if (w is None or seat in w.answers or "pass" not in w.legal.get(seat, [])
                or t.seats[seat].player is not None or not t.extras.passes(seat, w.kind)):
            return False
        self.record_answer(seat, "pass")
        return True

    def legal_for(self, seat: int) -> list[str]:
        """What ``seat`` may answer now: nothing once it has answered or if it is not asked."""
        w = self.open
        assert w is not None
        return [] if seat in w.answers or seat not in w.legal else list(w.legal[seat])

    # -- opening and closing ----------------------------------------------------------------

    def _verb(self, kind: str) -> str | None:
        """The ruleset's own word for taking the card out of turn (a buy window's)."""
        b = self.table.game.variant.spec.buying
        return b.verb if kind in ("may_i", "buy") and b is not None else None

    def open_window(self, restored: dict[int, str] | None = None, state_id: int | None = None) -> None:
        """Open the engine's window (``Game.claim_window``): every seat in its queue is
        offered at once what the engine would offer it when those ahead of it pass.
        ``restored``/``state_id``: a window rebuilt from storage, with its stored answers."""
        t = self.table
        cw = t.game.claim_window()
        assert cw is not None
        queue = list(cw.seats)
        legal = {seat: [format_action(a) for a in cw.offer(seat)] for seat in queue}
        if state_id is None:
            t.state_id += 1
            state_id = t.state_id
        kind = cw.kind
        w = self.open = Window(kind=kind, state_id=state_id, seats=queue, legal=legal,
                               deadline=time.time() + float(t.settings["claim_seconds"]),
                               answers=dict(restored or {}),
                               card=None if cw.card is None else str(cw.card), penalty=cw.penalty,
                               verb=self._verb(kind))
        if restored is None:  # a person who asked not to be asked (claim preferences) passes at once
            for seat in queue:
                if (t.seats[seat].player is None and "pass" in legal[seat]
                        and t.extras.passes(seat, kind)):
                    self._note_answer(w, seat, "pass")

    def _key(self) -> tuple[Any, ...]:
        g = self.table.game
        return (g.round_no, g.turn_index, g.phase, len(g.discard), len(g.stock), tuple(g.buys))

    def close(self) -> None:
        """Feed the answers to the engine in its own order: while it is still in this
        window, the seat it asks gets its answer if that is legal now, else a pass."""
        w = self.open
        assert w is not None
        t = self.table
        g = t.game
        key = self._key()
        while g.phase in WINDOW_PHASES and self._key() == key and not g.is_over:
            seat = g.current_player
            text = w.answers.get(seat, "pass")
            try:
                g.apply(text)
            except IllegalActionError:
                g.apply("pass")
            t.moves.append((seat, g.actions[-1]))
        if w.task is not None and w.task is not asyncio.current_task():
            w.task.cancel()
        self.open = None
        t.state_id += 1

    def settle(self) -> None:
        """Open and close windows and end the game as the engine's position asks."""
        t = self.table
        g = t.game
        for _ in range(10_000):
            if t.status != "playing":
                return
            if g.is_over:
                t.status = "over"
                self.open = None
                t.state_id += 1
                t.clock.cancel_graces()
                t.hub.retire_later(t)
                return
            if g.phase not in WINDOW_PHASES:
                self.open = None
                return
            if self.open is None:
                self.open_window()
            assert self.open is not None
            if self.open.complete():  # the countdown's end is the window task's
                self.close()
                continue
            return

    # -- the countdown ----------------------------------------------------------------------

    def keep_running(self) -> None:
        """The open window's task runs: start it, or wake it (a seat may have been handed
        to a bot meanwhile)."""
        w = self.open
        assert w is not None
        if w.task is None:
            w.task = asyncio.get_running_loop().create_task(self._run(w))
        else:
            w.wake.set()

    async def _run(self, w: Window) -> None:
        """Bots (and seats a bot plays) answer at once; at the countdown's end the window closes."""
        t = self.table
        try:
            while self.open is w:
                w.wake.clear()
                if not await t.bots.answer(w):
                    return
                left = w.deadline - time.time()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(w.wake.wait(), left)
                except TimeoutError:
                    break
            if self.open is w:
                w.task = None
                self.close()
                t._changed(gather=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a claim window failed", t.id)

    def stop(self) -> None:
        if self.open is not None and self.open.task is not None:
            self.open.task.cancel()
