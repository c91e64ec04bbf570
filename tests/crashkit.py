"""Test helpers for crashes: ``rummykit serve`` processes that a test kills with SIGKILL and
starts again on the same database, clients that note what they sent and when they saw it
acknowledged, and the checks of what survived."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text

import rummykit as rk
from rummykit.engine.actions import format_action, parse_action
from rummykit.server.client import SeatClient, http_json
from rummykit.server.storage import make_engine, normalise_url


class ServerProc:
    """One ``rummykit serve`` process on 127.0.0.1:port; ``start`` again after ``kill``."""

    def __init__(self, db_url: str, port: int, *extra: str):
        self.db_url = db_url
        self.port = port
        self.extra = list(extra)
        self.base = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.errlog = tempfile.TemporaryFile()
        self.errs: list[str] = []

    def start(self, timeout: float = 60) -> None:
        assert self.proc is None or self.proc.poll() is not None
        self.errlog.seek(0)
        self.errlog.truncate()
        self.proc = subprocess.Popen([sys.executable, "-m", "rummykit.cli.main", "serve", "--port",
                                      str(self.port), "--db", self.db_url, *self.extra],
                                     stdout=subprocess.DEVNULL, stderr=self.errlog)
        self.starts += 1
        end = time.time() + timeout
        while True:
            try:
                status, _ = http_json("GET", self.base + "/api/health", timeout=2)
                if status == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > end:
                self.kill()
                raise RuntimeError("the server did not start: " + self.stderr())
            time.sleep(0.05)

    def stderr(self) -> str:
        self.errlog.seek(0)
        return self.errlog.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        if self.proc is not None:
            self.errs.append(self.stderr())

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.errs.append(self.stderr())
        self.proc = None

    def close(self) -> None:
        self.kill()
        self.errlog.close()


@dataclass
class Sent:
    """An action a client sent: at which table state, engine position and window."""

    seat: int
    state_id: int
    pos: int
    window: int | None
    action: str
    index: int  # how many messages the client had got when it sent it


@dataclass
class Tracked:
    """A bot-driven seat client that keeps every message with the server generation it
    came from, and every action it sent."""

    table: str
    seat: int | None
    client: SeatClient
    gen: list[int]  # the current server generation, shared with the test
    got: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)

    @classmethod
    def make(cls, base: str, tid: str, seat: int | None, token: str | None, level: str | None,
             gen: list[int], seed: int, also: tuple[str, ...] = (), think: float = 0.0) -> Tracked:
        from rummykit.server.client import bot_chooser

        # a quicker backoff than the default 0.5 s -> 10 s keeps the test short; the same code runs
        c = SeatClient(base, tid, token, None, keep=True, max_retries=60, also=also, retry_base=0.1,
                       retry_cap=1.0)
        c.rng.seed(seed)
        t = cls(tid, seat, c, gen)
        label = [gen[0]]  # the server generation a connection reached: the one up when it was tried
        # (a message read after a kill may come from the killed server's last writes)

        def status(s: str) -> None:
            if s == "connecting":
                label[0] = gen[0]

        c.on_status = status
        c.on_message = lambda m: t.got.append((label[0], m))
        if level is not None:
            inner = bot_chooser(level, seed)

            async def choose(msg: dict[str, Any]) -> str | None:
                if think:
                    await asyncio.sleep(think)
                a = await inner(msg)
                if a is not None:
                    w = msg.get("window")
                    t.sent.append(Sent(msg["seat"], msg["state_id"], msg["view"]["state_id"],
                                       w["state_id"] if w else None, a, len(c.messages)))
                return a

            c.choose = choose
        return t

    def states(self) -> list[tuple[int, dict[str, Any]]]:
        return [(g, m) for g, m in self.got if m.get("type") == "state"]


def canon(action: str) -> str:
    return format_action(parse_action(action))


Stored = tuple[dict[str, Any], list[tuple[int, str]], set[tuple[int, int, str]], int]


def stored(db_url: str, tid: str) -> Stored:
    """What the database holds of a table: its record, the actions as (seat, text), the claim
    answers (window, seat, answer), its state_id."""
    eng = make_engine(normalise_url(db_url))
    try:
        with eng.connect() as c:
            setup, sid = c.execute(text("SELECT setup, state_id FROM tables WHERE id = :t"), {"t": tid}).one()
            acts = [(int(s), str(x)) for s, x in c.execute(
                text('SELECT seat, "text" FROM actions WHERE table_id = :t ORDER BY seq'), {"t": tid})]
            claims = {(int(w), int(s), str(a)) for w, s, a in c.execute(
                text('SELECT "window", seat, answer FROM claims WHERE table_id = :t'), {"t": tid})}
    finally:
        eng.dispose()
    rec = dict(json.loads(setup), actions=[x for _, x in acts])
    return rec, acts, claims, int(sid)


def acknowledged(t: Tracked) -> list[tuple[Sent, str]]:
    """The actions ``t`` sent that a later state message acknowledged: ("turn", the engine
    moved past the position it acted at — only that seat could move it) or ("answer", the
    window it answered shows it answered)."""
    out: list[tuple[Sent, str]] = []
    msgs = t.client.messages
    for s in t.sent:
        later = [m for m in msgs[s.index:] if m.get("type") == "state"]
        if s.window is None:
            if any(m["view"]["state_id"] > s.pos for m in later):
                out.append((s, "turn"))
        elif any(m["window"] and m["window"]["state_id"] == s.window and m["window"]["answered"]
                 for m in later):
            out.append((s, "answer"))
    return out


def check_table(db_url: str, tid: str, clients: list[Tracked], restarts: bool = True) -> dict[str, int]:
    """Everything acknowledged is stored; state_ids grow across restarts and are never
    reused for another state; every state's ``legal`` outside a window is the engine's,
    rebuilt from the stored record.  ``restarts``: the generations are restarts of the one
    server, whose first states must be past everything seen before.  Returns counts."""
    rec, acts, claims, sid = stored(db_url, tid)
    texts = [canon(x) for _, x in acts]
    counts = {"turns": 0, "answers": 0, "states": 0}
    for t in clients:
        for s, kind in acknowledged(t):
            if kind == "turn":
                assert s.pos < len(acts), f"table {tid}: seat {s.seat}'s {s.action!r} at {s.pos} was lost"
                mine = {canon(x.action) for x in t.sent if x.pos == s.pos and x.window is None}
                assert acts[s.pos][0] == s.seat and texts[s.pos] in mine, \
                    f"table {tid}: position {s.pos} holds {texts[s.pos]!r}, not seat {s.seat}'s {s.action!r}"
                counts["turns"] += 1
            else:
                assert s.window is not None
                assert (s.window, s.seat, canon(s.action)) in {(w, st, canon(a)) for w, st, a in claims}, \
                    f"table {tid}: seat {s.seat}'s answer {s.action!r} to window {s.window} was lost"
                counts["answers"] += 1
    # state_ids: never backwards for a client; a restart's first state is past everything
    # seen before it; one state_id is one state (same view, legal, window for a seat)
    seen: dict[tuple[int | None, int], str] = {}
    top: dict[int, int] = {}
    for t in clients:
        last = -1
        for g, m in t.states():
            assert m["state_id"] >= last, f"table {tid}: state_id went back {last} -> {m['state_id']}"
            last = m["state_id"]
            top[g] = max(top.get(g, -1), m["state_id"])
            key = (m["seat"], m["state_id"])
            body = json.dumps({k: m[k] for k in ("status", "view", "legal", "seats", "autoplay")}
                              | {"window": m["window"] and {k: v for k, v in m["window"].items()}},
                              sort_keys=True)
            if seen.setdefault(key, body) != body:
                a, b = json.loads(seen[key]), json.loads(body)
                raise AssertionError(f"table {tid}: state_id {m['state_id']} was used for two different "
                                     f"states of seat {m['seat']}: {[k for k in a if a[k] != b[k]]} differ")
            counts["states"] += 1
    for t in clients if restarts else []:
        for g, m in t.states():
            earlier = [v for k, v in top.items() if k < g]
            assert not earlier or m["state_id"] > max(earlier), \
                f"table {tid}: state_id {m['state_id']} after restart {g} is not past {max(earlier)}"
    assert sid >= max(top.values(), default=0)
    # legal moves as the engine rebuilt from the stored record gives them
    by_pos: dict[int, list[dict[str, Any]]] = {}
    for t in clients:
        for _, m in t.states():
            if m["status"] == "playing" and m["window"] is None and m["seat"] is not None \
                    and not m["autoplay"]:
                by_pos.setdefault(m["view"]["state_id"], []).append(m)
    g = rk.replay(dict(rec, actions=[]))
    for pos in range(len(rec["actions"]) + 1):
        if pos:
            g.apply(rec["actions"][pos - 1])
        for m in by_pos.get(pos, []):
            want = [format_action(a) for a in g.legal_actions()] if g.current_player == m["seat"] else []
            assert m["legal"] == want, f"table {tid}: legal at {pos} for seat {m['seat']} is not the engine's"
    return counts


async def wait_all(tasks: list[asyncio.Task[Any]], timeout: float) -> None:
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for p in pending:
        p.cancel()
    for d in done:
        if d.exception() is not None:
            raise d.exception()  # type: ignore[misc]
