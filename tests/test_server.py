"""The server through its API and websocket, with several clients at one table, against
SQLite and PostgreSQL (the ``db_url`` fixture; PostgreSQL in a throwaway cluster)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
import websockets
from serverkit import (  # noqa: F401  (fixtures)
    Raw,
    check_views,
    create_table,
    db_url,
    pg_base,
    plain,
    play_table,
    running_server,
    served,
    sqlite_served,
    table_state,
)

import rummykit as rk
from rummykit.players import make_player
from rummykit.server.client import SeatClient, bot_chooser, http_json, join_table

# whole games kept short by a house rule (two deals; Basic to 50 points), so the file
# stays fast; everything else is the ruleset as built in
SHORT = {"contract": {"deals": 2}, "liverpool": {"deals": 2}, "may-i": {"deals": 2},
         "shanghai": {"deals": 2}, "basic": {"target": 50}}


@pytest.mark.parametrize("ruleset", list(SHORT))
def test_whole_game_every_message_is_exactly_the_seats_view(served: str, ruleset: str) -> None:  # noqa: F811
    base = served
    tid = create_table(base, ruleset=ruleset, seats=["human", "bot:medium", "human", "bot:easy"],
                       seed=11, hints=False, options=SHORT[ruleset])
    players, watchers = asyncio.run(play_table(base, tid, ["medium", "easy"], spectators=2))
    info = table_state(base, tid)
    assert info["status"] == "over"
    # the seats and the second spectator got the log as what is new (log_from), made whole
    # again by the client (check_views compares whole views); the first one got it whole
    for c in players + watchers:
        starts = [m.get("log_from") for m in c.messages if m["type"] == "state"]
        if c.delta:
            assert all(k is not None for k in starts) and any(k for k in starts)
        else:
            assert all(k is None for k in starts)
    record = info["record"]
    assert check_views(record, players + watchers) > 50
    # the record of the finished game replays to the same scores
    assert plain(rk.replay(record).view(None)["scores"]) == info["scores"]
    for c in players + watchers:
        sids = [m["state_id"] for m in c.messages if m["type"] == "state"]
        assert sids == sorted(sids) and len(set(sids)) == len(sids)
        assert not [m for m in c.errors if m["code"] != "stale"]
    spectator = [m for m in watchers[0].messages if m["type"] == "state"]
    assert spectator and all(m["seat"] is None and m["view"]["hand"] == [] and m["legal"] == []
                             for m in spectator)


async def _to_human_turn(raws: dict[int, Raw]) -> tuple[int, dict[str, Any]]:
    """Wait until one of these seats may act outside a claim window (passing on every
    offer meanwhile); (seat, its state)."""
    end = time.time() + 30
    while time.time() < end:
        for seat, r in raws.items():
            s = r.state
            if s is None or not s["legal"] or s["status"] != "playing":
                continue
            if s["window"] is None:
                return seat, s
            if not s["window"]["answered"]:
                await r.act("pass")
        await asyncio.gather(*(r.quiet(0.05) for r in raws.values()))
    raise AssertionError("no human turn came")


def test_stale_illegal_and_out_of_turn_actions_are_refused_and_change_nothing(sqlite_served: str) -> None:  # noqa: F811
    async def run(base: str, tid: str, tokens: list[str]) -> None:
        raws = {i: await Raw.open(base, tid, t) for i, t in enumerate(tokens)}
        spectator = await Raw.open(base, tid, None)
        seat, s = await _to_human_turn(raws)
        me, other = raws[seat], raws[1 - seat]
        for r in (me, other, spectator):
            await r.quiet()
        before = me.state
        assert before is not None
        hand = set(before["view"]["hand"])
        not_held = next(c for c in ("AS", "KH", "QD", "JC", "TS", "9H") if c not in hand)
        cases = [
            (me, {"type": "act", "state_id": before["state_id"] - 1, "action": before["legal"][0]}, "stale"),
            (me, {"type": "act", "state_id": before["state_id"], "action": "fly away"}, "bad_request"),
            (me, {"type": "act", "state_id": str(before["state_id"]), "action": "draw"}, "bad_request"),
            (me, {"type": "dance"}, "bad_request"),
            (me, {"type": "act", "state_id": before["state_id"], "action": f"discard {not_held}"}, "illegal"),
            (other, {"type": "act", "state_id": before["state_id"], "action": "draw"}, "not_your_turn"),
            (spectator, {"type": "act", "state_id": before["state_id"], "action": "draw"}, "not_your_turn"),
        ]
        for client, msg, code in cases:
            await client.send(msg)
            got = await client.quiet()
            assert [m["type"] for m in got] == ["error"], (msg, got)
            assert got[0]["code"] == code, (msg, got)
            assert got[0]["message"]
        await me.ws.send("not json")
        got = await me.quiet()
        assert got[0]["code"] == "bad_request"
        # a state the table has not reached is stale too, and not called old
        await me.send({"type": "act", "state_id": before["state_id"] + 5, "action": before["legal"][0]})
        got = await me.quiet()
        assert got[0]["code"] == "stale" and "old" not in got[0]["message"], got
        assert f"at state {before['state_id']}" in got[0]["message"]
        # nothing changed: the same state for everyone, and the seat may still act
        assert me.state is not None and me.state["state_id"] == before["state_id"]
        assert me.state["view"] == before["view"]
        await me.act(before["legal"][0])
        after = await me.until(lambda m: m["state_id"] > before["state_id"])
        assert after["view"]["state_id"] == before["view"]["state_id"] + 1
        for r in [*raws.values(), spectator]:
            await r.close()

    base = sqlite_served
    tid = create_table(base, ruleset="contract", seats=["human", "human", "bot:medium", "bot:medium"],
                       seed=3, hints=False)
    tokens = [join_table(base, tid, n)[1] for n in ("Ann", "Bob")]
    asyncio.run(run(base, tid, tokens))


def test_reconnect_gets_the_same_view_and_the_same_seat(sqlite_served: str) -> None:  # noqa: F811
    async def run(base: str, tid: str, token: str) -> None:
        r = await Raw.open(base, tid, token)
        first = await r.recv()
        await r.quiet()
        seen = r.state
        assert seen is not None
        await r.close()
        again = await Raw.open(base, tid, token)
        m = await again.recv()
        assert m["type"] == "state" and m["seat"] == first["seat"]
        assert m["view"] == seen["view"] and m["legal"] == seen["legal"]
        assert m["state_id"] > seen["state_id"]
        await again.close()

    base = sqlite_served
    tid = create_table(base, ruleset="may-i", seats=["human", "bot:medium", "bot:medium"], seed=5)
    _, token = join_table(base, tid, "Ann")
    asyncio.run(run(base, tid, token))


def test_an_unknown_token_or_another_tables_token_is_refused_with_4403(sqlite_served: str) -> None:  # noqa: F811
    async def refused(base: str, tid: str, token: str) -> None:
        r = await Raw.open(base, tid, token)
        m = await r.recv()
        assert m["type"] == "error" and "token" in m["message"]
        with pytest.raises(websockets.exceptions.ConnectionClosed) as e:
            await r.recv()
        assert e.value.rcvd is not None and e.value.rcvd.code == 4403

    base = sqlite_served
    a = create_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=1)
    b = create_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=2)
    _, token_a = join_table(base, a, "Ann")
    asyncio.run(refused(base, b, token_a))
    asyncio.run(refused(base, a, "x" * 32))


def test_bad_table_requests_get_422_naming_the_problem_and_full_tables_409(sqlite_served: str) -> None:  # noqa: F811
    base = sqlite_served
    def post(body: Any) -> tuple[int, Any]:
        return http_json("POST", base + "/api/tables", body)

    listed = http_json("GET", base + "/api/tables")[1]["tables"]

    for body, word in [
        ({"ruleset": "canasta", "seats": ["human", "human"]}, "canasta"),
        ({"ruleset": "contract", "seats": ["human", "bot:medium"]}, "3-5 players"),
        ({"ruleset": "contract", "seats": ["human"] * 4, "players": 3}, "players"),
        ({"ruleset": "contract", "seats": ["human", "robot", "human"]}, "seats[1]"),
        ({"ruleset": "contract", "seats": ["human"] * 4, "options": {"twos_wild": "maybe"}}, "twos_wild"),
        ({"ruleset": "contract", "seats": ["human"] * 4, "options": {"no_such_rule": 1}}, "no_such_rule"),
        ({"ruleset": "contract", "seats": ["human"] * 4, "bot_delay": -1}, "bot_delay"),
        ({"rules": "extends = '/etc/passwd'", "seats": ["human"] * 4}, "extends"),
        ({"rules": "this is not toml", "seats": ["human"] * 4}, "TOML"),
        ({"seats": ["human"] * 4}, "ruleset"),
    ]:
        status, data = post(body)
        assert status == 422, body
        assert isinstance(data["detail"], str) and word in data["detail"], (body, data)
    assert http_json("GET", base + "/api/tables")[1]["tables"] == listed
    # a house-rules file as text is a ruleset
    status, data = post({"rules": "extends = 'contract'\nid = 'ours'\nname = 'Ours'\ntwos_wild = true",
                         "seats": ["human", "bot:easy", "bot:easy"]})
    assert status == 201
    tid = data["id"]
    assert data["url"].endswith(f"/t/{tid}")
    assert http_json("POST", f"{base}/api/tables/{tid}/join", {"name": "Ann", "seat": 1})[0] == 409
    assert http_json("POST", f"{base}/api/tables/{tid}/join", {"name": ""})[0] == 422
    status, joined = http_json("POST", f"{base}/api/tables/{tid}/join", {"name": "Ann"})
    assert status == 200 and joined["seat"] == 0 and len(joined["token"]) >= 32
    assert http_json("POST", f"{base}/api/tables/{tid}/join", {"name": "Bob"})[0] == 409
    info = table_state(base, tid)
    assert info["ruleset"] == "ours" and info["status"] == "playing" and "record" not in info
    assert [s["kind"] for s in info["seats"]] == ["human", "bot:easy", "bot:easy"]
    assert http_json("GET", f"{base}/api/tables/nope")[0] == 404


def _claim_driver(n_windows: int, seed: int) -> Any:
    """Four human seats: outside windows each plays a medium bot's choice; in every claim
    window every asked seat says "buy" at once (last in priority first, each twice).
    Returns the windows seen: (queue, the seat that got the card)."""

    async def run(base: str, tid: str, tokens: list[str]) -> list[tuple[list[int], int]]:
        raws = [await Raw.open(base, tid, t) for t in tokens]
        out: list[tuple[list[int], int]] = []
        answered: set[int] = set()
        pending: dict[int, tuple[list[int], str, int]] = {}  # window -> (queue, card, buys before)
        rng = random.Random(seed)
        acted: dict[int, int] = {}
        for _ in range(3000):
            if len(out) >= n_windows:
                break
            msgs = await asyncio.gather(*(r.quiet(0.02) for r in raws))
            states = [r.state for r in raws]
            for w_id, (queue, card, buys) in list(pending.items()):
                s = states[0]
                assert s is not None
                if s["window"] is None or s["window"]["state_id"] != w_id:
                    # the window closed: who holds the card now?
                    got = [e for e in s["view"]["log"] if e["verb"] == "buy"]
                    if s["view"]["log"] and len(got) > buys:
                        out.append((queue, got[buys]["seat"]))
                        assert got[buys]["card"] == card
                        assert len(got) == buys + 1 or got[buys + 1]["card"] != card
                    del pending[w_id]
            del msgs
            s0 = states[0]
            if s0 is None or s0["status"] != "playing":
                continue
            w = s0["window"]
            if w is not None and w["state_id"] not in answered and len(w["seats"]) >= 2:
                answered.add(w["state_id"])
                buys = len([e for e in s0["view"]["log"] if e["verb"] == "buy"])
                pending[w["state_id"]] = (list(w["seats"]), s0["view"]["discard_top"], buys)
                sends = []
                for seat in reversed(w["seats"]):
                    for _ in range(2):  # a repeated click does nothing more
                        msg = {"type": "act", "state_id": w["state_id"], "action": "buy"}
                        sends.append(raws[seat].send(msg))
                await asyncio.gather(*sends)
                continue
            for seat, s in enumerate(states):
                if s is None or not s["legal"] or acted.get(seat) == s["state_id"]:
                    continue
                acted[seat] = s["state_id"]
                legal = [rk.parse_action(t) for t in s["legal"]]
                bot = make_player("medium", seed=rng.randrange(1000))
                await raws[seat].act(rk.format_action(bot.choose(s["view"], legal)))
        for r in raws:
            await r.close()
        return out

    return run


def test_a_name_already_at_the_table_is_refused_so_the_log_and_chat_can_tell_people_apart(
        sqlite_served: str) -> None:  # noqa: F811
    # the usability tester's guest joined as "Pat" beside the creator "Pat": the log, the
    # chat and the hints said "Pat" for both
    base = sqlite_served
    seats = ["human", "human", "bot:easy"]
    tid = http_json("POST", f"{base}/api/tables", {"ruleset": "basic", "seats": seats})[1]["id"]
    assert http_json("POST", f"{base}/api/tables/{tid}/join", {"name": "Pat"})[0] == 200
    for name in ("Pat", " pat ", "Easy bot 3"):
        status, body = http_json("POST", f"{base}/api/tables/{tid}/join", {"name": name})
        assert status == 409 and "is already at this table" in body["detail"], (name, body)
    assert [s["name"] for s in table_state(base, tid)["seats"]][:2] == ["Pat", ""]
    status, joined = http_json("POST", f"{base}/api/tables/{tid}/join", {"name": "Pat B"})
    assert status == 200 and joined["seat"] == 1


def test_several_seats_claiming_one_discard_at_once_get_the_engines_priority(served: str) -> None:  # noqa: F811
    base = served
    seen: list[tuple[list[int], int]] = []
    for seed in (1, 2, 3):
        tid = create_table(base, ruleset="may-i", seats=["human"] * 4, seed=seed, claim_seconds=30,
                           hints=False)
        tokens = [join_table(base, tid, f"P{i}")[1] for i in range(4)]
        windows = asyncio.run(_claim_driver(3, seed)(base, tid, tokens))
        assert len(windows) >= 3
        seen.extend(windows)
    for queue, winner in seen:
        assert winner == queue[0], f"seat {winner} got the card, but the engine asks {queue} in that order"


def test_a_restarted_server_brings_an_unfinished_table_back_exactly(db_url: str) -> None:  # noqa: F811
    async def half(base: str, tid: str, tokens: list[str]) -> list[dict[str, Any]]:
        clients = [SeatClient(base, tid, t, bot_chooser("medium", i), keep=True)
                   for i, t in enumerate(tokens)]

        async def stop_at(c: SeatClient) -> None:
            try:
                await asyncio.wait_for(c.run(), 60)
            except TimeoutError:
                pass

        def cut(msg: dict[str, Any]) -> None:
            if msg.get("type") == "state" and msg["view"]["state_id"] >= 40:
                raise _Enough

        tasks = []
        for c in clients:
            c.on_message = cut
            tasks.append(asyncio.create_task(stop_at(c)))
        await asyncio.gather(*tasks, return_exceptions=True)
        return [c.last or {} for c in clients]

    async def resume(base: str, tid: str, tokens: list[str]) -> list[dict[str, Any]]:
        out = []
        for t in tokens:
            r = await Raw.open(base, tid, t)
            out.append(await r.recv())
            await r.close()
        return out

    with running_server(db_url) as base:
        tid = create_table(base, ruleset="contract", seats=["human", "bot:medium", "human", "bot:easy"],
                           seed=8, hints=False, options={"deals": 1}, claim_seconds=30)
        tokens = [join_table(base, tid, n)[1] for n in ("Ann", "Bob")]
        asyncio.run(half(base, tid, tokens))
        asyncio.run(asyncio.sleep(0.3))
        before = asyncio.run(resume(base, tid, tokens))
        listed = http_json("GET", base + "/api/tables")[1]["tables"]
    assert before[0]["status"] == "playing" and before[0]["view"]["state_id"] >= 40
    with running_server(db_url) as base:
        after = asyncio.run(resume(base, tid, tokens))
        for b, a in zip(before, after, strict=True):
            assert a["view"] == b["view"]
            assert a["legal"] == b["legal"]
            assert a["state_id"] > b["state_id"]
            assert (a["window"] is None) == (b["window"] is None)
            if a["window"] is not None:
                assert a["window"]["state_id"] == b["window"]["state_id"]
                assert a["window"]["answered_seats"] == b["window"]["answered_seats"]
        now_listed = http_json("GET", base + "/api/tables")[1]["tables"]
        assert [t["id"] for t in now_listed] == [t["id"] for t in listed]
        # and it plays on to the end, where its record replays
        players, _ = asyncio.run(play_table_again(base, tid, tokens))
        info = table_state(base, tid)
    assert info["status"] == "over"
    assert plain(rk.replay(info["record"]).view(None)["scores"]) == info["scores"]


class _Enough(Exception):
    pass


async def play_table_again(base: str, tid: str, tokens: list[str]) -> tuple[list[SeatClient], None]:
    clients = [SeatClient(base, tid, t, bot_chooser("medium", i), keep=True) for i, t in enumerate(tokens)]
    await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 120)
    return clients, None


def test_an_absent_players_seat_is_played_by_a_bot_after_the_grace_period(sqlite_served: str) -> None:  # noqa: F811
    async def run(base: str, tid: str, token: str) -> None:
        r = await Raw.open(base, tid, token)
        await r.recv()
        await r.close()
        watcher = await Raw.open(base, tid, None)
        m = await watcher.until(lambda m: m["seats"][0]["autoplay"], timeout=10)
        assert m["seats"][0]["connected"] is False
        # the bot plays the seat: the game goes on past the person's turns
        start = m["view"]["state_id"]
        await watcher.until(lambda m: m["view"]["state_id"] > start + 20 or m["status"] == "over", timeout=30)
        back = await Raw.open(base, tid, token)
        m = await back.recv()
        assert m["autoplay"] is False and m["seats"][0]["connected"] and not m["seats"][0]["autoplay"]
        # "I'm back" by hand: hand the seat over and take it back
        await back.send({"type": "autoplay", "on": True})
        m = await back.until(lambda m: m["autoplay"] is True)
        await back.send({"type": "autoplay", "on": False})
        m = await back.until(lambda m: m["autoplay"] is False)
        await back.close()
        await watcher.close()

    base = sqlite_served
    tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=4, grace_seconds=0.5,
                       hints=False)
    _, token = join_table(base, tid, "Ann")
    asyncio.run(run(base, tid, token))


def test_a_finished_table_seen_after_a_restart_has_a_state_id_past_its_last(db_url: str) -> None:  # noqa: F811
    """A restart's first state is past everything seen before it, for a finished table too
    (it comes back lazily from storage: its seats' presence has changed, so it is another
    state). The crash test caught a spectator sent the last state_id again: a seated
    player's connecting is a change of its own, a spectator's is not."""
    async def last(base: str, tid: str, token: str | None) -> dict[str, Any]:
        r = await Raw.open(base, tid, token)
        m = await r.recv()
        await r.close()
        return m

    with running_server(db_url) as base:
        tid = create_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=5, grace_seconds=0,
                           options={"deals": 1}, bot_delay=0)
        token = join_table(base, tid, "Zed")[1]
        t0 = time.monotonic()
        while http_json("GET", f"{base}/api/tables/{tid}")[1]["status"] != "over":
            assert time.monotonic() - t0 < 60
            time.sleep(0.1)
        asyncio.run(last(base, tid, token))
        before = asyncio.run(last(base, tid, None))  # a spectator
    with running_server(db_url) as base:
        after = asyncio.run(last(base, tid, None))
        again = asyncio.run(last(base, tid, None))
    assert before["status"] == after["status"] == "over"
    assert after["view"] == before["view"]
    assert after["state_id"] > before["state_id"]
    assert again["state_id"] == after["state_id"]  # one load, one new state_id


def test_after_a_restart_coming_back_takes_a_seat_back_from_the_grace_periods_bot(db_url: str) -> None:  # noqa: F811
    """The grace period's stand-in gives the seat back when the player connects again, after a
    restart too; a seat its player handed over by hand stays handed over (it came back from
    the database as handed over by hand either way: the player had to send autoplay off)."""
    async def leave_until_stood_in(base: str, tid: str, token: str, ask: bool) -> None:
        r = await Raw.open(base, tid, token)
        await r.recv()
        if ask:
            await r.send({"type": "autoplay", "on": True})
            await r.until(lambda m: m["autoplay"] is True)
        await r.close()
        watcher = await Raw.open(base, tid, None)
        await watcher.until(lambda m: m["seats"][0]["autoplay"], timeout=10)
        await watcher.close()

    async def back(base: str, tid: str, token: str) -> dict[str, Any]:
        r = await Raw.open(base, tid, token)
        m = await r.recv()
        await r.close()
        return m

    tids = {}
    with running_server(db_url) as base:
        for ask in (False, True):
            tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=4,
                               grace_seconds=0.3, bot_delay=5, hints=False)
            tids[ask] = (tid, join_table(base, tid, "Ann")[1])
            asyncio.run(leave_until_stood_in(base, *tids[ask], ask))
    with running_server(db_url) as base:
        away = asyncio.run(back(base, *tids[False]))
        asked = asyncio.run(back(base, *tids[True]))
    assert away["autoplay"] is False and not away["seats"][0]["autoplay"]
    assert asked["autoplay"] is True and asked["seats"][0]["autoplay"]


def test_a_rematch_is_told_under_a_new_state_id(sqlite_served: str) -> None:  # noqa: F811
    """A state_id never stands for two states: the finished table's state with the rematch's
    link comes under a new one (it came under the game's last)."""
    async def run(base: str, tid: str, token: str) -> None:
        c = SeatClient(base, tid, token, bot_chooser("medium", 0), keep=True)
        await asyncio.wait_for(c.run(), 60)
        r = await Raw.open(base, tid, token)
        over = await r.recv()
        assert over["status"] == "over" and over["table"]["rematch"] is None
        assert http_json("POST", f"{base}/api/tables/{tid}/rematch", {"token": token})[0] == 201
        m = await r.until(lambda m: m["table"]["rematch"] is not None, timeout=10)
        assert m["state_id"] > over["state_id"]
        await r.close()

    base = sqlite_served
    tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=6, bot_delay=0,
                       hints=False, options={"target": 20})
    _, token = join_table(base, tid, "Rae")  # (another test counts Zoe's games on this server)
    asyncio.run(run(base, tid, token))


def test_the_turn_timer_lets_the_stand_in_bot_play_one_move(sqlite_served: str) -> None:  # noqa: F811
    async def run(base: str, tid: str, token: str) -> None:
        r = await Raw.open(base, tid, token)
        m = await r.until(lambda m: bool(m["legal"]), timeout=10)
        assert m["deadline"] is not None and m["deadline"] > time.time() - 5
        pos = m["view"]["state_id"]
        m = await r.until(lambda m: m["view"]["state_id"] > pos, timeout=10)
        assert m["view"]["log"][-1]["seat"] == 0 and not m["autoplay"]
        await r.close()

    base = sqlite_served
    tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=4, turn_seconds=1,
                       hints=False)
    _, token = join_table(base, tid, "Ann")
    asyncio.run(run(base, tid, token))


def test_the_turn_timer_is_for_the_whole_turn_and_the_stand_in_finishes_it(sqlite_served: str) -> None:  # noqa: F811
    """turn_seconds times a person's whole turn, not each move: once it runs out the
    stand-in bot plays the rest of the turn, and a move within the turn does not put
    the deadline off."""
    async def run(base: str, tid: str, token: str) -> None:
        r = await Raw.open(base, tid, token)
        first = await r.until(lambda m: bool(m["legal"]) and m["view"]["phase"] == "draw", timeout=10)
        deadline = first["deadline"]
        assert deadline is not None
        turn = first["view"]["turn"]
        # the stand-in draws at the deadline; the turn's deadline stays, so it discards too
        m = await r.until(lambda m: m["view"]["state_id"] > first["view"]["state_id"], timeout=10)
        while m["view"]["turn"] == turn and m["view"]["current_player"] == 0:
            assert m["deadline"] is None or m["deadline"] == deadline, "a move put the turn's deadline off"
            m = await r.recv(timeout=10)
        verbs = [e["verb"] for e in m["view"]["log"] if e["seat"] == 0]
        assert verbs[-1] in ("discard", "round_end") or m["view"]["round"] > first["view"]["round"]
        assert time.time() < deadline + 5  # one deadline, not one per move
        await r.close()

    base = sqlite_served
    tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=4, turn_seconds=1,
                       hints=False)
    _, token = join_table(base, tid, "Ida")
    asyncio.run(run(base, tid, token))


def test_a_table_dealt_from_a_chosen_seed_says_so_in_the_lobby_and_at_the_table(sqlite_served: str) -> None:  # noqa: F811
    """Whoever chose a table's seed can know every card: the lobby and the table say that the
    seed was chosen (never the seed itself); a table the server seeded says it was not."""
    base = sqlite_served
    chosen = create_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=918273645, name="Chosen")
    drawn = create_table(base, ruleset="basic", seats=["human", "bot:easy"], name="Drawn")
    listing = {t["id"]: t for t in http_json("GET", base + "/api/tables")[1]["tables"]}
    assert listing[chosen]["settings"]["deal_chosen"] is True
    assert listing[drawn]["settings"]["deal_chosen"] is False
    assert "918273645" not in json.dumps(listing[chosen]) and "seed" not in listing[chosen]["settings"]
    assert table_state(base, chosen)["settings"]["deal_chosen"] is True

    async def facts(tid: str) -> dict[str, Any]:
        _, token = join_table(base, tid, "Una")
        r = await Raw.open(base, tid, token)
        m = await r.until(lambda m: m["view"] is not None, timeout=10)
        await r.close()
        return dict(m["table"])

    assert asyncio.run(facts(chosen))["deal_chosen"] is True
    assert asyncio.run(facts(drawn))["deal_chosen"] is False


def test_hints_rulesets_stats_and_rematch(sqlite_served: str) -> None:  # noqa: F811
    base = sqlite_served
    rs = http_json("GET", base + "/api/rulesets")[1]["rulesets"]
    assert [r["id"] for r in rs] == rk.variant_ids()
    contract = next(r for r in rs if r["id"] == "contract")
    keys = {o["key"]: o for o in contract["options"]}
    assert keys["twos_wild"]["type"] == "bool" and keys["ace_mode"]["type"] == "choice"
    assert keys["deals"]["type"] == "int"

    tid = create_table(base, ruleset="basic", seats=["human", "bot:medium"], seed=6,
                       options={"target": 20})
    _, token = join_table(base, tid, "Zoe")

    async def run() -> list[dict[str, Any]]:
        c = SeatClient(base, tid, token, bot_chooser("medium", 0), keep=True)
        await asyncio.wait_for(c.run(), 60)
        return c.messages

    msgs = asyncio.run(run())
    hinted = [m for m in msgs if m["type"] == "state" and m["legal"] and m["window"] is None]
    assert hinted and all(m["hint"]["action"] and m["hint"]["why"] for m in hinted if m.get("hint"))
    info = table_state(base, tid)
    stats = http_json("GET", base + "/api/stats/Zoe")[1]
    assert stats["rulesets"] == [{"ruleset": "basic", "games": 1, "wins": int(0 in info["winners"]),
                                  "mean_score": float(info["scores"][0])}]
    assert http_json("POST", f"{base}/api/tables/{tid}/rematch", {"token": "nope"})[0] == 403
    s1, r1 = http_json("POST", f"{base}/api/tables/{tid}/rematch", {"token": token})
    s2, r2 = http_json("POST", f"{base}/api/tables/{tid}/rematch", {"token": token})
    assert s1 == s2 == 201 and r1["id"] == r2["id"] != tid
    again = table_state(base, r1["id"])
    assert again["status"] == "waiting" and [s["kind"] for s in again["seats"]] == ["human", "bot:medium"]
    assert table_state(base, tid)["rematch"] == r1["id"]
    assert json.dumps(again).find("seed") == -1  # the deal's seed is never told before the end


async def _drive_to_window(raws: list[Raw], rng: random.Random) -> dict[str, Any]:
    """Play every seat's turns with a medium bot until a claim window opens; its state."""
    acted: dict[int, int] = {}
    end = time.time() + 60
    while time.time() < end:
        await asyncio.gather(*(r.quiet(0.02) for r in raws))
        for seat, r in enumerate(raws):
            s = r.state
            if s is None or s["status"] != "playing":
                continue
            if s["window"] is not None:
                return s
            if s["legal"] and acted.get(seat) != s["state_id"]:
                acted[seat] = s["state_id"]
                legal = [rk.parse_action(t) for t in s["legal"]]
                bot = make_player("medium", seed=rng.randrange(99))
                await r.act(rk.format_action(bot.choose(s["view"], legal)))
    raise AssertionError("no claim window opened")


def test_seats_handed_to_a_bot_during_a_claim_window_answer_at_once(sqlite_served: str) -> None:  # noqa: F811
    async def run(base: str, tid: str, tokens: list[str]) -> None:
        raws = [await Raw.open(base, tid, t) for t in tokens]
        s = await _drive_to_window(raws, random.Random(5))
        w = s["window"]
        opened = time.time()
        for seat in w["seats"]:
            await raws[seat].send({"type": "autoplay", "on": True})
        await raws[0].until(lambda m: m["window"] is None or m["window"]["state_id"] != w["state_id"],
                            timeout=20)
        assert time.time() - opened < 10  # not the 30 s countdown: the bots answered
        for r in raws:
            await r.close()

    tid = create_table(sqlite_served, ruleset="may-i", seats=["human"] * 4, seed=2, claim_seconds=30,
                       hints=False)
    tokens = [join_table(sqlite_served, tid, f"P{i}")[1] for i in range(4)]
    asyncio.run(run(sqlite_served, tid, tokens))


def test_a_hard_bot_seat_thinks_in_a_thread_and_moves(sqlite_served: str) -> None:  # noqa: F811
    async def run(tid: str) -> None:
        watcher = await Raw.open(sqlite_served, tid, None)
        m = await watcher.until(lambda m: any(e.get("seat") == 0 for e in m["view"]["log"]), timeout=60)
        assert m["seats"][0]["kind"] == "bot:hard" and m["status"] == "playing"
        await watcher.close()

    tid = create_table(sqlite_served, ruleset="basic", seats=["bot:hard", "bot:easy"], seed=3, bot_delay=0,
                       names={"0": "Deep"})
    asyncio.run(run(tid))
    assert table_state(sqlite_served, tid)["seats"][0]["name"] == "Deep"
