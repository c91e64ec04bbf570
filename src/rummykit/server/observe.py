"""What an operator sees of a running server: its log and its metrics (docs/deploy.md).

**The log** (logger ``rummykit.server``): one line per table event — created, the game
started, a seat joined, a seat's player connected or left, a seat handed to a bot and
back, the game finished, a rematch — at INFO; per refused or failed connection, with its
close code or HTTP status and the client's address, at WARNING (a client that closes
normally: DEBUG); per error, with the table or the request it happened in, at ERROR; and
the server's start and stop.  Every record carries ``event`` and, where there is one,
``table``, ``seat``, ``code`` and ``ip`` as fields, so ``--log-format json`` gives them as
keys.  Nothing that can hold a card a seat holds is ever logged: no action, no view, no
hint, no message from a client; a finished game's scores only.

**The metrics** (Prometheus' text format at ``GET /metrics``, from prometheus-client):
counters and histograms updated as things happen, and gauges read from the tables in
memory at each scrape.  Each ``serve`` process has its own (several processes on one
database are several scrape targets: each counts what it serves).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from .._version import __version__

if TYPE_CHECKING:
    from .storage import Change
    from .tables import Conn, Hub, Table

log = logging.getLogger("rummykit.server")
disable_created_metrics()  # (no *_created series: one start time is process_start_time_seconds)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
                   Awaitable[None]]

# what a close code means, for the log line
CLOSE_CODES = {
    1000: "closed normally", 1001: "went away", 1005: "closed without a code",
    1006: "dropped (no closing handshake)", 1008: "cut off: it kept sending without waiting (rate_limited)",
    1009: "cut off: a message over --ws-max-message",
    1011: "closed by an error", 1012: "the server is restarting",
    1013: "told to reconnect: it fell 200 messages behind, or the table moved or was reloaded",
    4403: "refused: a token that is not a seat of this table", 4404: "refused: no such table",
}
NORMAL = (1000, 1001)

LATENCY = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


class Observer:
    """The log lines and the metrics of one server process.  The Hub and the app call it
    as things happen; a scrape reads the live gauges from ``hub``."""

    def __init__(self, *, node: str | None = None, db: str = "") -> None:
        self.node = node
        self.db = db
        self.hub: Hub | None = None
        self.registry = r = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        r.register(_Live(self))
        self.actions = Counter("rummykit_actions", "Engine actions stored: every move, pass and claim "
                               "fed to the engine, by people and bots (rate() gives actions a second)",
                               registry=r)
        self.claims = Counter("rummykit_claim_answers", "Answers to claim windows stored (May I, buy, "
                              "Shanghai, Rummy)", registry=r)
        self.round_trip = Histogram("rummykit_action_round_trip_seconds",
                                    "A person's action in the server: from reading it off the websocket "
                                    "(after any rate-limit wait) to the new state queued for every "
                                    "connection of its table, the commit included", buckets=LATENCY,
                                    registry=r)
        self.commit = Histogram("rummykit_store_commit_seconds",
                                "One transaction of the store: the changes of every table of one turn "
                                "of the event loop, committed", buckets=LATENCY, registry=r)
        self.created = Counter("rummykit_tables_created", "Tables created on this process", registry=r)
        self.finished = Counter("rummykit_games_finished", "Games played to their end on this process",
                                ["ruleset"], registry=r)
        self.closes = Counter("rummykit_websocket_closes", "Websockets closed, by close code and by "
                              "which side closed them (server, client)", ["code", "by"], registry=r)
        self.limited = Counter("rummykit_limited", "Clients held to a limit (docs/protocol.md, Limits): "
                               "ws_flood (1008), ws_message_size (1009), ws_per_ip and tables_per_ip "
                               "(429), http_body (413)", ["limit"], registry=r)
        self.slowed = Counter("rummykit_ws_messages_slowed", "Websocket messages handled later to keep "
                              "their connection to --ws-rate (slowed, not dropped)", registry=r)
        self.http = Counter("rummykit_http_responses", "HTTP responses, by status", ["status"], registry=r)
        self._acting: dict[str, list[float]] = {}  # table -> when its accepted actions were read
        self._status: dict[str, str] = {}  # table -> its status as last stored

    # -- tables ---------------------------------------------------------------------------

    def table_created(self, t: Table) -> None:
        self.created.inc()
        self._status[t.id] = t.status
        kinds = ", ".join(s.kind for s in t.seats)
        log.info("table %s created: %s, %d seats (%s)%s", t.id, t.variant.id, t.game.n, kinds,
                 "; the game starts now" if t.status == "playing" else "",
                 extra=_fields("table_created", t, ruleset=t.variant.id, seats=[s.kind for s in t.seats]))

    def stored(self, t: Table, ch: Change) -> None:
        """A table's change is committed: what it holds goes to the counters and the log."""
        self.actions.inc(len(ch.moves))
        if ch.claims:
            self.claims.inc(len(ch.claims))
        for seat, vals in ch.seats:
            if "token_hash" in vals:
                log.info("table %s: seat %d taken by %s", t.id, seat, vals.get("name", ""),
                         extra=_fields("seat_joined", t, seat=seat, player=vals.get("name", "")))
            if "autoplay" in vals:
                if vals["autoplay"]:
                    away = vals.get("autoplay_why") == "away"
                    why = "its player was away longer than the grace period" if away else "its player asked"
                    log.info("table %s: seat %d played by a bot (%s)", t.id, seat, why,
                             extra=_fields("seat_to_bot", t, seat=seat, why=vals.get("autoplay_why")))
                else:
                    log.info("table %s: seat %d played by its player again", t.id, seat,
                             extra=_fields("seat_back", t, seat=seat))
        before = self._status.pop(t.id, None)
        if ch.status in ("waiting", "playing"):
            self._status[t.id] = ch.status  # (a finished table is forgotten here)
        if before == "waiting" and ch.status == "playing":
            log.info("table %s: every seat taken, the game starts", t.id, extra=_fields("game_started", t))
        if ch.final is not None and ch.moves:  # the change with the last action (later ones carry
            self.finished.labels(t.variant.id).inc()  # the final scores again)
            scores, winners = ch.final
            names = [t.seats[w].name or f"seat {w}" for w in winners]
            log.info("table %s finished: %s, %d actions, %d deals; scores %s; won by %s", t.id, t.variant.id,
                     len(t.game.actions), len(t.game.history), ", ".join(scores), ", ".join(names),
                     extra=_fields("game_finished", t, scores=scores, winners=winners,
                                   actions=len(t.game.actions)))

    def rematch(self, t: Table, rid: str) -> None:
        log.info("table %s: rematch at table %s", t.id, rid, extra=_fields("rematch", t, rematch=rid))

    def dropped(self, t: Table, why: str) -> None:
        self._acting.pop(t.id, None)
        self._status.pop(t.id, None)
        log.warning("table %s dropped from memory: %s", t.id, why, extra=_fields("table_dropped", t))

    # -- connections ----------------------------------------------------------------------

    def connected(self, t: Table, conn: Conn) -> None:
        if conn.seat is None:
            log.debug("table %s: a spectator connected", t.id, extra=_fields("spectator_connected", t))
            return
        s = t.seats[conn.seat]
        if s.connections == 1:
            log.info("table %s: seat %d (%s) connected", t.id, conn.seat, s.name,
                     extra=_fields("seat_connected", t, seat=conn.seat))

    def disconnected(self, t: Table, conn: Conn) -> None:
        if conn.seat is None:
            log.debug("table %s: a spectator left", t.id, extra=_fields("spectator_left", t))
            return
        s = t.seats[conn.seat]
        if s.connections == 0:
            grace = (f"; a bot plays it after {float(t.settings['grace_seconds']):g} s"
                     if t.status == "playing" and s.autoplay is None else "")
            log.info("table %s: seat %d (%s) left%s", t.id, conn.seat, s.name, grace,
                     extra=_fields("seat_left", t, seat=conn.seat))

    def ws_closed(self, code: int | None, by: str, *, table: str | None = None, seat: int | None = None,
                  ip: str = "") -> None:
        """A websocket closed (``by``: "server" or "client"), with its close code."""
        code = 1005 if code is None else int(code)
        self.closes.labels(str(code), by).inc()
        what = CLOSE_CODES.get(code, "closed")
        who = "spectator" if seat is None else f"seat {seat}"
        level = logging.DEBUG if code in NORMAL else logging.WARNING
        if by == "server" and code == 1013:
            level = logging.INFO
        how = "closed by the client" if by == "client" else "closed"
        log.log(level, "websocket %s (table %s, %s, from %s): %d, %s", how, table or "-", who, ip or "?",
                code, what,
                extra={"event": "ws_closed", "code": code, "by": by, "table": table, "seat": seat, "ip": ip})

    def refused(self, limit: str, detail: str, *, ip: str = "", table: str | None = None,
                status: int | None = None) -> None:
        """A client held to a limit: counted, and said (``status``: the HTTP status it got)."""
        self.limited.labels(limit).inc()
        why = limit if status is None else f"{status}, {limit}"
        log.warning("refused %s (%s): %s", ip or "a client", why, detail,
                    extra={"event": "refused", "limit": limit, "ip": ip, "table": table, "code": status})

    # -- timing ---------------------------------------------------------------------------

    def act_started(self, t: Table, at: float) -> None:
        self._acting.setdefault(t.id, []).append(at)

    def act_refused(self, t: Table) -> None:
        got = self._acting.get(t.id)
        if got:
            got.pop()
            if not got:
                del self._acting[t.id]

    def told(self, t: Table) -> None:
        """The table's new state is queued to every connection: its actions' round trips end."""
        started = self._acting.pop(t.id, None)
        if started:
            now = time.perf_counter()
            for at in started:
                self.round_trip.observe(now - at)

    def commit_took(self, seconds: float) -> None:
        self.commit.observe(seconds)


def _fields(event: str, t: Table, **more: Any) -> dict[str, Any]:
    return {"event": event, "table": t.id, **more}


class _Live(Collector):
    """The gauges read at each scrape from the tables this process holds in memory."""

    def __init__(self, observer: Observer):
        self.o = observer

    def describe(self) -> list[Metric]:
        return []  # (read at each scrape: nothing to check when registering)

    def collect(self) -> Iterator[Metric]:
        info = InfoMetricFamily("rummykit", "This server process")
        info.add_metric([], {"version": __version__, "node": self.o.node or "", "db": self.o.db})
        yield info
        hub = self.o.hub
        tables = GaugeMetricFamily("rummykit_tables", "Tables this process holds, by status (a finished "
                                   "one stays 15 minutes)", labels=["status"])
        seats = GaugeMetricFamily("rummykit_seats_connected", "Seats whose player has a websocket open")
        autoplay = GaugeMetricFamily("rummykit_seats_autoplay", "People's seats a bot plays for now")
        watchers = GaugeMetricFamily("rummykit_spectators", "Spectators' websockets open")
        sockets = GaugeMetricFamily("rummykit_websockets", "Websockets open to this process's tables")
        count = {"waiting": 0, "playing": 0, "over": 0}
        n_seats = n_auto = n_watch = n_sock = 0
        for t in list(hub.tables.values()) if hub is not None else []:
            count[t.status] = count.get(t.status, 0) + 1
            n_sock += len(t.conns)
            n_watch += sum(1 for c in t.conns if c.seat is None)
            for s in t.seats:
                n_seats += s.bot is None and s.connections > 0
                n_auto += s.bot is None and s.autoplay is not None
        for status, n in sorted(count.items()):
            tables.add_metric([status], n)
        seats.add_metric([], n_seats)
        autoplay.add_metric([], n_auto)
        watchers.add_metric([], n_watch)
        sockets.add_metric([], n_sock)
        yield from (tables, seats, autoplay, watchers, sockets)


class Watch:
    """ASGI middleware: every HTTP response counted by status, and an error in answering a
    request logged with the request it happened in (then raised on, as before)."""

    def __init__(self, app: ASGIApp, observer: Observer):
        self.app = app
        self.o = observer

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def counted(m: Message) -> None:
            if m["type"] == "http.response.start":
                self.o.http.labels(str(m["status"])).inc()
            await send(m)

        try:
            await self.app(scope, receive, counted if scope["type"] == "http" else send)
        except Exception as e:
            where = f"{scope.get('method', 'WEBSOCKET')} {scope.get('path', '')}"
            client = scope.get("client")
            log.exception("error answering %s", where,
                          extra={"event": "error", "request": where, "ip": client[0] if client else ""})
            e.rummykit_logged = True  # type: ignore[attr-defined]  # (uvicorn's own line is left out)
            raise


class AlreadyLogged(logging.Filter):
    """For uvicorn's logger: its "Exception in ASGI application" for an error Watch has logged
    with its request already."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not getattr(exc, "rummykit_logged", False)


def setup_logging(level: str = "info", fmt: str = "text") -> None:
    """``rummykit serve``'s log on stderr: rummykit's records at ``level``, other libraries'
    (uvicorn's, SQLAlchemy's, websockets') warnings and errors only; ``fmt`` "text" (one line
    each) or "json" (one JSON object a line, python-json-logger: time, level, logger, message
    and the record's fields)."""
    handler = logging.StreamHandler()
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter(
            "{asctime}{levelname}{name}{message}", style="{",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    lvl = getattr(logging, level.upper())
    logging.getLogger("rummykit").setLevel(lvl)
    # uvicorn's own lines at WARNING and up, whatever the level: at DEBUG its websocket
    # protocol writes every frame, the state messages with their seat's hand included
    uv = logging.getLogger("uvicorn.error")
    uv.setLevel(logging.WARNING)
    uv.addFilter(AlreadyLogged())
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
