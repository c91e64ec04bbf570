"""Hostile clients against the server, in process (Starlette's TestClient, which re-raises any
exception of the app): malformed, mistyped, oversized, out-of-order, stale, wrong-table and
wrong-token messages, and bad HTTP requests, mixed with real moves so the games go on.

Each one is answered with an error or a dropped connection; the server keeps answering; a
refused message changes nothing (the table's state_id and the engine's actions are the same
after it); and every state message a seat or a spectator gets is exactly the engine's view
for it at that position, holding no other seat's hand (serverkit.check_views).

    RUMMYKIT_FUZZ_MESSAGES=100000 RUMMYKIT_FUZZ_SECONDS=1800 pytest tests/test_server_fuzz.py

runs the long version (5,000 messages by default; the time bound stops it early, saying so).
The limits themselves (size, rate, connections and tables per address, body size) have their
own tests here, the size ones also through a real socket.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import string
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serverkit import check_views, plain
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

import rummykit as rk
from rummykit.server import create_app
from rummykit.server.client import whole_log
from rummykit.server.limits import CLOSED, FLOOD, FLOODING, Bucket, Inbox, Limits, PerIP
from rummykit.server.tables import Table
from rummykit.server.wire import LogCursor, encode, with_log_from

MESSAGES = int(os.environ.get("RUMMYKIT_FUZZ_MESSAGES", "5000"))
SECONDS = float(os.environ.get("RUMMYKIT_FUZZ_SECONDS", "240"))
RULESETS = [("may-i", {"deals": 1}), ("contract", {"deals": 1}), ("basic", {"target": 30})]
CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"] + ["JK"]


def app_for(tmp: Path, **limits: Any) -> Any:
    return create_app(f"sqlite:///{tmp / 'fuzz.db'}", static_dir=tmp / "no-static",
                      limits=Limits(**limits))


class Session:
    """One websocket of the TestClient with every message it got."""

    def __init__(self, client: TestClient, tid: str, token: str | None, seat: int | None):
        self.client, self.tid, self.token, self.seat = client, tid, token, seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.dirty = True  # messages may be waiting
        self._cm: Any = None
        self.ws: Any = None
        self.open()

    def open(self) -> None:
        q = "" if self.token is None else f"?token={self.token}"
        self._cm = self.client.websocket_connect(f"/ws/tables/{self.tid}{q}")
        self.ws = self._cm.__enter__()
        self.dirty = True

    def close(self) -> None:
        try:
            self._cm.__exit__(None, None, None)
        except Exception:
            pass

    def recv(self) -> dict[str, Any]:
        m = self.ws.receive_json()
        self.messages.append(m)
        if m.get("type") == "state":
            self.state = m
        return dict(m)

    def drain(self) -> list[dict[str, Any]]:
        """Every message up to the answer of a ping (which marks the end)."""
        self.ws.send_text('{"type": "ping"}')
        out = []
        while True:
            m = self.recv()
            if m.get("type") == "pong":
                self.messages.pop()
                self.dirty = False
                return out
            out.append(m)

    def sync(self) -> None:
        if self.dirty:
            self.drain()


def table_of(client: TestClient, tid: str) -> Table:
    t = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    assert isinstance(t, Table)
    return t


def position(t: Table) -> tuple[int, list[str], dict[int, str] | None]:
    return t.state_id, list(t.game.actions), None if t.window is None else dict(t.window.answers)


def cheap_move(rng: random.Random, legal: list[str]) -> str:
    for x in legal:
        if x.startswith(("meld", "layoff")):
            return x
    if "draw" in legal and rng.random() < 0.8:
        return "draw"
    if "pass" in legal and rng.random() < 0.7:
        return "pass"
    return rng.choice(legal)


def junk_text(rng: random.Random) -> str:
    kind = rng.randrange(9)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 80)))
    if kind == 1:
        return '{"type": "act", "state_id": 1, "action": "draw"'  # truncated
    if kind == 2:
        return "[" * rng.choice((50, 5000, 60000))  # nesting deeper than the JSON parser recurses
    if kind == 3:
        return '{"type": "act", "state_id": ' + "9" * rng.randrange(20, 5000) + ', "action": "draw"}'
    if kind == 4:
        return rng.choice(["", " ", "null", "true", "1", '"act"', "[]", "{}", "NaN", "Infinity", "\x00"])
    if kind == 5:
        return json.dumps({"type": "act", "state_id": 1, "action": "draw"})[:-1] + "\ud800}"
    if kind == 6:
        return "{" + ",".join(f'"k{i}": {i}' for i in range(rng.randrange(1, 2000))) + "}"
    if kind == 7:
        return '{"type": "ping", "type": "act"}'
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("latin-1")


def wrong_type_message(rng: random.Random, sid: int) -> dict[str, Any]:
    weird: list[Any] = [None, True, False, 1.5, -1, 2**70, "1", [], {}, [sid], {"n": sid}, "", "x" * 3000]
    kind = rng.randrange(6)
    if kind == 0:
        return {"type": rng.choice(weird + ["dance", "ACT", "act ", "pong", "state", "error"])}
    if kind == 1:
        not_int = [x for x in weird if not isinstance(x, int) or isinstance(x, bool)]
        return {"type": "act", "state_id": rng.choice(not_int), "action": "draw"}
    if kind == 2:
        return {"type": "act", "state_id": sid, "action": rng.choice([None, 1, [], {}, ["draw"], True])}
    if kind == 3:
        return {"type": "act", "action": "draw"} if rng.random() < 0.5 else {"type": "act", "state_id": sid}
    if kind == 4:
        return {"type": "autoplay", "on": rng.choice([None, 1, 0, "yes", "true", [], {}])}
    return {"type": "act", "state_id": sid, "action": rng.choice([
        "", "fly away", "discard", "discard ZZ", "discard 7H 7H 7H 7H 7H", "meld", "meld 7H",
        "layoff 9C", "layoff 9C -1", "layoff 9C 99999999999999999999", "draw draw", "take 3",
        "buy buy", "\x00", "discard \u00e9", "meld " + " ".join(CARDS), "x" * 10000])}


def plausible_action(rng: random.Random) -> str:
    c = rng.choice(CARDS)
    return rng.choice(["draw", "take", "buy", "pass", "swap", f"discard {c}", f"meld {c} {c} {c}",
                       f"layoff {c} 0", f"layoff {c} 3", "meld 7H 8H 9H TH", "shanghai", "rummy"])


def parses(text: str) -> bool:
    try:
        rk.parse_action(text)
    except ValueError:
        return False
    return True


class Fuzz:
    """Tables of four human seats (no bot, no timer that could move a game on its own) with a
    spectator each, and the hostile messages."""

    def __init__(self, client: TestClient, rng: random.Random):
        self.client, self.rng = client, rng
        self.sent = 0
        self.refused = 0
        self.accepted = 0
        self.dropped = 0
        self.views_checked = 0
        self.games = 0
        self.codes: dict[str, int] = {}
        self.last = ""  # the last hostile text sent (for a failure's message)
        self.new_table()

    def new_table(self) -> None:
        ruleset, opts = RULESETS[self.games % len(RULESETS)]
        r = self.client.post("/api/tables", json={
            "ruleset": ruleset, "seats": ["human"] * 4, "seed": self.rng.randrange(10**6), "options": opts,
            "hints": self.games == 0, "claim_seconds": 120, "grace_seconds": 3600, "bot_delay": 0})
        assert r.status_code == 201, r.text
        self.tid = r.json()["id"]
        self.tokens = []
        for i in range(4):
            j = self.client.post(f"/api/tables/{self.tid}/join", json={"name": f"F{i}", "seat": i})
            assert j.status_code == 200, j.text
            self.tokens.append(j.json()["token"])
        self.seats = [Session(self.client, self.tid, t, i) for i, t in enumerate(self.tokens)]
        self.spectator = Session(self.client, self.tid, None, None)
        self.retired: list[Session] = []  # sessions closed on the way (their messages are checked too)
        self.old_states: list[dict[str, Any]] = []
        for s in self.all():
            s.drain()

    def all(self) -> list[Session]:
        return [*self.seats, self.spectator]

    def close_all(self) -> None:
        """Close every socket (else the TestClient waits for them at its end)."""
        for s in self.all():
            s.close()

    def finish_table(self) -> None:
        for s in self.all():
            s.sync()
        t = table_of(self.client, self.tid)
        record = t.game.record()
        # every message any seat or the spectator got: exactly the engine's view, no hidden card
        self.views_checked += check_views(record, [*self.all(), *self.retired])
        if t.status == "over":
            info = self.client.get(f"/api/tables/{self.tid}").json()
            assert plain(rk.replay(info["record"]).view(None)["scores"]) == info["scores"]
        for s in self.all():
            s.close()
        self.games += 1

    def mark_all_dirty(self) -> None:
        for s in self.all():
            s.dirty = True

    # -- one message ------------------------------------------------------------------------

    def step(self) -> None:
        rng = self.rng
        t = table_of(self.client, self.tid)
        if t.status == "over":
            self.finish_table()
            self.new_table()
            return
        roll = rng.random()
        if roll < 0.22:
            self.valid_move(t)
        elif roll < 0.30:
            self.bad_connection()
        elif roll < 0.36:
            self.bad_http()
        elif roll < 0.375:
            self.oversized()
        else:
            self.hostile_ws(t)

    def valid_move(self, t: Table) -> None:
        # who may act, from the table itself (in process): read only that seat's socket
        w = t.window
        asked = [x for x in w.seats if x not in w.answers] if w is not None else [t.game.current_player]
        assert asked, f"no seat may act at table {self.tid} (state {t.state_id})"
        s = self.seats[self.rng.choice(asked)]
        s.sync()
        assert s.state is not None and s.state["legal"], (s.seat, s.state)
        self.old_states.append(s.state)
        action = cheap_move(self.rng, s.state["legal"])
        s.ws.send_text(json.dumps({"type": "act", "state_id": s.state["state_id"], "action": action}))
        self.sent += 1
        got = s.drain()
        assert got and got[-1]["type"] == "state", (action, got)
        assert not [m for m in got if m["type"] == "error"], (action, got)
        self.accepted += 1
        self.mark_all_dirty()

    def hostile_ws(self, t: Table) -> None:
        rng = self.rng
        sender = rng.choice(self.all())
        sender.sync()
        before = position(t)
        sid = t.state_id
        expect: set[str] | None  # the codes allowed; None: it might be accepted
        kind = rng.randrange(8)
        if kind == 0:
            # a well-formed huge state_id is stale; one past Python's int digits limit is not JSON
            text, expect = junk_text(rng), {"bad_request", "stale"}
        elif kind == 1:
            msg = wrong_type_message(rng, sid)
            text, expect = json.dumps(msg), {"bad_request"}
            act = msg.get("action")
            if isinstance(msg.get("state_id"), int) and isinstance(act, str) and parses(act):
                expect = None  # an odd text the parser reads after all: judged like any action
        elif kind == 2 and self.old_states:  # a replayed old message
            old = rng.choice(self.old_states[-30:])
            act = rng.choice(old["legal"]) if old["legal"] else plausible_action(rng)
            text = json.dumps({"type": "act", "state_id": old["state_id"], "action": act})
            w = t.window
            in_window = w is not None and sender.seat in w.seats and old["state_id"] >= w.state_id
            expect = None if in_window else {"stale"}
        elif kind == 3:  # the right state_id, from whoever, something plausible
            act = plausible_action(rng)
            text, expect = json.dumps({"type": "act", "state_id": sid, "action": act}), None
            if not parses(act):
                expect = {"bad_request"}
            elif sender.seat is None:
                expect = {"not_your_turn"}
        elif kind == 4:  # a future or negative state_id
            bad = rng.choice([sid + 1, sid + 1000, -1, -(2**40)])
            text, expect = json.dumps({"type": "act", "state_id": bad, "action": "draw"}), {"stale"}
        elif kind == 5:  # a seat not asked now
            asked = set(t.window.seats) if t.window is not None else {t.game.current_player}
            idle = [s for s in self.seats if s.seat not in asked]
            if idle:
                sender = rng.choice(idle)
                sender.sync()
            # the current state_id: the window's older one is stale for a seat it does not ask
            act = plausible_action(rng)
            text = json.dumps({"type": "act", "state_id": sid, "action": act})
            expect = None if not idle else {"not_your_turn"} if parses(act) else {"bad_request"}
        elif kind == 6:
            text, expect = json.dumps({"type": "autoplay", "on": rng.choice(["x", 1, None])}), {"bad_request"}
        else:
            if rng.random() < 0.5:
                sender.ws.send_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))))
                self.sent += 1
                self.last = "(bytes)"
                self.expect_refusal(sender, t, before, {"bad_request"})
                return
            text = json.dumps({"type": "act", "state_id": sid, "action": "draw"}) + "x"
            expect = {"bad_request"}
        sender.ws.send_text(text)
        self.sent += 1
        self.last = text[:300]
        self.expect_refusal(sender, t, before, expect)

    def expect_refusal(self, sender: Session, t: Table, before: Any, expect: set[str] | None) -> None:
        got = sender.drain()
        errors = [m for m in got if m["type"] == "error"]
        if errors or expect is not None:
            assert len(errors) == 1 and len(got) == 1, (self.last, got)
            e = errors[0]
            assert isinstance(e["message"], str) and e["message"]
            assert e["code"] in ("bad_request", "stale", "not_your_turn", "illegal"), e
            if expect is not None:
                assert e["code"] in expect, (expect, e)
            self.codes[e["code"]] = self.codes.get(e["code"], 0) + 1
            assert position(t) == before, "a refused message changed the table"
            self.refused += 1
        else:  # accepted (a plausible action that was legal): the table moved on
            assert got and got[-1]["type"] == "state", got
            if position(t) == before:  # or the same answer to an offer again: just the state again
                assert len(got) == 1 and t.window is not None and sender.seat in t.window.answers, got
            self.accepted += 1
            self.mark_all_dirty()

    def oversized(self) -> None:
        """A message over the limit closes that socket with 1009; nothing changes; the seat
        comes back with its token."""
        t = table_of(self.client, self.tid)
        i = self.rng.randrange(4)
        s = self.seats[i]
        s.sync()
        actions = list(t.game.actions)
        big = json.dumps({"type": "act", "state_id": t.state_id, "action": "draw", "pad": "x" * 70_000})
        s.ws.send_text(big)
        self.sent += 1
        with pytest.raises(WebSocketDisconnect) as e:
            while True:
                s.recv()
        assert e.value.code == 1009
        self.dropped += 1
        s.close()
        assert list(t.game.actions) == actions
        self.retired.append(s)
        self.seats[i] = Session(self.client, self.tid, self.tokens[i], i)
        self.seats[i].drain()
        self.mark_all_dirty()

    def bad_connection(self) -> None:
        """Tokens of another table, unknown tokens, tables that do not exist: refused, and the
        socket is closed (4403 / 4404), never a seat or a spectator."""
        rng = self.rng
        t = table_of(self.client, self.tid)
        actions = list(t.game.actions)
        other = self.other_table()
        choice = rng.randrange(5)
        if choice == 0:
            path, code = f"/ws/tables/{self.tid}?token={rng.choice(other)}", 4403
        elif choice == 1:
            path, code = f"/ws/tables/{other[-1]}?token={rng.choice(self.tokens)}", 4403
        elif choice == 2:
            tok = rng.choice(["", "x", "A" * 32, self.tokens[0][:-1], self.tokens[0] + "A",
                              self.tokens[0].upper(), "%00", "../" * 10])
            path, code = f"/ws/tables/{self.tid}?token={tok}", 4403
        elif choice == 3:
            path, code = f"/ws/tables/{rng.choice(['nope', 'x' * 40, '%2e%2e', self.tid + 'x'])}", 4404
        else:  # two tokens: one of them counts (Starlette: the last); never a spectator or another seat
            i = rng.randrange(4)
            pair = [self.tokens[i], rng.choice(["zzz", self.other_table()[0]])]
            rng.shuffle(pair)
            path, code = f"/ws/tables/{self.tid}?token={pair[0]}&token={pair[1]}", None
        self.sent += 1
        with self.client.websocket_connect(path) as ws:
            first = ws.receive_json()
            if code is None:
                if first["type"] == "state":
                    assert first["seat"] == i
                    self.mark_all_dirty()
                    return
                code = 4403
            assert first["type"] == "error" and first["code"] == "bad_request", first
            assert "view" not in first
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == code
        self.dropped += 1
        assert list(t.game.actions) == actions

    _other: list[str] | None = None

    def other_table(self) -> list[str]:
        """[token of seat 0 at another table, its id]."""
        if self._other is None:
            r = self.client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"],
                                                      "bot_delay": 0})
            tid = r.json()["id"]
            tok = self.client.post(f"/api/tables/{tid}/join", json={"name": "Other"}).json()["token"]
            self._other = [tok, tid]
        return self._other

    def bad_http(self) -> None:
        rng = self.rng
        c = self.client
        t = table_of(c, self.tid)
        before = list(t.game.actions)
        listed = len(c.get("/api/tables").json()["tables"])
        kind = rng.randrange(10)
        tid = self.tid
        if kind == 0:
            r = c.post("/api/tables", content=junk_text(rng).encode("utf-8", "replace"),
                       headers={"content-type": "application/json"})
        elif kind == 1:
            r = c.post("/api/tables", json=rng.choice([
                [], 1, "x", None, {"ruleset": 1, "seats": []}, {"ruleset": "basic", "seats": "human"},
                {"ruleset": "basic", "seats": ["human"] * 2, "seed": -1},
                {"ruleset": "basic", "seats": ["human"] * 2, "options": {"target": "x" * 100}},
                {"ruleset": "basic", "seats": ["human"] * 2, "options": [1]},
                {"ruleset": "basic", "seats": ["human"] * 2, "names": {"9": "x"}},
                {"ruleset": "basic", "seats": ["human"] * 2, "options": {"a": {"b": [[[[[[[]]]]]]]}}},
                {"rules": "extends = 'basic'\n" + "x = [" * 500, "seats": ["human"] * 2},
                {"rules": "a" * 70_000, "seats": ["human"] * 2}]))
        elif kind == 2:
            r = c.post(f"/api/tables/{tid}/join", json=rng.choice(
                [{"name": "x", "seat": rng.choice([-1, 4, 99, "0", True, 1.5])}, {"name": ""},
                 {"name": "\x07bell"}, {"name": "x" * 41}, {"name": None}, [], "x", {"name": "ok"}]))
        elif kind == 3:
            r = c.post(f"/api/tables/{tid}/rematch", json=rng.choice(
                [{"token": "x"}, {"token": None}, {"token": self.other_table()[0]}, [], {"token": [1]},
                 {"token": self.tokens[0]}]))
        elif kind == 4:
            r = c.get(rng.choice([f"/api/tables/{tid}/replay/{rng.choice(['0', '-1', 'x', '9' * 30])}",
                                  "/api/tables/" + "x" * 200, "/api/tables/%00",
                                  "/api/tables/nope/replay/0"]))
        elif kind == 5:
            r = c.post("/api/tables", content=b"x" * (600 * 1024),
                       headers={"content-type": "application/json"})
            assert r.status_code == 413 and "detail" in r.json()
        elif kind == 6:
            r = c.request(rng.choice(["PUT", "DELETE", "PATCH"]), f"/api/tables/{tid}")
        elif kind == 7:
            r = c.post(f"/api/tables/{tid}/join", content=b"\xff\xfe\x00garbage",
                       headers={"content-type": "application/json"})
        elif kind == 8:
            r = c.post("/api/tables", content=rng.choice([
                b'{"ruleset": "basic", "seats": ["human", "human"]' + b"]" * 10,
                b'{"ruleset": "basic", "seats": ["human", "human"], "claim_seconds": Infinity}',
                b'{"ruleset": "basic", "seats": ["human", "human"], "bot_delay": NaN}',
                b'{"ruleset": "basic", "seats": ["human", "human"], "seed": 1e400}']),
                headers={"content-type": rng.choice(["text/plain", "application/json"])})
        else:
            r = c.post("/api/tables", content=b"[" * 100_000, headers={"content-type": "application/json"})
        self.sent += 1
        assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
        if r.headers.get("content-type", "").startswith("application/json"):
            assert isinstance(r.json().get("detail"), (str, list)), r.text[:300]
        assert list(t.game.actions) == before
        assert len(c.get("/api/tables").json()["tables"]) == listed
        self.refused += 1


@contextmanager
def fuzz_client(tmp: Path, **limits: Any) -> Iterator[TestClient]:
    app = app_for(tmp, **({"ws_rate": 0, "tables_per_ip": 0, "ws_per_ip": 0} | limits))
    with TestClient(app, client=("127.0.0.9", 5555)) as client:
        yield client


def test_hostile_messages_are_refused_change_nothing_and_leak_nothing(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("RUMMYKIT_FUZZ_SEED", "17")))
    start = time.time()
    with fuzz_client(tmp_path) as client:
        fz = Fuzz(client, rng)
        try:
            while fz.sent < MESSAGES and time.time() - start < SECONDS:
                fz.step()
            fz.finish_table()
        finally:
            fz.close_all()
        # still answering, and a seat's token still gives its seat
        assert client.get("/api/tables").status_code == 200
        with client.websocket_connect(f"/ws/tables/{fz.tid}?token={fz.tokens[0]}") as ws:
            m = ws.receive_json()
            assert m["type"] == "state" and m["seat"] == 0
    took = time.time() - start
    print(f"\nfuzz: {fz.sent} messages in {took:.1f} s: {fz.refused} refused {fz.codes}, "
          f"{fz.accepted} accepted, "
          f"{fz.dropped} connections dropped, {fz.games} tables, {fz.views_checked} views checked")
    if fz.sent < MESSAGES:
        print(f"fuzz: stopped by the time bound ({SECONDS:g} s) before {MESSAGES} messages")
    assert fz.sent >= min(MESSAGES, 1000)
    assert fz.games >= 1 and fz.views_checked > 100
    assert set(fz.codes) >= {"bad_request", "stale", "not_your_turn"}


# -- the limits ---------------------------------------------------------------------------------


def test_a_flood_of_messages_is_slowed_to_the_rate_then_cut_off(tmp_path: Path) -> None:
    with TestClient(app_for(tmp_path, ws_rate=50, ws_burst=10)) as client:
        tid = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]}).json()["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert [ws.receive_json()["type"] for _ in range(2)] == ["state", "chat_log"]
            start = time.monotonic()
            for _ in range(40):  # 10 at once, then 30 at 50 a second: slowed, all answered
                ws.send_text('{"type": "ping"}')
            assert [ws.receive_json()["type"] for _ in range(40)] == ["pong"] * 40
            assert time.monotonic() - start >= 30 / 50 * 0.9
            # a client that never stops: after FLOOD * ws_burst slowed messages in a row, cut off
            for _ in range(FLOOD * 10 + 5):
                ws.send_text('{"type": "ping"}')
            got = []
            with pytest.raises(WebSocketDisconnect) as e:
                while True:
                    got.append(ws.receive_json())
            assert e.value.code == 1008
            assert got[-1]["type"] == "error" and got[-1]["code"] == "rate_limited"
            assert {m["type"] for m in got[:-1]} <= {"pong"}  # (the backlog goes unanswered)
            assert len(got) <= FLOOD * 10 + 1
        # a new connection starts with a full bucket
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.receive_json()  # (the state, then the chat's log)
            ws.receive_json()
            ws.send_text('{"type": "ping"}')
            assert ws.receive_json()["type"] == "pong"


def test_a_client_that_waits_for_each_answer_is_only_slowed_however_long_it_goes_on(tmp_path: Path) -> None:
    """Issue 42: a client over the rate that waits for every answer (as ``rummykit join``
    does) was cut off with 1008 after FLOOD * ws_burst slowed messages in a row; only a
    growing backlog is a flood now."""
    rate, burst = 200, 5
    with TestClient(app_for(tmp_path, ws_rate=rate, ws_burst=burst)) as client:
        tid = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]}).json()["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            assert ws.receive_json()["type"] == "state"
            n = 12 * FLOOD * burst
            start = time.monotonic()
            for _ in range(n):
                ws.send_text('{"type": "ping"}')
                while (m := ws.receive_json())["type"] != "pong":  # (the chat's log comes after the state)
                    assert m["type"] == "chat_log", m
            took = time.monotonic() - start
        print(f"\n{n} paced messages at most {rate}/s: {took:.2f} s ({n / took:.0f}/s), never cut")


def test_the_inbox_keeps_the_order_and_tells_a_flood() -> None:
    async def go() -> None:
        box = Inbox(Limits(ws_rate=10, ws_burst=2, ws_max_message=100))
        assert all(box.put(str(i)) for i in range(FLOOD * 2))
        assert not box.put("one more")  # the backlog passed FLOOD * ws_burst
        assert [await box.get() for _ in range(3)] == ["0", "1", "2"]
        box.close(FLOODING)
        assert await box.get() == FLOODING  # at once, before what waits
        left = Inbox(Limits(ws_rate=10, ws_burst=2, ws_max_message=100))
        assert not left.put("x" * 501)  # or FLOOD * ws_max_message characters
        assert left.put("a") and left.put("b")
        left.close(CLOSED)
        assert [await left.get() for _ in range(3)] == ["a", "b", CLOSED]  # what came first is handled
        free = Inbox(Limits.none())  # no rate: no flood, the reader waits for room instead
        assert all(free.put("m") for _ in range(1000))
        assert not free._room.is_set()

    asyncio.run(go())


def test_the_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    b = Bucket(rate=2, burst=3, clock=lambda: now[0])
    assert [b.delay() for _ in range(3)] == [0, 0, 0]
    assert b.delay() == pytest.approx(0.5)  # taken in advance: waiting 0.5 s pays it
    now[0] += 0.5
    assert b.delay() == pytest.approx(0.5)
    now[0] += 100
    assert [b.delay() for _ in range(3)] == [0, 0, 0]
    assert all(Bucket(rate=0, burst=0).delay() == 0 for _ in range(1000))


def test_connections_and_tables_per_address_get_429_with_a_detail(tmp_path: Path) -> None:
    with TestClient(app_for(tmp_path, ws_per_ip=2, tables_per_ip=3, tables_window=3600)) as client:
        ids = []
        for _ in range(3):
            r = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]})
            assert r.status_code == 201
            ids.append(r.json()["id"])
        r = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]})
        assert r.status_code == 429 and "too many tables" in r.json()["detail"]
        # an invalid request is still told what is wrong with it (422), and counts for nothing
        assert client.post("/api/tables", json={"ruleset": "nope", "seats": ["human"]}).status_code == 422
        # another address is not held back
        with TestClient(client.app, client=("10.9.9.9", 1)) as other:
            r = other.post("/api/tables", json={"ruleset": "basic", "seats": ["human"] * 2})
            assert r.status_code == 201
        with client.websocket_connect(f"/ws/tables/{ids[0]}") as a, \
                client.websocket_connect(f"/ws/tables/{ids[0]}") as b:
            a.receive_json()
            b.receive_json()
            with pytest.raises(WebSocketDenialResponse) as e:
                with client.websocket_connect(f"/ws/tables/{ids[0]}"):
                    pass
            assert e.value.status_code == 429 and "too many connections" in e.value.json()["detail"]
        # the two closed: room again
        with client.websocket_connect(f"/ws/tables/{ids[0]}") as c:
            assert c.receive_json()["type"] == "state"


def test_per_address_counts_forget_the_past() -> None:
    now = [0.0]
    p = PerIP(Limits(ws_per_ip=1, tables_per_ip=2, tables_window=10), clock=lambda: now[0])
    assert p.open_socket("a") and not p.open_socket("a") and p.open_socket("b")
    p.close_socket("a")
    assert p.open_socket("a")
    assert p.create_table("a") == 0 and p.create_table("a") == 0
    assert p.create_table("a") == pytest.approx(10)
    now[0] = 10.5
    assert p.create_table("a") == 0


def test_limits_are_checked_when_set() -> None:
    with pytest.raises(ValueError, match="ws_rate"):
        Limits(ws_rate=-1)
    with pytest.raises(ValueError, match="ws_burst"):
        Limits(ws_rate=5, ws_burst=0)
    assert Limits.none().ws_per_ip == 0


def test_request_bodies_over_the_limit_get_413(tmp_path: Path) -> None:
    with TestClient(app_for(tmp_path, http_max_body=1000)) as client:
        body = {"ruleset": "basic", "seats": ["human", "human"], "name": "x" * 2000}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 413 and "1000 bytes" in r.json()["detail"]

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
            for _ in range(10):
                yield b"x" * 200

        r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert client.get("/api/tables").json()["tables"] == []
        r = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]})
        assert r.status_code == 201


def test_tokens_are_compared_as_hashes_in_constant_time(tmp_path: Path, monkeypatch: Any) -> None:
    import hmac

    from rummykit.server import tables

    seen: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tables.hmac, "compare_digest", spy)
    with TestClient(app_for(tmp_path)) as client:
        tid = client.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "human"]}).json()["id"]
        token = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            assert ws.receive_json()["seat"] == 0
    assert seen and all(len(a) == len(b) == 64 and token not in (a, b) for a, b in seen)


def test_state_messages_encode_to_the_json_of_the_message_and_the_log_resumes_where_it_stopped() -> None:
    """wire.encode writes JSON that reads back as the message; a delta-log connection's
    messages (log_from, the new entries), made whole by the client, are the whole views."""
    g = rk.new_game("contract", players=4, seed=5, options={"deals": 2})
    rng = random.Random(5)
    cursors = {seat: LogCursor() for seat in (None, 0, 1, 2, 3)}
    logs: dict[int | None, list[Any]] = {seat: [] for seat in cursors}
    resumed = ended_deals = 0
    while not g.is_over:
        for seat in cursors:
            msg = {"type": "state", "seat": seat, "view": g.view(seat), "legal": []}
            whole = json.loads(json.dumps(msg))
            assert json.loads(encode(msg)) == whole
            start, ended = cursors[seat].advance(msg["view"])
            log_end = None if ended is None else list(g.last_deal_log[ended:])
            sent = json.loads(encode(with_log_from(msg, start, log_end)))
            resumed += start > 0
            if ended is not None:
                # the deal before's log as this connection had it, and its last events (the
                # move that ended the deal, and the result), are that deal's whole log
                assert logs[seat] + sent["log_end"] == json.loads(json.dumps(list(g.last_deal_log)))
                assert [e["verb"] for e in sent["log_end"]][-2:] == ["discard", "round_end"]
                ended_deals += 1
                whole["log_end"] = sent["log_end"]
            logs[seat] = whole_log(sent, logs[seat])
            assert sent == dict(whole, log_from=start)
        g.apply(cheap_move(rng, [rk.format_action(a) for a in g.legal_actions()]))
    assert resumed > 100 and ended_deals == 5  # (the first deal's end, told to each connection)


def test_oversized_messages_and_bodies_through_a_real_socket(tmp_path: Path) -> None:
    """uvicorn with the same ws_max_size as rummykit serve: a frame over the limit is refused
    by the protocol layer (1009); a body over the limit gets 413; the server goes on."""
    import asyncio
    import socket

    import uvicorn
    import websockets

    from rummykit.server.client import http_json

    limits = Limits(ws_max_message=4096, http_max_body=8192)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(f"sqlite:///{tmp_path / 'real.db'}", static_dir=tmp_path, limits=limits)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws_max_size=limits.ws_max_message)
    server = uvicorn.Server(config)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.time() + 20
        while not server.started and time.time() < end:
            time.sleep(0.05)
        status, made = http_json("POST", base + "/api/tables",
                                 {"ruleset": "basic", "seats": ["human", "human"]})
        assert status == 201
        tid = made["id"]
        assert http_json("POST", base + "/api/tables", {"rules": "x" * 10_000, "seats": ["human"]})[0] == 413

        async def run() -> None:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", max_size=2**24) as ws:
                assert json.loads(await ws.recv())["type"] == "state"
                assert json.loads(await ws.recv())["type"] == "chat_log"
                await ws.send("x" * 5000)
                with pytest.raises(websockets.exceptions.ConnectionClosed) as e:
                    await asyncio.wait_for(ws.recv(), 10)
                assert e.value.rcvd is not None and e.value.rcvd.code == 1009
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{tid}", max_size=2**24) as ws:
                assert json.loads(await ws.recv())["type"] == "state"
                assert json.loads(await ws.recv())["type"] == "chat_log"
                await ws.send('{"type": "ping"}')
                assert json.loads(await ws.recv())["type"] == "pong"

        asyncio.run(run())
        assert http_json("GET", base + "/api/tables")[0] == 200
    finally:
        server.should_exit = True
        th.join(20)


def _create_from(base: str, forwarded_for: str) -> int:
    import urllib.error
    import urllib.request

    body = json.dumps({"ruleset": "basic", "seats": ["human", "human"]}).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for}
    req = urllib.request.Request(base + "/api/tables", method="POST", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_the_per_address_limits_count_the_client_it_names(
        tmp_path: Path, trusted: bool) -> None:
    """rummykit serve --forwarded-allow-ips: a proxy (here 127.0.0.1) that is trusted has its
    X-Forwarded-For believed, so two clients behind it have a limit each; an untrusted one's
    header is ignored and every request counts against the proxy's own address."""
    from serverkit import running_server

    allow = "127.0.0.1" if trusted else "10.9.9.9"
    with running_server(f"sqlite:///{tmp_path / 'p.db'}",
                        args=("--tables-per-ip", "2", "--tables-window", "3600",
                              "--forwarded-allow-ips", allow)) as base:
        assert [_create_from(base, "203.0.113.7") for _ in range(3)] == [201, 201, 429]
        assert _create_from(base, "198.51.100.9") == (201 if trusted else 429)
