"""``rummykit serve`` (the server) and ``rummykit join`` (a seat at a server's table)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import click

LEVELS = ("easy", "medium", "hard")


def _limit_options(f: Any) -> Any:
    """``rummykit serve`` flags for server/limits.py (0: no limit)."""
    from ..server.limits import Limits

    d = Limits()
    opts = [
        ("--ws-max-message", int, d.ws_max_message, "Bytes of one websocket message (1009 over it)."),
        ("--ws-rate", float, d.ws_rate, "Websocket messages a second per connection (then rate_limited)."),
        ("--ws-burst", int, d.ws_burst, "Websocket messages at once per connection."),
        ("--ws-per-ip", int, d.ws_per_ip, "Websockets open at once from one address (429 over it)."),
        ("--tables-per-ip", int, d.tables_per_ip, "Tables one address may create per --tables-window (429)."),
        ("--tables-window", float, d.tables_window, "Seconds of that window."),
        ("--http-max-body", int, d.http_max_body, "Bytes of a request body (413 over it)."),
    ]
    for flag, typ, default, text in reversed(opts):
        name = flag[2:].replace("-", "_")
        f = click.option(flag, name, type=typ, default=default, show_default=True, help=text + " 0: none.")(f)
    f = click.option("--ws-compression", type=click.Choice(["fast", "best", "off"]), default="fast",
                     show_default=True, help="Websocket compression: zlib level 1, level 6, or none.")(f)
    return click.option("--no-limits", is_flag=True,
                        help="No limits at all (benchmarks on a trusted machine).")(f)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 to let other machines in).")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--db", "db_url", default=None, metavar="URL",
              help="sqlite:///path.db or postgresql://user@host/db (default: server.db in the data folder).")
@click.option("--node-id", default=None, metavar="NAME",
              help="Run as one of several processes on one PostgreSQL database (see docs/deploy.md): "
                   "this process's unique name.")
@click.option("--advertise-url", default=None, metavar="URL",
              help="With --node-id: where the other processes reach this one, e.g. http://10.0.0.5:8000.")
@click.option("--lease-seconds", default=10.0, show_default=True, type=click.FloatRange(1, 600),
              help="With --node-id: a dead process's tables are taken over after this long.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, metavar="IPS",
              help="Comma-separated addresses (or *) of the proxies, and of the other processes of "
                   "a cluster, whose X-Forwarded-For and X-Forwarded-Proto are believed: the "
                   "per-address limits then count the client behind them.")
@click.option("--gc-sweep-seconds", default=900.0, show_default=True, type=click.FloatRange(0),
              help="Objects that live a while are kept out of Python's garbage collector's full passes "
                   "(which stalled every table for 0.3-0.4 s at 500 tables); they are swept this often "
                   "(0: never).")
@click.option("--review-workers", default=None, type=click.IntRange(1), metavar="N",
              help="Processes that review finished games for the browser's Review page (default: every "
                   "core but one).")
@_limit_options
def serve(host: str, port: int, db_url: str | None, node_id: str | None, advertise_url: str | None,
          lease_seconds: float, forwarded_allow_ips: str = "127.0.0.1", gc_sweep_seconds: float = 900.0,
          no_limits: bool = False, ws_compression: str = "fast", review_workers: int | None = None,
          **limit_values: Any) -> None:
    """Serve tables in the browser: open http://HOST:PORT/ and share a table's link."""
    import uvicorn

    from ..server import create_app
    from ..server.limits import Limits
    from ..server.wsproto import uvicorn_ws_options

    if node_id is not None and advertise_url is None:
        raise click.UsageError("--node-id needs --advertise-url (where the other processes reach this one)")
    if advertise_url is not None and node_id is None:
        raise click.UsageError("--advertise-url is for a cluster node: give --node-id too")
    try:
        limits = Limits.none() if no_limits else Limits(**limit_values)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    app = create_app(db_url, node=node_id, advertise_url=advertise_url, lease_seconds=lease_seconds,
                     limits=limits, gc_sweep_seconds=gc_sweep_seconds, review_workers=review_workers)
    click.echo(f"rummykit: open http://{host}:{port}/ in a browser "
               "(Ctrl+C stops; unfinished tables are kept)")
    # the protocol layer refuses a bigger websocket frame before buffering it (close 1009)
    uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True,
                forwarded_allow_ips=forwarded_allow_ips,
                ws_max_size=limits.ws_max_message or 2**24, **uvicorn_ws_options(ws_compression))


def _describe(msg: dict[str, Any]) -> str:
    v = msg["view"]
    seats = msg["seats"]
    lines = [f"-- state {msg['state_id']}: deal {v['round']}, {v['contract']}; "
             f"{seats[v['current_player']]['name'] or 'seat ' + str(v['current_player'])} to act"]
    for ev in v["log"][-4:]:
        lines.append(f"   {ev['text']}")
    lines.append(f"   discard: {v['discard_top'] or '(empty)'}   stock: {v['stock_size']}   "
                 f"hands: {' '.join(str(n) for n in v['hand_sizes'])}")
    for m, info in zip(v["melds"], v["meld_info"], strict=False):
        lines.append(f"   meld {info['number']} (seat {info['owner']}): {' '.join(m)}")
    lines.append(f"   your hand: {' '.join(v['hand'])}")
    return "\n".join(lines)


@click.command()
@click.argument("url")
@click.option("--name", required=True, help="Your name at the table.")
@click.option("--bot", type=click.Choice(LEVELS), default=None,
              help="Let a bot play the seat (without it you play in the terminal).")
@click.option("--seat", type=int, default=None, help="A particular free seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="The bot's seed.")
def join(url: str, name: str, bot: str | None, seat: int | None, seed: int) -> None:
    """Take a seat at a table on a server (URL: the table's link) and play it."""
    from ..server.client import JoinError, SeatClient, bot_chooser, join_table, split_table_url

    try:
        base, tid = split_table_url(url)
        seat_no, token = join_table(base, tid, name, seat)
    except JoinError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"Seat {seat_no} at table {tid} as {name}" + (f", played by the {bot} bot" if bot else ""))

    shown = [-1]

    def on_message(msg: dict[str, Any]) -> None:
        if msg.get("type") == "error":
            click.echo(f"Refused ({msg['code']}): {msg['message']}")
        elif msg.get("type") == "state" and msg["status"] == "over":
            v = msg["view"]
            pairs = zip(msg["seats"], v["scores"], strict=False)
            click.echo("Game over. Scores: " + ", ".join(f"{s['name'] or i}: {sc}"
                                                         for i, (s, sc) in enumerate(pairs)))

    async def person(msg: dict[str, Any]) -> str | None:
        if shown[0] != msg["state_id"]:
            click.echo(_describe(msg))
            shown[0] = msg["state_id"]
        legal = msg["legal"]
        for i, a in enumerate(legal, 1):
            click.echo(f"  {i}. {a}")
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            raise SystemExit(0)
        text = line.strip()
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        return text or None

    def on_status(text: str) -> None:  # the connection dropped or came back: say so
        if text == "connecting":
            return
        click.echo("Reconnected: the seat is yours again." if text == "reconnected"
                   else f"{text[0].upper()}{text[1:]}…")

    chooser = bot_chooser(bot, seed) if bot else person
    client = SeatClient(base, tid, token, chooser, on_message=on_message, on_status=on_status)
    try:
        asyncio.run(client.run())
    except JoinError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo("Left the table; the seat is kept (a bot plays it after the grace period).")
