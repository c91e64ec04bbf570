"""Server parts without a running server: request checks, options, a connection's queue."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import rummykit as rk
from rummykit.server.app import Invalid, check_name, parse_create, ruleset_options, variant_from_rules_text
from rummykit.server.storage import normalise_url
from rummykit.server.tables import MAX_BEHIND, OVERFLOW, Conn, token_hash


def test_a_client_that_stops_reading_is_cut_off_instead_of_queueing_without_end() -> None:
    async def run() -> None:
        c = Conn(seat=None)
        for i in range(MAX_BEHIND + 50):
            c.send({"type": "state", "n": i})
        assert c.behind and c.out.qsize() == MAX_BEHIND + 1
        items = [c.out.get_nowait() for _ in range(MAX_BEHIND + 1)]
        assert items[-1] == OVERFLOW and OVERFLOW not in items[:-1]

    asyncio.run(run())


def test_postgresql_urls_go_to_psycopg_3() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_only_a_tokens_hash_is_kept_and_it_is_not_the_token() -> None:
    h = token_hash("secret")
    assert len(h) == 64 and "secret" not in h


def test_create_defaults_are_the_designs() -> None:
    req = parse_create({"ruleset": "contract", "seats": ["human", "bot:easy", "bot:hard"]})
    assert req["settings"] == {"bot_delay": 0.6, "claim_seconds": 5.0, "grace_seconds": 30.0,
                               "turn_seconds": None, "hints": True, "deal_break_seconds": 20.0}
    assert req["seed"] is None and req["options"] == {} and req["players"] == 3


@pytest.mark.parametrize("body, words", [
    ([], "JSON object"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "colour": "red"}, "unknown field 'colour'"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "seed": -1}, "seed"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "seed": True}, "seed"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "turn_seconds": 0}, "turn_seconds"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "claim_seconds": float("nan")}, "claim_seconds"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "names": {"9": "X"}}, "names"),
    ({"ruleset": "contract", "seats": ["human"] * 4, "options": {"id": "x"}}, "options: id"),
    ({"ruleset": "contract", "seats": "human"}, "seats"),
])
def test_bad_create_requests_name_the_problem(body: object, words: str) -> None:
    with pytest.raises(Invalid, match=words):
        parse_create(body)


@pytest.mark.parametrize("name", ["a\x7fb", "\x85\x9b", "\u200b", "\u202eevil", "\ufeff", "a\x00b\nc"])
def test_a_name_must_be_printable_characters(name: str) -> None:
    """An invisible name, or one that turns the lobby's text around, is refused: a player's
    name, a bot seat's name and the table's."""
    with pytest.raises(Invalid, match="printable"):
        check_name(name)
    with pytest.raises(Invalid, match="printable"):
        parse_create({"ruleset": "basic", "seats": ["human", "bot:easy"], "names": {"1": name}})
    with pytest.raises(Invalid, match="printable"):
        parse_create({"ruleset": "basic", "seats": ["human", "bot:easy"], "name": name})


def test_a_name_may_be_any_language() -> None:
    assert check_name(" Zoë 李 ") == "Zoë 李"


def test_house_rules_text_may_extend_a_builtin_ruleset_only() -> None:
    v = variant_from_rules_text("extends = 'basic'\nid = 'b2'\nname = 'B2'\nmin_set = 4\n")
    assert (v.id, v.spec.min_set) == ("b2", 4)
    with pytest.raises(Invalid, match="extends must be a built-in ruleset"):
        variant_from_rules_text("extends = '../secret.toml'")
    with pytest.raises(Invalid, match="min_set"):
        variant_from_rules_text("extends = 'basic'\nmin_set = 1\n")


def test_ruleset_options_are_the_plain_switches_numbers_and_choices() -> None:
    opts = {o["key"]: o for o in ruleset_options(rk.get_variant("contract"))}
    assert opts["twos_wild"] == {
        "key": "twos_wild", "type": "bool", "default": False, "label": "2s wild",
        "help": "Whether the 2s are wild cards, like jokers.", "sentence": "2s are not wild.",
        "sentences": {"true": "2s are wild.", "false": "2s are not wild."}}
    assert opts["ace_mode"]["type"] == "choice" and "wrap" in opts["ace_mode"]["choices"]
    assert opts["min_set"]["min"] == 2
    assert "contracts" not in opts and "pack" not in opts and "id" not in opts
    for o in opts.values():  # every option's default is a value the ruleset accepts
        rk.get_variant("contract").with_options({o["key"]: o["default"]})


def test_a_ruleset_without_contracts_is_not_offered_contract_house_rules() -> None:
    # the tester's Basic Rummy lobby offered "Contract meld sizes" and "Melds with the contract"
    basic = {o["key"] for o in ruleset_options(rk.get_variant("basic"))}
    contract = {o["key"] for o in ruleset_options(rk.get_variant("contract"))}
    only = {"contract_sizes", "contract_count", "runs_not_contiguous", "one_run_per_suit",
            "distinct_set_ranks", "pat_before_draw", "after_contract_melds", "layoff_on_contract_turn"}
    assert only <= contract and not only & basic
    assert {"ace_mode", "min_run", "twos_wild"} <= basic


def test_a_relayed_request_names_its_client_after_the_proxies_before() -> None:
    from rummykit.server.cluster import forwarded_for

    scope = {"client": ("198.51.100.9", 5555)}
    assert forwarded_for(scope, {}) == {"x-forwarded-for": "198.51.100.9"}
    assert forwarded_for(scope, {"x-forwarded-for": "203.0.113.7"}) == {
        "x-forwarded-for": "203.0.113.7, 198.51.100.9"}
    assert forwarded_for({}, {}) == {}


def test_the_quiet_gc_freezes_what_lives_and_sweeps_it_on_time() -> None:
    import gc

    from rummykit.server.gcpolicy import quiet_gc

    async def run() -> tuple[int, int]:
        task = asyncio.create_task(quiet_gc(freeze_seconds=0.01, sweep_seconds=0.05))
        await asyncio.sleep(0.03)
        frozen = gc.get_freeze_count()
        await asyncio.sleep(0.1)  # a sweep has thawed, collected and frozen again
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return frozen, gc.get_freeze_count()

    frozen, after = asyncio.run(run())
    assert frozen > 0 and after == 0  # stopped: nothing is left frozen


def test_sqlite_checkpoints_in_a_thread_of_its_own_not_at_a_commit(tmp_path) -> None:
    import time

    from rummykit.server.storage import Storage

    st = Storage(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        assert st.checkpoint_in_background(0.05)
        st.create_table("t1", "basic", "T", {"x": 1}, {}, "playing", [("human", ""), ("human", "")])
        for k in range(50):
            st.save("t1", k + 1, moves=[(k % 2, "draw")], first_seq=k)
        with st.engine.connect() as c:  # a commit never checkpoints by itself now
            assert c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        end = time.time() + 5
        while st.checkpointed == 0 and time.time() < end:
            time.sleep(0.02)
        assert st.checkpointed > 0
        stored = st.load("t1")
        assert stored is not None and len(stored.actions) == 50
    finally:
        st.close()


def test_a_seed_nobody_chose_is_one_of_2_53_drawn_by_the_operating_system(monkeypatch, tmp_path) -> None:
    """A 31-bit seed can be found again from one's own hand by trying them all (about ten
    CPU-hours); 2**53 cannot.  Tables and local games both draw their seeds so."""
    from rummykit.engine.game import SEED_BITS, fresh_seed

    seeds = [fresh_seed() for _ in range(200)]
    assert all(1 <= x < 2**SEED_BITS for x in seeds) and SEED_BITS >= 53
    assert len(set(seeds)) == 200 and max(seeds) >= 2**31
    # a local game without a seed takes one of these
    import rummykit.play.session as session
    from rummykit.store import Store

    monkeypatch.setattr(session, "fresh_seed", lambda: 2**52 + 5)
    with Store(tmp_path / "g.db") as store:
        s = session.Session.start(store, rk.get_variant("basic"), 2, ["random"])
        assert s.game.seed == 2**52 + 5


def test_a_house_rules_text_nested_too_deep_is_refused_in_words() -> None:
    with pytest.raises(Invalid, match="nested too deep"):
        variant_from_rules_text('extends = "basic"\nnotes = ' + "[" * 600 + "]" * 600 + "\n")


def test_a_stand_in_never_moves_for_a_person_who_came_back_meanwhile(tmp_path) -> None:
    """A person away past the grace period is played by a bot; when they connect again, the
    change is stored and scheduled at the end of the loop's turn (the Hub gathers it).  A
    bot turn that wakes in that same turn played the person's move anyway (and called it a
    timer's stand-in): the race behind a flaky browser test.  It checks the seat first."""
    from rummykit.server.storage import Storage
    from rummykit.server.tables import Hub

    async def run() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 's.db'}")
        try:
            hub = Hub(storage)
            settings = parse_create({"ruleset": "basic", "seats": ["human", "human"], "bot_delay": 10,
                                     "grace_seconds": 0.05, "hints": False})["settings"]
            t = hub.create(variant=rk.get_variant("basic"), setup_rules=None, players=2, seats=["human"] * 2,
                           options={}, seed=4, settings=settings, names={}, name=None)
            t.join("Ann", 0)
            t.join("Bob", 1)
            await asyncio.sleep(0.3)  # both away past the grace period: bots play them, slowly
            g = t.game
            seat = g.current_player
            assert t.seats[seat].autoplay == "away" and t.clock.key is not None and t.clock.key[2] == "medium"
            key, before = t.clock.key, len(g.actions)
            t.connect(Conn(seat=seat))  # the person is back (stored and scheduled at the turn's end)
            await t.bots.play_turn(key, "medium", 0)  # the bot's sleep ends in this same turn of the loop
            assert len(g.actions) == before, "the bot moved for a person who is back"
            await asyncio.sleep(0.05)
            assert t.seats[seat].autoplay is None and t.clock.key is not None and t.clock.key[2] is None
            hub.stop()
        finally:
            storage.close()

    asyncio.run(run())


def test_the_browser_hint_is_the_hand_evaluations(tmp_path) -> None:
    """The state message's hint for a seat is the medium bot's explain for that seat's
    view, and its "working toward it" the same evaluation's progress (issue 39); the
    terminal reads the same two (tests/test_tui.py)."""
    from contextlib import ExitStack

    from starlette.testclient import TestClient

    from rummykit.players import HeuristicPlayer
    from rummykit.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'hints.db'}", static_dir=tmp_path / "no-static")
    with TestClient(app) as client, ExitStack() as stack:
        tid = client.post("/api/tables", json={"ruleset": "contract", "seats": ["human"] * 3, "seed": 4,
                                               "claim_seconds": 120}).json()["id"]
        tokens = [client.post(f"/api/tables/{tid}/join", json={"name": n}).json()["token"]
                  for n in ("Ann", "Bob", "Cy")]
        table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
        wss = [stack.enter_context(client.websocket_connect(f"/ws/tables/{tid}?token={tok}"))
               for tok in tokens]

        last: list[dict[str, Any]] = [{} for _ in wss]

        def settle() -> list[dict[str, Any]]:
            """Each seat's latest state, once every seat has the table's current one."""
            for _ in range(50):
                for seat, ws in enumerate(wss):
                    ws.send_text('{"type": "ping"}')
                    while (m := ws.receive_json())["type"] != "pong":
                        if m["type"] == "state":
                            last[seat] = m
                if all(m.get("state_id") == table.state_id for m in last):
                    return last
            raise AssertionError("the seats never caught up with the table")

        hinted = offered = 0
        for _ in range(60):
            states = settle()
            assert any(m["legal"] for m in states)
            for seat, m in enumerate(states):
                if m["legal"] and m["window"] is None:
                    g = table.game
                    bot = HeuristicPlayer(table.bots.seed(seat), g.variant)
                    action, why = bot.explain(g.view(seat), g.legal_actions())
                    progress = bot.progress(g.view(seat))
                    assert m["hint"] == {"action": rk.format_action(action), "why": why,
                                         "progress": progress["text"], "working": progress["melds"],
                                         "short": progress["short"]}
                    hinted += 1
                    wss[seat].send_json({"type": "act", "state_id": m["state_id"],
                                         "action": m["hint"]["action"]})
                    break
            else:  # a claim window: every seat asked gets the hint for its offer, and passes
                for seat, m in enumerate(states):
                    if m["legal"]:
                        g = table.game
                        bot = HeuristicPlayer(table.bots.seed(seat), g.variant)
                        offer = list(g.claim_window().offer(seat))
                        action, why = bot.explain(g.claim_view(seat), offer)
                        assert m["hint"]["action"] == rk.format_action(action) in m["legal"]
                        assert m["hint"]["why"] == why
                        offered += 1
                        wss[seat].send_json({"type": "act", "state_id": m["window"]["state_id"],
                                             "action": "pass"})
        assert hinted >= 30 and offered >= 3
