"""Past one machine: three ``rummykit serve`` processes on one throwaway PostgreSQL, each
table owned by one process (a lease), clients reaching any process (relayed to the owner),
one process killed with SIGKILL mid-game, its tables taken over by the others and finished.

Checked: tables made through each process are owned by it; seats joined and played through
processes that do not own the table; after the kill the dead process's tables are owned by
the others and every table ends (the all-bot one with nobody asking for it too); every
acknowledged action is stored, every view is the engine's at its position, one state_id is
one state; the records replay to the same scores."""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any

import pytest
from crashkit import ServerProc, Tracked, check_table, stored, wait_all
from pg import create_database, free_port
from serverkit import create_table, metrics, pg_base, plain, table_state  # noqa: F401  (fixture)
from sqlalchemy import text

import rummykit as rk
from rummykit.server.client import http_json, join_table
from rummykit.server.storage import make_engine, normalise_url

LEASE = 2.0
KINDS = [("contract", {"deals": 1}, ["human", "human", "bot:easy", "human"]),
         ("shanghai", {"deals": 1}, ["human", "bot:easy", "human"]),
         ("basic", {"target": 40}, ["human", "human"])]


def _owners(db: str) -> dict[str, str | None]:
    eng = make_engine(normalise_url(db))
    try:
        with eng.connect() as c:
            return {str(t): o for t, o in c.execute(text("SELECT id, owner FROM tables"))}
    finally:
        eng.dispose()


async def _run(nodes: list[ServerProc], db: str) -> dict[str, Any]:
    rng = random.Random(5)
    gen = [1]
    bases = [n.base for n in nodes]
    tables: dict[str, list[Tracked]] = {}
    made_on: dict[str, int] = {}
    through_other = 0
    for i in range(6):
        ruleset, options, seats = KINDS[i % len(KINDS)]
        owner = i % 3
        tid = await asyncio.to_thread(create_table, bases[owner], ruleset=ruleset, options=options,
                                      seats=seats, seed=rng.randrange(2**31), hints=False, bot_delay=0.05,
                                      claim_seconds=1, grace_seconds=600)
        made_on[tid] = owner
        clients = []
        for s, kind in enumerate(seats):
            if kind != "human":
                continue
            via = (owner + s + 1) % 3  # mostly not the owner
            through_other += via != owner
            _, token = await asyncio.to_thread(join_table, bases[via], tid, f"P{s}", s)
            also = tuple(b for b in bases if b != bases[via])  # as a load balancer would
            clients.append(Tracked.make(bases[via], tid, s, token, "easy", gen, rng.randrange(2**31),
                                        also=also, think=0.03))
        clients.append(Tracked.make(bases[(owner + 1) % 3], tid, None, None, None, gen, 0,
                                    also=(bases[owner],)))
        tables[tid] = clients
    # a table of bots alone on the process to be killed: nobody will ask for it
    lone = await asyncio.to_thread(create_table, bases[0], ruleset="contract", options={"deals": 1},
                                   seats=["bot:easy"] * 3, seed=3, bot_delay=0.25)
    made_on[lone] = 0
    owners = _owners(db)
    assert all(owners[t] == f"n{o}" for t, o in made_on.items()), owners

    tasks = [asyncio.create_task(c.client.run()) for cs in tables.values() for c in cs]
    await asyncio.sleep(2.0)
    assert table_state(bases[1], lone)["status"] == "playing"
    unfinished_on_0 = [t for t, o in made_on.items()
                       if o == 0 and table_state(bases[1], t)["status"] != "over"]
    nodes[0].kill()  # mid-game: no shutdown, its leases run out
    gen[0] += 1
    killed = time.monotonic()
    await wait_all(tasks, 150)
    assert all(t.done() and not t.cancelled() for t in tasks), "a table did not finish after the takeover"
    end = time.monotonic() + 120
    while table_state(bases[1], lone)["status"] != "over":
        assert time.monotonic() < end, "the lone bots' table was not taken over and finished"
        await asyncio.sleep(0.5)
    owners = _owners(db)
    for t in unfinished_on_0:
        assert owners[t] in ("n1", "n2"), f"table {t} is still {owners[t]}'s"
    totals = {"tables": len(made_on), "taken_over": len(unfinished_on_0), "through_other": through_other,
              "turns": 0, "answers": 0, "states": 0, "finish_s": round(time.monotonic() - killed, 1)}
    for tid in made_on:
        info = table_state(bases[2], tid)  # through any process
        assert info["status"] == "over"
        assert plain(rk.replay(info["record"]).view(None)["scores"]) == info["scores"]
        rec, *_ = stored(db, tid)
        assert rec["actions"] == info["record"]["actions"]
        if tid in tables:
            for k, v in check_table(db, tid, tables[tid], restarts=False).items():
                totals[k] += v
    status, health = http_json("GET", bases[1] + "/api/health")
    status2, health2 = http_json("GET", bases[2] + "/api/health")
    assert status == status2 == 200 and health["taken_over"] + health2["taken_over"] >= len(unfinished_on_0)
    # each process answers its own metrics: its node's name, what it serves
    for i in (1, 2):
        m = metrics(bases[i])
        assert m[f'rummykit_info{{db="postgresql",node="n{i}",version="{rk.__version__}"}}'] == 1
        assert m["rummykit_actions_total"] > 0 and m["rummykit_tables_created_total"] == 2
        assert sum(v for k, v in m.items() if k.startswith("rummykit_tables{")) >= 2
    # the lobby of any process lists every process's tables
    new = await asyncio.to_thread(create_table, bases[2], ruleset="basic", seats=["human", "human"])
    listed = {t["id"] for t in http_json("GET", bases[1] + "/api/tables")[1]["tables"]}
    assert new in listed
    return totals


def test_three_processes_one_postgresql_a_killed_ones_tables_are_taken_over(
        request: pytest.FixtureRequest) -> None:
    pg = request.getfixturevalue("pg_base")
    if pg is None:
        pytest.skip("PostgreSQL is not installed here (CI installs it)")
    db = create_database(pg, f"rk_cluster_{os.getpid()}")
    nodes = []
    for i in range(3):
        port = free_port()
        nodes.append(ServerProc(db, port, "--node-id", f"n{i}", "--advertise-url", f"http://127.0.0.1:{port}",
                                "--lease-seconds", str(LEASE)))
    t0 = time.monotonic()
    try:
        for n in nodes:
            n.start()
        totals = asyncio.run(_run(nodes, db))
        for n in nodes[1:]:
            n.stop()
    finally:
        for n in nodes:
            n.close()
    print(f"cluster: {totals} in {time.monotonic() - t0:.1f} s")
    assert totals["turns"] > 50 and totals["taken_over"] >= 2 and totals["through_other"] >= 6
    for err in nodes[1].errs + nodes[2].errs:
        assert "Traceback" not in err, err
    # the takeovers are in the log of the processes that took the tables
    assert sum(err.count(" taken over: ") for err in nodes[1].errs + nodes[2].errs) >= totals["taken_over"]


def test_a_process_that_lost_a_tables_lease_can_never_write_to_it_again(tmp_path: Any) -> None:
    from rummykit.server.storage import LeaseLost, Storage

    url = f"sqlite:///{tmp_path / 'lease.db'}"
    a = Storage(url, node="a", node_url="http://a", lease_seconds=1.0)
    b = Storage(url, node="b", node_url="http://b", lease_seconds=1.0)
    lost: list[str] = []
    a.on_lost = lost.append
    try:
        a.create_table("t1", "basic", "T", {"x": 1}, {}, "playing", [("human", ""), ("bot:easy", "E")])
        a.save("t1", 1, moves=[(0, "draw")])
        assert b.take("t1") == "other" and b.owner_url("t1") == "http://a"
        assert [s.id for s in b.unfinished()] == [] and [s.id for s in a.unfinished()] == ["t1"]
        time.sleep(1.3)  # a stalls past its lease: b takes the table over
        assert b.take("t1") == "mine" and b.free_tables() == []
        with pytest.raises(LeaseLost):
            a.save("t1", 2, moves=[(1, "draw")], first_seq=1)
        assert lost == ["t1"] and a.renew(["t1"]) == set()
        st = b.load("t1")
        assert st is not None and st.actions == ["draw"] and st.state_id == 1  # a's write left nothing
        b.save("t1", 2, moves=[(1, "discard 7H")], first_seq=1)
        b.release(["t1"])  # a clean stop: free at once
        assert a.free_tables() == ["t1"] and a.take("t1") == "mine"
    finally:
        a.close()
        b.close()
    single = Storage(url)  # no node: no leases, every unfinished table is this process's
    try:
        assert [s.id for s in single.unfinished()] == ["t1"]
        single.save("t1", 3)
    finally:
        single.close()


def test_serve_asks_for_both_node_options_or_neither() -> None:
    from click.testing import CliRunner

    from rummykit.cli.online import serve

    r = CliRunner().invoke(serve, ["--node-id", "web1"])
    assert r.exit_code == 2 and "--advertise-url" in r.output
    r = CliRunner().invoke(serve, ["--advertise-url", "http://10.0.0.1:8000"])
    assert r.exit_code == 2 and "--node-id" in r.output


def test_a_rematch_asked_of_two_processes_at_once_is_one_table(tmp_path: Any) -> None:
    from rummykit.server.storage import Storage

    url = f"sqlite:///{tmp_path / 'rematch.db'}"
    a, b = Storage(url, node="a", node_url="http://a"), Storage(url, node="b", node_url="http://b")
    try:
        a.create_table("t1", "basic", "T", {"x": 1}, {}, "over", [("human", ""), ("human", "")])
        assert a.set_rematch("t1", "new-a") == "new-a"
        assert b.set_rematch("t1", "new-b") == "new-a"  # the first one stays
        st = b.load("t1")
        assert st is not None and st.rematch == "new-a"
    finally:
        a.close()
        b.close()
