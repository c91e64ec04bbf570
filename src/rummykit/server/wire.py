"""State messages to JSON text, cheaply, and the log sent as what is new.

Encoding: orjson (compact JSON, the same data as ``json.dumps``), several times faster than the
standard library on a state message, most of which is the round's log in words.

The log (opt-in, ``?log=delta`` on the websocket URL; the browser app and ``rummykit join``
ask for it): the view's ``log`` is the whole round's log, resent in every state message, and
was most of every message's bytes (and of the time spent compressing and sending them).  On
such a connection a state message carries ``"log_from": k`` and ``view["log"]`` holds only
the entries from index k on: the client keeps the entries before k from the messages it had
(k = 0: the whole log, as on a new connection or in a new deal).  A connection without the
option gets the whole log every time, as before.

:class:`Refused`: a client's message the table refuses, answered to that client alone.
"""

from __future__ import annotations

from typing import Any

import orjson


def encode(msg: dict[str, Any]) -> str:
    """``msg`` as JSON text (keys that are not strings, e.g. seat numbers, become strings)."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


class LogCursor:
    """Where one delta-log connection stands: the deal and how much of its log it has."""

    __slots__ = ("round", "sent")

    def __init__(self) -> None:
        self.round: Any = None
        self.sent = 0

    def advance(self, view: dict[str, Any]) -> tuple[int, int | None]:
        """The index from which ``view``'s log is new to this connection (0: all of it), and
        note that it has all of it now; and, when ``view`` is the first of the next deal, how
        much of the deal before's log the connection had (its last events it never saw)."""
        log, rnd = view["log"], view["round"]
        start = self.sent if rnd == self.round and self.sent <= len(log) else 0
        ended = self.sent if isinstance(self.round, int) and rnd == self.round + 1 else None
        self.round, self.sent = rnd, len(log)
        return start, ended


def with_log_from(msg: dict[str, Any], start: int, log_end: list[Any] | None = None) -> dict[str, Any]:
    """``msg`` for a delta-log connection: its view's log from ``start`` on; ``log_end``: the
    last events of the deal before that it has not had (the move that ended the deal)."""
    view = msg["view"]
    if start:
        view = dict(view, log=view["log"][start:])
    out = {**msg, "view": view, "log_from": start}
    if log_end is not None:
        out["log_end"] = log_end
    return out


class Refused(Exception):
    """A client's message refused: answered with an ``error`` message (``code``, ``message``)
    to its sender alone, changing nothing (the codes: docs/protocol.md)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
