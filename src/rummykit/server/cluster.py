"""Several ``rummykit serve`` processes on one database (PostgreSQL), each table owned by
one process at a time.

Ownership is a lease row (``tables.owner``, ``owner_url``, ``lease_until`` by the
database's clock; migration 0002), not a PostgreSQL advisory lock: every write of a table
renews its lease *only while this process still owns it*, in the same transaction (the
fence, see ``Storage.save``), so a process that stalled past its lease and lost the table
can never write to it again; a lock held by a session fences nothing (the stalled process's
other connection still writes), and it depends on the database noticing the dead socket.
A heartbeat renews the leases of the tables in memory every third of the lease and takes
over the tables whose owner's lease ran out (a killed process), rebuilding them from
storage; they get a new state_id (``Hub.resume``), so state_ids go on growing.

A request for a table owned by another live process is relayed to it: HTTP requests are
forwarded, websockets are pumped both ways to the owner's ``--advertise-url`` — so a
client may reach any process (a load balancer needs no sticky sessions, the clients no
change).  Relaying through PostgreSQL LISTEN/NOTIFY was not chosen: a NOTIFY payload is
limited to 8000 bytes (a state message is larger), and the non-owner would have to rebuild
each seat's view itself.  A relayed request carries ``x-rummykit-relayed``; a process that
gets one for a table it does not own answers 503 / closes 1013 (try again) rather than
relay twice, and the client's retry finds the owner.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import re
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .storage import StoredTable
from .tables import OVERFLOW, Hub

log = logging.getLogger("rummykit.server.cluster")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([^/]+)")
RELAYED = "x-rummykit-relayed"
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te",
               "trailer", "content-length"}


class Cluster:
    """This process's part: the leases of its tables, the heartbeat, takeovers."""

    def __init__(self, hub: Hub, node: str, url: str):
        self.hub = hub
        self.node = node
        self.url = url.rstrip("/")
        self.storage = hub.storage
        self.lease = hub.storage.lease_seconds
        self.task: asyncio.Task[None] | None = None
        self.taken_over: list[str] = []  # tables this process took from a dead owner (for /api/health)

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def lost(tid: str) -> None:
            loop.call_soon(self.drop, tid)

        self.storage.on_lost = lost
        self.task = loop.create_task(self._beat())

    async def stop(self) -> None:
        """A clean shutdown: the tables stop here, then are given up at once (another
        process takes them over without waiting for the leases to run out)."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        self.hub.stop()
        try:
            self.storage.release(list(self.hub.tables))
        except Exception:
            log.exception("could not release the leases")

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                self.beat()
            except Exception:  # the database may be away for a moment: try again next beat
                log.exception("cluster heartbeat failed")

    def beat(self) -> None:
        held = self.storage.renew(list(self.hub.tables))
        for tid in set(self.hub.tables) - held:
            self.drop(tid)
        for tid in self.storage.free_tables()[:50]:
            if tid not in self.hub.tables and self.storage.take(tid) == "mine":
                self.adopt(tid, takeover=True)

    def adopt(self, tid: str, takeover: bool = False) -> None:
        """Serve a table whose lease this process has just taken: rebuilt from storage, it
        goes on where its last owner stopped."""
        st: StoredTable | None = self.storage.load(tid)
        if st is None:
            return
        try:
            t = self.hub._rebuild(st)
        except Exception:
            log.exception("table %s could not be rebuilt; left as it is", tid)
            return
        self.hub.tables[tid] = t
        if takeover:
            self.taken_over.append(tid)
            log.info("table %s taken over: its process stopped renewing its lease", tid,
                     extra={"event": "takeover", "table": tid, "node": self.node})
        self.hub.resume(t)

    def drop(self, tid: str) -> None:
        """This process lost the table's lease: forget it and close its sockets with 1013
        ("try again later"): the clients reconnect and are relayed to the new owner."""
        t = self.hub.tables.pop(tid, None)
        if t is None:
            return
        log.warning("table %s: lease lost (another process took it over), dropped here", tid,
                    extra={"event": "lease_lost", "table": tid, "node": self.node})
        conns = list(t.conns)
        t.conns.clear()
        t.stop()
        for c in conns:
            c.out.put_nowait(OVERFLOW)

    def locate(self, tid: str) -> str | None:
        """None: serve it here (this process owns it, or there is no such table);
        else the owner's URL."""
        if len(tid) > 32:
            return None
        if tid in self.hub.tables:
            return None  # held: the heartbeat drops it the moment the lease is lost
        got = self.storage.take(tid)
        if got == "mine":
            self.adopt(tid, takeover=True)  # reached by a client first: a takeover all the same
            return None
        if got == "none":
            return None
        return self.storage.owner_url(tid)


class Relay:
    """ASGI middleware: requests for a table owned elsewhere go to its owner; the lobby's
    list gathers every process's tables."""

    def __init__(self, app: ASGIApp, holder: dict[str, Any]):
        self.app = app
        self.holder = holder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster: Cluster | None = self.holder.get("cluster")
        if cluster is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        path = scope.get("path", "")
        if scope["type"] == "http" and path == "/api/tables" and scope["method"] == "GET" \
                and RELAYED not in headers:
            await self._lobby(cluster, send)
            return
        m = TABLE_PATH.match(path)
        owner = cluster.locate(m.group(1)) if m else None
        if owner is None:
            await self.app(scope, receive, send)
        elif RELAYED in headers or owner.rstrip("/") == cluster.url:
            await _refuse(scope, receive, send)  # ownership moved meanwhile: the client tries again
        elif scope["type"] == "http":
            await _relay_http(cluster, owner, scope, headers, receive, send)
        else:
            await _relay_ws(cluster, owner, scope, headers, receive, send)

    async def _lobby(self, cluster: Cluster, send: Send) -> None:
        tables = cluster.hub.listing()
        for peer in cluster.storage.peers():
            if peer.rstrip("/") == cluster.url:
                continue
            try:
                status, body = await asyncio.to_thread(_fetch, peer, "GET", "/api/tables",
                                                       {RELAYED: cluster.node}, b"", 3.0)
                if status == 200:
                    tables.extend(json.loads(body)["tables"])
            except (OSError, ValueError, KeyError):
                continue  # a process that just died: its tables come back once taken over
        tables.sort(key=lambda t: t.get("created", 0))
        await _respond(send, 200, json.dumps({"tables": tables}).encode())


def _fetch(base: str, method: str, target: str, headers: dict[str, str], body: bytes,
           timeout: float) -> tuple[int, bytes]:
    u = urllib.parse.urlsplit(base)
    conn_cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    conn = conn_cls(u.netloc, timeout=timeout)
    try:
        conn.request(method, target, body=body or None, headers=headers)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


async def _respond(send: Send, status: int, body: bytes,
                   extra: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "http":
        await _respond(send, 503, json.dumps({"detail": "this table is moving to another server; "
                                              "try again in a moment"}).encode(), [(b"retry-after", b"1")])
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.close", "code": 1013})


def forwarded_for(scope: Scope, headers: dict[str, str]) -> dict[str, str]:
    """X-Forwarded-For for a relayed request: the client's address after any already there,
    so that the owner (run with --forwarded-allow-ips naming its peers) counts the per-address
    limits by the client, not by the relaying process."""
    client = scope.get("client")
    if not client:
        return {}
    before = headers.get("x-forwarded-for")
    return {"x-forwarded-for": f"{before}, {client[0]}" if before else str(client[0])}


async def _relay_http(cluster: Cluster, owner: str, scope: Scope, headers: dict[str, str],
                      receive: Receive, send: Send) -> None:
    body = b""
    while True:
        msg = await receive()
        body += msg.get("body", b"")
        if not msg.get("more_body"):
            break
    target = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
    if scope.get("query_string"):
        target += "?" + scope["query_string"].decode("latin-1")
    fwd = {k: v for k, v in headers.items() if k not in HOP_HEADERS} | {RELAYED: cluster.node,
                                                                        **forwarded_for(scope, headers)}
    try:
        status, out = await asyncio.to_thread(_fetch, owner, scope["method"], target, fwd, body, 15.0)
    except OSError:
        detail = "the server holding this table is not answering; try again in a few seconds"
        await _respond(send, 503, json.dumps({"detail": detail}).encode(), [(b"retry-after", b"2")])
        return
    await _respond(send, status, out)


async def _relay_ws(cluster: Cluster, owner: str, scope: Scope, headers: dict[str, str],
                    receive: Receive, send: Send) -> None:
    import websockets

    first = await receive()
    if first["type"] != "websocket.connect":
        return
    base = owner.rstrip("/").replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    target = base + scope["path"] + ("?" + scope["query_string"].decode("latin-1")
                                     if scope.get("query_string") else "")
    try:
        upstream = await websockets.connect(target, max_size=2**24, open_timeout=5,
                                            additional_headers={RELAYED: cluster.node,
                                                                **forwarded_for(scope, headers)})
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
        await send({"type": "websocket.close", "code": 1013})  # the owner is away: try again later
        return
    await send({"type": "websocket.accept"})

    async def down() -> None:  # owner -> client
        code = 1013
        try:
            async for m in upstream:
                await send({"type": "websocket.send", "text": m} if isinstance(m, str)
                           else {"type": "websocket.send", "bytes": m})
            code = upstream.close_code or 1000
        except websockets.exceptions.ConnectionClosed as e:
            if e.rcvd is not None:
                code = e.rcvd.code
        try:
            await send({"type": "websocket.close", "code": code})
        except Exception:
            pass  # the client went first

    async def up() -> None:  # client -> owner
        while True:
            m = await receive()
            if m["type"] == "websocket.receive":
                data = m.get("text")
                await upstream.send(data if data is not None else m.get("bytes") or b"")
            elif m["type"] == "websocket.disconnect":
                return

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await upstream.close()
