"""The ASGI app: REST routes, the websocket, the browser app's files (see docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import tomllib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, get_args, get_origin

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from ..rules import options as words
from ..rules.registry import ORDER, RulesError, Variant, _merge, _raw_builtin, build_spec, get_variant
from ..rules.spec import RuleSpec
from .cluster import Cluster, Relay
from .extras import DEAL_BREAK_SECONDS
from .gcpolicy import quiet_gc
from .limits import CLOSED, FLOOD, FLOODING, OVERSIZE, BodyLimit, Bucket, Inbox, Limits, PerIP, client_ip
from .observe import Observer, Watch
from .replay import Replays
from .reviews import Busy, Reviews
from .storage import Storage
from .tables import BOT_LEVELS, OVERFLOW, Conn, Hub, Refused, Table
from .wire import LogCursor

log = logging.getLogger("rummykit.server")

STATIC = Path(__file__).parent / "static"
SEAT_KINDS = ("human", *(f"bot:{x}" for x in BOT_LEVELS))
MAX_RULES_TEXT = 64_000


class Invalid(ValueError):
    """A request the server refuses with 422; the message names the problem."""


def _err(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def _number(body: dict[str, Any], key: str, default: float | None, lo: float, hi: float,
            *, nullable: bool = False) -> float | None:
    v = body.get(key, default)
    if v is None:
        if nullable:
            return None
        raise Invalid(f"{key} must be a number")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise Invalid(f"{key} must be a number from {lo:g} to {hi:g}" + (" or null" if nullable else "")
                      + f", not {json.dumps(v)}")
    return float(v)


def variant_from_rules_text(text: str) -> Variant:
    """A house-rules file sent as TOML text; it may extend a built-in ruleset only (never a path)."""
    if len(text) > MAX_RULES_TEXT:
        raise Invalid(f"rules: the house-rules text is longer than {MAX_RULES_TEXT} characters")
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))  # (a byte-order mark is no part of it)
    except tomllib.TOMLDecodeError as e:
        raise Invalid(f"rules: not valid TOML: {e}") from None
    except RecursionError:
        raise Invalid("rules: not a rules file: its tables or lists are nested too deep to read") from None
    parent = data.pop("extends", None)
    if parent is not None:
        if parent not in ORDER:
            raise Invalid(f"rules: extends must be a built-in ruleset ({', '.join(ORDER)}), not {parent!r}")
        data = _merge(_raw_builtin(parent), data)
    try:
        return Variant(build_spec(data, "rules"), data)
    except RulesError as e:
        raise Invalid(str(e)) from None


def parse_create(body: Any, bot_delay: float = 0.6) -> dict[str, Any]:
    """The POST /api/tables body, checked; Invalid names the first problem.  ``bot_delay``:
    the bots' pace where the body gives none (``rummykit serve --bot-delay``)."""
    if not isinstance(body, dict):
        raise Invalid("the body must be a JSON object")
    known = {"ruleset", "rules", "players", "seats", "options", "seed", "bot_delay", "claim_seconds",
             "grace_seconds", "turn_seconds", "hints", "names", "name", "deal_break_seconds"}
    extra = sorted(set(body) - known)
    if extra:
        raise Invalid(f"unknown field {extra[0]!r}; the fields are {', '.join(sorted(known))}")
    rules = body.get("rules")
    if rules is not None:
        if not isinstance(rules, str):
            raise Invalid("rules must be the TOML text of a house-rules file")
        variant = variant_from_rules_text(rules)
    else:
        rs = body.get("ruleset")
        if not isinstance(rs, str):
            raise Invalid(f"ruleset is required: one of {', '.join(ORDER)} (or send rules)")
        try:
            variant = get_variant(rs)
        except ValueError as e:
            raise Invalid(str(e)) from None
    seats = body.get("seats")
    if not isinstance(seats, list) or not seats:
        raise Invalid(f"seats must be a list with one entry per player, each one of {', '.join(SEAT_KINDS)}")
    for i, s in enumerate(seats):
        if s not in SEAT_KINDS:
            raise Invalid(f"seats[{i}] is {json.dumps(s)}; each seat is one of {', '.join(SEAT_KINDS)}")
    players = body.get("players", len(seats))
    if not isinstance(players, int) or isinstance(players, bool):
        raise Invalid("players must be an integer")
    if players != len(seats):
        raise Invalid(f"players is {players} but seats lists {len(seats)}")
    lo, hi = variant.spec.players
    if not lo <= players <= hi:
        raise Invalid(f"{variant.id} is for {lo}-{hi} players, not {players}")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise Invalid("options must be an object of house-rule keys and values")
    for k in ("id", "name", "players", "pack"):
        if k in options:
            raise Invalid(f"options: {k} cannot be changed at a table")
    try:
        variant.with_options(options)
    except RulesError as e:
        raise Invalid(str(e)) from None
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise Invalid("seed must be a whole number from 0 to 2**63-1")
    hints = body.get("hints", True)
    if not isinstance(hints, bool):
        raise Invalid("hints must be true or false")
    names_in = body.get("names") or {}
    if not isinstance(names_in, dict):
        raise Invalid('names must be an object like {"1": "Robo"}')
    names: dict[int, str] = {}
    for k, v in names_in.items():
        if not str(k).isdigit() or not 0 <= int(k) < players:
            raise Invalid(f"names: {k!r} is not a seat 0-{players - 1}")
        names[int(k)] = check_name(v, f"names[{k}]")
    name = body.get("name")
    if name is not None:
        name = check_name(name, "name", 80, "a table name of ")
    settings: dict[str, Any] = {
        "bot_delay": _number(body, "bot_delay", bot_delay, 0, 10),
        "claim_seconds": _number(body, "claim_seconds", 5, 0.1, 120),
        "grace_seconds": _number(body, "grace_seconds", 30, 0, 86400),
        "turn_seconds": _number(body, "turn_seconds", None, 1, 86400, nullable=True),
        "hints": hints,
        "deal_break_seconds": _number(body, "deal_break_seconds", DEAL_BREAK_SECONDS, 0, 120),
    }
    if rules is not None:  # what the table's house rules are told as differences from
        settings["extends"] = rules_parent(rules)
    return {"variant": variant, "players": players, "seats": seats, "options": options, "seed": seed,
            "settings": settings, "names": names, "name": name, "rules": rules}


def rules_parent(text: str) -> str | None:
    """The built-in ruleset a house-rules text (valid: see ``variant_from_rules_text``) extends."""
    parent = tomllib.loads(text.removeprefix("\ufeff")).get("extends")
    return parent if parent in ORDER else None


def check_name(v: Any, what: str = "name", most: int = 40, kind: str = "") -> str:
    """A name shown to other players, stripped: 1 to ``most`` printable characters (any
    language; no control or format characters: nothing invisible, nothing that turns the text
    around it)."""
    if not isinstance(v, str) or not 0 < len(v.strip()) <= most or not v.isprintable():
        raise Invalid(f"{what} must be {kind}1-{most} printable characters")
    return v.strip()


# the house rules about contracts, not offered for a ruleset that has none (the basic family)
CONTRACT_ONLY = frozenset({"contract_sizes", "contract_count", "runs_not_contiguous", "one_run_per_suit",
                           "distinct_set_ranks", "pat_before_draw", "after_contract_melds",
                           "layoff_on_contract_turn"})


def ruleset_options(variant: Variant) -> list[dict[str, Any]]:
    """The house rules a table may set: the spec's plain switches, numbers and choices."""
    out = []
    spec = variant.spec
    skip = {"id", "name", "source", "notes", "players"}
    if not spec.contracts:  # rules of contracts mean nothing here
        skip |= CONTRACT_ONLY
    for key, f in RuleSpec.model_fields.items():
        if key in skip:
            continue
        ann = f.annotation
        default = getattr(spec, key)
        known = key in words.OPTIONS  # (a key added to the spec later: its name as words)
        entry: dict[str, Any] = {
            "key": key, "default": default,
            "label": words.label(key) if known else key.replace("_", " ").capitalize(),
            "help": words.help_text(key) if known else key.replace("_", " ").capitalize() + "."}
        if ann is bool:
            entry["type"] = "bool"
        elif ann is int or (get_origin(ann) is not None and set(get_args(ann)) == {int, type(None)}):
            entry["type"] = "int"
            entry["nullable"] = type(None) in get_args(ann)
            for m in f.metadata:
                if getattr(m, "ge", None) is not None:
                    entry["min"] = m.ge
                if getattr(m, "le", None) is not None:
                    entry["max"] = m.le
        elif get_origin(ann) is not None and str(get_origin(ann)).endswith("Literal"):
            entry["type"] = "choice"
            entry["choices"] = list(get_args(ann))
            if known:
                entry["choice_labels"] = words.choice_labels(key)
        else:
            continue
        if known:
            values = [True, False] if entry["type"] == "bool" else entry.get("choices", [])
            entry["sentence"] = words.sentence(key, default, spec)
            if values:
                entry["sentences"] = {json.dumps(v).strip('"'): words.sentence(key, v, spec) for v in values}
        out.append(entry)
    return out


def create_app(db_url: str | None = None, *, static_dir: str | Path | None = None, node: str | None = None,
               advertise_url: str | None = None, lease_seconds: float = 10.0,
               limits: Limits | None = None, gc_sweep_seconds: float | None = None,
               storage: Storage | None = None, bot_delay: float = 0.6,
               review_workers: int | None = None, review_settings: dict[str, Any] | None = None) -> FastAPI:
    """The server app on the database at ``db_url`` (SQLite in the user's data folder by default),
    or on ``storage`` already open (rummykit serve opens it first, to say at once when the
    database cannot be used).  With ``node`` it is one of several processes on one database,
    reached by the others at ``advertise_url`` (see cluster.py).  ``limits`` against hostile
    clients (limits.py; the defaults when None).  ``gc_sweep_seconds``: the process's garbage
    collection kept off the tables' backs (gcpolicy.py; rummykit serve sets it), a full sweep
    this often.  ``bot_delay``: the bots' pace at a table whose creator gives none.  Its log
    and metrics (``GET /metrics``): observe.py.  ``review_workers``: processes for the reviews
    of finished games (every core but one by default); ``review_settings``: the reviews'
    (samples, horizon, ...: see rummykit.review)."""
    static = Path(static_dir) if static_dir is not None else STATIC
    limits = limits if limits is not None else Limits()
    per_ip = PerIP(limits)
    holder: dict[str, Any] = {}
    reviews = Reviews(review_workers, **(review_settings or {}))
    if node is not None and not advertise_url:
        raise ValueError("a cluster node needs the URL the other processes reach it at (advertise_url)")
    observe = Observer(node=node)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = storage if storage is not None else Storage(
            db_url, node=node, node_url=advertise_url, lease_seconds=lease_seconds)
        observe.db = store.engine.dialect.name
        store.on_commit = observe.commit_took
        if gc_sweep_seconds is not None:  # rummykit serve: nothing that waits for the disk on the loop
            store.checkpoint_in_background()
        hub = Hub(store, observe)
        hub.restore()
        hub.start()
        holder["hub"] = hub
        app.state.hub = hub
        if node is not None and advertise_url:
            holder["cluster"] = Cluster(hub, node, advertise_url)
            holder["cluster"].start()
        keeper = None if gc_sweep_seconds is None else asyncio.create_task(
            quiet_gc(sweep_seconds=gc_sweep_seconds))
        unfinished = sum(1 for t in hub.tables.values() if t.status != "over")
        log.info("started: database %s, %d unfinished table%s back%s", store.safe_url(), unfinished,
                 "" if unfinished == 1 else "s", f", node {node}" if node else "",
                 extra={"event": "start", "tables": unfinished, "node": node})
        try:
            yield
        finally:
            log.info("stopping: %d table%s in memory, every unfinished one kept in the database",
                     len(hub.tables), "" if len(hub.tables) == 1 else "s", extra={"event": "stopping"})
            if keeper is not None:
                keeper.cancel()
            if "cluster" in holder:
                await holder.pop("cluster").stop()
            hub.stop()
            reviews.stop()
            store.close()
            log.info("stopped", extra={"event": "stop"})

    def too_big(scope: Any, detail: str) -> None:
        observe.refused("http_body", detail, ip=client_ip(scope), status=413)

    app = FastAPI(title="rummykit", lifespan=lifespan, docs_url=None, redoc_url=None)
    # the browser app's files (about 144 kB) and the API's JSON go gzipped (about 45 kB)
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(Relay, holder=holder)  # passes everything through unless clustered
    app.state.limits = limits
    app.state.observe = observe
    app.add_middleware(BodyLimit, limit=limits.http_max_body, on_refused=too_big)  # before any relaying
    app.add_middleware(Watch, observer=observe)  # outermost: every response counted, errors logged

    def hub() -> Hub:
        return holder["hub"]

    async def body_of(request: Request) -> Any:
        try:
            return await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
            raise Invalid("the body must be JSON (not nested too deep)") from None

    def table_url(request: Request, tid: str) -> str:
        return f"{str(request.base_url).rstrip('/')}/t/{tid}"

    @app.exception_handler(Invalid)
    async def invalid(_: Request, e: Invalid) -> JSONResponse:
        return _err(422, str(e))

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, e: StarletteHTTPException) -> Response:
        """A page that is not there gets the browser app (which shows a friendly page) with
        404; the API's and other machine paths keep their JSON."""
        path = request.url.path
        if (e.status_code == 404 and request.method in ("GET", "HEAD")
                and not (path + "/").startswith(MACHINE_PATHS)):
            page = index()
            page.status_code = 404
            return page
        return JSONResponse({"detail": e.detail}, status_code=e.status_code, headers=e.headers)

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> JSONResponse:
        req = parse_create(await body_of(request), bot_delay)
        ip = client_ip(request.scope)
        wait = per_ip.create_table(ip)
        if wait:
            detail = (f"too many tables created from your address: at most {limits.tables_per_ip} "
                      f"in {limits.tables_window:g} s; try again in {wait:.0f} s")
            observe.refused("tables_per_ip", detail, ip=ip, status=429)
            return _err(429, detail)
        try:
            t = hub().create(variant=req["variant"], setup_rules=None, players=req["players"],
                             seats=req["seats"], options=req["options"], seed=req["seed"],
                             settings=req["settings"], names=req["names"], name=req["name"])
        except ValueError as e:
            raise Invalid(str(e)) from None
        return JSONResponse({"id": t.id, "url": table_url(request, t.id)}, status_code=201)

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": hub().listing()}

    def find(tid: str) -> Table | None:
        if len(tid) > 32:
            return None
        return hub().get(tid)

    @app.get("/api/tables/{tid}")
    async def get_table(tid: str) -> Response:
        t = find(tid)
        if t is None:
            return _err(404, f"no table {tid!r}")
        return JSONResponse(t.summary())

    @app.post("/api/tables/{tid}/join")
    async def join(tid: str, request: Request) -> Response:
        t = find(tid)
        if t is None:
            return _err(404, f"no table {tid!r}")
        body = await body_of(request)
        if not isinstance(body, dict):
            raise Invalid('the body must be a JSON object like {"name": "Ann"}')
        name = check_name(body.get("name"))
        seat = body.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise Invalid("seat must be an integer")
        if t.status == "over":
            return _err(409, "the game at this table is over")
        try:
            seat_no, token = t.join(name, seat)
        except Refused as r:
            return _err(409 if r.code == "conflict" else 422, r.message)
        return JSONResponse({"seat": seat_no, "token": token})

    @app.post("/api/tables/{tid}/rematch", status_code=201)
    async def rematch(tid: str, request: Request) -> Response:
        t = find(tid)
        if t is None:
            return _err(404, f"no table {tid!r}")
        body = await body_of(request)
        token = body.get("token") if isinstance(body, dict) else None
        if not isinstance(token, str) or t.seat_for_token(token) is None:
            return _err(403, "a rematch is asked for with the token of a seat at this table")
        if t.status != "over":
            return _err(409, "the game at this table is not over yet")
        if t.rematch is None:
            s = t.settings
            new = hub().create(
                variant=t.variant, setup_rules=None, players=t.game.n, seats=list(s["seats"]),
                options=s["options"], seed=None,
                settings={k: s[k] for k in ("bot_delay", "claim_seconds", "grace_seconds", "turn_seconds",
                                            "hints", "deal_break_seconds", "extends") if k in s},
                names={i: x.name for i, x in enumerate(t.seats) if x.bot}, name=t.name)
            # set once in the database: a rematch asked of another process at the same moment
            # (a finished table served twice in a cluster) leads everyone to one new table
            t.rematch_made(t.storage.set_rematch(t.id, new.id))
        rid = t.rematch
        assert rid is not None
        return JSONResponse({"id": rid, "url": table_url(request, rid)}, status_code=201)

    replays = Replays()

    @app.get("/api/tables/{tid}/replay/{step}")
    async def replay_step(tid: str, step: int) -> Response:
        """A finished game at one step: the public view, every hand shown (the game is over)."""
        t = find(tid)
        if t is None:
            return _err(404, f"no table {tid!r}")
        if t.status != "over":
            return _err(409, "a game is replayed once it is over")
        try:
            got = await asyncio.to_thread(replays.step, t.id, t.game.record(), step)
        except IndexError as e:
            return _err(404, str(e))
        return JSONResponse(got | {"seats": [s.public() for s in t.seats]})

    @app.get("/api/tables/{tid}/review")
    async def review_of(tid: str, request: Request) -> Response:
        """A finished game's review of one seat (``?seat=S``, from 0): the seat's decisions
        judged on what it saw then (see rummykit.review). While the game goes on, a seated
        player may review its own finished deals (``&token=`` its seat's token). Computed once,
        in worker processes: 202 with the progress while it works, 200 with the review when
        done, 500 with the reason if it failed (``&retry=1`` starts it again)."""
        t = find(tid)
        if t is None:
            return _err(404, f"no table {tid!r}")
        n = t.game.n
        raw = request.query_params.get("seat", "")
        if not raw.isdigit() or not 0 <= int(raw) < n:
            raise Invalid(f"seat must be a seat of this table, 0-{n - 1}, not {raw!r}")
        seat = int(raw)
        deals = len(t.game.history)
        if t.status != "over":
            token = request.query_params.get("token")
            if token is None or t.seat_for_token(token) != seat:
                return _err(409, "a game is reviewed once it is over (until then, each player may review "
                                 "their own finished deals)")
            if not deals:
                return _err(409, "no deal of this game is finished yet: there is nothing to review")
        try:
            job, ahead = reviews.get((t.id, seat, deals), t.game.record,
                                     retry=request.query_params.get("retry") == "1")
        except Busy as e:
            return JSONResponse({"detail": str(e)}, status_code=503, headers={"Retry-After": "30"})
        body = job.public(ahead) | {"seat": seat, "seats": [s.public() for s in t.seats]}
        if job.status == "failed":
            return JSONResponse(body | {"detail": job.error}, status_code=500)
        if job.status != "done":
            return JSONResponse(body, status_code=202)
        return JSONResponse(body | {"review": job.result})

    @app.get("/api/rulesets")
    async def rulesets() -> dict[str, Any]:
        out = []
        for vid in ORDER:
            v = get_variant(vid)
            out.append({"id": vid, "name": v.name, "players": list(v.spec.players),
                        "options": ruleset_options(v)})
        return {"rulesets": out}

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """For load balancers and scripts: this process is up and its database answers."""
        c = holder.get("cluster")
        return {"ok": True, "tables": len(hub().tables), **hub().storage.health()} | (
            {} if c is None else {"node": c.node, "taken_over": len(c.taken_over)})

    @app.get("/metrics")
    async def metrics() -> Response:
        """This process's metrics in Prometheus' text format (observe.py, docs/deploy.md)."""
        return Response(generate_latest(observe.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/stats/{name}")
    async def stats(name: str) -> dict[str, Any]:
        return {"name": name, "rulesets": hub().storage.stats(name)}

    @app.websocket("/ws/tables/{tid}")
    async def ws(websocket: WebSocket, tid: str) -> None:
        ip = client_ip(websocket.scope)
        if not per_ip.open_socket(ip):
            detail = f"too many connections from your address (at most {limits.ws_per_ip} at once)"
            observe.refused("ws_per_ip", detail, ip=ip, status=429)
            await _deny(websocket, 429, detail)
            return
        try:
            await _play(websocket, tid, ip)
        finally:
            per_ip.close_socket(ip)

    async def _play(websocket: WebSocket, tid: str, ip: str) -> None:
        await websocket.accept()
        t = find(tid)
        if t is None:
            await websocket.send_json({"type": "error", "code": "bad_request",
                                       "message": f"no table {tid!r}"})
            await websocket.close(code=4404)
            observe.ws_closed(4404, "server", table=tid[:32], ip=ip)
            return
        token = websocket.query_params.get("token")
        seat = None
        if token is not None:
            seat = t.seat_for_token(token)
            if seat is None:
                await websocket.send_json({"type": "error", "code": "bad_request",
                                           "message": "this token is not a seat at this table"})
                await websocket.close(code=4403)
                observe.ws_closed(4403, "server", table=t.id, ip=ip)
                return
        conn = Conn(seat, log=LogCursor() if websocket.query_params.get("log") == "delta" else None)
        writer = asyncio.create_task(_writer(websocket, conn))
        inbox = Inbox(limits)
        reader = asyncio.create_task(_reader(websocket, inbox, limits))
        t.connect(conn)
        bucket = Bucket(limits.ws_rate, limits.ws_burst)
        try:
            while True:
                text = await inbox.get()
                if text == CLOSED:
                    break
                if text == OVERSIZE:
                    observe.refused("ws_message_size", f"a websocket message over {limits.ws_max_message} "
                                    "bytes: closed with 1009", ip=ip, table=t.id)
                    conn.out.put_nowait(TOO_BIG)
                    break
                if text == FLOODING:  # it kept sending without waiting: its backlog passed the limit
                    observe.refused("ws_flood", f"more than {FLOOD * limits.ws_burst} websocket messages "
                                    "sent without waiting: closed with 1008", ip=ip, table=t.id)
                    conn.send({"type": "error", "code": "rate_limited",
                               "message": f"too many messages: at most {limits.ws_rate:g} a second "
                                          f"({limits.ws_burst} at once), and more than "
                                          f"{FLOOD * limits.ws_burst} sent without waiting; closing"})
                    conn.out.put_nowait(FLOODED)
                    break
                wait = bucket.delay()
                if wait:  # over the rate: handled a little later (slowed, never dropped)
                    observe.slowed.inc()
                    await asyncio.sleep(wait)
                try:
                    data = json.loads(text)
                except (ValueError, RecursionError):  # RecursionError: nested too deep
                    conn.send({"type": "error", "code": "bad_request",
                               "message": "a message must be JSON (not nested too deep)"})
                    continue
                if isinstance(data, dict) and data.get("type") == "act":
                    before = t.state_id
                    observe.act_started(t, time.perf_counter())
                    t.handle(conn, data)
                    if t.state_id == before:  # refused: no round trip to time
                        observe.act_refused(t)
                else:
                    t.handle(conn, data)
        except RuntimeError:
            pass  # this process lost the table's lease: nobody to answer
        finally:
            reader.cancel()
            t.disconnect(conn)
            conn.out.put_nowait(None)
            try:
                await asyncio.wait_for(writer, 1)
            except (TimeoutError, Exception):
                writer.cancel()
            if writer.done() and not writer.cancelled() and writer.result() is not None:
                observe.ws_closed(writer.result(), "server", table=t.id, seat=seat, ip=ip)
            elif inbox.code is not None or inbox.end == CLOSED:
                observe.ws_closed(inbox.code, "client", table=t.id, seat=seat, ip=ip)

    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")

    def index() -> Response:
        f = static / "index.html"
        if not f.exists():
            return Response("rummykit server: the browser app is not installed", media_type="text/plain")
        return FileResponse(f, headers={"Cache-Control": "no-cache"})

    @app.get("/")
    async def root() -> Response:
        return index()

    @app.get("/t/{tid}")
    async def table_page(tid: str) -> Response:
        return index()

    @app.get("/t/{tid}/review")
    async def review_page(tid: str) -> Response:
        return index()

    @app.get("/stats/{name}")
    async def stats_page(name: str) -> Response:
        return index()

    return app


MACHINE_PATHS = ("/api/", "/ws/", "/static/", "/metrics/")  # their 404s stay JSON (/api too)
TOO_BIG = "\x00too big"  # the writer closes the socket with 1009 (a message over ws_max_message)
FLOODED = "\x00flooded"  # ... with 1008 (a client that kept sending over its rate)


async def _deny(websocket: WebSocket, status: int, detail: str) -> None:
    """Refuse a websocket at the handshake with an HTTP status and a JSON detail (or, on an
    ASGI server without the denial extension, an error message and close 1008)."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(JSONResponse({"detail": detail}, status_code=status))
        return
    await websocket.accept()
    await websocket.send_json({"type": "error", "code": "rate_limited", "message": detail})
    await websocket.close(code=1008)


async def _reader(websocket: WebSocket, inbox: Inbox, limits: Limits) -> None:
    """Read what the client sends, as it comes, into its inbox (limits.py): the backlog
    tells a client that waits for its answers from one that floods."""
    try:
        while True:
            m = await websocket.receive()
            if m["type"] == "websocket.disconnect":
                inbox.code = m.get("code")
                break
            text = m.get("text")
            if text is None:
                raw = m.get("bytes") or b""
                if limits.ws_max_message and len(raw) > limits.ws_max_message:
                    inbox.close(OVERSIZE)
                    return
                text = raw.decode("utf-8", "replace")
            if limits.ws_max_message and len(text) * 4 > limits.ws_max_message \
                    and len(text.encode()) > limits.ws_max_message:
                inbox.close(OVERSIZE)
                return
            if not inbox.put(text):
                inbox.close(FLOODING)
                return
            await inbox.room()
    except (WebSocketDisconnect, RuntimeError):
        pass  # the client went away (or the socket was closed under the reader)
    finally:
        inbox.close(CLOSED)


async def _writer(websocket: WebSocket, conn: Conn) -> int | None:
    """Send what the table queues for this connection; the close code when it closes the
    socket (None when it just stops)."""
    while True:
        msg = await conn.out.get()
        if msg is None:
            return None
        try:
            if msg == OVERFLOW:
                await websocket.close(code=1013)  # "try again later": it reconnects for the full state
                return 1013
            if msg in (TOO_BIG, FLOODED):
                code = 1009 if msg == TOO_BIG else 1008
                await websocket.close(code=code)
                return code
            await websocket.send_text(msg)
        except Exception:
            return None
