"""The review of a seat's decisions after the game (rummykit.review): fair (judged only on
what the seat knew), sound (it names the clearly better move in positions built for it), and
its data whole (JSON, totals, bad input)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import deal, play
from helpers import draw_and_discard_it, pass_window
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.cards import make_pack
from rummykit.engine.view import as_view
from rummykit.players import make_player
from rummykit.players.review import Review, Settings, judge

QUICK = {"samples": 4, "horizon": 1}  # enough to exercise everything, fast


def play_deal_one(g: rk.Game, seed: int, stop: int | None = None) -> rk.Game:
    """Play ``g`` with medium bots to the end of its first deal (or until ``stop`` actions)."""
    bots = [make_player("medium", seed + s) for s in range(g.n)]
    while not g.history and not g.is_over and (stop is None or len(g.actions) < stop):
        s = g.current_player
        acts = g.legal_actions()
        g.apply(acts[0] if len(acts) == 1 else bots[s].choose(g.observe(s), acts))
    return g


def first_seen(record: dict[str, Any], seat: int) -> dict[str, int]:
    """For each card face, the first step (the index of the next action) at which ``seat``'s
    view shows it in the first deal: its hand, the pile, the table, the cards others took."""
    g = rk.replay(dict(record, actions=[]))
    seen: dict[str, int] = {}
    for step, text in enumerate([*record["actions"], None]):
        if g.history:
            break
        v = g.view(seat)
        shown = [*v["hand"], *v["discard_pile"], *(c for m in v["melds"] for c in m),
                 *(c for k in v["known"] for c in k)]
        for c in shown:
            seen.setdefault(c, step)
        if text is not None:
            g.apply(text)
    return seen


# ---------------------------------------------------------------------------- fairness


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), late=st.booleans())
def test_review_is_the_same_in_games_that_differ_only_in_cards_the_seat_had_not_seen(seed: int,
                                                                                      late: bool) -> None:
    """Two games differing only in where two card faces lay, cards seat 0 had not seen, give
    seat 0 the same review of every decision before it saw either of them."""
    v = rk.get_variant("contract")
    pack = make_pack(*v.spec.pack_for(4))
    random.Random(seed).shuffle(pack)
    g1 = play_deal_one(rk.new_game(v, 4, seed=seed, deck=pack, dealer=0), seed)
    rec1 = g1.record()
    seen = first_seen(rec1, 0)
    end = len(rec1["actions"])
    faces = sorted({str(c) for c in pack}, key=lambda f: (-seen.get(f, end + 1), f))
    # never seen in the deal (late) or seen partway through it: swap the two seen last
    pick = faces[:2] if late else [f for f in faces if f in seen][:2]
    assume(len(pick) == 2 and pick[0] != pick[1])
    x, y = rk.parse_card(pick[0]), rk.parse_card(pick[1])
    pack2 = [y if c == x else x if c == y else c for c in pack]
    # the action before seat 0 first sees one of them (a discard, a meld, its own draw) is the
    # first that may differ: the games are the same up to it, then go their own ways
    t = min(seen.get(pick[0], end), seen.get(pick[1], end)) - 1
    assume(t > 20)
    g2 = rk.new_game(v, 4, seed=seed + 1, deck=pack2, dealer=0)
    for text in rec1["actions"][:t]:
        g2.apply(text)
    play_deal_one(g2, seed + 7)
    assert g2.history, "the second game's first deal did not end"
    start1, start2 = (rk.replay(dict(r, actions=[])) for r in (rec1, g2.record()))
    assert (start1.hands, start1.stock) != (start2.hands, start2.stock)  # the hidden cards differ
    r1 = rk.review(rec1, 0, deal=1, **QUICK)
    r2 = rk.review(g2.record(), 0, deal=1, **QUICK)
    before1 = [d for d in r1.deals[0].decisions if d.step < t]
    before2 = [d for d in r2.deals[0].decisions if d.step < t]
    assert before1, "no decision before the swapped cards were seen"
    assert [judgement(d) for d in before1] == [judgement(d) for d in before2]


def judgement(d: Any) -> dict[str, Any]:
    """A decision less its view (which only a moment carries: which decisions are moments
    may depend on decisions after the swapped cards were seen)."""
    return {**d.__dict__, "view": None}


def test_the_fairness_check_can_fail_the_reviews_randomness_matters() -> None:
    """The same decisions under another seed are judged with other deals of the unseen
    cards: somewhere a number moves, so equal reviews above are not equal by default."""
    g = play_deal_one(rk.new_game("contract", 4, seed=3, dealer=0), 3)
    a = rk.review(g, 0, deal=1, seed=0, **QUICK)
    b = rk.review(g, 0, deal=1, seed=1, **QUICK)
    assert [d.choices for d in a.deals[0].decisions] != [d.choices for d in b.deals[0].decisions]


def test_a_decision_is_judged_from_the_view_alone_and_deterministically() -> None:
    g = play_deal_one(rk.new_game("contract", 4, seed=11, dealer=0), 11, stop=40)
    while g.current_player != 0 or len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    view = g.observe(0)
    taken = g.legal_actions()[-1].text()
    s = Settings(samples=6, horizon=2)
    first = judge(view, taken, g.variant, s, step=len(g.actions))
    again = judge(as_view(json.loads(json.dumps(g.view(0)))), taken, g.variant, s,
                  step=len(g.actions))
    assert first == again  # the same view (read back from JSON): the same judgement


# ---------------------------------------------------------------------------- soundness

SOUND = Settings(samples=16, horizon=4)


def test_review_names_the_take_that_completes_the_contract() -> None:
    hands = ["7C 7D 9S 9H 9D 2C 4H 6S JC KD", "2D 3D 4D 5S 6C 8C TC QH KH AS",
             "2H 3H 4S 5D 6D 8D TD QC KC AD", "2S 3S 4C 5H 6H 8H TH QS KS AC"]
    g = deal("contract", hands, "7S", dealer=3)  # seat 0 plays first; 7S makes its second set
    d = judge(g.observe(0), "draw", g.variant, SOUND)
    assert (d.taken, d.best, d.agree) == ("draw", "take", False)
    assert d.lost > 0 and "7S" in d.why and "set of sevens" in d.why
    ok = judge(g.observe(0), "take", g.variant, SOUND)
    assert ok.agree and ok.lost == 0


def test_review_names_a_discard_that_feeds_the_next_players_run() -> None:
    """Seat 1 took 5H and 6H from the pile and holds three cards: discarding 7H lets it
    take the card, meld the run and go out."""
    g = deal("basic", ["5H 6H KS QD 2C 4D 8S TC 3C AD", "9C 9D 9S JC JD JS 9H 2D KH QC"], "5S", "7D 8D 7H",
             dealer=1)
    play(g, "draw", "discard 5H", "take", "meld 9C 9D 9S", "discard KH",
         "draw", "discard 6H", "take", "meld JC JD JS", "layoff 9H 1", "discard QC", "draw")
    assert g.view(0)["known"][1] == ["5H", "6H"] and "7H" in g.view(0)["hand"]
    d = judge(g.observe(0), "discard 7H", g.variant, SOUND)
    assert not d.agree and d.lost > 0 and d.best != "discard 7H" and d.best.startswith("discard")
    fed = {c.action: c.fed for c in d.choices}
    assert fed["discard 7H"] == 1.0 and fed[d.best] < 0.5
    assert "7H" in d.why and "picked 7H up" in d.why


def test_review_says_you_could_have_gone_out_only_where_a_listed_move_went_out() -> None:
    """Basic: 6C makes 3C-9C one meld, then KH goes on the pile: out on the first turn."""
    g = deal("basic", ["3C 4C 5C 7C 8C 9C KH", "2S 3S QC 8S TD JC AD", "2D 3D 6D 7S TS KC QH"], "6C",
             "AC 8H 5H 4D", dealer=2)
    d = judge(g.observe(0), "draw", g.variant, SOUND)
    assert d.out_move == "take" and not d.agree
    assert d.why.startswith("You could have gone out on turn 1: take 6C went out")
    took = judge(g.observe(0), "take", g.variant, SOUND)
    assert took.out_move is None and took.agree
    # a draw that goes out nowhere: no such sentence
    g = deal("basic", ["3C 4C 5C 7C 8C 9C KH", "2S 3S QC 8S TD JC AD", "2D 3D 6D 7S TS KC QH"], "2H",
             "AC 8H 5H 4D", dealer=2)
    d = judge(g.observe(0), "draw", g.variant, SOUND)
    assert d.out_move is None and "gone out" not in d.why


def test_a_feed_is_seen_in_contract_rummy_too() -> None:
    """Seat 1 is down with a run 3H-8H and one card: 9H goes on its run; the review counts
    every deal in which it was picked up."""
    hands = ["2C 3C 4C 5C KS KD 9H QS JD 8D", "4H 5H 6H 7H 9C 9D 9S 3H 8H AC",
             "2D 3D 4S 6C 7C TD JC QH KH AS"]
    g = deal("contract", hands, "5S", "3C 4D 6S 7D QD 2H JS", dealer=2, first_round=2)
    draw_and_discard_it(g)
    play(g, "draw")
    pass_window(g)
    play(g, "meld 4H 5H 6H 7H / 9C 9D 9S", "discard AC")
    draw_and_discard_it(g)
    draw_and_discard_it(g)
    play(g, "draw")
    pass_window(g)
    play(g, "layoff 3H 1", "layoff 8H 1", "discard 4D")
    draw_and_discard_it(g)
    play(g, "draw")
    pass_window(g)
    d = judge(g.observe(0), "discard 9H", g.variant, Settings(samples=8, horizon=2))
    fed = {c.action: c.fed for c in d.choices}
    assert fed["discard 9H"] == 1.0


# ---------------------------------------------------------------------------- the data


@pytest.fixture(scope="module")
def two_deals() -> dict[str, Any]:
    g = rk.new_game("contract", 3, seed=21, options={"deals": 2})
    bots = [make_player(b, 21 + s) for s, b in enumerate(("easy", "medium", "medium"))]
    while not g.is_over:
        s = g.current_player
        acts = g.legal_actions()
        g.apply(acts[0] if len(acts) == 1 else bots[s].choose(g.observe(s), acts))
    return g.record()


def test_the_review_holds_every_decision_the_moments_and_the_totals(two_deals: dict[str, Any]) -> None:
    calls: list[tuple[int, int]] = []
    r = rk.review(two_deals, 0, samples=6, horizon=2,
                  progress=lambda done, total: calls.append((done, total)))
    assert isinstance(r, rk.Review) and r.over and [d.deal for d in r.deals] == [1, 2]
    total = sum(d.reviewed for d in r.deals)
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    g = rk.replay(two_deals)
    for d in r.deals:
        assert d.moments == tuple(sorted(d.moments)) and len(d.moments) <= 5
        for i, x in enumerate(d.decisions):
            assert (x.view is not None) == (i in d.moments)
            assert x.lost >= 0 and (x.lost == 0) == x.agree
            assert x.taken in [c.action for c in x.choices]
            if x.settled:
                assert x.agree and x.samples == 0 and x.par == x.taken
        for i in d.moments:
            x = d.decisions[i]
            assert x.view["seat"] == 0 and x.view["hand"] == list(x.hand)
            assert x.lost > 0 or x.out_move
        pts = [float(p) for p in g.history[d.deal - 1]["points"]]
        assert d.points == pts[0]
        assert d.result == pytest.approx(-(pts[0] - (pts[1] + pts[2]) / 2), abs=0.01)
        assert d.by_choices + d.by_cards == pytest.approx(d.result)
        assert d.by_choices == pytest.approx(sum(x.vs_par for x in d.decisions))
        assert all(x.vs_par == 0 for x in d.decisions if x.taken == x.par)
        assert d.agreement == d.agreed / d.reviewed
    t = r.totals()
    assert t["reviewed"] == total
    assert t["points_lost"] == pytest.approx(sum(d.points_lost for d in r.deals), abs=0.01)
    data = json.loads(json.dumps(r.as_dict()))
    assert Review.from_dict(data) == r
    assert data["totals"]["reviewed"] == total
    assert data["deals"][0]["totals"]["reviewed"] == r.deals[0].reviewed


def test_the_same_review_in_one_process_or_two(two_deals: dict[str, Any]) -> None:
    one = rk.review(two_deals, 1, deal=2, **QUICK)
    two = rk.review(two_deals, 1, deal=2, workers=2, **QUICK)
    assert one == two and [d.deal for d in one.deals] == [2]


def test_an_unfinished_game_has_its_finished_deals_reviewed() -> None:
    g = play_deal_one(rk.new_game("contract", 4, seed=5), 5)
    g.apply(g.legal_actions()[0])  # into deal 2
    r = rk.review(g.record(), 2, **QUICK)
    assert not r.over and [d.deal for d in r.deals] == [1]
    assert all(x.deal == 1 for x in r.deals[0].decisions)


def test_bad_input_gets_a_clear_message(two_deals: dict[str, Any]) -> None:
    before = json.dumps(two_deals)
    for seat in (-1, 3, "0", True, None):
        with pytest.raises(ValueError, match="seat must be a seat of this game, 0-2"):
            rk.review(two_deals, seat, **QUICK)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deal 3 is not a finished deal of this game; the finished deals are 1-2"):  # noqa: E501
        rk.review(two_deals, 0, deal=3, **QUICK)
    with pytest.raises(ValueError, match="samples must be at least 2"):
        rk.review(two_deals, 0, samples=1)
    with pytest.raises(ValueError, match="bad game record"):
        rk.review({"ruleset": "contract"}, 0)
    with pytest.raises(ValueError, match="no deal of this game is finished yet"):
        rk.review(rk.new_game("contract", 4, seed=1).record(), 0)
    bad = dict(two_deals, actions=[*two_deals["actions"][:5], "discard ZZ"])
    with pytest.raises(ValueError, match="action 6 of the record"):
        rk.review(bad, 0)
    assert json.dumps(two_deals) == before  # nothing changed


# ---------------------------------------------------------------------------- the command


def run(*args: str) -> Any:
    from click.testing import CliRunner

    from rummykit.cli.main import main

    return CliRunner().invoke(main, list(args))


def test_rummykit_review_reads_a_record_file(tmp_path: Any, two_deals: dict[str, Any]) -> None:
    f = tmp_path / "game.json"
    f.write_text(json.dumps(two_deals))
    r = run("review", str(f), "--seat", "0", "--samples", "4", "--horizon", "1", "-w", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "Review of seat 0, Contract Rummy" in r.output and "points lost" in r.output
    assert "Deal 1 (two sets of three)" in r.output and "you: " in r.output
    r = run("review", str(f), "--seat", "0", "--deal", "2", "--json", "--samples", "4", "--horizon", "1",
            "-w", "1", "-q")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert [d["deal"] for d in data["deals"]] == [2] and data["seat"] == 0
    assert data["settings"]["samples"] == 4
    assert Review.from_dict(data).deals[0].deal == 2


def test_rummykit_review_refuses_what_it_cannot_review(tmp_path: Any, two_deals: dict[str, Any]) -> None:
    f = tmp_path / "game.json"
    f.write_text(json.dumps(two_deals))
    r = run("review", str(f), "-q")
    assert r.exit_code != 0 and "give --seat (0-2)" in r.output
    r = run("review", str(f), "--seat", "5", "-q")
    assert r.exit_code != 0 and "seat must be a seat of this game, 0-2, not 5" in r.output
    r = run("review", str(f), "--seat", "0", "--deal", "9", "-q")
    assert r.exit_code != 0 and "deal 9 is not a finished deal" in r.output
    r = run("review", str(tmp_path / "none.json"), "--seat", "0")
    assert r.exit_code != 0 and "cannot read" in r.output
    r = run("review", "12", "--db", str(tmp_path / "none.sqlite3"))
    assert r.exit_code != 0 and "does not exist" in r.output
    assert json.loads(f.read_text()) == two_deals


def test_rummykit_review_of_a_saved_game(tmp_path: Any) -> None:
    from rummykit.play.session import Session
    from rummykit.store import Store

    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        s = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=3, name="Ann",
                          options={"deals": 1})
        me = make_player("medium", 1)
        while not s.is_over:
            if s.human_to_act:
                s.play(me.choose(s.view(), s.legal_actions()))
            else:
                s.bot_step()
        gid = s.id
        unfinished = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=4, name="Ann").id
    r = run("review", str(gid), "--db", str(db), "--samples", "4", "--horizon", "1", "-w", "1", "-q")
    assert r.exit_code == 0, r.output
    assert f"Review of Ann (seat 0), Basic Rummy, game {gid}" in r.output
    r = run("review", str(gid), "--db", str(db), "--seat", "1", "--samples", "4", "--horizon", "1", "-q")
    assert r.exit_code == 0 and "Review of easy bot (seat 1)" in r.output  # over: every seat may be reviewed
    r = run("review", str(unfinished), "--db", str(db), "--seat", "1", "-q")
    assert r.exit_code != 0 and "is not finished: only your own seat (0)" in r.output
    r = run("review", str(unfinished), "--db", str(db), "-q")
    assert r.exit_code != 0 and "no deal of this game is finished yet" in r.output


# ---------------------------------------------------------------------------- the server


def test_the_server_reviews_a_finished_table_once_with_its_progress(tmp_path: Any) -> None:
    import time

    from starlette.testclient import TestClient

    from rummykit.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", static_dir=tmp_path, review_workers=1,
                     review_settings={"samples": 4, "horizon": 1})
    with TestClient(app) as c:
        tid = c.post("/api/tables", json={"ruleset": "basic", "seats": ["bot:easy", "bot:medium"], "seed": 5,
                                          "options": {"deals": 1}, "bot_delay": 0}).json()["id"]
        waiting = c.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "bot:easy"]})
        waiting = waiting.json()["id"]
        t0 = time.monotonic()
        while c.get(f"/api/tables/{tid}").json()["status"] != "over":
            assert time.monotonic() - t0 < 60, "the bots' game did not end"
            time.sleep(0.1)
        for path, code, words in ((f"/api/tables/{tid}/review?seat=2", 422, "a seat of this table, 0-1"),
                                  (f"/api/tables/{tid}/review", 422, "seat must be"),
                                  (f"/api/tables/{tid}/review?seat=x", 422, "seat must be"),
                                  (f"/api/tables/{waiting}/review?seat=0", 409, "once it is over"),
                                  ("/api/tables/nope/review?seat=0", 404, "no table")):
            r = c.get(path)
            assert r.status_code == code and words in r.json()["detail"], (path, r.text)
        seen = []
        t0 = time.monotonic()
        while True:
            r = c.get(f"/api/tables/{tid}/review?seat=1")
            body = r.json()
            seen.append(body["status"])
            if r.status_code == 200:
                break
            assert r.status_code == 202 and body["status"] in ("queued", "working"), r.text
            assert time.monotonic() - t0 < 120, "the review did not end"
            time.sleep(0.2)
        got = body["review"]
        assert body["status"] == "done" and body["seat"] == 1 and len(body["seats"]) == 2
        assert got["seat"] == 1 and got["settings"]["samples"] == 4 and got["deals"][0]["deal"] == 1
        assert body["done"] == body["total"] == got["totals"]["reviewed"]
        record = c.get(f"/api/tables/{tid}").json()["record"]
        assert Review.from_dict(got) == rk.review(record, 1, samples=4, horizon=1)  # the API's, the same
        again = c.get(f"/api/tables/{tid}/review?seat=1")
        assert again.status_code == 200 and again.json()["review"] == got  # kept: not computed again
        assert seen[0] in ("queued", "working")
        assert c.get(f"/t/{tid}/review?seat=1").status_code == 200  # the page


def test_a_review_that_failed_says_so_to_every_poll_until_asked_again(monkeypatch: Any) -> None:
    # the usability tester's page said "Reading the game..." for 25 minutes: each poll of a
    # failed review started it again, so the page never saw the failure
    import rummykit.players.review as module
    from rummykit.server.reviews import Reviews

    calls = []

    def broken(record: dict[str, Any], seat: int, **_: Any) -> Review:
        calls.append(seat)
        raise ValueError("no card 'XX'")

    monkeypatch.setattr(module, "review", broken)
    reviews = Reviews(workers=1)
    try:
        job, _ = reviews.get(("t", 0, 1), dict)
        assert job.waiting.wait(10)
        for _ in range(3):
            again, _ = reviews.get(("t", 0, 1), dict)
            assert again is job
            assert again.public() == {"status": "failed", "done": 0, "total": None,
                                      "error": "the review failed: no card 'XX'"}
        assert calls == [0]
        retried, _ = reviews.get(("t", 0, 1), dict, retry=True)
        assert retried is not job and retried.waiting.wait(10) and calls == [0, 0]
    finally:
        reviews.stop()


def test_while_the_game_goes_on_a_player_reviews_its_own_finished_deals(tmp_path: Any) -> None:
    import time

    from starlette.testclient import TestClient

    from rummykit.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", static_dir=tmp_path, review_workers=1,
                     review_settings={"samples": 4, "horizon": 1})
    with TestClient(app) as c:
        tid = c.post("/api/tables", json={"ruleset": "basic", "seats": ["human", "bot:easy"], "seed": 5,
                                          "options": {"deals": 2}, "bot_delay": 0,
                                          "deal_break_seconds": 120}).json()["id"]
        token = c.post(f"/api/tables/{tid}/join", json={"name": "Ann"}).json()["token"]
        with c.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:  # Ann plays the first deal
            t0 = time.monotonic()
            while True:
                assert time.monotonic() - t0 < 60, "the first deal did not end"
                m = ws.receive_json()
                if m["type"] != "state":
                    continue
                if m["view"]["last_round"] is not None:  # deal 1 is over: the break waits for Ann
                    break
                if m["legal"]:
                    ws.send_json({"type": "act", "state_id": m["state_id"], "action": m["legal"][0]})
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
        url = f"/api/tables/{tid}/review?seat=0"
        for path in (url, url + "&token=nope", f"/api/tables/{tid}/review?seat=1&token={token}"):
            r = c.get(path)
            assert r.status_code == 409 and "their own finished deals" in r.json()["detail"]  # not theirs
        t0 = time.monotonic()
        while (r := c.get(f"{url}&token={token}")).status_code != 200:
            assert r.status_code == 202 and time.monotonic() - t0 < 60, r.text
            time.sleep(0.2)
        got = r.json()["review"]
        assert got["over"] is False and [d["deal"] for d in got["deals"]] == [1]
