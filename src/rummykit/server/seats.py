"""A table's seats and connections, as data: :class:`Seat` (who sits there, how many
connections it has, whether a bot stands in for its person) and :class:`Conn` (one
websocket: its seat and its outgoing queue, cut off when its client stops reading).  The
Table (tables.py) keeps and changes them."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from .bots import STAND_IN
from .wire import LogCursor, encode


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    kind: str  # "human" or "bot:<level>"
    name: str
    token_hash: str | None = None
    connections: int = 0
    autoplay: str | None = None  # None, "away" (grace period over) or "asked" (by its player)
    grace: asyncio.Task[None] | None = None

    @property
    def bot(self) -> str | None:
        return self.kind[4:] if self.kind.startswith("bot:") else None

    @property
    def player(self) -> str | None:
        """The bot level playing this seat now, or None when a person plays it."""
        if self.bot:
            return self.bot
        return STAND_IN if self.autoplay else None

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name,
                "connected": self.bot is not None or self.connections > 0,
                "taken": self.bot is not None or self.token_hash is not None,
                "autoplay": self.autoplay is not None}


OVERFLOW = "\x00overflow"  # the writer closes a connection that fell this far behind (code 1013)
MAX_BEHIND = 200


@dataclass(eq=False)
class Conn:
    """One websocket connection: its seat (None: a spectator) and its outgoing queue."""

    seat: int | None
    out: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    behind: bool = False
    log: LogCursor | None = None  # a delta-log connection (?log=delta): what of the log it has
    greeted: bool = False  # it has had its first state message and the chat's log

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a message; a client that does not read is cut off (it reconnects and gets
        the whole state again) rather than let its queue grow without end."""
        if self.behind:
            return
        if self.out.qsize() >= MAX_BEHIND:
            self.behind = True
            self.out.put_nowait(OVERFLOW)
            return
        self.out.put_nowait(msg if isinstance(msg, str) else encode(msg))
