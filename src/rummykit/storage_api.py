"""The one storage model both of rummykit's stores keep: a game is its set-up (a game record
without actions) plus its actions in order, and :func:`rummykit.replay` rebuilds it exactly.

:class:`GameLog` is that shared part as a ``typing.Protocol``.  Two classes implement it,
each over its own database, whose schemas stay their own:

- :class:`rummykit.store.Store` — the terminal's saved games (``sqlite3``), keyed by an
  integer game id;
- :class:`rummykit.server.storage.Storage` — the server's tables (SQLAlchemy: SQLite or
  PostgreSQL), keyed by a table id string, which also keeps claim answers, seats and leases.

Each keeps its own richer methods (``Store.new_game``/``add_action``/``game``,
``Storage.create_table``/``save``/``load``) for its own callers; the protocol's four methods
are thin adapters over them, so code (and tests) written against :class:`GameLog` runs on
either.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class SavedRecord(Generic[K]):
    """One stored game as the shared model has it: its set-up and its actions (text, in order)."""

    id: K
    setup: dict[str, Any]
    actions: tuple[str, ...]

    def record(self) -> dict[str, Any]:
        """The game record, for :func:`rummykit.replay`."""
        return {**self.setup, "actions": list(self.actions)}


class GameLog(Protocol[K]):
    """A store of games kept as set-up + actions."""

    def create_game(self, setup: dict[str, Any], seats: Sequence[str], name: str) -> K:
        """Store a new game from ``setup`` (a record without ``actions``); its id.
        ``seats``: per seat, "human" or a bot level ("easy", "medium", "hard")."""
        ...

    def append_action(self, game: K, n: int, seat: int, action: str) -> None:
        """Store action ``n`` (0-based, the next one) of ``game``, played by ``seat``, in
        its own transaction."""
        ...

    def load_game(self, game: K) -> SavedRecord[K] | None:
        """``game``'s set-up and actions, or None if there is no such game."""
        ...

    def unfinished_games(self) -> list[K]:
        """The ids of the games not finished yet, oldest first."""
        ...
