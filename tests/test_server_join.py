"""`rummykit join`: a seat at a server's table played by a bot, or by a person line by line."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from typing import Any

from pg import free_port
from serverkit import create_table, running_server, sqlite_served, table_state  # noqa: F401

import rummykit as rk
from rummykit.server.client import (
    JoinError,
    SeatClient,
    bot_chooser,
    join_table,
    split_table_url,
    table_variant,
)


def _join(url: str, *args: str, stdin: str | None = None,
          timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", "join", url, *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def test_join_with_a_bot_plays_the_seat_to_the_end(sqlite_served: str) -> None:  # noqa: F811
    tid = create_table(sqlite_served, ruleset="basic", seats=["human", "bot:easy"], seed=9,
                       options={"target": 30}, hints=False)
    out = _join(f"{sqlite_served}/t/{tid}", "--name", "Robo", "--bot", "medium")
    assert out.returncode == 0, out.stderr
    assert "Seat 0" in out.stdout and "Game over" in out.stdout
    info = table_state(sqlite_served, tid)
    assert info["status"] == "over" and info["seats"][0]["name"] == "Robo"
    assert rk.replay(info["record"]).view(None)["scores"] == info["scores"]


def test_join_refuses_a_full_table_and_a_bad_link_with_a_message(sqlite_served: str) -> None:  # noqa: F811
    tid = create_table(sqlite_served, ruleset="basic", seats=["human", "bot:easy"], seed=9)
    join_table(sqlite_served, tid, "Ann")
    out = _join(f"{sqlite_served}/t/{tid}", "--name", "Bob", "--bot", "easy")
    assert out.returncode != 0 and "409" in out.stderr and "no human seat is free" in out.stderr
    out = _join("ftp://example/t", "--name", "Bob")
    assert out.returncode != 0 and "is not a table link" in out.stderr


def test_join_without_a_bot_lets_a_person_play_by_number_or_text(sqlite_served: str) -> None:  # noqa: F811
    tid = create_table(sqlite_served, ruleset="basic", seats=["human", "bot:easy"], seed=9, hints=False)
    # the person answers the first question with the first listed action, then leaves (end of input)
    out = _join(f"{sqlite_served}/t/{tid}", "--name", "Ann", stdin="1\n", timeout=60)
    assert out.returncode == 0, out.stderr
    assert "your hand:" in out.stdout and "  1. " in out.stdout
    info = table_state(sqlite_served, tid)
    assert info["seats"][0]["name"] == "Ann"


def test_a_client_bot_plays_the_tables_house_rules() -> None:
    assert table_variant({"options": {"twos_wild": True}}, "contract").spec.twos_wild
    assert not table_variant({}, "contract").spec.twos_wild
    raw = dict(rk.get_variant("basic").raw, id="ours", name="Ours", min_set=4)
    v = table_variant({"rules": raw, "options": {"target": 50}}, "ours")
    assert (v.id, v.spec.min_set, v.spec.target) == ("ours", 4, 50)


def test_split_table_url() -> None:
    assert split_table_url("http://127.0.0.1:8000/t/abc") == ("http://127.0.0.1:8000", "abc")
    for bad in ("http://h/x/abc", "127.0.0.1:8000/t/abc", "http://h/"):
        try:
            split_table_url(bad)
        except JoinError:
            continue
        raise AssertionError(bad)


def test_the_client_reconnects_with_backoff_when_the_server_restarts_mid_game(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    port = free_port()
    reached = threading.Event()
    box: dict[str, Any] = {}

    def seen(msg: dict[str, Any]) -> None:
        if msg.get("type") == "state" and msg["state_id"] >= 10:
            reached.set()

    async def play(base: str, tid: str, token: str) -> SeatClient:
        c = SeatClient(base, tid, token, bot_chooser("medium", 1), keep=True, max_retries=40, on_message=seen)
        await asyncio.wait_for(c.run(), 120)
        return c

    with running_server(db, port) as base:
        tid = create_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=9,
                           options={"target": 30}, hints=False, bot_delay=0.05)
        _, token = join_table(base, tid, "Ann")
        th = threading.Thread(target=lambda: box.update(c=asyncio.run(play(base, tid, token))), daemon=True)
        th.start()
        assert reached.wait(60)
    stopped_at = box.get("c")
    assert stopped_at is None  # the client is still trying while the server is down
    with running_server(db, port):
        th.join(120)
    c = box["c"]
    assert c.last is not None and c.last["status"] == "over"
    sids = [m["state_id"] for m in c.messages if m["type"] == "state"]
    assert sids == sorted(sids) and {m["seat"] for m in c.messages if m["type"] == "state"} == {0}


def test_the_backoff_doubles_from_half_a_second_to_ten_with_jitter() -> None:
    c = SeatClient("http://127.0.0.1:1", "x", None)
    c.rng.seed(1)
    waits = [[c.backoff(k) for k in range(1, 9)] for _ in range(200)]
    for k, nominal in enumerate([0.5, 1, 2, 4, 8, 10, 10, 10]):
        got = [w[k] for w in waits]
        assert all(0.75 * nominal <= x <= 1.25 * nominal for x in got)
        assert max(got) - min(got) > 0.3 * nominal  # jittered: clients do not come back in step


def test_join_tells_the_player_it_is_reconnecting_and_plays_on_after_a_kill(tmp_path: Any) -> None:
    from crashkit import ServerProc

    srv = ServerProc(f"sqlite:///{tmp_path / 'j.db'}", free_port())
    try:
        srv.start()
        tid = create_table(srv.base, ruleset="basic", seats=["human", "bot:easy"], seed=9,
                           options={"target": 30}, hints=False, bot_delay=0.05)
        proc = subprocess.Popen([sys.executable, "-m", "rummykit.cli.main", "join", f"{srv.base}/t/{tid}",
                                 "--name", "Robo", "--bot", "medium"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            # wait until it plays, then kill the server under it
            end = time.time() + 60
            while not table_state(srv.base, tid)["seats"][0]["connected"]:
                assert time.time() < end and proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.1)
            time.sleep(1.0)
            srv.kill()
            time.sleep(2.0)  # the client retries meanwhile
            assert proc.poll() is None, "join gave up while the server was down"
            srv.start()
            try:
                out, err = proc.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                raise AssertionError(f"join did not finish:\n{out[-3000:]}\n{err[-3000:]}") from None
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert proc.returncode == 0, err
        assert "reconnecting in" in out and "Reconnected: the seat is yours again." in out, out
        assert "Game over" in out
        info = table_state(srv.base, tid)
        assert info["status"] == "over" and rk.replay(info["record"]).view(None)["scores"] == info["scores"]
    finally:
        srv.close()


def test_two_join_bots_play_a_whole_basic_game_against_each_other_at_full_speed(tmp_path: Any) -> None:
    """Issue 42: two ``rummykit join`` bots at a table of two people, each acting as soon as
    its state comes (no bot delay: they are the players), under the server's default
    limits.  They were cut off with 1008 after 200 slowed messages in a row, mid-game; a
    client that waits for its answers is only slowed, so the match is played to its end."""
    with running_server(f"sqlite:///{tmp_path / 'j.db'}") as base:
        tid = create_table(base, ruleset="basic", seats=["human", "human"], seed=5, hints=False)
        start = time.monotonic()
        cmd = [sys.executable, "-m", "rummykit.cli.main", "join", f"{base}/t/{tid}", "--bot", "medium"]
        procs = [subprocess.Popen([*cmd, "--name", f"Robo{i}", "--seed", str(i)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for i in range(2)]
        outs = []
        try:
            for p in procs:
                outs.append(p.communicate(timeout=600))
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.communicate()
        took = time.monotonic() - start
        info = table_state(base, tid)
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-2000:]
        assert "Game over" in out and "rate_limited" not in out and "reconnecting" not in out, out[-2000:]
    assert info["status"] == "over" and len(info["record"]["actions"]) > 200
    assert rk.replay(info["record"]).view(None)["scores"] == info["scores"]
    n = len(info["record"]["actions"])
    print(f"\nbasic, 2 join bots at full speed: {n} actions, {info['round']} deals in {took:.1f} s "
          f"({n / took:.0f} actions/s)")
