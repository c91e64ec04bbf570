"""A table's extras (docs/protocol.md, "Table extras"): the chat, claim preferences, the break
between deals, offer details, what a bot played for a person, meld checks and arrangements,
house rules as sentences, the lobby's free seats and the friendly 404 page.

Most run a table in process (the Hub on a SQLite file, connections as queues, deals stacked
in card notation) so that each situation is exact; the HTTP parts go through Starlette's
TestClient."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import deal
from starlette.testclient import TestClient

import rummykit as rk
from rummykit.engine.game import Game
from rummykit.server import create_app
from rummykit.server.app import parse_create
from rummykit.server.limits import Limits
from rummykit.server.storage import Storage
from rummykit.server.tables import Conn, Hub, Table


class Client:
    """One connection to a table in process: what it sends, and every message it got."""

    def __init__(self, t: Table, seat: int | None):
        self.t = t
        self.conn = Conn(seat)
        self.got: list[dict[str, Any]] = []
        t.connect(self.conn)

    def read(self) -> list[dict[str, Any]]:
        out = []
        while not self.conn.out.empty():
            x = self.conn.out.get_nowait()
            if isinstance(x, str) and not x.startswith("\x00"):
                out.append(json.loads(x))
        self.got.extend(out)
        return out

    @property
    def state(self) -> dict[str, Any]:
        self.read()
        return [m for m in self.got if m["type"] == "state"][-1]

    def send(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """Send ``msg``; the messages this connection got for it (errors and answers are
        sent at once; a change's state once the loop turn's commit is done: see settle)."""
        self.t.handle(self.conn, msg)
        return self.read()

    def act(self, action: str) -> None:
        s = self.state
        w = s["window"]
        sid = w["state_id"] if w is not None and not w["answered"] else s["state_id"]
        got = self.send({"type": "act", "state_id": sid, "action": action})
        assert not [m for m in got if m["type"] == "error"], got

    def errors(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        return [m for m in self.send(msg) if m["type"] == "error"]


async def settle(seconds: float = 0) -> None:
    """Let the loop run what is ready (the gathered commit, bots without delay) and wait."""
    for _ in range(5):
        await asyncio.sleep(0)
    if seconds:
        await asyncio.sleep(seconds)
        for _ in range(5):
            await asyncio.sleep(0)


Scenario = Callable[[Hub, Path], Awaitable[None]]


def run(tmp_path: Path, scenario: Scenario) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'extras.db'}")
        hub = Hub(storage)
        try:
            await scenario(hub, tmp_path)
        finally:
            hub.stop()
            storage.close()

    asyncio.run(main())


def table(hub: Hub, body: dict[str, Any], game: Game | None = None,
          names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee")) -> Table:
    """A table made as POST /api/tables makes it (its first deal replaced by ``game``'s, a
    stacked deal of the same rules), every human seat taken."""
    body = {"bot_delay": 0, "hints": False, "claim_seconds": 60, **body}
    req = parse_create(body)
    t = hub.create(variant=req["variant"], setup_rules=None, players=req["players"], seats=req["seats"],
                   options=req["options"], seed=req["seed"], settings=req["settings"], names=req["names"],
                   name=req["name"])
    if game is not None:
        assert t.status == "waiting" and game.variant.spec == t.game.variant.spec
        t.game = game
    for i, kind in enumerate(req["seats"]):
        if kind == "human":
            t.join(names[i], i)
    return t


# the first deal of Contract Rummy for three: seat 1 plays first (dealer 0); seat 0 holds pairs
# of 7s and Ks (two sets of three: 7H, KS fit; AD, the upcard, does not)
HANDS = ["7C 7D KC KD 2H 5S 9S JS 4D 6C", "7H 7S 9C TC JC QC KC AC 2D 3D", "7D KH KS 4H 5H 6H 8H 9H TH JH"]


def contract_table(hub: Hub, seats: list[str] | None = None, **body: Any) -> Table:
    g = deal("contract", HANDS, "AD", "QS 3S 4S 5S")
    return table(hub, {"ruleset": "contract", "seats": seats or ["human"] * 3, **body}, g)


# -- chat ----------------------------------------------------------------------------------


def test_chat_goes_to_every_connection_and_a_new_one_gets_the_last_50(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    secret = "meet me at the pier 7H"

    async def scenario(hub: Hub, tmp: Path) -> None:
        caplog.set_level(logging.DEBUG)
        t = contract_table(hub)
        now = [1000.0]
        t.extras.clock = lambda: now[0]
        ann, bob, watcher = Client(t, 0), Client(t, 1), Client(t, None)
        await settle()
        for c in (ann, bob, watcher):  # the chat's log right after the first state
            kinds = [m["type"] for m in c.read()]
            assert kinds[:2] == ["state", "chat_log"] and kinds.count("chat_log") == 1
        assert ann.send({"type": "chat", "text": f"  {secret}  "}) == [
            {"type": "chat", "id": 1, "seat": 0, "name": "Ann", "text": secret, "at": 1000.0}]
        assert bob.read() == watcher.read() == ann.got[-1:]
        # bad text: a sentence, nothing sent; a spectator reads only
        for text in ("", "   ", "x" * 201, "a\nb", "a\u200bb", 7, None):
            got = ann.send({"type": "chat", "text": text})
            assert [m["type"] for m in got] == ["error"] and got[0]["code"] == "bad_request", text
        err = watcher.errors({"type": "chat", "text": "hi"})
        assert err[0]["code"] == "not_your_turn"
        assert err[0]["message"] == "spectators can read the chat but not write"
        assert ann.send({"type": "chat", "text": "x" * 200})[0]["id"] == 2  # 200 is allowed
        # five in ten seconds a seat; the sixth is refused and goes nowhere
        for k in range(3):
            now[0] += 1
            assert ann.send({"type": "chat", "text": f"n{k}"})[0]["type"] == "chat"
        bob.read()
        got = ann.send({"type": "chat", "text": "one too many"})
        assert [m["code"] for m in got] == ["too_fast"] and "wait" in got[0]["message"]
        assert bob.read() == [] and watcher.read()[-1]["text"] == "n2"
        assert bob.send({"type": "chat", "text": "my own five"})[0]["seat"] == 1  # per seat
        now[0] += 10
        assert ann.send({"type": "chat", "text": "later"})[-1]["id"] == 7
        for k in range(50):
            now[0] += 3
            bob.send({"type": "chat", "text": f"m{k}"})
        late = Client(t, None)
        got = late.read()
        assert [m["type"] for m in got] == ["state", "chat_log"]
        log = got[1]["messages"]
        assert len(log) == 50 and log[0]["id"] == 8 and log[-1]["id"] == 57 and log[-1]["text"] == "m49"
        # never in the record, the database or the server's log
        assert secret not in json.dumps(t.game.record())
        t.state_id += 1
        t._changed()
        for f in tmp.glob("extras.db*"):
            assert secret.encode() not in f.read_bytes()
        assert not [r for r in caplog.records if secret in r.getMessage()]

    run(tmp_path, scenario)


# -- claim preferences -----------------------------------------------------------------------


def test_prefs_are_checked_kept_per_seat_and_told_to_that_seat_only(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub)
        ann, bob, watcher = Client(t, 0), Client(t, 1), Client(t, None)
        await settle()
        assert ann.state["prefs"] == {"claims": "always", "deal_break": False}
        assert watcher.state["prefs"] is None
        sid = t.state_id
        for bad in ({"claims": "sometimes"}, {"claims": 1}, {"deal_break": "yes"}, {"deal_break": 0}):
            assert [m["code"] for m in ann.errors({"type": "prefs", **bad})] == ["bad_request"], bad
        assert watcher.errors({"type": "prefs", "claims": "never"})[0]["code"] == "not_your_turn"
        ann.send({"type": "prefs", "claims": "fits"})
        assert ann.state["prefs"] == {"claims": "fits", "deal_break": False}
        ann.send({"type": "prefs", "deal_break": True})  # each key on its own
        assert ann.state["prefs"] == {"claims": "fits", "deal_break": True}
        assert bob.state["prefs"] == {"claims": "always", "deal_break": False}
        assert t.state_id == sid  # a seat's own preference is no change of the table's state

    run(tmp_path, scenario)


def test_a_seat_that_asked_never_is_not_asked_and_the_window_does_not_wait(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub)
        ann, bob, cy = Client(t, 0), Client(t, 1), Client(t, 2)
        await settle()
        ann.send({"type": "prefs", "claims": "never"})
        bob.act("draw")  # the upcard AD is offered to Cy, then Ann
        await settle()
        w = ann.state["window"]
        assert w is not None and w["seats"] == [2, 0] and w["card"] == "AD" and w["penalty"] == 1
        # from the first message of the window on: Ann has answered, and may not
        assert w["answered"] and ann.state["legal"] == []
        first = [m for m in ann.got if m["type"] == "state" and m["window"] is not None][0]
        assert first["window"]["answered"] and first["legal"] == []
        assert cy.state["window"]["answered_seats"] == [0] and "buy" in cy.state["legal"]
        cy.act("pass")
        await settle()
        assert ann.state["window"] is None  # closed at Cy's answer, not at the countdown's end
        assert t.claims == [] and t.game.phase == "play"
        # a Shanghai or Rummy call: "never" passes it too, "fits" is still asked
        assert t.extras.passes(0, "shanghai") and t.extras.passes(0, "rummy")
        ann.send({"type": "prefs", "claims": "fits"})
        assert not t.extras.passes(0, "shanghai") and not t.extras.passes(0, "rummy")

    run(tmp_path, scenario)


def test_a_seat_asked_only_when_the_card_fits(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub, claim_seconds=0.3)
        ann, bob, cy = Client(t, 0), Client(t, 1), Client(t, 2)
        await settle()
        ann.send({"type": "prefs", "claims": "fits"})
        bob.act("draw")  # AD offered: it does not fit Ann's hand
        await settle()
        assert ann.state["window"]["answered"] and ann.state["legal"] == []
        cy.act("pass")
        await settle()
        bob.act("discard 7H")
        await settle()
        cy.act("draw")  # 7H offered to Ann alone: it fits her 7s
        await settle()
        s = ann.state
        assert s["window"]["card"] == "7H" and not s["window"]["answered"] and "buy" in s["legal"]
        await settle(0.5)  # no answer: the countdown's end is a pass
        assert ann.state["window"] is None

    run(tmp_path, scenario)


def test_an_offer_comes_with_the_hint_that_answers_it(tmp_path: Path) -> None:
    """With hints on, a seat offered a card in a window gets the hint for that offer (the
    usability tester was asked "May I?" with no hint at all): pass on AD, which fits
    nothing; buy 7H, a third 7 beside 7C 7D; no hint once answered."""
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub, hints=True)
        ann, bob, cy = Client(t, 0), Client(t, 1), Client(t, 2)
        await settle()
        bob.act("draw")  # the upcard AD is offered to Cy, then Ann
        await settle()
        s = ann.state
        assert s["window"]["card"] == "AD" and "buy" in s["legal"]
        assert s["hint"]["action"] == "pass", s["hint"]
        cy.act("pass")
        ann.act("pass")
        await settle()
        assert ann.state["window"] is None and ann.state.get("hint") is None  # not Ann's turn
        bob.act("discard 7H")
        await settle()
        cy.act("draw")  # 7H offered to Ann
        await settle()
        s = ann.state
        assert s["window"]["card"] == "7H" and s["hint"]["action"] == "buy", s["hint"]
        assert "7" in s["hint"]["why"], s["hint"]["why"]
        ann.act("buy")
        await settle()
        assert ann.state.get("hint") is None or ann.state["window"] is None

    run(tmp_path, scenario)


def test_a_preference_set_during_an_offer_answers_it(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub)
        ann, bob, cy = Client(t, 0), Client(t, 1), Client(t, 2)
        await settle()
        bob.act("draw")
        await settle()
        cy.act("pass")
        await settle()
        assert not ann.state["window"]["answered"]
        ann.send({"type": "prefs", "claims": "never"})
        await settle()
        assert ann.state["window"] is None and t.game.phase == "play"

    run(tmp_path, scenario)


# -- the break between deals -------------------------------------------------------------------

# Basic Rummy for three, several melds a turn: seat 1 plays first and goes out at once (draws
# KD, lays down both melds, discards KD); the second deal starts with seat 2
BASIC = ["2C 5D 9S JH QC 4S 8D", "3H 4H 5H 6H 7S 7D 7C", "2D 3C TS KH AC 6S 9D"]


def basic_table(hub: Hub, seats: list[str], **body: Any) -> Table:
    options = {"melds_per_turn": "any", "target": 500}
    g = deal("basic", BASIC, "QS", "KD", options=options)
    return table(hub, {"ruleset": "basic", "seats": seats, "options": options, **body}, g)


async def go_out(bob: Client) -> None:
    for a in ("draw", "meld 3H 4H 5H 6H", "meld 7S 7D 7C", "discard KD"):
        bob.act(a)
        await settle()


def test_the_deal_break_holds_bots_until_the_person_is_ready(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = basic_table(hub, ["human", "human", "bot:medium"])
        ann, bob = Client(t, 0), Client(t, 1)
        await settle()
        assert ann.state["pause"] is None
        ann.send({"type": "prefs", "deal_break": True})
        await go_out(bob)
        await settle()
        s = ann.state
        assert s["view"]["round"] == 2 and s["view"]["current_player"] == 2
        p = s["pause"]
        assert p is not None and p["round"] == 1 and p["waiting"] == [0]
        assert 15 < p["until"] - time.time() <= 20  # the default deal_break_seconds
        assert bob.state["pause"] == p  # everyone is told
        moves = len(t.game.actions)
        await settle(0.3)
        assert len(t.game.actions) == moves  # the bot waits
        assert [m["code"] for m in bob.errors({"type": "ready"})] == []  # not waited for: no change
        ann.send({"type": "ready"})
        await settle(0.1)
        assert ann.state["pause"] is None and len(t.game.actions) > moves

    run(tmp_path, scenario)


def test_the_deal_break_ends_by_itself_and_without_it_nothing_waits(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = basic_table(hub, ["human", "human", "bot:medium"], deal_break_seconds=0.3)
        ann, bob = Client(t, 0), Client(t, 1)
        await settle()
        ann.send({"type": "prefs", "deal_break": True})
        await go_out(bob)
        await settle()
        assert ann.state["pause"] is not None
        moves = len(t.game.actions)
        await settle(0.5)
        assert ann.state["pause"] is None and len(t.game.actions) > moves

        t2 = basic_table(hub, ["human", "human", "bot:medium"])
        ann2, bob2 = Client(t2, 0), Client(t2, 1)
        await settle()
        await go_out(bob2)  # nobody asked for a break
        await settle(0.1)
        assert ann2.state["pause"] is None and t2.game.round_no == 2 and t2.game.current_player != 2

    run(tmp_path, scenario)


def test_the_person_to_play_may_act_in_the_break_and_no_turn_timer_runs(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = basic_table(hub, ["human", "human", "human"], turn_seconds=1)
        ann, bob, cy = Client(t, 0), Client(t, 1), Client(t, 2)
        await settle()
        ann.send({"type": "prefs", "deal_break": True})
        await go_out(bob)
        await settle()
        s = cy.state
        assert s["pause"]["waiting"] == [0] and s["deadline"] is None and "draw" in s["legal"]
        moves = len(t.game.actions)
        await settle(1.3)
        assert len(t.game.actions) == moves and cy.state["stand_in"] is None  # no timer's stand-in
        cy.act("draw")  # acting ends the break for everyone
        await settle()
        assert ann.state["pause"] is None and cy.state["deadline"] is not None

    run(tmp_path, scenario)


def test_a_deal_break_setting_is_checked_and_listed() -> None:
    with pytest.raises(ValueError, match="deal_break_seconds must be a number from 0 to 120"):
        parse_create({"ruleset": "basic", "seats": ["human", "human"], "deal_break_seconds": 121})
    assert parse_create({"ruleset": "basic", "seats": ["human", "human"],
                         "deal_break_seconds": 0})["settings"]["deal_break_seconds"] == 0


# -- what a bot played for a person ------------------------------------------------------------


def test_a_seat_away_for_the_grace_period_gets_what_the_bot_played_on_return(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = basic_table(hub, ["human", "human", "bot:medium"], grace_seconds=0.1)
        ann, bob, watcher = Client(t, 0), Client(t, 1), Client(t, None)
        await settle()
        t.disconnect(ann.conn)
        await settle(0.2)
        assert t.seats[0].autoplay == "away"
        start = len(t.game.actions)
        for _ in range(300):  # Bob draws and discards; the bot and Ann's stand-in play theirs
            s = bob.state
            if s["legal"]:
                bob.act("draw" if "draw" in s["legal"] else
                        [x for x in s["legal"] if x.startswith("discard")][-1])
            await settle(0.01)
            mine = [a for seat, a in _seated_actions(t.game)[start:] if seat == 0]
            if len(mine) >= 4 and t.game.current_player == 1:
                break
        played = [a for seat, a in _seated_actions(t.game)[start:] if seat == 0]
        assert len(played) >= 4, "the stand-in did not play"
        back = Client(t, 0)
        await settle()
        s = back.state
        assert s["stand_in"] == {"why": "away", "moves": played} and s["autoplay"] is False
        # never told to another seat or a spectator
        for c in (bob, watcher):
            c.read()
            assert all(m["stand_in"] is None for m in c.got if m["type"] == "state")
        back.send({"type": "stand_in_seen"})
        assert back.state["stand_in"] is None

    run(tmp_path, scenario)


def _seated_actions(g: Game) -> list[tuple[int, str]]:
    """(seat, action) of every action of the game, replayed."""
    rec = g.record()
    actions = rec["actions"]
    h = rk.replay(dict(rec, actions=[]))
    out = []
    for a in actions:
        out.append((h.current_player, a))
        h.apply(a)
    return out


def test_the_turn_timers_stand_in_is_summed_up_and_an_own_move_clears_it(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = basic_table(hub, ["human", "human", "bot:medium"], turn_seconds=1)
        ann, bob = Client(t, 0), Client(t, 1)
        await settle(1.3)  # Bob does nothing: the stand-in plays his whole turn
        s = bob.state
        assert s["stand_in"] is not None and s["stand_in"]["why"] == "timer"
        assert s["stand_in"]["moves"][0] == "draw" and s["stand_in"]["moves"][-1].startswith("discard")
        assert ann.state["stand_in"] is None
        for _ in range(250):
            await settle(0.02)
            if bob.state["legal"]:
                break
        assert bob.state["stand_in"] is not None  # kept until his own move
        bob.act("draw")
        await settle()
        assert bob.state["stand_in"] is None

    run(tmp_path, scenario)


# -- a seat's own hand: meld checks and arrangements ------------------------------------------


def test_a_meld_check_answers_the_asking_connection_only(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub)
        ann, ann2, bob, watcher = Client(t, 0), Client(t, 0), Client(t, 1), Client(t, None)
        await settle()
        for c in (ann, ann2, bob, watcher):
            c.read()
        got = ann.send({"type": "check", "id": 4, "groups": [["7C", "7D"], ["KC", "KD", "JS"]]})
        assert got == [{"type": "check", "id": 4, "groups": [
            {"ok": False, "text": "two cards: a meld needs at least 3"},
            {"ok": False, "text": "not one rank: a set's cards are all of one rank"}],
            "contract": {"need": 2, "ready": 0, "ok": False,
                         "text": "0 of 2 melds ready: still two sets of three"}}]
        assert ann2.read() == bob.read() == watcher.read() == []
        sid = t.state_id
        cases = [
            ({"groups": [["7H", "7C", "7D"]]}, "illegal", "7H is not in your hand"),
            ({"groups": [["7C", "7C"]]}, "illegal", "7C is in your hand once, not 2 times"),
            ({"groups": [["7C"]] * 9}, "bad_request", "at most 8 groups"),
            ({"groups": [["7C"] * 21]}, "bad_request", "at most 20 cards"),
            ({"groups": [["ZZ"]]}, "bad_request", "bad card"),
            ({"groups": "7C 7D"}, "bad_request", "groups"),
            ({"groups": [[7]]}, "bad_request", "a card is text"),
            ({"id": True, "groups": []}, "bad_request", "id"),
        ]
        for extra, code, words in cases:
            got = ann.send({"type": "check", "id": 5, **extra})
            assert [m["type"] for m in got] == ["error"] and got[0]["code"] == code, extra
            assert words in got[0]["message"], (extra, got[0]["message"])
        err = watcher.errors({"type": "check", "id": 1, "groups": [["7C"]]})
        assert err[0]["code"] == "not_your_turn"
        assert t.state_id == sid and bob.read() == []

    run(tmp_path, scenario)


def test_arrange_answers_the_asking_connection_only_from_its_hand(tmp_path: Path) -> None:
    async def scenario(hub: Hub, _: Path) -> None:
        t = contract_table(hub)
        ann, bob, watcher = Client(t, 0), Client(t, 1), Client(t, None)
        await settle()
        for c in (ann, bob, watcher):
            c.read()
        got = ann.send({"type": "arrange"})
        assert len(got) == 1 and got[0]["type"] == "arrange"
        a = got[0]
        assert Counter([c for g in a["groups"] for c in g] + a["rest"]) == Counter(HANDS[0].split())
        assert ["7C", "7D"] in a["groups"] and ["KC", "KD"] in a["groups"] and a["text"]
        assert bob.read() == watcher.read() == []
        assert watcher.errors({"type": "arrange"})[0]["code"] == "not_your_turn"

    run(tmp_path, scenario)


# -- house rules, the lobby, pages ---------------------------------------------------------------


def app_client(tmp_path: Path) -> TestClient:
    static = tmp_path / "static"
    static.mkdir(exist_ok=True)
    (static / "index.html").write_text("<!doctype html><title>rummykit app</title>")
    return TestClient(create_app(f"sqlite:///{tmp_path / 'app.db'}", static_dir=static, limits=Limits.none()))


def test_house_rules_are_told_as_sentences_and_free_seats_are_listed(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        def make(body: dict[str, Any]) -> str:
            r = client.post("/api/tables", json={"seats": ["human", "human", "bot:easy"], **body})
            assert r.status_code == 201, r.text
            return str(r.json()["id"])

        plain = make({"ruleset": "contract"})
        housed = make({"ruleset": "contract", "options": {"twos_wild": True, "deals": 2}})
        filed = make({"rules": "extends = 'may-i'\nid = 'ours'\nname = 'Ours'\nmin_set = 4\n"})
        got = {tid: client.get(f"/api/tables/{tid}").json() for tid in (plain, housed, filed)}
        assert got[plain]["house_rules"] == []
        assert got[housed]["house_rules"] == ["The match is 2 deals.", "2s are wild."]
        assert got[filed]["house_rules"] == ["A set needs at least 4 cards."]  # from May I?, not Contract
        token = client.post(f"/api/tables/{housed}/join", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{housed}?token={token}") as ws:
            m = ws.receive_json()
            assert m["table"]["house_rules"] == ["The match is 2 deals.", "2s are wild."]
            assert m["pause"] is None and m["stand_in"] is None and m["prefs"]["claims"] == "always"
            assert ws.receive_json() == {"type": "chat_log", "messages": []}
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[housed]["free_seats"] == 1 and listed[plain]["free_seats"] == 2
        assert listed[plain]["settings"]["deal_break_seconds"] == 20
        rs = client.get("/api/rulesets").json()["rulesets"]
        ace = next(o for o in rs[0]["options"] if o["key"] == "ace_mode")
        assert ace["label"] == "Aces" and ace["choice_labels"]["low"] == "low only (A-2-3)"
        assert ace["sentences"]["wrap"] == "Runs may turn the corner (K-A-2)."


def test_a_bad_link_gets_the_app_with_404_and_the_api_keeps_json(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        for path in ("/nope", "/t/", "/t/abc/junk", "/stats/", "/a/b/c"):
            r = client.get(path)
            assert r.status_code == 404 and "rummykit app" in r.text, path
        for path in ("/", "/t/unknown", "/stats/Ann"):
            r = client.get(path)
            assert r.status_code == 200 and "rummykit app" in r.text, path
        for path in ("/api/nope", "/api/tables/unknown", "/api", "/static/nope.js", "/metrics/x"):
            r = client.get(path)
            assert r.status_code == 404 and isinstance(r.json()["detail"], str), path
        assert client.post("/nope").status_code in (404, 405)


def test_a_window_names_the_rulesets_own_word_for_taking_the_card(tmp_path: Path) -> None:
    # Seven Hand calls it "I want it" (RULES.md 4.3); the browser said "Buy?" (a usability
    # tester).  A Shanghai or Rummy call has no such word.
    async def scenario(hub: Hub, _: Path) -> None:
        eleven = [h + extra for h, extra in zip(HANDS, (" 3C", " 4C", " 8C"), strict=True)]
        for vid, verb, hands in (("seven-hand", "I want it", eleven), ("contract", "May I", HANDS)):
            g = deal(vid, hands, "AD", "QS 3S 4S 5S")
            t = table(hub, {"ruleset": vid, "seats": ["human"] * 3}, g)
            ann, bob = Client(t, 0), Client(t, 1)
            await settle()
            bob.act("draw")  # the upcard AD is offered to the others
            await settle()
            w = ann.state["window"]
            assert w is not None and w["verb"] == verb, (vid, w)

    run(tmp_path, scenario)
