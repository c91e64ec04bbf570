"""Races against a real server (`rummykit serve` in its own process on 127.0.0.1, asyncio
clients): several seats claiming one discard at the same instant, two actions at once from one
seat (one socket, and two tabs of the seat), a seat reconnecting twice at once.  Each time
there is exactly one outcome, the engine's.  Seeded; repeated RUMMYKIT_RACE_REPEATS times
(default 10 per ruleset for the claims, 20 for the others)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Raw, create_table, plain, running_server, table_state

import rummykit as rk
from rummykit.server.client import join_table

REPEATS = int(os.environ.get("RUMMYKIT_RACE_REPEATS", "20"))


@pytest.fixture(scope="module")
def sqlite_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose message-rate limit is off: these clients ping after every step to read
    up to date, far faster than a person (the limit has its own tests in test_server_fuzz)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('races') / 'races.db'}"
    with running_server(db, args=("--ws-rate", "0", "--tables-per-ip", "0")) as base:
        yield base


async def seated(base: str, tid: str, tokens: list[str]) -> list[Raw]:
    raws = [await Raw.open(base, tid, t) for t in tokens]
    for r in raws:
        await r.quiet(0.05)
    return raws


async def settle(raws: list[Raw]) -> None:
    """Read every socket up to the answer of a ping: each holds the newest state."""
    unique = list({id(r): r for r in raws}.values())
    await asyncio.gather(*(r.quiet(0.01) for r in unique))


def turn_move(legal: list[str]) -> str:
    if "draw" in legal:
        return "draw"
    discards = [x for x in legal if x.startswith("discard")]
    return discards[-1] if discards else legal[0]


async def to_window(raws: list[Raw]) -> dict[str, Any]:
    """Play turns (draw, discard) until a claim window opens; the state of seat 0 then."""
    for _ in range(200):
        await settle(raws)
        s0 = raws[0].state
        assert s0 is not None
        if s0["window"] is not None:
            return s0
        for r in raws:
            s = r.state
            if s is not None and s["legal"] and s["window"] is None:
                await r.act(turn_move(s["legal"]))
                break
    raise AssertionError("no claim window opened")


async def window_closed(raw: Raw, w_id: int) -> dict[str, Any]:
    return await raw.until(lambda m: m["window"] is None or m["window"]["state_id"] != w_id, timeout=30)


def four_humans(base: str, ruleset: str, seed: int, **kw: Any) -> tuple[str, list[str]]:
    tid = create_table(base, ruleset=ruleset, seats=["human"] * 4, seed=seed, hints=False,
                       claim_seconds=60, options={"deals": 1}, **kw)
    return tid, [join_table(base, tid, f"R{i}")[1] for i in range(4)]


@pytest.mark.parametrize("ruleset", ["may-i", "contract"])
def test_claims_sent_at_the_same_instant_go_by_the_engines_priority(sqlite_served: str, ruleset: str) -> None:
    base = sqlite_served

    async def once(seed: int) -> tuple[list[int], int | None, int | None]:
        rng = random.Random(seed)
        tid, tokens = four_humans(base, ruleset, seed)
        raws = await seated(base, tid, tokens)
        tabs = {i: await Raw.open(base, tid, tokens[i]) for i in range(4) if rng.random() < 0.5}
        await settle(list(tabs.values()))
        s0 = await to_window(raws)
        w = s0["window"]
        await settle([*raws, *tabs.values()])
        buys_before = len([e for e in s0["view"]["log"] if e["verb"] == "buy"])
        card = s0["view"]["discard_top"]
        # each asked seat: buy or pass, at random; some say it twice or from a second tab too
        answers: dict[int, str] = {}
        sends = []
        go = asyncio.Event()
        for seat in w["seats"]:
            s = raws[seat].state
            assert s is not None and s["window"]["state_id"] == w["state_id"]
            legal = s["legal"]
            answers[seat] = "buy" if "buy" in legal and rng.random() < 0.7 else "pass"
            senders = [raws[seat]] + ([tabs[seat]] if seat in tabs else [])
            for r in senders * rng.choice((1, 2)):
                sends.append((r, answers[seat]))
        rng.shuffle(sends)

        async def fire(r: Raw, text: str) -> None:
            await go.wait()
            await r.send({"type": "act", "state_id": w["state_id"], "action": text})

        tasks = [asyncio.create_task(fire(r, a)) for r, a in sends]
        await asyncio.sleep(0.01)
        go.set()
        await asyncio.gather(*tasks)
        after = await window_closed(raws[0], w["state_id"])
        buys = [e for e in after["view"]["log"] if e["verb"] == "buy"]
        got = buys[buys_before]["seat"] if len(buys) > buys_before else None
        if got is not None:
            assert buys[buys_before]["card"] == card
            assert len(buys) == buys_before + 1 or buys[buys_before + 1]["card"] != card, \
                "one card bought twice"
        # the engine's outcome: the first seat in its order that asked for the card gets it
        # (a seat with no buy left, or the seat whose turn it is taking it instead, is the engine's call)
        wanted = next((s for s in w["seats"] if answers[s] == "buy"), None)
        # every socket of every seat sees the same table: the same view position
        await settle([*raws, *tabs.values()])
        positions = {r.state["view"]["state_id"] for r in [*raws, *tabs.values()] if r.state is not None}
        assert len(positions) == 1
        for r in [*raws, *tabs.values()]:
            await r.close()
        return list(w["seats"]), wanted, got

    seen = []
    for k in range(max(1, REPEATS // 2)):
        queue, wanted, got = asyncio.run(once(1000 + k))
        seen.append((queue, wanted, got))
        assert got == wanted, \
            f"seed {1000 + k}: queue {queue}: seat {got} got the card, the engine gives it to {wanted}"
    assert any(w is not None for _, w, _ in seen), "no seat ever claimed: the race was not run"


def test_two_actions_at_once_from_one_seat_and_from_two_tabs(sqlite_served: str) -> None:
    base = sqlite_served

    async def once(seed: int, two_tabs: bool) -> None:
        rng = random.Random(seed)
        tid, tokens = four_humans(base, "contract", seed)
        raws = await seated(base, tid, tokens)
        await settle(raws)
        seat = next(i for i, r in enumerate(raws)
                    if r.state and r.state["legal"] and r.state["window"] is None)
        first = raws[seat]
        second = await Raw.open(base, tid, tokens[seat]) if two_tabs else first
        await settle([first, second])
        s = first.state
        assert s is not None
        legal = s["legal"]
        a, b = rng.sample([x for x in legal if x in ("draw", "take")] or legal[:2], 2)
        before = table_state(base, tid)
        pos = s["view"]["state_id"]
        await asyncio.gather(first.act(a, s["state_id"]), second.act(b, s["state_id"]))
        got_first = await first.quiet(0.05)
        got_second = await second.quiet(0.05) if two_tabs else []
        errors = [m for m in got_first + got_second if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["code"] == "stale", errors
        await settle(raws)
        # exactly one of the two is in the game, once
        now = first.state
        assert now is not None and now["view"]["state_id"] == pos + 1
        # which one: the engine's view after a, or after b (the game is rebuilt from its seed)
        assert pos == 0
        outcomes = {}
        for text in (a, b):
            g = rk.new_game("contract", players=4, seed=seed, options={"deals": 1})
            g.apply(text)
            outcomes[text] = plain(g.view(seat))
        assert outcomes[a] != outcomes[b]
        won = [text for text, view in outcomes.items() if view == now["view"]]
        assert len(won) == 1
        if not two_tabs:  # one socket is in order: the first sent is the one
            assert won == [a]
        assert table_state(base, tid)["seats"] == before["seats"]
        if two_tabs:
            assert second.state is not None and second.state["view"] == now["view"]
            await second.close()
        for r in raws:
            await r.close()

    for k in range(REPEATS):
        asyncio.run(once(2000 + k, two_tabs=bool(k % 2)))


def test_reconnecting_twice_at_once_keeps_one_seat_and_one_game(sqlite_served: str) -> None:
    base = sqlite_served

    async def once(seed: int) -> None:
        rng = random.Random(seed)
        tid, tokens = four_humans(base, "may-i", seed)
        raws = await seated(base, tid, tokens)
        watcher = await Raw.open(base, tid, None)
        await settle([*raws, watcher])
        seat = rng.randrange(4)
        pos = watcher.state["view"]["state_id"] if watcher.state else -1
        old = raws[seat]
        # the old socket goes while two new ones come, all at once
        opened = await asyncio.gather(Raw.open(base, tid, tokens[seat]), Raw.open(base, tid, tokens[seat]),
                                      old.close())
        a, b = opened[0], opened[1]
        ma, mb = await a.recv(), await b.recv()
        assert ma["type"] == mb["type"] == "state" and ma["seat"] == mb["seat"] == seat
        await settle([a, b, watcher])
        assert watcher.state is not None and watcher.state["seats"][seat]["connected"]
        assert watcher.state["view"]["state_id"] == pos  # connecting moved no card
        # both sockets are the seat: either may act, once
        s = a.state
        assert s is not None and b.state is not None and b.state["legal"] == s["legal"]
        if s["legal"] and s["window"] is None:
            await asyncio.gather(a.act(s["legal"][0], s["state_id"]), b.act(s["legal"][0], s["state_id"]))
            got = (await a.quiet(0.05)) + (await b.quiet(0.05))
            assert len([m for m in got if m["type"] == "error"]) == 1
        # one goes: still connected; both go: not connected, and the seat is not played for it yet
        await a.close()
        await watcher.quiet(0.05)
        assert watcher.state["seats"][seat]["connected"]
        await b.close()
        m = await watcher.until(lambda m: not m["seats"][seat]["connected"], timeout=10)
        assert not m["seats"][seat]["autoplay"]
        back = await Raw.open(base, tid, tokens[seat])
        assert (await back.recv())["seat"] == seat
        m = await watcher.until(lambda m: m["seats"][seat]["connected"], timeout=10)
        for r in [*raws[:seat], *raws[seat + 1:], watcher, back]:
            await r.close()
        info = table_state(base, tid)
        assert info["status"] == "playing"

    for k in range(REPEATS):
        asyncio.run(once(3000 + k))


def test_a_game_raced_to_the_end_replays_to_the_same_scores(sqlite_served: str) -> None:
    """Every seat sends its move twice at once (and answers offers from two sockets): the game
    still ends, and its record replays to the server's scores."""
    base = sqlite_served

    async def run() -> None:
        tid, tokens = four_humans(base, "may-i", 77)
        raws = await seated(base, tid, tokens)
        tabs = [await Raw.open(base, tid, t) for t in tokens]
        rng = random.Random(77)
        for _ in range(3000):
            await settle([*raws, *tabs])
            s0 = raws[0].state
            assert s0 is not None
            if s0["status"] == "over":
                break
            sends = []
            for i in range(4):
                s = raws[i].state
                if s is None or not s["legal"]:
                    continue
                legal = s["legal"]
                melds = [x for x in legal if x.startswith(("meld", "layoff"))]
                text = melds[0] if melds else ("pass" if "pass" in legal else turn_move(legal))
                if "buy" in legal and rng.random() < 0.3:
                    text = "buy"
                sends += [raws[i].act(text, s["state_id"]), tabs[i].act(text, s["state_id"])]
            await asyncio.gather(*sends)
        for r in [*raws, *tabs]:
            await r.close()
        info = table_state(base, tid)
        assert info["status"] == "over"
        assert plain(rk.replay(info["record"]).view(None)["scores"]) == info["scores"]

    asyncio.run(run())


def test_a_claim_window_within_a_turn_stops_the_turn_timer(sqlite_served: str) -> None:
    """contract: the player to act waits, draws from the stock, and a May I window opens for
    the upcard it passed. The window's seconds are not taken from its turn: its deadline
    afterwards is the old one put off by the window's length (not the old one, and not a
    fresh turn_seconds from the draw)."""
    base = sqlite_served

    async def run() -> None:
        tid = create_table(base, ruleset="contract", seats=["human"] * 4, seed=3, hints=False,
                           claim_seconds=2, turn_seconds=30, options={"deals": 1})
        tokens = [join_table(base, tid, f"T{i}")[1] for i in range(4)]
        raws = await seated(base, tid, tokens)
        await settle(raws)
        me = next(r for r in raws if r.state is not None and r.state["legal"])
        before = me.state
        assert before is not None and "draw" in before["legal"] and before["deadline"] is not None
        await asyncio.sleep(1.5)  # part of the turn's time goes by
        await me.act("draw")
        await me.until(lambda m: m["window"] is not None, timeout=10)
        after = await me.until(lambda m: m["window"] is None and bool(m["legal"]), timeout=30)
        assert after["view"]["current_player"] == before["view"]["current_player"]
        assert after["view"]["turn"] == before["view"]["turn"]
        put_off = after["deadline"] - before["deadline"]
        assert 1.5 <= put_off <= 2.9, f"the deadline moved by {put_off:.2f} s over a 2 s window"
        for r in raws:
            await r.close()

    asyncio.run(run())
