"""The server's database: tables, seats, actions and open claims, through SQLAlchemy 2.

SQLite (WAL) in the user's data folder by default; PostgreSQL when the URL says
``postgresql://`` (driven by psycopg 3).  The schema is Alembic's: :func:`open_storage`
upgrades the database to the newest migration before anything else touches it.
Every write is its own transaction, committed before the caller tells anyone of it.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from ..storage_api import SavedRecord

log = logging.getLogger("rummykit.server")


class Base(DeclarativeBase):
    """The server's tables (SQLAlchemy's declarative base: every row class below)."""


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    setup: Mapped[str] = mapped_column(Text)  # a game record without its actions (JSON)
    settings: Mapped[str] = mapped_column(Text)  # bot_delay, claim_seconds, ... (JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting | playing | over
    state_id: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    scores: Mapped[str | None] = mapped_column(Text, nullable=True)  # final scores (JSON)
    winners: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON list of seats
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next table's id
    # several processes on one database (see cluster.py): the process that owns the table,
    # where the others reach it, and until when (epoch seconds, the database's clock)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    owner_url: Mapped[str | None] = mapped_column(String(300), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))  # human | bot:easy | bot:medium | bot:hard
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # sha256 hex
    autoplay: Mapped[bool] = mapped_column(default=False)  # a bot plays the seat for its player
    # why: "away" (the grace period ran out) or "asked" (the player handed it over); NULL before 0003
    autoplay_why: Mapped[str | None] = mapped_column(String(8), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0, 1, ... in engine order
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    state_id: Mapped[int] = mapped_column(Integer)  # the table's state_id after it


class ClaimRow(Base):
    __tablename__ = "claims"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    window: Mapped[int] = mapped_column(Integer, primary_key=True)  # state_id the window opened at
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    answer: Mapped[str] = mapped_column(Text)


# the statements of every change (the per-action path of the server), in SQL with :name
# parameters, turned into the driver's own style once (_driver_sql)
_SAVE_SQL = {
    "action": 'INSERT INTO actions (table_id, seq, seat, "text", state_id) '
              "VALUES (:tid, :seq, :seat, :text, :sid)",
    "claim": 'INSERT INTO claims (table_id, "window", seat, answer) VALUES (:tid, :w, :seat, :a)',
    "state": "UPDATE tables SET state_id = :sid WHERE id = :tid",
    "state_status": "UPDATE tables SET state_id = :sid, status = :status WHERE id = :tid",
    "final": "UPDATE tables SET state_id = :sid, status = 'over', finished = :t, scores = :scores, "
             "winners = :winners WHERE id = :tid",
}


def _driver_sql(sql: str, dialect: str) -> str:
    """``:name`` parameters in the driver's style: sqlite3 takes them as they are, psycopg
    wants ``%(name)s`` (and a literal ``%`` doubled)."""
    if dialect != "postgresql":
        return sql
    return re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql.replace("%", "%%"))


@dataclass
class Change:
    """What one table changed since its last save (see Storage.save)."""

    tid: str
    state_id: int
    status: str | None = None
    moves: Sequence[tuple[int, str]] = ()
    first_seq: int = 0
    claims: Sequence[tuple[int, int, str]] = ()
    seats: Sequence[tuple[int, dict[str, Any]]] = ()
    final: tuple[list[str], list[int]] | None = None


class LeaseLost(RuntimeError):
    """This process no longer holds the table's lease (another one took it over): the change
    was not stored, and the table must be dropped here.  A RuntimeError, so that the
    websocket loop ends the connection quietly (the client reconnects to the new owner)."""


def _db_now(dialect: str) -> str:
    """The database's clock in epoch seconds: every process judges leases by one clock."""
    if dialect == "postgresql":
        return "extract(epoch from clock_timestamp())"
    return "((julianday('now') - 2440587.5) * 86400.0)"


def default_url() -> str:
    from platformdirs import user_data_dir

    d = Path(user_data_dir("rummykit"))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'server.db'}"


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` go to the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def safe_url(url: str) -> str:
    """``url`` with its password hidden (``***``) and the driver's name left out."""
    from sqlalchemy.engine import make_url

    try:
        text = make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: say so without repeating it
        return "(not a database URL)"
    return text.replace("postgresql+psycopg://", "postgresql://", 1)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    # WAL with synchronous=NORMAL: a committed action survives the server's crash or kill
    # (it is in the WAL file); only a power cut may lose the last few.  FULL costs an fsync
    # (several ms here) per action.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(eng, "connect", _sqlite_pragmas)
        return eng
    return create_engine(url, pool_pre_ping=True)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic migration (shipped in the package)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@dataclass
class StoredTable:
    """An unfinished table as the database holds it, for the Hub to rebuild."""

    id: str
    ruleset: str
    name: str
    setup: dict[str, Any]
    settings: dict[str, Any]
    status: str
    state_id: int
    created: float
    seats: list[SeatRow]
    actions: list[str]
    claims: dict[int, dict[int, str]] = field(default_factory=dict)  # window -> seat -> answer
    rematch: str | None = None
    last_action_state: int = 0  # the state_id stored with the last action


# a table's timing and hints when its creator gives none: POST /api/tables' defaults
# (app.parse_create; tests/test_storage_api.py checks they agree)
TABLE_DEFAULTS: dict[str, Any] = {"bot_delay": 0.6, "claim_seconds": 5, "grace_seconds": 30,
                                  "turn_seconds": None, "hints": True}


class Storage:
    """A small repository over the database; each method is one transaction.

    With ``node`` (one of several processes on one database, see cluster.py) every table has
    a lease: creating a table takes it; every ``save`` first renews it *only if this node
    still owns it* — the fence: a process that lost a table can never write to it again
    (LeaseLost); ``unfinished`` returns the tables this node holds, taking the free ones."""

    def __init__(self, url: str | None = None, *, node: str | None = None, node_url: str | None = None,
                 lease_seconds: float = 10.0):
        self.url = normalise_url(url or default_url())
        self.engine = make_engine(self.url)
        upgrade(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.node = node
        self.node_url = node_url
        self.lease_seconds = float(lease_seconds)
        self.on_lost: Callable[[str], None] | None = None  # told of a table whose lease was lost
        self.on_commit: Callable[[float], None] | None = None  # told how long each save_many took
        self._checkpointer: tuple[threading.Event, threading.Thread] | None = None
        self.checkpointed = 0  # pages the background checkpoint has copied (checkpoint_in_background)
        now = _db_now(self.engine.dialect.name)
        self._now = text(f"SELECT {now}")
        until = f"{now} + :ttl"
        self._fence = text(f"UPDATE tables SET lease_until = {until} WHERE id = :tid AND owner = :me")
        dialect = self.engine.dialect.name
        self._sql = {k: _driver_sql(v, dialect) for k, v in
                     (_SAVE_SQL | {"fence": f"UPDATE tables SET lease_until = {until} "
                                            "WHERE id = :tid AND owner = :me"}).items()}
        self._take = text(f"UPDATE tables SET owner = :me, owner_url = :url, lease_until = {until} "
                          "WHERE id = :tid AND (owner IS NULL OR owner = :me OR lease_until IS NULL "
                          f"OR lease_until < {now})")
        self._free = text(f"SELECT id FROM tables WHERE status != 'over' AND (owner IS NULL OR "
                          f"lease_until IS NULL OR lease_until < {now}) ORDER BY created")
        self._peers = text(f"SELECT DISTINCT owner_url FROM tables WHERE owner != :me AND "
                           f"owner_url IS NOT NULL AND lease_until >= {now}")

    def safe_url(self) -> str:
        """The database's URL as a log may show it: the password hidden."""
        return safe_url(self.url)

    def _lease(self) -> dict[str, Any]:
        return {"me": self.node, "url": self.node_url, "ttl": self.lease_seconds}

    def checkpoint_in_background(self, seconds: float = 1.0) -> bool:
        """SQLite: copy the write-ahead log into the database from a thread of its own every
        ``seconds`` (PASSIVE: never waits for a writer, never makes one wait), instead of at
        the commit that fills 1,000 pages, which then waits for the disk on the event loop
        (the load bench's 300-600 ms stalls).  False (nothing to do) for PostgreSQL."""
        if not self.url.startswith("sqlite") or self._checkpointer is not None:
            return False
        event.listen(self.engine, "connect", _no_autocheckpoint)
        self.engine.dispose()  # the pooled connections get the pragma when they reconnect
        stop = threading.Event()

        def run() -> None:
            raw = self.engine.raw_connection()
            try:
                while not stop.wait(seconds):
                    try:
                        row = raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                        self.checkpointed += int(row[2]) if row and row[2] > 0 else 0
                    except Exception:  # the database busy or away: said, and tried again next time
                        log.warning("background checkpoint failed; again in %g s", seconds, exc_info=True)
            finally:
                raw.close()

        self._checkpointer = (stop, threading.Thread(target=run, name="rummykit-checkpoint", daemon=True))
        self._checkpointer[1].start()
        return True

    def close(self) -> None:
        if self._checkpointer is not None:
            stop, thread = self._checkpointer
            stop.set()
            thread.join(5)
            self._checkpointer = None
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with self._session.begin() as s:
            yield s

    # -- writes --------------------------------------------------------------------------

    def create_table(self, tid: str, ruleset: str, name: str, setup: dict[str, Any],
                     settings: dict[str, Any], status: str, seats: Sequence[tuple[str, str]]) -> float:
        now = time.time()
        with self._tx() as s:
            s.add(TableRow(id=tid, ruleset=ruleset, name=name, setup=json.dumps(setup),
                           settings=json.dumps(settings), status=status, state_id=0, created=now))
            s.flush()
            for i, (kind, nm) in enumerate(seats):
                s.add(SeatRow(table_id=tid, seat=i, kind=kind, name=nm))
            if self.node is not None:
                s.flush()
                s.execute(self._take, self._lease() | {"tid": tid})
        return now

    def save(self, tid: str, state_id: int, *, status: str | None = None,
             moves: Sequence[tuple[int, str]] = (), first_seq: int = 0,
             claims: Sequence[tuple[int, int, str]] = (), seats: Sequence[tuple[int, dict[str, Any]]] = (),
             final: tuple[list[str], list[int]] | None = None) -> None:
        """One change of a table, in one transaction: engine actions ``moves`` (seat, text)
        numbered from ``first_seq``, claim answers (window, seat, answer), seat updates
        (seat, {column: value}), the new state_id and status, ``final`` (scores, winners)."""
        if self.save_many([Change(tid, state_id, status, moves, first_seq, claims, seats, final)]):
            raise LeaseLost(f"table {tid} is owned by another process now")

    def save_many(self, changes: Sequence[Change]) -> set[str]:
        """Changes of several tables in one transaction (one commit: the server gathers the
        changes of one turn of its event loop).  Returns the tables whose lease this node
        has lost: nothing of theirs is stored (``on_lost`` is told of each); the others' changes
        are.  Statements go to the driver directly, in its own parameter style: SQLAlchemy's
        per-statement work cost more than the database's on this path."""
        lost: set[str] = set()
        began = time.perf_counter()
        with self.engine.begin() as c:
            cur = c.connection.driver_connection.cursor()  # type: ignore[union-attr]
            sql = self._sql
            for ch in changes:
                tid = ch.tid
                if self.node is not None:
                    cur.execute(sql["fence"], self._lease() | {"tid": tid})
                    if cur.rowcount != 1:
                        lost.add(tid)
                        continue
                if ch.moves:
                    cur.executemany(sql["action"], [
                        {"tid": tid, "seq": ch.first_seq + k, "seat": seat, "text": text, "sid": ch.state_id}
                        for k, (seat, text) in enumerate(ch.moves)])
                if ch.claims:
                    cur.executemany(sql["claim"], [{"tid": tid, "w": w, "seat": seat, "a": a}
                                                   for w, seat, a in ch.claims])
                for seat, vals in ch.seats:
                    c.execute(update(SeatRow).where(SeatRow.table_id == tid, SeatRow.seat == seat)
                              .values(**vals))
                if ch.final is not None:
                    cur.execute(sql["final"], {"tid": tid, "sid": ch.state_id, "t": time.time(),
                                               "scores": json.dumps(ch.final[0]),
                                               "winners": json.dumps(ch.final[1])})
                elif ch.status is not None:
                    cur.execute(sql["state_status"], {"tid": tid, "sid": ch.state_id, "status": ch.status})
                else:
                    cur.execute(sql["state"], {"tid": tid, "sid": ch.state_id})
            cur.close()
        if self.on_commit is not None:
            self.on_commit(time.perf_counter() - began)
        if lost and self.on_lost is not None:
            for tid in lost:
                self.on_lost(tid)
        return lost

    def set_rematch(self, tid: str, rematch: str) -> str:
        """Name the table's rematch, once: returns the one stored (``rematch``, or the one
        another process stored first)."""
        with self.engine.begin() as c:
            c.execute(update(TableRow).where(TableRow.id == tid, TableRow.rematch.is_(None))
                      .values(rematch=rematch))
            return str(c.execute(select(TableRow.rematch).where(TableRow.id == tid)).scalar())

    # -- the shared storage model (storage_api.GameLog): thin adapters ----------------------

    def create_game(self, setup: dict[str, Any], seats: Sequence[str], name: str,
                    settings: dict[str, Any] | None = None) -> str:
        """A new table playing ``setup`` (``create_table``), its human seats free, with the
        settings a table made through POST /api/tables would get (``TABLE_DEFAULTS``, and
        ``settings`` over them): the Hub serves it like any other.  ``seats``: "human" or
        a bot level.  Its id."""
        kinds = [k if k == "human" else f"bot:{k}" for k in seats]
        names = ["" if k == "human" else f"{k[4:].capitalize()} bot {i + 1}" for i, k in enumerate(kinds)]
        options = setup.get("options") or {}
        full = dict(TABLE_DEFAULTS, **(settings or {}), options=options, seats=kinds, seed=setup["seed"],
                    deal_chosen=True, setup_rules={"rules": setup["rules"]} if "rules" in setup else {})
        status = "waiting" if "human" in kinds else "playing"
        while True:  # an id as the Hub makes them (tables.new_id), not taken
            tid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            if self.load(tid) is None:
                break
        self.create_table(tid, setup["ruleset"], name, setup, full, status,
                          list(zip(kinds, names, strict=True)))
        return tid

    def append_action(self, game: str, n: int, seat: int, action: str) -> None:
        """Engine action ``n`` of table ``game`` (``save``), a new state of its own: its
        state_id one more than the stored one.  KeyError if there is no such table."""
        with self.engine.connect() as c:
            sid = c.execute(select(TableRow.state_id).where(TableRow.id == game)).scalar()
        if sid is None:
            raise KeyError(f"no table {game!r}")
        self.save(game, sid + 1, moves=[(seat, action)], first_seq=n)

    def load_game(self, game: str) -> SavedRecord[str] | None:
        st = self.load(game)
        return None if st is None else SavedRecord(st.id, st.setup, tuple(st.actions))

    def unfinished_games(self) -> list[str]:
        """Every unfinished table's id (leases aside: ``unfinished`` takes them), oldest first."""
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(select(TableRow.id).where(TableRow.status != "over")
                                            .order_by(TableRow.created))]

    # -- reads ---------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """One round trip to the database (raises when it does not answer)."""
        with self.engine.connect() as c:
            c.execute(text("SELECT 1"))
        return {"db": self.engine.dialect.name}

    def unfinished(self) -> list[StoredTable]:
        """The unfinished tables to serve: all of them, or with a ``node`` those whose lease
        it holds or could take (no owner, or the owner's lease ran out)."""
        if self.node is not None:
            with self.engine.connect() as c:
                ours = [r[0] for r in c.execute(select(TableRow.id).where(
                    TableRow.owner == self.node, TableRow.status != "over"))]
            mine = {tid for tid in [*ours, *self.free_tables()] if self.take(tid) == "mine"}
            with self._tx() as s:
                rows = s.scalars(select(TableRow).where(TableRow.id.in_(mine))
                                 .order_by(TableRow.created)).all()
                return [self._stored(s, r) for r in rows]
        with self._tx() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status != "over")
                             .order_by(TableRow.created)).all()
            return [self._stored(s, r) for r in rows]

    # -- leases (several processes on one database) ----------------------------------------

    def take(self, tid: str) -> str:
        """Take or keep the lease of a table: "mine", "other" (a live owner has it) or
        "none" (no such table)."""
        with self.engine.begin() as c:
            if c.execute(self._take, self._lease() | {"tid": tid}).rowcount == 1:
                return "mine"
            found = c.execute(select(TableRow.id).where(TableRow.id == tid)).first()
        return "other" if found is not None else "none"

    def owner_url(self, tid: str) -> str | None:
        with self.engine.connect() as c:
            return c.execute(select(TableRow.owner_url).where(TableRow.id == tid)).scalar()

    def renew(self, tids: Sequence[str]) -> set[str]:
        """Renew the leases of these tables; the ones this node still holds."""
        if not tids:
            return set()
        with self.engine.begin() as c:
            held = set()
            for tid in tids:
                if c.execute(self._fence, self._lease() | {"tid": tid}).rowcount == 1:
                    held.add(tid)
        return held

    def free_tables(self) -> list[str]:
        """Unfinished tables without a live owner."""
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(self._free)]

    def peers(self) -> list[str]:
        """The advertised URLs of the other live processes that own tables."""
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(self._peers, {"me": self.node})]

    def release(self, tids: Sequence[str]) -> None:
        """Give these tables up at once (a clean shutdown): another process takes them now."""
        if not tids or self.node is None:
            return
        with self.engine.begin() as c:
            for tid in tids:
                c.execute(update(TableRow).where(TableRow.id == tid, TableRow.owner == self.node)
                          .values(lease_until=None, owner=None))

    def load(self, tid: str) -> StoredTable | None:
        with self._tx() as s:
            r = s.get(TableRow, tid)
            return None if r is None else self._stored(s, r)

    def _stored(self, s: Session, r: TableRow) -> StoredTable:
        seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == r.id).order_by(SeatRow.seat)))
        rows = s.execute(select(ActionRow.text, ActionRow.state_id).where(ActionRow.table_id == r.id)
                         .order_by(ActionRow.seq)).all()
        acts = [t for t, _ in rows]
        claims: dict[int, dict[int, str]] = {}
        for c in s.scalars(select(ClaimRow).where(ClaimRow.table_id == r.id)):
            claims.setdefault(c.window, {})[c.seat] = c.answer
        return StoredTable(id=r.id, ruleset=r.ruleset, name=r.name, setup=json.loads(r.setup),
                           settings=json.loads(r.settings), status=r.status, state_id=r.state_id,
                           created=r.created, seats=seats, actions=acts, claims=claims,
                           rematch=r.rematch, last_action_state=rows[-1][1] if rows else 0)

    def stats(self, name: str) -> list[dict[str, Any]]:
        """Per ruleset: finished tables where a human seat had this name; games, wins,
        mean final score."""
        per: dict[str, list[tuple[bool, float]]] = {}
        with self._tx() as s:
            q = (select(TableRow, SeatRow.seat).join(SeatRow, SeatRow.table_id == TableRow.id)
                 .where(TableRow.status == "over", SeatRow.name == name, SeatRow.kind == "human"))
            for row, seat in s.execute(q).all():
                scores = json.loads(row.scores or "[]")
                winners = json.loads(row.winners or "[]")
                if seat < len(scores):
                    per.setdefault(row.ruleset, []).append((seat in winners, float(Fraction(scores[seat]))))
        out = []
        for rs in sorted(per):
            games = per[rs]
            out.append({"ruleset": rs, "games": len(games), "wins": sum(w for w, _ in games),
                        "mean_score": round(sum(x for _, x in games) / len(games), 2)})
        return out
