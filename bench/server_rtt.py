"""Round-trip time of an action through `rummykit serve`: figures only, nothing asserted.

    python bench/server_rtt.py            # 1, 10 and 100 tables (a few minutes)
    python bench/server_rtt.py --quick    # 1 and 10 tables, a few seconds each (CI)

It starts `rummykit serve` on a free port of 127.0.0.1 (a temporary SQLite database
unless --db is given), opens tables of four human seats, and plays every seat with a
websocket client driven by a rummykit bot (all clients in this one process).  An
action's round trip is from the client sending it to the moment every seat of the
table has received the state that follows it; one action per table is timed at a time.
It prints the actions sent and served per second, how many were timed, and their p50,
p90, p99 and max in ms.
Server and clients share this machine's cores, so the figures include the clients' work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rummykit.engine.actions import format_action, parse_action  # noqa: E402
from rummykit.players import make_player  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def start_server(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rummykit.cli.main", "serve", "--port", str(port),
                             "--db", db, "--no-limits"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    end = time.time() + 60
    while time.time() < end:
        try:
            urllib.request.urlopen(base + "/api/rulesets", timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


class TableRun:
    """Four clients at one table; measures one action at a time."""

    def __init__(self, base: str, tid: str, tokens: list[str], bot: str, samples: list[float],
                 sent: list[int]):
        self.base, self.tid, self.tokens, self.bot = base, tid, tokens, bot
        self.samples = samples
        self.sent = sent  # one shared counter of actions sent
        self.pending: tuple[float, int, set[int]] | None = None  # (t0, state sent, seats still to hear)
        self.acted: dict[int, int] = {}
        self.over = False

    async def seat(self, i: int, stop: float) -> None:
        import websockets

        url = self.base.replace("http://", "ws://") + f"/ws/tables/{self.tid}?token={self.tokens[i]}"
        async with websockets.connect(url, max_size=2**24) as ws:
            while time.time() < stop and not self.over:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.time()))
                except TimeoutError:
                    break
                now = time.perf_counter()
                msg = json.loads(raw)
                if msg.get("type") != "state":
                    continue
                p = self.pending
                if p is not None and msg["state_id"] > p[1] and i in p[2]:
                    p[2].discard(i)
                    if not p[2]:
                        self.samples.append((now - p[0]) * 1000)
                        self.pending = None
                if msg["status"] == "over":
                    self.over = True
                    break
                if not msg["legal"] or self.acted.get(i, -1) >= msg["state_id"]:
                    continue
                w = msg.get("window")
                if w is not None and self.acted.get(i, -1) >= w["state_id"]:
                    continue
                bot = make_player(self.bot, seed=msg["state_id"] * 4 + i)
                act = format_action(bot.choose(msg["view"], [parse_action(t) for t in msg["legal"]]))
                self.acted[i] = msg["state_id"]
                if self.pending is None:
                    self.pending = (time.perf_counter(), msg["state_id"], {0, 1, 2, 3})
                self.sent[0] += 1
                await ws.send(json.dumps({"type": "act", "state_id": msg["state_id"], "action": act}))


async def run_level(base: str, tables: int, seconds: float, ruleset: str, bot: str, hints: bool,
                    seed: int) -> tuple[list[float], int, float]:
    runs = []
    samples: list[float] = []
    sent = [0]
    for t in range(tables):
        tid = post(base + "/api/tables", {"ruleset": ruleset, "seats": ["human"] * 4, "seed": seed + t,
                                         "hints": hints, "claim_seconds": 10})["id"]
        tokens = [post(f"{base}/api/tables/{tid}/join", {"name": f"B{k}"})["token"] for k in range(4)]
        runs.append(TableRun(base, tid, tokens, bot, samples, sent))
    start = time.time()
    stop = start + seconds
    await asyncio.gather(*(r.seat(i, stop) for r in runs for i in range(4)))
    return samples, sent[0], time.time() - start


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1 and 10 tables, a few seconds each")
    ap.add_argument("--tables", default=None, help="comma-separated table counts (default 1,10,100)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds of play per table count")
    ap.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--url", default=None, help="use a server already running there (http://host:port)")
    ap.add_argument("--ruleset", default="contract")
    ap.add_argument("--bot", default="easy", help="the bot that drives every client")
    ap.add_argument("--hints", action="store_true", help="tables with hints on (the server computes one "
                    "for the seat to act in every state)")
    args = ap.parse_args()
    levels = [int(x) for x in (args.tables or ("1,10" if args.quick else "1,10,100")).split(",")]
    seconds = args.seconds or (5.0 if args.quick else 20.0)
    tmp = tempfile.mkdtemp(prefix="rummykit-rtt-")
    db = args.db or f"sqlite:///{os.path.join(tmp, 'rtt.db')}"
    proc, base = (None, args.url.rstrip("/")) if args.url else start_server(db)
    try:
        print(f"rummykit serve round trip: {args.ruleset}, 4 websocket clients per table driven by the "
              f"{args.bot} bot, hints {'on' if args.hints else 'off'}, {db.split(':')[0]} database, "
              f"{seconds:g} s per row, {os.cpu_count()} cores shared by server and clients")
        print(f"{'tables':>7} {'actions':>8} {'act/s':>7} {'timed':>6} {'p50 ms':>8} {'p90 ms':>8} "
              f"{'p99 ms':>8} {'max ms':>8}")
        for i, n in enumerate(levels):
            samples, count, took = asyncio.run(run_level(base, n, seconds, args.ruleset, args.bot, args.hints,
                                                         seed=1000 * (i + 1)))
            if not samples:
                print(f"{n:>7} {'-':>8}")
                continue
            print(f"{n:>7} {count:>8} {count / took:>7.0f} {len(samples):>6} "
                  f"{statistics.median(samples):>8.1f} {pct(samples, 0.9):>8.1f} {pct(samples, 0.99):>8.1f} "
                  f"{max(samples):>8.1f}", flush=True)
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    main()
