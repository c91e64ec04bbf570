"""Load on `rummykit serve`: many tables played at once to the end. Figures only, nothing asserted
on time (the script exits 1 only when a game went wrong: an unexpected error, or a finished
game whose record does not replay to its scores).

    python bench/server_load.py                    # 10, 100 and 500 tables in turn (25 minutes)
    python bench/server_load.py --tables 500       # one level
    python bench/server_load.py --quick            # 10 tables, no think time (CI, seconds)

For each level it starts a fresh `rummykit serve --no-limits` on a free port of 127.0.0.1
(a temporary SQLite database unless --db is given) in its own process, creates N tables of
four human seats (short games: one deal of Contract Rummy by default), joins every seat over
HTTP and plays it with an asyncio websocket client in this process.  A client acts on a state
that lists actions for it, after a think time drawn uniformly from 0..2*--think seconds, as
rummykit's medium bot chooses from the state message (`--policy medium`, the default: games
of about 100 actions, like people's) or by a cheap policy (`--policy cheap`: the first meld or
layoff listed, else `draw`, else `pass` (in a claim window; `buy` one time in five), else a
random listed action; games of about 300 actions).  Tables start acting once all four seats
are connected.

It prints, per level: games finished (and not, at the time bound), actions acknowledged and
per second, the round trip of an action (sent -> the state, or error, that answers it on that
socket) p50/p99/max in ms, the server process's CPU (seconds and % of one core over the run)
and peak RSS (VmHWM), this client process's CPU, and errors by code.  Every finished game's
record (GET /api/tables/{id}) is replayed with rummykit.replay and must give the same scores.
Server and clients share this machine's cores: the figures include the clients' work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import rummykit as rk  # noqa: E402
from rummykit.server.client import bot_chooser, whole_log, ws_url  # noqa: E402
from rummykit.server.gcpolicy import quiet_gc  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
SHORT = {"contract": {"deals": 1}, "may-i": {"deals": 1}, "liverpool": {"deals": 1},
         "shanghai": {"deals": 1}, "basic": {"target": 50}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PROFILED = """
import cProfile, os, signal, sys, time
from rummykit.cli.main import main
prof, path = cProfile.Profile(time.process_time), sys.argv.pop(1)  # CPU time: a busy machine
def dump(*_):
    prof.disable()
    prof.dump_stats(path)
signal.signal(signal.SIGUSR1, dump)
prof.enable()
main()
"""


def start_server(db: str, profile: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    port = int(os.environ.get("RUMMYKIT_LOAD_PORT") or free_port())
    cmd = [sys.executable, "-m", "rummykit.cli.main"]
    if os.environ.get("RUMMYKIT_LOAD_SERVER"):  # another way to start it (experiments)
        cmd = [sys.executable, os.environ["RUMMYKIT_LOAD_SERVER"]]
    if profile:  # cProfile in the server process, written when it gets SIGUSR1 (see run_level)
        cmd = [sys.executable, "-c", PROFILED, profile]
    log = tempfile.TemporaryFile()  # the server's log (a pipe nobody reads during the run would fill)
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port), "--db", db, "--no-limits"],
                            stdout=subprocess.DEVNULL, stderr=log)
    proc.log = log  # type: ignore[attr-defined]
    base = f"http://127.0.0.1:{port}"
    end = time.time() + 60
    while time.time() < end:
        if proc.poll() is not None:
            err = _log_of(proc)
            raise SystemExit("the server did not start: " + err)
        try:
            urllib.request.urlopen(base + "/api/rulesets", timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (and its waited-for children)."""
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in parts[11:15]) / TICK


def proc_peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Stats:
    rtt: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    sent: int = 0


class Seat:
    """One websocket client: a reader that keeps the newest state and times acknowledgements,
    and an actor that thinks and acts on the newest state."""

    def __init__(self, table: TableRun, seat: int, token: str):
        self.table, self.seat, self.token = table, seat, token
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.pending: tuple[float, int] | None = None  # (sent at, state_id sent)
        self.acted = -1  # the state_id acted on (outside a window) or the window answered
        self.rng = random.Random(table.seed * 10 + seat)
        self.log: list[Any] = []  # the round's log, made whole from log_from messages
        self.bot = bot_chooser("medium", table.seed * 10 + seat)

    async def choose(self, msg: dict[str, Any]) -> str:
        if self.table.policy == "medium":
            action = await self.bot(msg)
            if action is not None:
                return action
        return self.cheap(msg)

    def cheap(self, msg: dict[str, Any]) -> str:
        legal: list[str] = msg["legal"]
        for t in legal:
            if t.startswith(("meld", "layoff")):
                return t
        if "draw" in legal:
            return "draw"
        if "pass" in legal:
            return "buy" if "buy" in legal and self.rng.random() < 0.2 else "pass"
        return self.rng.choice(legal)

    def actionable(self, msg: dict[str, Any]) -> bool:
        if msg["status"] != "playing" or not msg["legal"] or not self.table.all_in:
            return False
        w = msg.get("window")
        key = w["state_id"] if w else msg["state_id"]
        return key > self.acted

    async def run(self, ws: Any, stop: float, stats: Stats) -> None:
        actor = asyncio.create_task(self.act(ws, stop, stats))
        try:
            while time.time() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.time()))
                except TimeoutError:
                    break
                now = time.perf_counter()
                msg = json.loads(raw)
                if msg["type"] == "state":
                    self.log = whole_log(msg, self.log)
                if msg["type"] == "error":
                    stats.errors[msg["code"]] += 1
                    if self.pending is not None:
                        stats.rtt.append((now - self.pending[0]) * 1000)
                        self.pending = None
                    self.changed.set()
                    continue
                if msg["type"] != "state":
                    continue
                if self.pending is not None and msg["state_id"] > self.pending[1]:
                    stats.rtt.append((now - self.pending[0]) * 1000)
                    self.pending = None
                self.latest = msg
                if all(s["connected"] for s in msg["seats"]):
                    self.table.all_in = True
                if msg["status"] == "over":
                    self.table.over = True
                    break
                self.changed.set()
        finally:
            actor.cancel()
            self.changed.set()

    async def act(self, ws: Any, stop: float, stats: Stats) -> None:
        think = self.table.think
        while time.time() < stop and not self.table.over:
            await self.changed.wait()
            self.changed.clear()
            msg = self.latest
            if msg is None or self.pending is not None or not self.actionable(msg):
                continue
            if think > 0:
                await asyncio.sleep(self.rng.uniform(0, 2 * think))
                msg = self.latest
                if msg is None or self.pending is not None or not self.actionable(msg):
                    continue
            w = msg.get("window")
            self.acted = w["state_id"] if w else msg["state_id"]
            action = await self.choose(msg)
            self.pending = (time.perf_counter(), msg["state_id"])
            stats.sent += 1
            await ws.send(json.dumps({"type": "act", "state_id": msg["state_id"], "action": action}))


class TableRun:
    def __init__(self, tid: str, tokens: list[str], seed: int, think: float, delta: bool, policy: str):
        self.id, self.seed, self.think, self.delta, self.policy = tid, seed, think, delta, policy
        self.seats = [Seat(self, i, t) for i, t in enumerate(tokens)]
        self.all_in = False
        self.over = False

    async def play(self, base: str, stop: float, stats: Stats) -> None:
        import websockets

        async def one(s: Seat) -> None:
            try:
                async with websockets.connect(ws_url(base, self.id, s.token, self.delta), max_size=2**24,
                                              open_timeout=60, ping_interval=None) as ws:
                    await s.run(ws, stop, stats)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as e:
                stats.errors[f"socket: {type(e).__name__}"] += 1

        await asyncio.gather(*(one(s) for s in self.seats))


async def setup(base: str, n: int, ruleset: str, options: dict[str, Any], hints: bool, seed: int,
                think: float, delta: bool, policy: str) -> list[TableRun]:
    import httpx

    sem = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def one(k: int) -> TableRun:
            async with sem:
                r = await http.post("/api/tables", json={
                    "ruleset": ruleset, "seats": ["human"] * 4, "seed": seed + k, "options": options,
                    "hints": hints, "bot_delay": 0, "claim_seconds": 5, "grace_seconds": 600})
                r.raise_for_status()
                tid = r.json()["id"]
                tokens = []
                for i in range(4):
                    j = await http.post(f"/api/tables/{tid}/join", json={"name": f"L{i}", "seat": i})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                return TableRun(tid, tokens, seed + k, think, delta, policy)

        return list(await asyncio.gather(*(one(k) for k in range(n))))


async def check_records(base: str, runs: list[TableRun]) -> tuple[int, int, list[str]]:
    """(finished, unfinished, problems): every finished game's record replays to its scores."""
    import httpx

    problems: list[str] = []
    finished = 0
    sem = asyncio.Semaphore(8)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def one(r: TableRun) -> bool:
            async with sem:
                info = (await http.get(f"/api/tables/{r.id}")).json()
            if info["status"] != "over":
                return False
            replayed = json.loads(json.dumps(rk.replay(info["record"]).view(None)["scores"]))
            if replayed != info["scores"]:
                problems.append(f"table {r.id}: record replays to {replayed}, "
                                f"the server says {info['scores']}")
            return True

        for ok in await asyncio.gather(*(one(r) for r in runs)):
            finished += ok
    return finished, len(runs) - finished, problems


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def run_level(n: int, args: argparse.Namespace, db: str, seed: int) -> bool:
    proc, base = start_server(db, args.profile and f"{args.profile}.{n}")
    ok = True
    try:
        runs = asyncio.run(setup(base, n, args.ruleset, SHORT.get(args.ruleset, {}), args.hints, seed,
                                 args.think, not args.whole_log, args.policy))
        stats = Stats()
        cpu0, me0, t0 = proc_cpu(proc.pid), resource.getrusage(resource.RUSAGE_SELF), time.time()
        stop = t0 + args.seconds

        async def play() -> None:
            # the load generator's own garbage collections would stall every client at once and
            # count as the server's latency: the same policy as rummykit serve's (never swept here)
            keeper = asyncio.create_task(quiet_gc(sweep_seconds=0))
            try:
                await asyncio.gather(*(r.play(base, stop, stats) for r in runs))
            finally:
                keeper.cancel()

        asyncio.run(play())
        took = time.time() - t0
        if args.profile:
            proc.send_signal(signal.SIGUSR1)
        cpu = proc_cpu(proc.pid) - cpu0
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        mine = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
        rss = proc_peak_rss_mb(proc.pid)
        finished, unfinished, problems = asyncio.run(check_records(base, runs))
        errs = dict(stats.errors)
        print(f"{n:>6} {finished:>5} {unfinished:>5} {len(stats.rtt):>8} {len(stats.rtt) / took:>7.0f} "
              f"{pct(stats.rtt, 0.5):>7.1f} {pct(stats.rtt, 0.99):>7.1f} "
              f"{max(stats.rtt, default=float('nan')):>8.1f} {took:>6.1f} {cpu:>7.1f} "
              f"{100 * cpu / took:>5.0f}% "
              f"{rss:>7.0f} {mine:>7.1f}  {errs or 'none'}", flush=True)
        for p in problems:
            print("  REPLAY MISMATCH:", p)
        # stale answers can happen when a window closes while a client thinks; anything else is a bug
        bad = {k: v for k, v in errs.items() if k != "stale"}
        if problems or bad:
            ok = False
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        err = _log_of(proc)
        if "Traceback" in err:
            print("  the server logged an error:\n" + err[-3000:])
            ok = False
    return ok


def _log_of(proc: subprocess.Popen[bytes]) -> str:
    log = proc.log  # type: ignore[attr-defined]
    log.seek(0)
    return str(log.read().decode(errors="replace"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="10 tables, no think time, 120 s at most (CI)")
    ap.add_argument("--tables", default=None, help="comma-separated table counts (default 10,100,500)")
    ap.add_argument("--think", type=float, default=None,
                    help="mean think time of a client before it acts, seconds (default 2: a person's "
                         "pace, each wait drawn from 0-4 s; 0.5 is a bot's; --quick 0)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="time bound of one level's play (default 900; --quick 120)")
    ap.add_argument("--db", default=None,
                    help="database URL (default: a fresh temporary SQLite file per level)")
    ap.add_argument("--ruleset", default="contract", choices=sorted(SHORT))
    ap.add_argument("--hints", action="store_true", help="tables with hints on")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="medium", choices=("medium", "cheap"),
                    help="how the clients choose: rummykit's medium bot (default) or a cheap policy")
    ap.add_argument("--whole-log", action="store_true",
                    help="clients ask for the whole log in every state message (default: only what "
                         "is new, log=delta, as the browser app and rummykit join do)")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="run the server under cProfile, writing FILE.<tables> (read it with pstats)")
    args = ap.parse_args()
    levels = [int(x) for x in (args.tables or ("10" if args.quick else "10,100,500")).split(",")]
    if args.think is None:
        args.think = 0.0 if args.quick else 2.0
    if args.seconds is None:
        args.seconds = 120.0 if args.quick else 900.0
    tmp = tempfile.mkdtemp(prefix="rummykit-load-")
    print(f"rummykit serve under load: {args.ruleset} {SHORT[args.ruleset]}, 4 websocket clients per table "
          f"(think 0-{2 * args.think:g} s), hints {'on' if args.hints else 'off'}, "
          f"log {'whole' if args.whole_log else 'delta'}, {args.policy} policy, "
          f"{(args.db or 'sqlite').split(':')[0]} database, at most {args.seconds:g} s per level, "
          f"{os.cpu_count()} cores shared by server and clients")
    print(f"{'tables':>6} {'over':>5} {'unfin':>5} {'actions':>8} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>8} {'wall s':>6} {'srv cpu':>7} {'cpu%':>6} {'RSS MB':>7} {'cli cpu':>7}  errors")
    ok = True
    for i, n in enumerate(levels):
        db = args.db or f"sqlite:///{os.path.join(tmp, f'load{i}.db')}"
        ok = run_level(n, args, db, seed=args.seed * 100_000 + 1000 * i) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
