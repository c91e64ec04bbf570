"""``rummykit serve`` (the server) and ``rummykit join`` (a seat at a server's table)."""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import logging
import socket
import sys
from pathlib import Path
from typing import Any

import click

LEVELS = ("easy", "medium", "hard")


SERVE_NEEDS = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg", "websockets", "orjson",
               "prometheus_client", "pythonjsonlogger")
JOIN_NEEDS = ("websockets",)


def need_extra(command: str, modules: tuple[str, ...]) -> None:
    """One sentence on how to install the ``serve`` extra when its libraries are missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise click.ClickException(
            f"`rummykit {command}` needs the server's libraries ({', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed): pip install 'rummykit[serve]' "
            "(in a clone: pip install -e '.[serve]').")


class OneLine(click.ClickException):
    """A bad value for a flag, said in one sentence (click's usage errors add the usage and
    a hint: three more lines), exit code 2 like them."""

    exit_code = 2


class Sectioned(click.Command):
    """A command whose ``--help`` shows its options in sections, in the order given: what a
    person sets first, the tuning after."""

    def __init__(self, *args: Any, sections: list[tuple[str, list[str]]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sections = sections

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = {p.name: rec for p in self.get_params(ctx) if (rec := p.get_help_record(ctx)) is not None}
        for title, names in self.sections:
            rows = [records.pop(n) for n in names if n in records]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        if records:
            with formatter.section("Other options"):
                formatter.write_dl(list(records.values()))


def _limit_options(f: Any) -> Any:
    """``rummykit serve`` flags for server/limits.py (0: no limit)."""
    from ..server.limits import Limits

    d = Limits()
    opts = [
        ("--ws-max-message", int, d.ws_max_message, "Bytes of one websocket message (1009 over it)."),
        ("--ws-rate", float, d.ws_rate, "Websocket messages a second per connection: a faster client is "
                                        "slowed; one that sends without waiting, cut (1008)."),
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


LIMIT_FLAGS = ["ws_max_message", "ws_rate", "ws_burst", "ws_per_ip", "tables_per_ip", "tables_window",
               "http_max_body", "no_limits"]
SERVE_SECTIONS = [
    ("Where and how", ["host", "port", "db_url", "bot_delay"]),
    ("Logs and metrics (metrics at /metrics; docs/deploy.md)", ["log_level", "log_format"]),
    ("Several processes on one PostgreSQL database (docs/deploy.md)",
     ["node_id", "advertise_url", "lease_seconds"]),
    ("Behind a proxy", ["forwarded_allow_ips"]),
    ("Limits against hostile clients (docs/protocol.md)", LIMIT_FLAGS),
    ("Tuning", ["ws_compression", "gc_sweep_seconds", "review_workers"]),
]


@click.command(cls=Sectioned, sections=SERVE_SECTIONS)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 to let other "
                   "machines in.")
@click.option("--port", default=8000, show_default=True, type=int,
              help="The port to listen on, 1-65535 (0: any free port, printed at start).")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Where tables are kept: sqlite:///path/file.db or postgresql://user:password@host/dbname "
                   "(default: server.db in rummykit's data folder).")
@click.option("--bot-delay", default=0.6, show_default=True, type=click.FloatRange(0, 10), metavar="SECONDS",
              help="How long a bot waits before it moves, at a table whose creator does not say.")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info",
              show_default=True, help="The log (on stderr): table events, refused connections, errors, "
                                      "start and stop; debug adds spectators and normal closes.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="One line of text per record, or one JSON object (for log collectors).")
@click.option("--node-id", default=None, metavar="NAME",
              help="Run as one of several processes on one PostgreSQL database: this process's unique name.")
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
          no_limits: bool = False, ws_compression: str = "fast", bot_delay: float = 0.6,
          log_level: str = "info", log_format: str = "text", review_workers: int | None = None,
          **limit_values: Any) -> None:
    """Serve tables in the browser: open http://HOST:PORT/ and share a table's link.

    Every check comes before the server says it runs: the port, whether it is free, the
    database; each failure is one sentence and a non-zero exit."""
    need_extra("serve", SERVE_NEEDS)
    if node_id is not None and advertise_url is None:
        raise click.UsageError("--node-id needs --advertise-url (where the other processes reach this one)")
    if advertise_url is not None and node_id is None:
        raise click.UsageError("--advertise-url is for a cluster node: give --node-id too")
    if not 0 <= port <= 65535:
        raise OneLine(f"--port must be a port number from 1 to 65535 (or 0: any free port), not {port}.")
    from ..server.limits import Limits

    try:
        limits = Limits.none() if no_limits else Limits(**limit_values)
    except ValueError as e:
        raise OneLine(f"{e}.") from None
    url = check_db_url(db_url)
    from ..server.observe import setup_logging

    setup_logging(log_level, log_format)
    sock = listen_socket(host, port)
    try:
        storage = open_storage(url, node_id, advertise_url, lease_seconds)
    except click.ClickException:
        sock.close()
        raise
    run_server(sock, storage, host=host, node_id=node_id, advertise_url=advertise_url,
               lease_seconds=lease_seconds, forwarded_allow_ips=forwarded_allow_ips,
               gc_sweep_seconds=gc_sweep_seconds, limits=limits, ws_compression=ws_compression,
               bot_delay=bot_delay, review_workers=review_workers)


def check_db_url(db_url: str | None) -> str:
    """The database URL, or one sentence on what ``--db`` takes (never repeating a password)."""
    from ..server.storage import default_url

    if db_url is None:
        return default_url()
    from sqlalchemy.engine import make_url

    takes = "give sqlite:///path/file.db or postgresql://user:password@host/dbname"
    if "://" not in db_url:
        where = Path(db_url).expanduser().absolute()
        raise OneLine(f"--db takes a database URL, not a file name: sqlite:///{where} for that file "
                      "(or postgresql://user:password@host/dbname).")
    try:
        driver = make_url(db_url).drivername
    except Exception:
        raise OneLine(f"--db is not a database URL rummykit can read: {takes}.") from None
    if not driver.startswith(("sqlite", "postgresql", "postgres")):
        raise OneLine(f"--db: {driver.split('+')[0]} is not a database rummykit serves: {takes}.")
    return db_url


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound: a busy port, an address not of this machine, a port that
    needs more rights are each one sentence, before anything is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
    try:
        sock.bind((host, port))
    except socket.gaierror as e:
        sock.close()
        raise click.ClickException(f"cannot listen on {host}: no such address here ({e.strerror}); "
                                   "--host takes 127.0.0.1, 0.0.0.0 or an address of this machine.") from None
    except OSError as e:
        sock.close()
        said = {
            errno.EADDRINUSE: f"port {port} on {host} is in use by another program (another rummykit "
                              "serve?): choose another with --port, or stop that one.",
            errno.EACCES: f"this user may not listen on port {port} (below 1024 needs root): choose one "
                          "from 1024 up with --port.",
            errno.EADDRNOTAVAIL: f"{host} is not an address of this machine: --host takes 127.0.0.1 (this "
                                 "machine only), 0.0.0.0 (every address) or one of its own.",
        }.get(e.errno or 0, f"cannot listen on {where}: {e.strerror or e}.")
        raise click.ClickException(said) from None
    sock.set_inheritable(True)
    return sock


def open_storage(url: str, node_id: str | None, advertise_url: str | None, lease_seconds: float) -> Any:
    """The server's database, reached and migrated now: one sentence when it cannot be."""
    from ..server.storage import Storage, safe_url

    try:
        return Storage(url, node=node_id, node_url=advertise_url, lease_seconds=lease_seconds)
    except Exception as e:
        text = str(getattr(e, "orig", None) or e).strip()
        reason = text.splitlines()[0].rstrip(".") if text else type(e).__name__
        hint = ""
        if url.startswith("sqlite") and "unable to open" in reason:
            hint = " (does its folder exist, and may this user write there?)"
        raise click.ClickException(f"cannot use the database {safe_url(url)}: {reason}{hint}.") from None


def run_server(sock: socket.socket, storage: Any, *, host: str, node_id: str | None,
               advertise_url: str | None, lease_seconds: float, forwarded_allow_ips: str,
               gc_sweep_seconds: float, limits: Any, ws_compression: str, bot_delay: float,
               review_workers: int | None = None) -> None:
    """uvicorn on the bound socket; the banner once it serves; exit 1 if it could not start."""
    import uvicorn

    from ..server import create_app
    from ..server.wsproto import uvicorn_ws_options

    log = logging.getLogger("rummykit.server")
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else (
        f"[{host}]" if ":" in host else host)
    address = f"http://{shown}:{port}/"
    app = create_app(storage=storage, node=node_id, advertise_url=advertise_url, lease_seconds=lease_seconds,
                     limits=limits, gc_sweep_seconds=gc_sweep_seconds, bot_delay=bot_delay,
                     review_workers=review_workers)
    # the protocol layer refuses a bigger websocket frame before buffering it (close 1009)
    config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False, proxy_headers=True,
                            forwarded_allow_ips=forwarded_allow_ips,
                            ws_max_size=limits.ws_max_message or 2**24, **uvicorn_ws_options(ws_compression))

    def started() -> None:
        everywhere = " (on every address of this machine)" if host in ("0.0.0.0", "::", "") else ""
        log.info("listening on %s%s", address, everywhere,
                 extra={"event": "listening", "host": host, "port": port})
        click.echo(f"rummykit: open {address} in a browser{everywhere} (Ctrl+C stops; unfinished "
                   "tables are kept)")

    server = _Server(config, started)
    server.run(sockets=[sock])
    if not server.started:
        raise click.ClickException("the server could not start: the log above says why.")


def _uvicorn_server() -> type:
    import uvicorn

    class Server(uvicorn.Server):  # type: ignore[misc]
        """uvicorn's server, saying so once it serves (the socket listening, the app started)."""

        def __init__(self, config: Any, on_started: Any):
            super().__init__(config)
            self.on_started = on_started

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and not self.should_exit:
                self.on_started()

    return Server


def _Server(config: Any, on_started: Any) -> Any:  # noqa: N802  (a class made when uvicorn is there)
    return _uvicorn_server()(config, on_started)


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
    need_extra("join", JOIN_NEEDS)
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
