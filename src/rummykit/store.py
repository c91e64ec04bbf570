"""Saved games and statistics, in SQLite (the standard library's ``sqlite3``).

Every action is written, in its own transaction, the moment it is applied, so quitting,
a closed terminal or a crash loses nothing: a game is its set-up (a game record without
actions) plus its actions in order, and :func:`rummykit.replay` rebuilds it exactly.

The file carries rummykit's ``application_id`` and a schema version (``user_version``);
migrations run in order.  A file that is not a rummykit database — damaged, or another
program's — is refused with a clear message and never written to.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x52554D4B  # "RUMK"

MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = []


def _migration(fn: Callable[[sqlite3.Connection], None]) -> Callable[[sqlite3.Connection], None]:
    MIGRATIONS.append(fn)
    return fn


@_migration
def _v1(db: sqlite3.Connection) -> None:
    _script(db, """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            ruleset TEXT NOT NULL,
            players INTEGER NOT NULL,
            setup TEXT NOT NULL,          -- a game record without its actions (JSON)
            seats TEXT NOT NULL,          -- per seat: "human" or a bot level (JSON list)
            human INTEGER NOT NULL,       -- the human's seat
            name TEXT NOT NULL,
            started REAL NOT NULL,
            finished REAL,                -- NULL while the game is unfinished
            scores TEXT,                  -- final scores (JSON), when finished
            won INTEGER                   -- 1 if the human is among the winners
        );
        CREATE TABLE actions (
            game INTEGER NOT NULL REFERENCES games(id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            PRIMARY KEY (game, n)
        );
        CREATE TABLE rounds (
            game INTEGER NOT NULL REFERENCES games(id),
            round INTEGER NOT NULL,
            points TEXT NOT NULL,         -- each seat's points for the round (JSON)
            PRIMARY KEY (game, round)
        );
    """)


SCHEMA_VERSION = len(MIGRATIONS)


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run each statement of ``sql`` inside the caller's transaction (``executescript``
    would commit it first)."""
    lines = [ln.split("--")[0] for ln in sql.splitlines()]
    for stmt in "\n".join(lines).split(";"):
        if stmt.strip():
            db.execute(stmt)


def _low_wins(rules: dict[str, Any]) -> bool | None:
    """Whether the lowest total wins under a game's own rules (a house-rules file), or None
    when they do not make a ruleset."""
    from .rules.registry import build_spec

    try:
        return not build_spec(rules, "stored rules").high_wins
    except ValueError:
        return None


class StoreError(ValueError):
    """A database file rummykit cannot use; the message says why and what to do."""


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("rummykit", appauthor=False) / "games.sqlite3"


@dataclass
class SavedGame:
    id: int
    ruleset: str
    players: int
    setup: dict[str, Any]
    seats: list[str]
    human: int
    name: str
    started: float
    finished: float | None
    scores: list[str] | None
    won: bool | None
    actions: list[str]

    def record(self) -> dict[str, Any]:
        return {**self.setup, "actions": list(self.actions)}


SQLITE_HEADER = b"SQLite format 3\x00"
TABLES = {
    "games": {"id", "ruleset", "players", "setup", "seats", "human", "name", "started", "finished",
              "scores", "won"},
    "actions": {"game", "n", "seat", "action"},
    "rounds": {"game", "round", "points"},
}
_LEFT = "it was left as it is. Choose another file with --db."


def _read_only(path: Path) -> bool:
    """Whether ``path`` may not be written: no write permission, or (for root, whom
    permissions do not stop) no write bit at all — a file someone made read-only."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not os.access(path, os.W_OK) or not mode & 0o222


class Store:
    """One rummykit database file.  Use as a context manager or call :meth:`close`.

    Nothing is written to a file before it is known to be rummykit's (or new and empty):
    a damaged file, another program's, a read-only one or one in a read-only folder is
    refused with a StoreError and left byte for byte as it was."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        p = self.path
        if p.is_dir():
            raise StoreError(f"{p} is a folder, not a database file. Choose a file with --db.")
        fresh = not p.exists() or p.stat().st_size == 0
        folder = p.parent
        if fresh:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the folder {folder} ({e.strerror or e}). "
                                 "Choose another file with --db.") from None
        if folder.exists() and _read_only(folder):
            if fresh:
                raise StoreError(f"the folder {folder} is read-only, so rummykit cannot create {p.name} "
                                 "there. Choose another file with --db.")
            raise StoreError(f"the folder {folder} is read-only, and rummykit writes its journal next to "
                             f"{p.name}; {_LEFT}")
        if not fresh and _read_only(p):
            raise StoreError(f"{p} is read-only: rummykit saves every move as it is made, so it needs "
                             f"to write to it; {_LEFT}")
        if not fresh:
            try:
                with p.open("rb") as fh:
                    head = fh.read(100)
            except OSError as e:
                raise StoreError(f"cannot read {p} ({e.strerror or e}); {_LEFT}") from None
            if len(head) < 100 or not head.startswith(SQLITE_HEADER):
                raise StoreError(f"{p} is not a rummykit database (it is not an SQLite file: damaged, or "
                                 f"another program's); {_LEFT}")
        try:
            self.db = sqlite3.connect(p, isolation_level=None)  # autocommit; explicit BEGIN
        except sqlite3.Error as e:
            raise StoreError(f"cannot open {p} ({e}); {_LEFT}") from None
        try:
            self._check(fresh)
        except BaseException:
            self.db.close()
            raise
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA journal_mode = WAL")
        if self._version < SCHEMA_VERSION:
            self._migrate()

    def _check(self, fresh: bool) -> None:
        """Read (only read) the file's id, schema version and tables; StoreError unless it
        is rummykit's in a schema this rummykit knows, or new and empty."""
        db, p = self.db, self.path
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {name: {c[1] for c in db.execute(f"PRAGMA table_info('{name}')")}
                      for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                      if name in TABLES}
            count = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.Error as e:
            raise StoreError(f"{p} is not a rummykit database ({e}); {_LEFT}") from None
        self._version = version
        # an empty database (no id, no tables) is one nobody has set up yet — maybe another
        # rummykit process is doing it right now: take it
        if app == 0 and version == 0 and count == 0:
            return
        if app != APPLICATION_ID:
            raise StoreError(f"{p} is not a rummykit database (it belongs to another program "
                             f"or is damaged); {_LEFT}")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{p} was written by a newer rummykit (schema {version}, this "
                             f"one knows {SCHEMA_VERSION}); upgrade rummykit to use it.")
        if version == SCHEMA_VERSION:
            lacking = [f"{t} ({', '.join(sorted(cols - tables[t]))})" if t in tables else t
                       for t, cols in TABLES.items() if t not in tables or cols - tables[t]]
            if lacking:
                raise StoreError(f"{p} is a damaged rummykit database: it lacks {', '.join(lacking)}; "
                                 f"{_LEFT}")
        elif version == 0:
            raise StoreError(f"{p} is a damaged rummykit database (it has rummykit's id but no "
                             f"schema version); {_LEFT}")

    def _migrate(self) -> None:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            # read again under the write lock: another process may have migrated it meanwhile
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer rummykit (schema {version}, this "
                                 f"one knows {SCHEMA_VERSION}); upgrade rummykit to use it.")
            if version == 0:
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for step in MIGRATIONS[version:]:
                step(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def new_game(self, setup: dict[str, Any], seats: Sequence[str], human: int, name: str) -> int:
        cur = self.db.execute(
            "INSERT INTO games (ruleset, players, setup, seats, human, name, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (setup["ruleset"], setup["players"], json.dumps(setup), json.dumps(list(seats)), human, name,
             time.time()),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def add_action(self, game: int, n: int, seat: int, action: str,
                   round_points: tuple[int, list[Any]] | None = None,
                   final: tuple[list[Any], bool] | None = None) -> None:
        """Store action ``n`` (0-based) of ``game``, with the round's points if it ended
        one and the final scores if it ended the game: all in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT INTO actions (game, n, seat, action) VALUES (?, ?, ?, ?)",
                       (game, n, seat, action))
            if round_points is not None:
                db.execute("INSERT OR REPLACE INTO rounds (game, round, points) VALUES (?, ?, ?)",
                           (game, round_points[0], json.dumps(round_points[1])))
            if final is not None:
                db.execute("UPDATE games SET finished = ?, scores = ?, won = ? WHERE id = ?",
                           (time.time(), json.dumps(final[0]), int(final[1]), game))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- reading ---------------------------------------------------------------------------

    @contextmanager
    def _reading(self, what: str) -> Iterator[None]:
        """Turn what a damaged file gives (bytes that are not UTF-8, JSON that is not, rows
        of the wrong shape) into a StoreError naming it; reading never writes."""
        try:
            yield
        except StoreError:
            raise
        except (sqlite3.Error, ValueError, TypeError, KeyError, IndexError) as e:
            raise StoreError(f"{self.path} is damaged ({what}: {e}); it was left as it is.") from None
        except RecursionError:  # JSON nested deeper than rummykit ever writes it
            raise StoreError(f"{self.path} is damaged ({what}: nested too deep to read); "
                             "it was left as it is.") from None

    def _row(self, row: tuple[Any, ...]) -> SavedGame:
        gid = row[0]
        with self._reading(f"game {gid}"):
            actions = [a for (a,) in self.db.execute("SELECT action FROM actions WHERE game = ? ORDER BY n",
                                                     (gid,))]
            g = SavedGame(gid, row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], row[6],
                          row[7], row[8], json.loads(row[9]) if row[9] else None,
                          None if row[10] is None else bool(row[10]), actions)
            if not isinstance(g.setup, dict) or not isinstance(g.seats, list) or not all(
                isinstance(x, str) for x in [*g.seats, *g.actions, g.ruleset, g.name]
            ) or not isinstance(g.human, int) or not 0 <= g.human < len(g.seats):
                raise ValueError("its set-up, seats, actions or names are not what rummykit wrote")
            return g

    _COLS = "id, ruleset, players, setup, seats, human, name, started, finished, scores, won"

    def game(self, gid: int) -> SavedGame:
        with self._reading(f"game {gid}"):
            row = self.db.execute(f"SELECT {self._COLS} FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {gid} in {self.path}; `rummykit games` lists them")
        return self._row(row)

    def last_unfinished(self) -> SavedGame | None:
        with self._reading("finding the last unfinished game"):
            row = self.db.execute(f"SELECT {self._COLS} FROM games WHERE finished IS NULL "
                                  "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self._row(row)

    def games(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._reading("listing the games"):
            return self._games(limit)

    def _games(self, limit: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT g.id, g.ruleset, g.players, g.name, g.started, g.finished, g.scores, g.won, "
            "(SELECT count(*) FROM actions a WHERE a.game = g.id) FROM games g ORDER BY g.id DESC LIMIT ?",
            (limit,)).fetchall()
        return [{"id": r[0], "ruleset": r[1], "players": r[2], "name": r[3], "started": r[4],
                 "finished": r[5], "scores": json.loads(r[6]) if r[6] else None,
                 "won": None if r[7] is None else bool(r[7]), "actions": r[8]} for r in rows]

    def stats(self, low_wins: Callable[[str], bool]) -> list[dict[str, Any]]:
        """Per ruleset: games played (finished), won, the human's mean points per round,
        and the best finished game (lowest score where low wins, else highest)."""
        with self._reading("reading the statistics"):
            return self._stats(low_wins)

    def _stats(self, low_wins: Callable[[str], bool]) -> list[dict[str, Any]]:
        out = []
        for (ruleset,) in self.db.execute("SELECT DISTINCT ruleset FROM games ORDER BY ruleset").fetchall():
            games = self.db.execute("SELECT id, human, scores, won, setup FROM games WHERE ruleset = ? "
                                    "AND finished IS NOT NULL", (ruleset,)).fetchall()
            started = self.db.execute("SELECT count(*) FROM games WHERE ruleset = ?",
                                      (ruleset,)).fetchone()[0]
            pts: list[Fraction] = []
            for gid, human in self.db.execute("SELECT id, human FROM games WHERE ruleset = ?", (ruleset,)):
                for (p,) in self.db.execute("SELECT points FROM rounds WHERE game = ?", (gid,)):
                    pts.append(Fraction(json.loads(p)[human]))
            best = None
            for gid, human, scores, _won, setup in games:
                mine = Fraction(json.loads(scores)[human])
                # a game under a house-rules file says which way it scores in its own rules
                rules = json.loads(setup).get("rules") if setup else None
                low = _low_wins(rules) if isinstance(rules, dict) else None
                if low is None:
                    low = low_wins(ruleset)
                if best is None or (mine < best[1] if low else mine > best[1]):
                    best = (gid, mine)
            out.append({
                "ruleset": ruleset,
                "started": started,
                "played": len(games),
                "won": sum(1 for g in games if g[3]),
                "rounds": len(pts),
                "mean_points_per_round": float(sum(pts) / len(pts)) if pts else None,
                "best_game": None if best is None else {"id": best[0], "score": _num(best[1])},
            })
        return out


def _num(x: Fraction) -> int | str:
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
