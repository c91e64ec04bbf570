"""A table's bots: the bot seats, and the stand-in that plays a person's seat (handed over,
away past the grace period, or out of time on the turn timer).

:class:`BotDriver` plays a bot's turn when the clock (``TurnClock``) says so, answers an
open claim window for the seats a bot plays, and gives a person's hint.  Each bot is made
afresh for its decision with a seed from the game and the seat, so a table rebuilt from
storage decides as it would have; the hard bot thinks in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action, format_action, parse_action
from ..engine.game import IllegalActionError
from ..players import make_player

if TYPE_CHECKING:
    from .tables import Table
    from .windows import Window

log = logging.getLogger("rummykit.server")

BOT_LEVELS = ("easy", "medium", "hard")
STAND_IN = "medium"  # the bot that plays an absent player's seat


class BotDriver:
    """The moves and answers of the bots playing the table's seats."""

    def __init__(self, table: Table):
        self.table = table

    def seed(self, seat: int) -> int:
        """The seed of ``seat``'s bot for the decision at hand."""
        g = self.table.game
        return (g.seed * 1_000_003 + seat * 7919 + len(g.actions)) % (2**63)

    async def choose(self, level: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        bot = make_player(level, seed=self.seed(seat), variant=self.table.game.variant)  # house rules too
        if level == "hard":
            return await asyncio.get_running_loop().run_in_executor(None, bot.choose, view, legal)
        return bot.choose(view, legal)

    async def play_turn(self, key: tuple[Any, ...], level: str, delay: float) -> None:
        """After ``delay``, the move of the bot ``level`` for the seat to act, if the turn
        is still the one ``key`` (actions played, seat, level) names (the clock's task)."""
        t = self.table
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            g = t.game
            seat = key[1]
            action = await self.choose(level, seat, g.view(seat), g.legal_actions())
            if t.clock.key != key or len(g.actions) != key[0] or t.window is not None:
                return
            if t.seats[seat].player != key[2]:  # its person came back in this turn of the loop
                return  # (the change is gathered: the schedule that cancels this task comes at its end)
            t.clock.clear()
            try:
                g.apply(action)
            except IllegalActionError:  # a bot's mistake must not stop the table
                log.exception("table %s: the %s bot chose an illegal action", t.id, level)
                g.apply(g.legal_actions()[0])
            t.moves.append((seat, g.actions[-1]))
            s = t.seats[seat]
            if s.bot is None:  # a person's seat: the grace period's or the timer's stand-in
                t.extras.stood_in(seat, s.autoplay or "timer", g.actions[-1])
            t.state_id += 1
            t._changed(gather=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's turn failed", t.id)

    async def answer(self, w: Window) -> bool:
        """Each seat of window ``w`` a bot plays answers it now, having seen what it will see
        when the window reaches it; False if the window closed meanwhile."""
        t = self.table
        for seat in w.seats:
            level = t.seats[seat].player
            if level is None or seat in w.answers or seat not in w.legal:
                continue
            legal = [parse_action(x) for x in w.legal[seat]]
            action = await self.choose(level, seat, t.game.claim_view(seat), legal)
            if t.window is not w:
                return False
            s = t.seats[seat]
            if seat not in w.answers and s.player is not None:
                if s.bot is None and s.autoplay is not None:  # a person's seat, stood in for
                    t.extras.stood_in(seat, s.autoplay, format_action(action))
                t.windows.record_answer(seat, format_action(action))
            if t.window is not w:
                return False
        return True

    def hint(self, seat: int, view: dict[str, Any], offered: bool = False) -> dict[str, Any] | None:
        """The hint for ``seat``: the medium bot's suggestion for its view, its sentence,
        and what the hand has toward the contract ("working toward it"), all from the one
        hand evaluation the terminal's hint reads.  ``offered``: a claim window is open and
        offers ``seat`` something (May I?, a buy, a call): the hint answers the offer, read
        as the engine will put it to the seat (``Game.claim_view``)."""
        from ..players.heuristic import HeuristicPlayer

        t = self.table
        try:
            bot = HeuristicPlayer(self.seed(seat), t.game.variant)
            if offered:
                cw = t.game.claim_window()
                acts = list(cw.offer(seat)) if cw is not None else []
                if not acts:
                    return None
                view = t.game.claim_view(seat)
            else:
                acts = t.game.legal_actions()
            a, why = bot.explain(view, acts)
            progress = bot.progress(view)
        except Exception:  # a hint is a nicety; never let it break the table
            log.exception("table %s: a hint failed", t.id)
            return None
        return {"action": format_action(a), "why": why, "progress": progress["text"],
                "working": progress["melds"], "short": progress["short"]}
