"""Test helpers for the server: a real uvicorn server on 127.0.0.1 in a thread, the
database fixtures (SQLite file, PostgreSQL throwaway cluster), and checks of what clients saw."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pg import create_database, free_port, pg_bin, pg_cluster

import rummykit as rk
from rummykit.server.client import SeatClient, bot_chooser, http_json, join_table


@contextmanager
def running_server(db_url: str, port: int | None = None, args: tuple[str, ...] = (),
                   log_into: list[str] | None = None) -> Iterator[str]:
    """``rummykit serve`` on a free port of 127.0.0.1 in its own process (so the test's
    clients and the server do not share one interpreter lock); yields the base URL.
    ``args``: more flags for serve (e.g. limits); ``log_into``: gets the server's log (its
    stderr) once it has stopped."""
    port = port or free_port()
    log = tempfile.TemporaryFile()  # the server's log (a pipe read only at the end would fill and stall it)
    proc = subprocess.Popen([sys.executable, "-m", "rummykit.cli.main", "serve", "--port", str(port),
                             "--db", db_url, *args], stdout=subprocess.DEVNULL, stderr=log)

    def logged() -> str:
        log.seek(0)
        return log.read().decode(errors="replace")

    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            status, _ = http_json("GET", base + "/api/tables", timeout=2)
            if status == 200:
                break
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            proc.wait(5)
            err = logged()
            log.close()
            raise RuntimeError("the test server did not start: " + err)
        time.sleep(0.05)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        err = logged()
        log.close()
        if log_into is not None:
            log_into.append(err)
        assert "Traceback" not in err, "the server failed:\n" + err


@pytest.fixture(scope="session")
def pg_base() -> Iterator[str | None]:
    if pg_bin() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test PostgreSQL, but initdb/pg_ctl are missing (.ci/run installs them)")
        yield None
        return
    with pg_cluster() as url:
        yield url


_counter = [0]


def _new_db(kind: str, folder: Any, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'server.db'}"
    base = request.getfixturevalue("pg_base")
    if base is None:
        pytest.skip("PostgreSQL is not installed here (CI installs it)")
    _counter[0] += 1
    return create_database(base, f"rk_test_{os.getpid()}_{_counter[0]}")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A fresh empty database of each kind."""
    return _new_db(request.param, tmp_path, request)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[str]:
    """A server on a fresh database of each kind, shared by a module's tests; its base URL."""
    with running_server(_new_db(request.param, tmp_path_factory.mktemp("db"), request)) as base:
        yield base


@pytest.fixture(scope="module")
def sqlite_served(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[str]:
    with running_server(_new_db("sqlite", tmp_path_factory.mktemp("db"), request)) as base:
        yield base


def create_table(base: str, **body: Any) -> str:
    body.setdefault("bot_delay", 0)
    status, data = http_json("POST", base + "/api/tables", body)
    assert status == 201, data
    return str(data["id"])


def table_state(base: str, tid: str) -> dict[str, Any]:
    status, data = http_json("GET", f"{base}/api/tables/{tid}")
    assert status == 200, data
    return dict(data)


async def play_table(base: str, tid: str, levels: list[str], *, spectators: int = 1,
                     timeout: float = 120) -> tuple[list[SeatClient], list[SeatClient]]:
    """Join every human seat with a bot-driven client (in seat order), add spectators,
    and play to the end.  Every message each client got is kept."""
    players = []
    for i, lvl in enumerate(levels):
        _, token = join_table(base, tid, f"P{i}")
        players.append(SeatClient(base, tid, token, bot_chooser(lvl, i), keep=True))
    # the seats ask for the log as what is new (delta), as the browser does; spectators take
    # turns, the first one with the whole log in every message
    watchers = [SeatClient(base, tid, None, None, keep=True, delta=bool(k % 2)) for k in range(spectators)]
    await asyncio.wait_for(asyncio.gather(*(c.run() for c in players + watchers)), timeout)
    return players, watchers


def plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


PUBLIC_CARDS = ("melds", "meld_info", "discard_pile", "discard_top", "log", "last_round", "known", "hand")


def check_views(record: dict[str, Any], clients: list[SeatClient]) -> int:
    """Every state message's view is exactly the engine's view for its seat at that
    position (rebuilt from the finished game's record), and holds no other seat's hand.
    Returns how many views were checked."""
    wanted: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
    for c in clients:
        for m in c.messages:
            if m["type"] == "state":
                wanted.setdefault(m["view"]["state_id"], []).append((m["seat"], m["view"]))
    rec = dict(record, actions=[])
    g = rk.replay(rec)
    checked = 0
    actions = record["actions"]
    for pos in range(len(actions) + 1):
        if pos > 0:
            g.apply(actions[pos - 1])
        if pos not in wanted:
            continue
        views: dict[int | None, Any] = {s: plain(g.view(s)) for s in [None, *range(g.n)]}
        hands = {s: views[s]["hand"] for s in range(g.n)}
        for seat, view in wanted[pos]:
            assert view == views[seat], f"seat {seat}'s view at {pos} differs from the engine's"
            # the view less what every seat may see (melds, the pile, the log, the last deal's
            # result with every hand, cards seen going into hands) and less its own hand (with
            # two decks it may hold the same cards as another seat): no other seat's hand in it
            for s in range(g.n):
                # another seat's hand, unless all of it was seen in public (then no secret)
                if s != seat and len(hands[s]) >= 3 and hands[s] != view["known"][s]:
                    where = [k for k, v in view.items() if k not in PUBLIC_CARDS
                             and json.dumps(hands[s])[1:-1] in json.dumps(v)]
                    assert not where, f"seat {s}'s hand {hands[s]} in seat {seat}'s {where} at {pos}"
            checked += 1
    assert checked == sum(len(v) for v in wanted.values()), "a view's position is past the game's end"
    return checked


class Raw:
    """A bare websocket client for tests that send exactly what they want."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, base: str, tid: str, token: str | None) -> Raw:
        import websockets

        from rummykit.server.client import ws_url

        return cls(await websockets.connect(ws_url(base, tid, token), max_size=2**24))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg.get("type") == "state":
            self.state = msg
        return dict(msg)

    async def until(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        """Read messages until a state message satisfies ``pred``."""
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no such state came")
            m = await self.recv(left)
            if m.get("type") == "state" and pred(m):
                return m

    async def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Messages that come within ``seconds`` (a ping's pong marks the end)."""
        await self.send({"type": "ping"})
        out = []
        end = time.time() + seconds + 5
        while time.time() < end:
            m = await self.recv(end - time.time())
            if m.get("type") == "pong":
                break
            out.append(m)
        return out

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def act(self, action: str, state_id: int | None = None) -> None:
        assert self.state is not None
        sid = self.state["state_id"] if state_id is None else state_id
        await self.send({"type": "act", "state_id": sid, "action": action})

    async def close(self) -> None:
        await self.ws.close()


def metrics(base: str) -> dict[str, float]:
    """A server's ``/metrics``, parsed: ``{'name{label="value",...}': value}``."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/plain"), r.headers["Content-Type"]
        text = r.read().decode()
    out = {}
    for fam in text_string_to_metric_families(text):
        for x in fam.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(x.labels.items()))
            out[x.name + (f"{{{labels}}}" if labels else "")] = x.value
    return out
