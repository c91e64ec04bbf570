"""What a table keeps beside the game, in memory only (docs/protocol.md, "Table extras"):
the chat, each seat's claim preferences and deal break, the pause between deals, what a bot
played for an absent person, and the answers about one seat's own hand (a meld check, an
arrangement).

Nothing here goes into the game's record, the database or the server's log, and nothing
reaches a bot (bots have no sockets).  The answers about a hand (``check``, ``arrange``) and
the ``stand_in`` summary are read from that seat's own view and go to that seat's
connections only.  Every refusal is an :class:`Bad` (a code and a sentence) that the table
sends to the sender alone; nothing changes then.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import Card, parse_card
from ..players.arrange import Arrangement, arrange
from ..players.fits import card_fits
from ..rules.options import differences
from ..rules.progress import check_groups
from ..rules.registry import ORDER, get_variant
from .wire import encode

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("rummykit.server")  # (no chat text is ever logged)

CLAIMS = ("always", "fits", "never")
CHAT_MOST = 200  # characters in one chat message
CHAT_KEPT = 50  # messages a new connection gets
CHAT_RATE = (5, 10.0)  # at most 5 messages in 10 s per seat
CHECK_GROUPS, CHECK_CARDS = 8, 20  # a meld check: groups, cards in one group
STAND_IN_KEPT = 200  # moves kept of what a bot played for a person
DEAL_BREAK_SECONDS = 20.0  # the default of the table setting deal_break_seconds

# the message types handled here, and what each needs of the table (see Extras.handle)
TYPES = ("chat", "prefs", "ready", "stand_in_seen", "check", "arrange")


class Bad(Exception):
    """A refused message: an ``error`` with ``code`` and ``message`` to its sender only."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Prefs:
    """A seat's claim preference and deal break (sent again by the client on each connect)."""

    claims: str = "always"
    deal_break: bool = False

    def public(self) -> dict[str, Any]:
        return {"claims": self.claims, "deal_break": self.deal_break}


@dataclass
class StandIn:
    """What a bot played for a person's seat since that person's own last move."""

    why: str  # "away" | "asked" | "timer": the latest reason
    moves: list[str] = field(default_factory=list)

    def public(self) -> dict[str, Any]:
        return {"why": self.why, "moves": list(self.moves)}


@dataclass
class Pause:
    """The break between deals: no bot moves and no turn timer until every seat in
    ``waiting`` is ready, a person acts, or ``until`` passes."""

    until: float
    round: int  # the deal that has just ended
    waiting: set[int]
    task: asyncio.Task[None] | None = None

    def public(self) -> dict[str, Any]:
        return {"until": self.until, "round": self.round, "waiting": sorted(self.waiting)}


class Extras:
    """One table's extras; the table calls in at its hooks (tables.py)."""

    def __init__(self, table: Table, clock: Callable[[], float] = time.time):
        self.table = table
        self.clock = clock
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.chat_id = 0
        self.said: dict[int, deque[float]] = {}  # each seat's last chat times
        self.prefs: dict[int, Prefs] = {}
        self.stand_in: dict[int, StandIn] = {}
        self.pause: Pause | None = None
        self.round = table.game.round_no  # the deal the pause watches for its end
        self._house_rules: list[str] | None = None
        self._arranged: dict[int, tuple[tuple[Any, ...], Arrangement]] = {}

    # -- what state messages carry ---------------------------------------------------------

    def fields(self, seat: int | None) -> dict[str, Any]:
        """The extras of a state message to ``seat`` (None: a spectator)."""
        pause = None if self.pause is None else self.pause.public()
        if seat is None:
            return {"prefs": None, "pause": pause, "stand_in": None}
        si = self.stand_in.get(seat)
        return {"prefs": self.prefs_of(seat).public(), "pause": pause,
                "stand_in": None if si is None else si.public()}

    def prefs_of(self, seat: int) -> Prefs:
        return self.prefs.get(seat) or Prefs()

    def house_rules(self) -> list[str]:
        """How this table's rules differ from its ruleset's own: the house-rule options, or
        for a house-rules file its differences from the ruleset it extends."""
        if self._house_rules is None:
            t = self.table
            played = t.game.variant  # the rules as played: options included
            if "rules" in (t.settings.get("setup_rules") or {}):
                base = t.settings.get("extends")
                if base in ORDER:
                    ref = get_variant(base)
                else:  # (a file that extends nothing, or a table from before this was kept)
                    ref = min((get_variant(v) for v in ORDER), key=lambda v: len(differences(played, v)))
            else:
                ref = get_variant(t.variant.id) if t.variant.id in ORDER else t.variant
            self._house_rules = differences(played, ref)
        return list(self._house_rules)

    # -- messages from a client ------------------------------------------------------------

    def handle(self, conn_seat: int | None, kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """A message of one of ``TYPES`` from a connection of ``conn_seat``: the answer for
        that connection alone, if any (everything else is sent by the table).  Bad refuses."""
        if kind == "chat":
            self._chat(conn_seat, data)
            return None
        if kind == "prefs":
            self._prefs(conn_seat, data)
            return None
        if kind == "check":
            return self._check(conn_seat, data)
        seat = self._seated(conn_seat, kind)
        if kind == "ready":
            self.ready(seat)
            return None
        if kind == "stand_in_seen":
            self.stand_in.pop(seat, None)
            self.table._send_to(seat)
            return None
        assert kind == "arrange"
        return self._arrange(seat)

    @staticmethod
    def _seated(seat: int | None, kind: str) -> int:
        if seat is None:
            what = {"ready": "is never waited for", "stand_in_seen": "has no seat a bot played",
                    "arrange": "has no hand to arrange", "check": "has no hand to check",
                    "prefs": "has no seat to set preferences for"}[kind]
            raise Bad("not_your_turn", f"a spectator {what}")
        return seat

    # chat

    def _chat(self, seat: int | None, data: dict[str, Any]) -> None:
        text = data.get("text")
        if not isinstance(text, str):
            raise Bad("bad_request", f'"text" must be the message: 1-{CHAT_MOST} characters')
        text = text.strip()
        if not 0 < len(text) <= CHAT_MOST:
            raise Bad("bad_request", f"a chat message is 1-{CHAT_MOST} characters, not {len(text)}")
        if not text.isprintable():
            raise Bad("bad_request", "a chat message must be printable characters: no line breaks, "
                      "control or invisible characters")
        if seat is None:
            raise Bad("not_your_turn", "spectators can read the chat but not write")
        now = self.clock()
        most, window = CHAT_RATE
        times = self.said.setdefault(seat, deque(maxlen=most))
        if len(times) == most and now - times[0] < window:
            wait = window - (now - times[0])
            raise Bad("too_fast", f"at most {most} chat messages in {window:g} seconds: "
                      f"wait {max(1, round(wait))} s")
        times.append(now)
        self.chat_id += 1
        msg = {"type": "chat", "id": self.chat_id, "seat": seat, "name": self.table.seats[seat].name,
               "text": text, "at": now}
        self.chat.append(msg)
        line = encode(msg)
        for c in list(self.table.conns):
            c.send(line)

    def chat_log(self) -> dict[str, Any]:
        """What a new connection gets right after its first state message."""
        return {"type": "chat_log", "messages": list(self.chat)}

    # claim preferences and the deal break

    def _prefs(self, seat: int | None, data: dict[str, Any]) -> None:
        claims, brk = data.get("claims"), data.get("deal_break")
        if claims is not None and claims not in CLAIMS:
            raise Bad("bad_request", f'"claims" must be one of {", ".join(CLAIMS)}, not {claims!r:.40}')
        if brk is not None and not isinstance(brk, bool):
            raise Bad("bad_request", '"deal_break" must be true or false')
        seat = self._seated(seat, "prefs")
        t = self.table
        if t.seats[seat].bot is not None:  # (a bot's seat has no token, so no connection)
            raise Bad("not_your_turn", "this is a bot's seat")
        old = self.prefs_of(seat)
        new = Prefs(old.claims if claims is None else claims, old.deal_break if brk is None else brk)
        self.prefs[seat] = new
        if new.deal_break is False and self.pause is not None and seat in self.pause.waiting:
            self.ready(seat)  # (tells everyone: the waiting list changed)
            return
        if new.claims != old.claims and t.pass_for_prefs(seat):
            return  # the open offer was answered "pass" for it: everyone has heard
        t._send_to(seat)

    def passes(self, seat: int, kind: str) -> bool:
        """Whether the seat's claim preference answers "pass" for it at once to an offer of
        kind ``kind`` now open (read from its own view only)."""
        p = self.prefs_of(seat).claims
        if p == "never":
            return True
        if p == "always" or kind in ("shanghai", "rummy"):  # (a call is always asked under "fits")
            return False
        g = self.table.game
        view = g.view(seat)
        top = view["discard_top"]
        return top is not None and not card_fits(view, parse_card(top), g.variant)

    def ready(self, seat: int) -> None:
        """The seat is ready for the next deal (or wants no break)."""
        p = self.pause
        t = self.table
        if p is None or seat not in p.waiting:
            t._send_to(seat)
            return
        p.waiting.discard(seat)
        if not p.waiting:
            self._end_pause()
        t.state_id += 1
        t._changed()

    def _end_pause(self) -> None:
        p = self.pause
        self.pause = None
        if p is not None and p.task is not None and p.task is not asyncio.current_task():
            p.task.cancel()

    def paused(self) -> bool:
        """Whether bots and the turn timer wait now.  Called before they are scheduled (after
        every change): a deal that has just ended starts a pause when a connected person who
        asked for the deal break plays at the table, and a seat that left stops being waited
        for."""
        t = self.table
        g = t.game
        if t.status != "playing":
            self._end_pause()
            self.round = g.round_no
            return False
        if g.round_no != self.round:
            ended, self.round = self.round, g.round_no
            self._end_pause()
            secs = float(t.settings.get("deal_break_seconds", DEAL_BREAK_SECONDS) or 0)
            waiting = {i for i in range(len(t.seats)) if self._breaks(i)}
            if waiting and secs > 0:
                self.pause = Pause(until=self.clock() + secs, round=ended, waiting=waiting)
                try:
                    self.pause.task = asyncio.get_running_loop().create_task(self._timer(self.pause))
                except RuntimeError:  # (no loop: nothing would end it)
                    self.pause = None
        p = self.pause
        if p is not None:
            p.waiting = {i for i in p.waiting if self._breaks(i)}
            if not p.waiting:
                self._end_pause()
        return self.pause is not None

    def _breaks(self, seat: int) -> bool:
        s = self.table.seats[seat]
        return s.player is None and s.connections > 0 and self.prefs_of(seat).deal_break

    async def _timer(self, p: Pause) -> None:
        try:
            await asyncio.sleep(max(0.0, p.until - self.clock()))
            if self.pause is p:
                p.task = None
                self._end_pause()
                t = self.table
                t.state_id += 1
                t._changed()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the end of the break between deals failed", self.table.id)

    # what a bot played for a person

    def own_move(self, seat: int) -> None:
        """The person made a move of their own: the summary is over, and so is a pause."""
        self.stand_in.pop(seat, None)
        self._end_pause()

    def stood_in(self, seat: int, why: str, move: str) -> None:
        si = self.stand_in.get(seat)
        if si is None:
            si = self.stand_in[seat] = StandIn(why)
        si.why = why
        si.moves.append(move)
        del si.moves[:-STAND_IN_KEPT]

    # a seat's own hand: a meld check, an arrangement

    def _check(self, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        k, groups = data.get("id"), data.get("groups")
        if isinstance(k, bool) or not isinstance(k, (int, str)) or (isinstance(k, str) and len(k) > 64):
            raise Bad("bad_request", '"id" must be a number (or a short text) to match the answer to')
        if (not isinstance(groups, list) or len(groups) > CHECK_GROUPS
                or any(not isinstance(g, list) or len(g) > CHECK_CARDS for g in groups)):
            raise Bad("bad_request", f'"groups" must be a list of at most {CHECK_GROUPS} groups, each a '
                      f'list of at most {CHECK_CARDS} cards like "7H"')
        parsed: list[list[Card]] = []
        for g in groups:
            cards = []
            for x in g:
                if not isinstance(x, str):
                    raise Bad("bad_request", f'a card is text like "7H", not {x!r:.20}')
                try:
                    cards.append(parse_card(x))
                except ValueError as e:
                    raise Bad("bad_request", str(e)) from None
            parsed.append(cards)
        seat = self._seated(seat, "check")
        g = self.table.game
        view = g.view(seat)
        hand = Counter(parse_card(c) for c in view["hand"])
        for c, n in Counter(c for grp in parsed for c in grp).items():
            if hand[c] < n:
                raise Bad("illegal", f"{c} is not in your hand" if not hand[c] else
                          f"{c} is in your hand {'once' if hand[c] == 1 else f'{hand[c]} times'}, "
                          f"not {n} times")
        down = bool(view["down"][seat])
        # going down in steps: the contract's melds this seat laid this turn (public, on the table)
        laid = [] if down else [m.to_reading() for m in g.table if m.owner == seat]
        checks, contract = check_groups(g.variant, view["round"], view["players"], parsed,
                                        down=down, hand=list(hand.elements()), laid=laid)
        return {"type": "check", "id": k, "groups": [c.public() for c in checks],
                "contract": None if contract is None else contract.public()}

    def _arrange(self, seat: int) -> dict[str, Any]:
        g = self.table.game
        view = g.view(seat)
        key = (view["round"], tuple(view["hand"]), view["down"][seat])
        got = self._arranged.get(seat)
        if got is None or got[0] != key:  # (a repeated ask of the same hand: the same answer)
            got = self._arranged[seat] = (key, arrange(view, g.variant))
        return {"type": "arrange", **got[1].public()}
