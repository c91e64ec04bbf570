"""Where rummykit keeps a person's files by default (no rummykit imports: every layer may
use it, the saved games' store and the printed commands alike)."""

from __future__ import annotations

from pathlib import Path


def default_path() -> Path:
    """The saved games' database when no ``--db`` names another (the platform's user data
    folder, through platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path("rummykit", appauthor=False) / "games.sqlite3"
