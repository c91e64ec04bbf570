"""A table's clock: which timed task runs now, the turn timer's deadline, and the grace
period of an absent player.

After every change :meth:`TurnClock.schedule` makes sure the right task runs: the claim
window's countdown (``ClaimWindows``), else the move of the bot to act after ``bot_delay``
(``BotDriver``), else, with ``turn_seconds``, the person's turn timer, whose stand-in plays
at the deadline.  One deadline stands for a person's whole turn (a move does not put it
off), and a claim window within the turn stops it until the window closes.  Every task
re-checks the position before it acts.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .bots import STAND_IN

if TYPE_CHECKING:
    from .tables import Table


class TurnClock:
    """The timed task of the table's turn (a bot's move or the turn timer) and the seats'
    grace periods."""

    def __init__(self, table: Table):
        self.table = table
        self.task: asyncio.Task[None] | None = None
        self.key: tuple[Any, ...] | None = None  # (actions played, seat, the bot level playing it)
        self.deadline: float | None = None  # the person's turn timer, as state messages say it
        # a person's turn timer: ((round, turn, seat), its deadline, the time left while a
        # claim window stops it, else None)
        self.turn: tuple[tuple[int, int, int], float, float | None] | None = None

    def schedule(self) -> None:
        """Make sure the right timed task runs: the window's bots and countdown, or the
        move of the bot to act, or the turn timer."""
        t = self.table
        if t.status != "playing":
            self.cancel()
            return
        if t.window is not None:
            self.cancel()
            clock = self.turn
            if clock is not None and clock[2] is None:  # a window within a turn stops its clock
                self.turn = (clock[0], clock[1], max(0.0, clock[1] - time.time()))
            t.windows.keep_running()
            return
        if t.extras.paused():  # the break between deals: no bot moves, no turn timer
            self.cancel()
            return
        g = t.game
        seat = g.current_player
        level = t.seats[seat].player
        ts = t.settings.get("turn_seconds")
        key = (len(g.actions), seat, level)
        if key == self.key and self.task is not None and not self.task.done():
            return
        self.cancel()
        self.key = key
        if level is not None:
            self.turn = None  # (a person who takes the seat back gets a fresh clock)
            self.task = asyncio.get_running_loop().create_task(
                t.bots.play_turn(key, level, float(t.settings["bot_delay"])))
        elif ts:
            # one deadline for the person's whole turn: a move does not put it off, and once
            # it has passed the stand-in plays each move left in the turn at once
            now = time.time()
            turn = (g.round_no, g.turn_index, seat)
            clock = self.turn
            if clock is None or clock[0] != turn:
                clock = (turn, now + float(ts), None)
            elif clock[2] is not None:  # back from a claim window: the time it had left
                clock = (turn, now + clock[2], None)
            self.turn = clock
            self.deadline = clock[1]
            self.task = asyncio.get_running_loop().create_task(
                t.bots.play_turn(key, STAND_IN, max(0.0, clock[1] - now)))

    def cancel(self) -> None:
        """No turn task (the one running now, if it is the caller, is left to finish)."""
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        self.clear()

    def clear(self) -> None:
        """Forget the turn's task and deadline (the task is making its move now)."""
        self.task = None
        self.key = None
        self.deadline = None

    # -- the grace period of an absent player -------------------------------------------------

    def start_grace(self, seat: int) -> None:
        """``seat``'s player is gone: after ``grace_seconds`` a bot plays the seat."""
        t = self.table
        s = t.seats[seat]
        if s.bot or s.autoplay or t.status != "playing":
            return
        if s.grace is not None:
            s.grace.cancel()
        s.grace = asyncio.get_running_loop().create_task(self._grace(seat))

    async def _grace(self, seat: int) -> None:
        t = self.table
        await asyncio.sleep(float(t.settings["grace_seconds"]))
        s = t.seats[seat]
        s.grace = None
        if s.connections == 0 and s.autoplay is None and t.status != "over":
            s.autoplay = "away"
            t.state_id += 1
            t._autoplay_changed(seat)
            t._changed()

    def start_absent_graces(self) -> None:
        """A grace period for every taken human seat nobody is connected to."""
        for i, s in enumerate(self.table.seats):
            if s.kind == "human" and s.token_hash is not None and s.connections == 0:
                self.start_grace(i)

    def cancel_grace(self, seat: int) -> None:
        s = self.table.seats[seat]
        if s.grace is not None:
            s.grace.cancel()
            s.grace = None

    def cancel_graces(self) -> None:
        for i in range(len(self.table.seats)):
            self.cancel_grace(i)

    def stop(self) -> None:
        self.cancel()
        for s in self.table.seats:
            if s.grace is not None:
                s.grace.cancel()
