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
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .paths import default_path as default_path  # (re-exported: store.default_path is how callers name it)
from .storage_api import SavedRecord

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


@_migration
def _v2(db: sqlite3.Connection) -> None:
    # the player's choices for one game that outlive a quit and resume (JSON; NULL: none),
    # e.g. {"never_may_i": true}: the terminal's "n"
    _script(db, "ALTER TABLE games ADD COLUMN prefs TEXT")


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
    prefs: dict[str, Any] = field(default_factory=dict)  # the player's choices for this game

    def record(self) -> dict[str, Any]:
        return {**self.setup, "actions": list(self.actions)}


SQLITE_HEADER = b"SQLite format 3\x00"
TABLES = {
    "games": {"id", "ruleset", "players", "setup", "seats", "human", "name", "started", "finished",
              "scores", "won", "prefs"},
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
        self._head_id: int | None = None  # the application id in the file's header
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
            self._head_id = int.from_bytes(head[68:72], "big") if len(head) >= 72 else None
            if len(head) < 100 or not head.startswith(SQLITE_HEADER):
                raise StoreError(f"{p} is not a rummykit database (it is not an SQLite file: damaged, or "
                                 f"another program's); {_LEFT}")
        try:
            self.db = sqlite3.connect(p, isolation_level=None)  # autocommit; explicit BEGIN
        except sqlite3.Error as e:
            raise StoreError(f"cannot open {p} ({e}); {_LEFT}") from None
        try:
            self._check(fresh)
            try:
                self.db.execute("PRAGMA foreign_keys = ON")
                self.db.execute("PRAGMA journal_mode = WAL")
            except sqlite3.Error as e:
                raise StoreError(f"{p} is damaged ({e}); {_LEFT}") from None
            if self._version < SCHEMA_VERSION:
                self._migrate()
        except BaseException:
            self.db.close()
            raise

    def _check(self, fresh: bool) -> None:
        """Read (only read) the file's id, schema version and tables; StoreError unless it
        is rummykit's in a schema this rummykit knows, or new and empty."""
        db, p = self.db, self.path
        app = self._head_id
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {name: {c[1] for c in db.execute(f"PRAGMA table_info('{name}')")}
                      for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                      if name in TABLES}
            count = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except (sqlite3.Error, ValueError) as e:  # ValueError: names that are not UTF-8 (flipped bytes)
            traceback.clear_frames(e.__traceback__)  # (the reading cursor goes: see _reading)
            what = "is a damaged rummykit database" if app == APPLICATION_ID else "is not a rummykit database"
            raise StoreError(f"{p} {what} ({_what(e)}); {_LEFT}") from None
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
        # SQLite's own check of the file's structure (its pages, their links, the indexes'
        # order): bytes flipped anywhere but inside a stored value are found here
        try:
            found = [line for r in db.execute("PRAGMA quick_check(3)") for line in str(r[0]).splitlines()
                     if not line.startswith("***")]
        except (sqlite3.Error, ValueError) as e:
            found = [_what(e)]
        if found != ["ok"]:
            raise StoreError(f"{p} is a damaged rummykit database (SQLite's check: {found[0]}); {_LEFT}")

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
        except sqlite3.Error as e:  # an older schema that is not what rummykit wrote: nothing changed
            db.execute("ROLLBACK")
            raise StoreError(f"{self.path} is a damaged rummykit database ({_what(e)}); {_LEFT}") from None
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def verify(self) -> None:
        """Read every saved game, action and deal as rummykit reads them; StoreError for the
        first that is not what rummykit wrote (bytes flipped inside a stored value, which
        SQLite's check cannot see).  The commands that write (``play``, ``resume``) call it
        first, so nothing is added to a damaged file; it only reads (about 0.25 s for
        600,000 actions)."""
        db = self.db
        with self._reading("checking every saved game"):
            for row in db.execute(f"SELECT {self._COLS} FROM games"):
                self._checked(row, [])
            for (a,) in db.execute("SELECT action FROM actions"):
                if not isinstance(a, str):
                    raise ValueError("an action is not text")
            for (pts,) in db.execute("SELECT points FROM rounds"):
                if not isinstance(json.loads(pts), list):
                    raise ValueError("a deal's points are not a list")

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

    def set_prefs(self, game: int, prefs: dict[str, Any]) -> None:
        """Keep the player's choices for ``game`` (they come back with ``resume``)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("UPDATE games SET prefs = ? WHERE id = ?",
                            (json.dumps(prefs, sort_keys=True), game))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

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

    # -- the shared storage model (storage_api.GameLog): thin adapters ----------------------

    def create_game(self, setup: dict[str, Any], seats: Sequence[str], name: str) -> int:
        """A new game (``new_game``); the person's seat is the first "human" one."""
        human = next((i for i, k in enumerate(seats) if k == "human"), 0)
        return self.new_game(setup, seats, human, name)

    def append_action(self, game: int, n: int, seat: int, action: str) -> None:
        """Action ``n`` of ``game`` (``add_action``, without a round's points or the end)."""
        self.add_action(game, n, seat, action)

    def load_game(self, game: int) -> SavedRecord[int] | None:
        """``game``'s set-up and actions, or None if the file has no such game."""
        with self._reading(f"game {game}"):
            found = self.db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone()
        if found is None:
            return None
        g = self.game(game)
        return SavedRecord(g.id, g.setup, tuple(g.actions))

    def unfinished_games(self) -> list[int]:
        with self._reading("listing the unfinished games"):
            return [r[0] for r in self.db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id")]

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
            # the cursor that was reading dies with the frames of its traceback, now: a cursor
            # left open keeps SQLite from closing the file (and removing its -wal and -shm)
            traceback.clear_frames(e.__traceback__)
            raise StoreError(f"{self.path} is damaged ({what}: {_what(e)}); it was left as it is.") from None
        except RecursionError as e:  # JSON nested deeper than rummykit ever writes it
            traceback.clear_frames(e.__traceback__)
            raise StoreError(f"{self.path} is damaged ({what}: nested too deep to read); "
                             "it was left as it is.") from None

    def _row(self, row: tuple[Any, ...]) -> SavedGame:
        gid = row[0]
        with self._reading(f"game {gid}"):
            actions = [a for (a,) in self.db.execute("SELECT action FROM actions WHERE game = ? ORDER BY n",
                                                     (gid,))]
            return self._checked(row, actions)

    @staticmethod
    def _checked(row: tuple[Any, ...], actions: list[str]) -> SavedGame:
        """A games row as a SavedGame; ValueError unless it has the shape rummykit writes."""
        g = SavedGame(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], row[6],
                      row[7], row[8], json.loads(row[9]) if row[9] else None,
                      None if row[10] is None else bool(row[10]), actions,
                      json.loads(row[11]) if row[11] else {})
        if not isinstance(g.setup, dict) or not isinstance(g.seats, list) or not all(
            isinstance(x, str) for x in [*g.seats, *g.actions, g.ruleset, g.name]
        ) or not isinstance(g.human, int) or not 0 <= g.human < len(g.seats) or not isinstance(g.prefs, dict):
            raise ValueError(f"game {g.id}: its set-up, seats, actions or names are not what rummykit wrote")
        return g

    _COLS = "id, ruleset, players, setup, seats, human, name, started, finished, scores, won, prefs"

    def game(self, gid: int) -> SavedGame:
        with self._reading(f"game {gid}"):
            row = self.db.execute(f"SELECT {self._COLS} FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            from .invoked import command

            raise StoreError(f"there is no game {gid} in {self.path}; `{command('games', db=self.path)}` "
                             "lists them")
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
        out = [{"id": r[0], "ruleset": r[1], "players": r[2], "name": r[3], "started": r[4],
                "finished": r[5], "scores": json.loads(r[6]) if r[6] else None,
                "won": None if r[7] is None else bool(r[7]), "actions": r[8]} for r in rows]
        for g in out:
            if g["finished"] is None:
                g["scores"] = self._scores_so_far(g["id"])
        return out

    def _scores_so_far(self, gid: int) -> list[str] | None:
        """An unfinished game's running scores (its record replayed), as the final ones are
        written; None when it cannot be rebuilt (``resume`` says why)."""
        from .engine.game import replay

        g = self.game(gid)
        try:
            return [str(x) for x in replay(g.record()).scores]
        except ValueError:
            return None

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


def _what(e: Exception) -> str:
    """What went wrong reading, in words (a UnicodeDecodeError's own text is about codecs)."""
    if isinstance(e, UnicodeDecodeError) or "decode to UTF-8" in str(e):
        return "text in it is not UTF-8: bytes flipped"
    return " ".join(str(e).split())


def _num(x: Fraction) -> int | str:
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
