"""Limits against hostile or broken clients (docs/protocol.md, "Limits").

One :class:`Limits` per server, given to ``create_app(limits=...)`` and set by
``rummykit serve`` flags.  A limit of 0 is no limit (for benchmarks and trusted set-ups).

- ``ws_max_message``: bytes of one websocket message; a bigger one closes the socket with
  1009 ("message too big").  uvicorn is started with the same ``ws_max_size``, so a big
  frame is refused by the protocol layer before it is buffered whole.
- ``ws_rate`` / ``ws_burst``: a token bucket per connection: ``ws_burst`` messages at once,
  refilled at ``ws_rate`` a second.  A message over it is not dropped: the server waits
  before handling it, so a client that waits for its answers (a bot at a table with no bot
  delay, ``rummykit join``) is only slowed down, however long it plays, and a flood costs
  the server no more than ``ws_rate`` messages a second.  What a client sent and the
  server has not handled yet is its backlog (:class:`Inbox`): a paced client's is a
  message or two; one that keeps sending without waiting makes it grow, and at more than
  ``FLOOD * ws_burst`` messages (or ``FLOOD * ws_max_message`` bytes) it gets an ``error``
  ``rate_limited`` and the socket is closed with 1008 ("policy violation").
- ``ws_per_ip``: websockets open at once from one client address; one more is refused at
  the handshake with HTTP 429 and a JSON ``detail``.
- ``tables_per_ip`` / ``tables_window``: tables one client address may create within any
  ``tables_window`` seconds; one more gets 429.
- ``http_max_body``: bytes of a request body; a bigger one gets 413 before it is read whole.

Addresses are the socket's peer as the ASGI server gives it (behind a reverse proxy, run
uvicorn with ``--proxy-headers`` semantics or every client is the proxy).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


FLOOD = 5  # the backlog, in units of ws_burst (and of ws_max_message bytes), that closes a socket


@dataclass(frozen=True)
class Limits:
    ws_max_message: int = 64 * 1024
    ws_rate: float = 20.0
    ws_burst: int = 40
    ws_per_ip: int = 100
    tables_per_ip: int = 30
    tables_window: float = 60.0
    http_max_body: int = 512 * 1024

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ValueError(f"limit {f.name} must be a number >= 0 (0: no limit), not {v!r}")
        if self.ws_rate and not self.ws_burst:
            raise ValueError("limit ws_burst must be at least 1 when ws_rate is set")

    @classmethod
    def none(cls) -> Limits:
        """No limits at all (benchmarks on a trusted machine)."""
        return cls(**{f.name: 0 for f in fields(cls)})


class Bucket:
    """A token bucket: ``burst`` at once, ``rate`` a second after that (rate 0: unlimited)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.at = clock()

    def delay(self) -> float:
        """Take a token: 0 when one was there, else the seconds to wait before going on (the
        token is taken in advance: waiting pays it back)."""
        if not self.rate:
            return 0.0
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


CLOSED = "\x00closed"  # Inbox.get: the client went away (after what it sent before is handled)
FLOODING = "\x00flooding"  # ... its backlog passed the limit: close the socket with 1008, at once
OVERSIZE = "\x00oversize"  # ... a message over ws_max_message: close with 1009, at once


class Inbox:
    """One websocket's messages read from the client and not handled yet: its backlog.

    A reader task puts each message as it comes (:meth:`put`); the handler takes them in
    order (:meth:`get`), waiting for the rate limit between them.  A client that waits for
    its answers never has more than a message or two here, however fast it plays; one that
    keeps sending without waiting fills it, and past ``FLOOD * ws_burst`` messages or
    ``FLOOD * ws_max_message`` bytes :meth:`put` says so (the socket is then closed with
    1008).  Without a rate limit nothing is judged a flood, and the reader waits while 64
    messages are waiting (the socket's own buffers then hold the rest, as before)."""

    PAUSE = 64

    def __init__(self, limits: Limits):
        self.items: deque[str] = deque()
        self.size = 0  # bytes (characters) waiting
        self.end: str | None = None  # CLOSED, FLOODING or OVERSIZE once no more will come
        self.code: int | None = None  # the close code the client sent, once it closed
        self.max_items = FLOOD * limits.ws_burst if limits.ws_rate else 0
        self.max_size = FLOOD * limits.ws_max_message if limits.ws_rate and limits.ws_max_message else 0
        self._ready = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self.most = 0  # the largest backlog seen (tests, metrics)

    def put(self, text: str) -> bool:
        """A message read from the client; False (nothing kept) when the backlog passes the
        limit: a flood."""
        if self.max_items and (len(self.items) >= self.max_items
                               or (self.max_size and self.size + len(text) > self.max_size)):
            return False
        self.items.append(text)
        self.size += len(text)
        self.most = max(self.most, len(self.items))
        self._ready.set()
        if not self.max_items and len(self.items) >= self.PAUSE:
            self._room.clear()
        return True

    def close(self, why: str) -> None:
        """No more messages: ``CLOSED`` (the client left; what it sent is still handled),
        ``FLOODING`` or ``OVERSIZE`` (handled before anything waiting)."""
        if self.end is None:
            self.end = why
        self._ready.set()

    async def room(self) -> None:
        """Wait until the reader may read on (at once unless 64 wait with no rate limit)."""
        await self._room.wait()

    async def get(self) -> str:
        """The next message, or the end: FLOODING and OVERSIZE come before what waits,
        CLOSED after it."""
        while True:
            if self.end in (FLOODING, OVERSIZE):
                return self.end
            if self.items:
                text = self.items.popleft()
                self.size -= len(text)
                if len(self.items) < self.PAUSE:
                    self._room.set()
                return text
            if self.end is not None:
                return self.end
            self._ready.clear()
            await self._ready.wait()


class PerIP:
    """Counts per client address: open websockets and recent table creations."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self.sockets: dict[str, int] = {}
        self.created: dict[str, deque[float]] = {}

    def open_socket(self, ip: str) -> bool:
        """Count one more websocket from ``ip``; False (nothing counted) when over the limit."""
        n = self.sockets.get(ip, 0)
        if self.limits.ws_per_ip and n >= self.limits.ws_per_ip:
            return False
        self.sockets[ip] = n + 1
        return True

    def close_socket(self, ip: str) -> None:
        n = self.sockets.get(ip, 0) - 1
        if n > 0:
            self.sockets[ip] = n
        else:
            self.sockets.pop(ip, None)

    def create_table(self, ip: str) -> float:
        """Count a table created by ``ip``: 0, or the seconds to wait when over the limit
        (then nothing is counted)."""
        cap, window = self.limits.tables_per_ip, self.limits.tables_window
        if not cap:
            return 0.0
        now = self.clock()
        q = self.created.setdefault(ip, deque())
        while q and q[0] <= now - window:
            q.popleft()
        if len(q) >= cap:
            return max(0.001, q[0] + window - now)
        q.append(now)
        if len(self.created) > 10_000:  # forget addresses with nothing recent
            for k in [k for k, v in self.created.items() if not v or v[-1] <= now - window]:
                del self.created[k]
        return 0.0


def client_ip(scope: Scope) -> str:
    c = scope.get("client")
    return str(c[0]) if c else "unknown"


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes gets 413 with a JSON
    ``detail`` (by its Content-Length at once, else as soon as the stream passes it)."""

    def __init__(self, app: ASGIApp, limit: int, on_refused: Callable[[Scope, str], None] | None = None):
        self.app = app
        self.limit = limit
        self.on_refused = on_refused  # told of each request refused (413), with what it was told

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.limit:
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    n = int(v)
                except ValueError:
                    await _json(send, 400, "Content-Length is not a number")
                    return
                if n > self.limit:
                    await self._refuse(scope, send)
                    return
        # read the body here (bounded), then hand it to the app
        chunks: list[bytes] = []
        size = 0
        while True:
            m = await receive()
            if m["type"] == "http.disconnect":
                return
            body = m.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._refuse(scope, send)
                return
            chunks.append(body)
            if not m.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        detail = f"the request body is larger than {self.limit} bytes"
        if self.on_refused is not None:
            self.on_refused(scope, detail)
        await _json(send, 413, detail)


async def _json(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
