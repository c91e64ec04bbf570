"""Running ``rummykit serve`` for real (issue 42): the checks before it says it runs, its
``--help``, its log (every table event of a whole game over websockets, never a card) and
its metrics (exposed, and changing as a game is played)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from pg import free_port
from serverkit import Raw, create_table, metrics, play_table, running_server, table_state

import rummykit as rk
from rummykit.server.client import SeatClient, bot_chooser, http_json, join_table, ws_url

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][CDHS]|JK|10[CDHS]|[2-9TJQKA]?[♣♦♥♠])(?![A-Za-z0-9])")


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", "serve", *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def refused(r: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    """Refused before any banner: nothing on stdout, one sentence on stderr, exit ``code``."""
    err = r.stderr.strip()
    assert r.returncode == code, (r.returncode, err)
    assert r.stdout == "", r.stdout  # no "open http://... in a browser"
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, err
    return err


# -- serve checks before it promises --------------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_serve_refuses_a_port_out_of_range_in_one_sentence(tmp_path: Path, port: str) -> None:
    refused(serve("--port", port, "--db", f"sqlite:///{tmp_path / 's.db'}"), 2, "--port", "1 to 65535", port)
    assert not (tmp_path / "s.db").exists()  # nothing opened either


def test_serve_refuses_a_busy_port_in_one_sentence(tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        port = busy.getsockname()[1]
        got = serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}")
        refused(got, 1, f"port {port}", "in use")
    finally:
        busy.close()


def test_serve_refuses_a_database_it_cannot_use_in_one_sentence(tmp_path: Path) -> None:
    nobody = free_port()  # nothing listens there
    got = serve("--port", str(free_port()), "--db", f"postgresql://rk:hunter2@127.0.0.1:{nobody}/rk")
    err = refused(got, 1, "cannot use the database", f"127.0.0.1:{nobody}", "refused")
    assert "hunter2" not in err and "***" in err  # the password is never repeated
    refused(serve("--db", "mysql://rk@db/rk"), 2, "mysql is not a database rummykit serves", "postgresql://")
    refused(serve("--db", "server.db"), 2, "not a file name", f"sqlite:///{Path.cwd() / 'server.db'}")
    refused(serve("--db", "postgresql://rk@db:port/rk"), 2, "not a database URL")
    refused(serve("--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'no' / 'such' / 's.db'}"), 1,
            "cannot use the database", "does its folder exist")
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("a shopping list\n" * 100)
    before = not_a_db.read_bytes()
    refused(serve("--port", str(free_port()), "--db", f"sqlite:///{not_a_db}"), 1, "cannot use the database",
            "not a database")
    assert not_a_db.read_bytes() == before


def test_the_banner_comes_once_the_server_answers(tmp_path: Path) -> None:
    """``--port 0``: any free port, and the banner names it; the moment it is printed, the
    server answers (it is printed after the socket listens and the app has started)."""
    proc = subprocess.Popen([sys.executable, "-m", "rummykit.cli.main", "serve", "--port", "0", "--db",
                             f"sqlite:///{tmp_path / 's.db'}"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        got: list[str] = []
        reader = threading.Thread(target=lambda: got.append(proc.stdout.readline() if proc.stdout else ""))
        reader.start()
        reader.join(60)
        assert got and got[0].startswith("rummykit: open http://127.0.0.1:"), got
        base = re.search(r"(http://127\.0\.0\.1:\d+)/", got[0])
        assert base, got[0]
        status, health = http_json("GET", base.group(1) + "/api/health", timeout=5)  # no retry
        assert status == 200 and health["ok"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err and "listening on http://127.0.0.1:" in err and "stopped" in err, err


def test_serve_help_leads_with_what_a_person_sets() -> None:
    from click.testing import CliRunner

    from rummykit.cli.main import main

    out = CliRunner().invoke(main, ["serve", "--help"]).output
    flags = re.findall(r"^  (--[a-z-]+)", out, re.M)
    assert flags[:4] == ["--host", "--port", "--db", "--bot-delay"], flags
    tuning = ("--gc-sweep-seconds", "--ws-rate", "--node-id", "--no-limits")
    first_tuning = min(flags.index(f) for f in tuning)
    assert first_tuning > flags.index("--log-format")
    port_help = out[out.index("--port"):out.index("--db")]
    assert "1-65535" in port_help  # --port is described
    assert out.index("Where and how") < out.index("Limits against hostile clients") < out.index("Tuning")


def test_a_tables_bot_pace_defaults_to_serves_bot_delay(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 's.db'}", args=("--bot-delay", "2.5")) as base:
        body = {"ruleset": "basic", "seats": ["human", "human"]}
        status, made = http_json("POST", base + "/api/tables", body)
        assert status == 201
        assert table_state(base, made["id"])["settings"]["bot_delay"] == 2.5
        tid = create_table(base, ruleset="basic", seats=["human", "human"], bot_delay=0.1)
        assert table_state(base, tid)["settings"]["bot_delay"] == 0.1  # the creator's says


# -- the log ------------------------------------------------------------------------------------


def test_the_log_has_every_table_event_of_a_game_over_websockets_and_never_a_card(tmp_path: Path) -> None:
    log: list[str] = []
    args = ("--log-format", "json", "--log-level", "debug")
    with running_server(f"sqlite:///{tmp_path / 's.db'}", args=args, log_into=log) as base:
        tid = create_table(base, ruleset="basic", seats=["human", "human"], seed=7, options={"target": 40})
        players, _ = asyncio.run(play_table(base, tid, ["medium", "medium"], spectators=1))
        record = table_state(base, tid)["record"]
        status, again = http_json("POST", f"{base}/api/tables/{tid}/rematch", {"token": players[0].token})
        assert status == 201

        async def refused_sockets() -> list[int]:
            import websockets

            codes = []
            for url in (ws_url(base, tid, "not-a-token"), ws_url(base, "nosuchtable", None)):
                async with websockets.connect(url) as ws:
                    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                        while True:
                            await ws.recv()
                    assert closed.value.rcvd is not None
                    codes.append(closed.value.rcvd.code)
            return codes

        assert asyncio.run(refused_sockets()) == [4403, 4404]
    text = log[0]
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    events: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        events.setdefault(r.get("event", ""), []).append(r)
    for e in ("start", "listening", "table_created", "seat_joined", "seat_connected", "game_started",
              "game_finished", "rematch", "seat_left", "spectator_connected", "stopping", "stop"):
        assert e in events, (e, sorted(events))
    assert {r["seat"] for r in events["seat_joined"] if r["table"] == tid} == {0, 1}
    assert {r["seat"] for r in events["seat_left"] if r["table"] == tid} == {0, 1}
    done = events["game_finished"][0]
    assert done["table"] == tid and done["level"] == "INFO" and len(done["scores"]) == 2
    assert events["rematch"][0]["rematch"] == again["id"]
    refusals = {r["code"]: r for r in events["ws_closed"] if r["by"] == "server"}
    assert refusals[4403]["level"] == refusals[4404]["level"] == "WARNING"
    assert refusals[4403]["ip"] == "127.0.0.1"
    assert events["start"][0]["time"] <= events["table_created"][0]["time"] <= events["stop"][0]["time"]
    # no card anywhere: not while the game ran, and not at its end (scores only)
    cards = [(r["message"], m) for r in records for m in CARD.findall(json.dumps(r, ensure_ascii=False))]
    assert not cards, cards[:5]
    # (the check would see one: a seat's hand in words, as a view or a hint would put it)
    first = rk.replay(dict(record, actions=[])).view(0)["hand"]
    assert len(CARD.findall(json.dumps({"message": f"hand {' '.join(first)}"}))) == len(first)


def test_the_text_log_says_each_event_in_one_line(tmp_path: Path) -> None:
    log: list[str] = []
    with running_server(f"sqlite:///{tmp_path / 's.db'}", log_into=log) as base:
        tid = create_table(base, ruleset="basic", seats=["bot:easy", "bot:easy"], seed=3,
                           options={"target": 30})
        end = 0
        while table_state(base, tid)["status"] != "over" and end < 600:
            end += 1
            threading.Event().wait(0.1)
    lines = log[0].splitlines()
    assert any(f"table {tid} created: basic, 2 seats (bot:easy, bot:easy)" in x for x in lines), lines
    assert any(f"table {tid} finished: basic" in x and " INFO " in x for x in lines), lines
    assert any(" INFO rummykit.server: started: database sqlite:///" in x for x in lines), lines
    assert not any(CARD.search(x) for x in lines)


# -- the metrics --------------------------------------------------------------------------------


def test_metrics_are_exposed_and_change_as_a_game_is_played(tmp_path: Path) -> None:
    args = ("--ws-rate", "100", "--ws-burst", "4")
    with running_server(f"sqlite:///{tmp_path / 's.db'}", args=args) as base:
        before = metrics(base)
        assert before['rummykit_tables{status="playing"}'] == 0 and before["rummykit_actions_total"] == 0
        assert before['rummykit_info{db="sqlite",node="",version="' + rk.__version__ + '"}'] == 1
        assert before["process_resident_memory_bytes"] > 0
        tid = create_table(base, ruleset="basic", seats=["human", "human"], seed=11, options={"target": 40},
                           hints=False)
        tokens = [join_table(base, tid, f"P{i}")[1] for i in range(2)]
        mid: dict[str, float] = {}

        def scrape_mid_game(msg: dict[str, Any]) -> None:  # (seat 0's client, 20 actions in)
            if not mid and msg.get("type") == "state" and msg["view"]["state_id"] >= 20:
                mid.update(metrics(base))

        async def game() -> None:
            watcher = await Raw.open(base, tid, None)
            await watcher.recv()
            clients = [SeatClient(base, tid, tokens[i], bot_chooser("medium", i),
                                  on_message=scrape_mid_game if i == 0 else None) for i in range(2)]
            await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 300)
            # a client that sends without waiting: its backlog passes 5 x --ws-burst, cut with 1008
            flood = await Raw.open(base, tid, None)
            for _ in range(200):
                await flood.send({"type": "ping"})
            with pytest.raises(Exception) as cut:
                while True:
                    await flood.recv()
            assert getattr(cut.value, "rcvd", None) is not None and cut.value.rcvd.code == 1008  # type: ignore
            await watcher.close()

        asyncio.run(game())
        after = metrics(base)
    assert mid["rummykit_seats_connected"] == 2 and mid["rummykit_spectators"] == 1
    assert mid['rummykit_tables{status="playing"}'] == 1 and mid["rummykit_actions_total"] >= 20
    n = len(table_state_of(tmp_path, tid)["actions"])
    assert after["rummykit_actions_total"] == n > mid["rummykit_actions_total"]
    assert after['rummykit_tables{status="over"}'] == 1 and after['rummykit_tables{status="playing"}'] == 0
    assert after['rummykit_games_finished_total{ruleset="basic"}'] == 1
    assert after["rummykit_tables_created_total"] == 1 and after["rummykit_seats_connected"] == 0
    # every action the two people made was timed, from the websocket to its state sent out
    rtt = after["rummykit_action_round_trip_seconds_count"]
    assert mid["rummykit_action_round_trip_seconds_count"] < rtt <= n
    assert after["rummykit_action_round_trip_seconds_sum"] > 0
    assert after["rummykit_store_commit_seconds_count"] > mid["rummykit_store_commit_seconds_count"] > 0
    assert after['rummykit_limited_total{limit="ws_flood"}'] == 1
    assert after['rummykit_websocket_closes_total{by="server",code="1008"}'] == 1
    assert after['rummykit_websocket_closes_total{by="client",code="1000"}'] >= 3
    assert after['rummykit_http_responses_total{status="201"}'] == 1
    assert after['rummykit_http_responses_total{status="200"}'] >= 4  # joins, table states, /metrics
    commits = after["rummykit_store_commit_seconds_count"]
    mean_rtt = 1000 * after["rummykit_action_round_trip_seconds_sum"] / rtt
    mean_commit = 1000 * after["rummykit_store_commit_seconds_sum"] / commits
    print(f"\nmetrics: {n} actions, round trip mean {mean_rtt:.2f} ms over {rtt:.0f}, commit mean "
          f"{mean_commit:.2f} ms over {commits:.0f}")


def table_state_of(tmp_path: Path, tid: str) -> dict[str, Any]:
    """The finished table's record, from the database itself."""
    from rummykit.server.storage import Storage

    st = Storage(f"sqlite:///{tmp_path / 's.db'}")
    try:
        got = st.load(tid)
        assert got is not None
        return {"actions": got.actions}
    finally:
        st.close()


def test_metrics_say_what_the_limits_refused(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 's.db'}",
                        args=("--tables-per-ip", "1", "--http-max-body", "2000")) as base:
        create_table(base, ruleset="basic", seats=["human", "human"])
        status, _ = http_json("POST", base + "/api/tables", {"ruleset": "basic", "seats": ["human", "human"]})
        assert status == 429
        req = urllib.request.Request(base + "/api/tables", data=b"x" * 3000, method="POST",
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(req, timeout=10)
        assert e.value.code == 413
        m = metrics(base)
    assert m['rummykit_limited_total{limit="tables_per_ip"}'] == 1
    assert m['rummykit_limited_total{limit="http_body"}'] == 1
    assert m['rummykit_http_responses_total{status="429"}'] == 1
