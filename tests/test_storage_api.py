"""The one storage model (storage_api.GameLog: a game is its set-up plus its actions), run
the same way against both stores: the terminal's saved games (store.Store, sqlite3) and the
server's tables (server.storage.Storage, SQLAlchemy on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import _new_db, pg_base  # noqa: F401  (fixture)

import rummykit as rk
from rummykit.server.app import parse_create
from rummykit.server.storage import TABLE_DEFAULTS, Storage
from rummykit.server.tables import Hub
from rummykit.storage_api import GameLog
from rummykit.store import Store


@pytest.fixture(params=["store", "server-sqlite", "server-postgresql"])
def game_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameLog[Any]]:
    if request.param == "store":
        with Store(tmp_path / "games.sqlite3") as store:
            yield store
        return
    storage = Storage(_new_db(request.param.removeprefix("server-"), tmp_path, request))
    try:
        yield storage
    finally:
        storage.close()


def setup_of(g: rk.Game) -> dict[str, Any]:
    rec = g.record()
    del rec["actions"]
    return rec


def play_some(g: rk.Game, log: GameLog[Any], gid: Any, moves: int, rng: random.Random) -> None:
    """Random legal moves, each appended to the log as it is played."""
    for _ in range(moves):
        if g.is_over:
            return
        seat = g.current_player
        g.apply(rng.choice(g.legal_actions()))
        log.append_action(gid, len(g.actions) - 1, seat, g.actions[-1])


def test_create_append_reload_and_replay_to_the_same_game(game_log: GameLog[Any]) -> None:
    rng = random.Random(5)
    games = {}
    for vid, seed in (("contract", 3), ("shanghai", 8)):
        g = rk.new_game(vid, players=3, seed=seed)
        gid = game_log.create_game(setup_of(g), ["human", "medium", "hard"], f"a {vid} game")
        play_some(g, game_log, gid, 60, rng)
        games[gid] = g
    assert game_log.unfinished_games() == list(games)
    for gid, g in games.items():
        saved = game_log.load_game(gid)
        assert saved is not None and saved.id == gid
        assert list(saved.actions) == g.actions and saved.setup == setup_of(g)
        again = rk.replay(saved.record())
        assert again.record() == g.record() and again.state_id == g.state_id
        assert [again.view(s) for s in range(g.n)] == [g.view(s) for s in range(g.n)]
        assert again.legal_actions() == g.legal_actions()
    # more actions after a reload go on from where the stored ones stopped
    gid, g = next(iter(games.items()))
    play_some(g, game_log, gid, 20, rng)
    saved = game_log.load_game(gid)
    assert saved is not None and rk.replay(saved.record()).record() == g.record()


def test_a_game_that_is_not_there_loads_as_none(game_log: GameLog[Any]) -> None:
    missing: Any = 12345 if isinstance(game_log, Store) else "nosuchtable"
    assert game_log.load_game(missing) is None
    assert game_log.unfinished_games() == []


def test_the_stores_keep_their_own_names_too(tmp_path: Path) -> None:
    """The protocol's methods are thin adapters: what they store is what the stores' own
    methods read (SavedGame, StoredTable), and finished games leave the unfinished list."""
    g = rk.new_game("contract", players=3, seed=1)
    g.apply(g.legal_actions()[0])
    with Store(tmp_path / "games.sqlite3") as store:
        gid = store.create_game(setup_of(g), ["human", "easy", "easy"], "You")
        store.append_action(gid, 0, 1, g.actions[0])
        saved = store.game(gid)
        assert (saved.human, saved.seats, saved.actions) == (0, ["human", "easy", "easy"], g.actions)
        assert store.last_unfinished() is not None
        store.add_action(gid, 1, 2, "draw", final=(["1", "2", "3"], False))
        assert store.unfinished_games() == []
    storage = Storage(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        tid = storage.create_game(setup_of(g), ["human", "easy", "easy"], "a table")
        storage.append_action(tid, 0, 1, g.actions[0])
        st = storage.load(tid)
        assert st is not None and st.actions == g.actions and st.state_id == 1
        assert [(s.kind, s.name) for s in st.seats] == [("human", ""), ("bot:easy", "Easy bot 2"),
                                                         ("bot:easy", "Easy bot 3")]
        storage.save(tid, 2, status="over", final=(["0", "0", "0"], [0]))
        assert storage.unfinished_games() == []
        with pytest.raises(KeyError):
            storage.append_action("nosuchtable", 0, 0, "draw")
    finally:
        storage.close()


def test_the_servers_table_defaults_are_post_api_tables_defaults() -> None:
    got = parse_create({"ruleset": "basic", "seats": ["human", "bot:easy"]})["settings"]
    assert {k: got[k] for k in TABLE_DEFAULTS} == TABLE_DEFAULTS


def test_a_table_made_through_the_protocol_is_served_by_the_hub(tmp_path: Path) -> None:
    """A table the shared interface stored (all bots) comes back at the server's start and
    plays on from its last action."""
    g = rk.new_game("contract", players=3, seed=2)
    for _ in range(10):
        g.apply(g.legal_actions()[0])
    storage = Storage(f"sqlite:///{tmp_path / 'server.db'}")

    async def run() -> None:
        hub = Hub(storage)
        hub.restore()
        t = hub.tables[tid]
        assert t.game.record() == g.record() and t.status == "playing"
        hub.start()
        hub.stop()

    try:
        tid = storage.create_game(setup_of(g), ["easy", "easy", "easy"], "bots", settings={"bot_delay": 0})
        for n, text in enumerate(g.actions):
            storage.append_action(tid, n, 0, text)
        asyncio.run(run())
    finally:
        storage.close()
