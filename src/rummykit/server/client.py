"""A websocket client that plays one seat at a table on a rummykit server.

Used by ``rummykit join`` (a bot or a person in the terminal), by the tests and by the
round-trip benchmark.  It only ever sees what the server sends its seat.
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, format_action, parse_action
from ..players import make_player
from ..rules.registry import Variant, build_spec, get_variant

Chooser = Callable[[dict[str, Any]], Awaitable[str | None]]


class JoinError(Exception):
    """The server refused the join (or could not be reached); the message says why."""


def split_table_url(url: str) -> tuple[str, str]:
    """``http://host:8000/t/abc`` -> (``http://host:8000``, ``abc``)."""
    p = urllib.parse.urlsplit(url)
    parts = [x for x in p.path.split("/") if x]
    if p.scheme not in ("http", "https") or len(parts) < 2 or parts[-2] != "t":
        raise JoinError(f"{url!r} is not a table link like http://127.0.0.1:8000/t/<id>")
    return f"{p.scheme}://{p.netloc}", parts[-1]


def http_json(method: str, url: str, body: Any = None, timeout: float = 10) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except ValueError:
            return e.code, None


def join_table(base: str, tid: str, name: str, seat: int | None = None) -> tuple[int, str]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    try:
        status, data = http_json("POST", f"{base}/api/tables/{tid}/join", body)
    except OSError as e:
        raise JoinError(f"cannot reach {base}: {e}") from None
    if status != 200:
        detail = data.get("detail") if isinstance(data, dict) else data
        raise JoinError(f"the server refused the join ({status}): {detail}")
    return data["seat"], data["token"]


def ws_url(base: str, tid: str, token: str | None, delta: bool = False) -> str:
    """The table's websocket URL; ``delta``: state messages carry only the log entries that are
    new to this connection (``log_from``; see docs/protocol.md)."""
    u = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + f"/ws/tables/{tid}"
    q = ([] if token is None else ["token=" + urllib.parse.quote(token)]) + (["log=delta"] if delta else [])
    return u + ("?" + "&".join(q) if q else "")


def whole_log(msg: dict[str, Any], log: list[Any]) -> list[Any]:
    """A state message of a delta-log connection made whole again: its view's log becomes the
    entries before ``log_from`` that this connection had (``log``) plus the new ones.  Returns
    the whole log (to pass with the next message).  A gap (which the server never makes on one
    connection) is an OSError, so the client reconnects and gets the whole log."""
    k = msg.get("log_from")
    if k is None:
        return log
    if k > len(log):
        raise ConnectionError(f"the log resumes at {k} but this connection has {len(log)} entries")
    msg["view"]["log"] = whole = log[:k] + msg["view"]["log"]
    return whole


def table_variant(table: dict[str, Any], ruleset: str) -> Variant:
    """The table's ruleset with its house rules, from a state message's ``table``."""
    if table.get("rules"):
        raw = table["rules"]
        v = Variant(build_spec(raw, "table rules"), raw)
    else:
        v = get_variant(ruleset)
    return v.with_options(table.get("options") or None)


def bot_chooser(level: str, seed: int = 0) -> Chooser:
    """A chooser that asks a rummykit bot, from the seat's view and legal texts only."""

    async def choose(msg: dict[str, Any]) -> str | None:
        legal: list[Action] = [parse_action(t) for t in msg["legal"]]
        view = msg["view"]
        variant = table_variant(msg.get("table") or {}, view["ruleset"])
        bot = make_player(level, seed=seed * 1_000_003 + view["state_id"], variant=variant)
        if level.startswith("hard"):
            a = await asyncio.get_running_loop().run_in_executor(None, bot.choose, view, legal)
        else:
            a = bot.choose(view, legal)
        return format_action(a)

    return choose


@dataclass
class SeatClient:
    """Plays one seat: on every state message that lets it act, asks ``choose`` and sends
    the action.  When the connection drops it reconnects by itself with exponential backoff
    and jitter (``retry_base`` doubling up to ``retry_cap`` seconds, each wait drawn from
    75-125 % of that), resuming the seat with its token; ``on_status`` hears of it
    ("connecting" before each attempt, "<why>: reconnecting in <s> s ...", "reconnected")
    so a person can be told.  ``also``: other addresses
    of the same service (e.g. the processes behind a load balancer), tried in turn."""

    base: str
    table: str
    token: str | None
    choose: Chooser | None = None
    on_message: Callable[[dict[str, Any]], None] | None = None
    max_retries: int = 30  # consecutive failed attempts before giving up (about 4.5 min)
    messages: list[dict[str, Any]] = field(default_factory=list)
    keep: bool = False  # keep every message in ``messages`` (tests)
    last: dict[str, Any] | None = None
    acted_on: int = -1
    errors: list[dict[str, Any]] = field(default_factory=list)
    on_status: Callable[[str], None] | None = None
    retry_base: float = 0.5
    retry_cap: float = 10.0
    also: tuple[str, ...] = ()
    connects: int = 0  # successful connections so far (the first one included)
    rng: random.Random = field(default_factory=random.Random)
    delta: bool = True  # ask for the log as what is new (messages are still kept whole)

    def backoff(self, tries: int) -> float:
        """The wait before attempt ``tries`` (1, 2, ...): exponential, capped, jittered."""
        d = min(self.retry_cap, self.retry_base * 2 ** max(0, tries - 1))
        return d * self.rng.uniform(0.75, 1.25)

    def _status(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    async def run(self, until_over: bool = True) -> dict[str, Any] | None:
        """Play until the game is over; returns the last state message."""
        import websockets

        bases = [self.base, *self.also]
        tries = 0
        k = 0
        while True:
            base = bases[k % len(bases)]
            got = len(self.messages), self.last
            self._status("connecting")
            try:
                async with websockets.connect(ws_url(base, self.table, self.token, self.delta),
                                              max_size=2**24, open_timeout=10) as ws:
                    self.connects += 1
                    if self.connects > 1:
                        self._status("reconnected")
                    done = await self._session(ws, until_over)
                    if done:
                        return self.last
                    reason = "the server closed the connection"
            except (TimeoutError, OSError, websockets.exceptions.ConnectionClosedError,
                    websockets.exceptions.InvalidHandshake) as e:
                if isinstance(e, websockets.exceptions.ConnectionClosedError) and e.rcvd is not None:
                    if e.rcvd.code == 4403:
                        raise JoinError("the server refused this seat's token") from None
                    if e.rcvd.code == 4404:
                        raise JoinError(f"there is no table {self.table} at {base}") from None
                reason = "cannot reach the server" if isinstance(e, OSError) else "the connection was lost"
            if (len(self.messages), self.last) != got:
                tries = 0  # it worked for a while: the backoff starts again
            tries += 1
            if tries > self.max_retries:
                raise JoinError(f"lost the connection to {self.base} and could not get it back") from None
            k += 1
            wait = self.backoff(tries)
            self._status(f"{reason}: reconnecting in {wait:.1f} s (attempt {tries})")
            await asyncio.sleep(wait)

    async def _session(self, ws: Any, until_over: bool) -> bool:
        log: list[Any] = []
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "state":
                log = whole_log(msg, log)
            if self.keep:
                self.messages.append(msg)
            if self.on_message is not None:
                self.on_message(msg)
            if msg.get("type") == "error":
                self.errors.append(msg)
                if msg.get("code") == "bad_request" and "token" in msg.get("message", ""):
                    raise JoinError(msg["message"])
                continue
            if msg.get("type") != "state":
                continue
            self.last = msg
            if msg["status"] == "over" and until_over:
                return True
            if self.choose is not None and msg["legal"] and msg["state_id"] > self.acted_on:
                w = msg.get("window")
                key = w["state_id"] if w else msg["state_id"]
                if w and self.acted_on >= key:
                    continue  # this offer is answered already
                action = await self.choose(msg)
                if action is None:
                    continue
                self.acted_on = msg["state_id"]
                await ws.send(json.dumps({"type": "act", "state_id": msg["state_id"], "action": action}))
        return False
