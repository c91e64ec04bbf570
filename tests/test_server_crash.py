"""Crashes: ``rummykit serve`` killed with SIGKILL at random (seeded) moments while tables
are played by websocket clients, started again on the same database, over and over.

Checked after every run, table by table: every action a client saw acknowledged is in the
stored record (a turn: the engine moved past the position it was sent at; a claim answer:
the window showed it answered); every view any client saw is the engine's view at that
position of the stored record, and every ``legal`` outside a window the engine's (so each
table resumed where it was, with the same legal actions); state_ids never go back, a
restart's states are past everything seen before it, and one state_id is one state; the
clients came back by themselves after every kill.

``RUMMYKIT_CRASH_KILLS`` sets the kills on SQLite (default 20), ``RUMMYKIT_CRASH_KILLS_PG``
on PostgreSQL (default 6, to keep CI near two minutes: a restart costs 1.5-2 s here; the
same code is under test), ``RUMMYKIT_CRASH_SEED`` the seed of the kill moments, e.g.
``RUMMYKIT_CRASH_KILLS=100 RUMMYKIT_CRASH_KILLS_PG=100 pytest tests/test_server_crash.py``."""

from __future__ import annotations

import asyncio
import os
import random
import time
from typing import Any

import pytest
from crashkit import ServerProc, Tracked, check_table, wait_all
from pg import free_port
from serverkit import _new_db, create_table, pg_base  # noqa: F401  (fixture)

from rummykit.server.client import join_table

KILLS = {"sqlite": int(os.environ.get("RUMMYKIT_CRASH_KILLS", "20")),
         "postgresql": int(os.environ.get("RUMMYKIT_CRASH_KILLS_PG", "6"))}
SEED = int(os.environ.get("RUMMYKIT_CRASH_SEED", "17"))
TABLES = 3  # tables in play at once
KINDS = [("contract", {"deals": 1}, ["human", "human", "bot:easy", "human"]),
         ("shanghai", {"deals": 1}, ["human", "bot:easy", "human"]),
         ("basic", {"target": 40}, ["human", "human"])]


def _new_table(base: str, n: int, gen: list[int], rng: random.Random) -> list[Tracked]:
    ruleset, options, seats = KINDS[n % len(KINDS)]
    tid = create_table(base, ruleset=ruleset, options=options, seats=seats, seed=rng.randrange(2**31),
                       hints=False, bot_delay=0, claim_seconds=1, grace_seconds=600)
    clients = []
    for i, kind in enumerate(seats):
        if kind == "human":
            _, token = join_table(base, tid, f"P{i}", i)
            clients.append(Tracked.make(base, tid, i, token, "easy", gen, seed=rng.randrange(2**31)))
    clients.append(Tracked.make(base, tid, None, None, None, gen, seed=rng.randrange(2**31)))
    return clients


async def _until(pred: Any, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(what)
        await asyncio.sleep(0.05)


async def _crash_run(srv: ServerProc, kills: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    gen = [1]
    tables: dict[str, list[Tracked]] = {}
    tasks: dict[str, list[asyncio.Task[Any]]] = {}
    made = 0
    killed_at: list[int] = []  # how many states the tables had got when each kill came
    spent = {"new": 0.0, "back": 0.0, "start": 0.0}
    for _ in range(kills):
        t0 = time.monotonic()
        for tid in [t for t, ts in tasks.items() if all(x.done() for x in ts)]:
            await wait_all(tasks.pop(tid), 0)  # raises what a client raised
        while len(tasks) < TABLES:
            clients = await asyncio.to_thread(_new_table, srv.base, made, gen, rng)
            made += 1
            tid = clients[0].table
            tables[tid] = clients
            tasks[tid] = [asyncio.create_task(c.client.run()) for c in clients]
        t1 = time.monotonic()
        # every client of a table in play is connected to this server generation
        await _until(lambda: all(c.got and c.got[-1][0] == gen[0] for tid in tasks for c in tables[tid]
                                 if not all(x.done() for x in tasks[tid])), 60,
                     f"clients did not come back after restart {gen[0] - 1}")
        t2 = time.monotonic()
        await asyncio.sleep(rng.uniform(0.05, 1.2))
        killed_at.append(sum(len(c.got) for ts in tables.values() for c in ts))
        srv.kill()
        gen[0] += 1
        t3 = time.monotonic()
        await asyncio.to_thread(srv.start)
        spent["new"] += t1 - t0
        spent["back"] += t2 - t1
        spent["start"] += time.monotonic() - t3
    # let the tables in play go on a little on the last server, then stop
    await asyncio.sleep(1.0)
    for ts in tasks.values():
        for x in ts:
            x.cancel()
    await asyncio.gather(*(x for ts in tasks.values() for x in ts), return_exceptions=True)
    srv.stop()
    totals = {"tables": len(tables), "kills": kills, "turns": 0, "answers": 0, "states": 0, "over": 0,
              "reconnects": 0}
    for tid, clients in tables.items():
        for k, v in check_table(srv.db_url, tid, clients).items():
            totals[k] += v
        totals["over"] += any(m.get("status") == "over" for c in clients for _, m in c.got)
        for c in clients:
            assert not [e for e in c.client.errors if e["code"] not in ("stale", "not_your_turn")], \
                c.client.errors
            # a client that was there at a kill came back to the next server by itself
            assert c.client.connects >= len({g for g, _ in c.got}), "a client did not reconnect"
            totals["reconnects"] += c.client.connects - 1
    # the kills came while the tables were being played: states kept coming between them
    assert len(set(killed_at)) == len(killed_at)
    totals.update({f"{k}_s": round(v, 1) for k, v in spent.items()})
    return totals


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkill_at_random_moments_loses_nothing_acknowledged(kind: str, tmp_path: Any,
                                                              request: pytest.FixtureRequest) -> None:
    db = _new_db(kind, tmp_path, request)
    srv = ServerProc(db, free_port())
    t0 = time.monotonic()
    try:
        srv.start()
        totals = asyncio.run(_crash_run(srv, KILLS[kind], SEED))
    finally:
        srv.close()
    print(f"{kind}: {totals} in {time.monotonic() - t0:.1f} s")
    assert totals["turns"] > 10 * KILLS[kind] and totals["answers"] > 0 and totals["over"] > 0
    for err in srv.errs:
        assert "Traceback" not in err, err
