"""The browser app, driven by Playwright in Debian's Chromium against a real server on
127.0.0.1 (a free port, a temporary SQLite file).

Chromium comes from Debian (`apt-get install -y chromium fonts-liberation`; `.ci/run`
installs it); Playwright's own browser download is never used. Without Chromium or
Playwright these tests are skipped, except in CI (CI set), where they fail."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str | None:
    for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium"):
        if Path(p).exists():
            return p
    return shutil.which("chromium")


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing: CI must run the browser tests (.ci/run installs it)")
    pytest.skip(f"{what} is missing")


try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed", allow_module_level=True)


# ---------------------------------------------------------------------------- fixtures

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real uvicorn server on 127.0.0.1 in a thread, on a temporary SQLite file."""
    import uvicorn

    from rummykit.server.app import create_app

    db = tmp_path_factory.mktemp("browser") / "server.db"
    app = create_app(f"sqlite:///{db}")
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    t0 = time.monotonic()
    while not srv.started:
        if not th.is_alive() or time.monotonic() - t0 > 30:
            pytest.fail("the server did not start")
        time.sleep(0.05)
    try:
        yield {"base": f"http://127.0.0.1:{port}", "app": app}
    finally:
        srv.should_exit = True
        th.join(15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    exe = chromium_path()
    if exe is None:
        _missing("Chromium (/usr/bin/chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Fresh browser contexts (each its own localStorage: one person each), closed after."""
    made: list[BrowserContext] = []

    def make() -> BrowserContext:
        c = browser.new_context(viewport={"width": 1100, "height": 900})
        c.set_default_timeout(15_000)
        made.append(c)
        return c

    yield make  # type: ignore[misc]
    for c in made:
        c.close()


# ---------------------------------------------------------------------------- helpers

def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def make_table(base: str, **body: Any) -> str:
    body.setdefault("bot_delay", 0)
    body.setdefault("claim_seconds", 0.5)  # a person who does not answer passes soon
    return str(api(base, "POST", "/api/tables", body)["id"])


def watch_messages(page: Page) -> list[dict[str, Any]]:
    """Every websocket message the page receives, parsed."""
    got: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: got.append(json.loads(payload)))

    page.on("websocket", on_ws)
    return got


def join(page: Page, base: str, tid: str, name: str) -> None:
    page.goto(f"{base}/t/{tid}")
    page.fill("#j-name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector(f"#seats li.me >> text={name}")


def hand_on_screen(page: Page) -> list[str]:
    return page.locator("#cards button.card").evaluate_all("els => els.map(e => e.dataset.card)")


def state_id(page: Page) -> int:
    return int(page.evaluate("() => +(document.body.dataset.stateId || -1)"))


# What the page offers now, read in one go: 'result' (the deal is over), or the kind of
# move it waits for, with the hint and the state it belongs to; null while a move is on its way.
READY = """() => {
  const b = document.body.dataset;
  if (b.pending === "1") return null;
  const q = (s) => document.querySelector(s);
  const hint = q('#hint code') ? q('#hint code').textContent : null;
  const out = (kind) => ({kind, hint, sid: +b.stateId});
  if (q('#result')) return out('result');
  if (q('#claim button.act:not([disabled])')) return out('claim');
  if (q('#actions button.act[data-action^="draw"]:not([disabled])')) return out('draw');
  if (q('#actions button.act:not([disabled])')) return out('play');
  if (q('#hand button.card[data-discard]')) return out('discard');
  return null;
}"""


LAY = "#actions button.meld, #actions button[data-action^='layoff']"


def click_and_wait(page: Page, selector: str, sid: int) -> bool:
    """Click, then wait for the server's next state (or a refusal shown on the page).
    False when the page changed under the click (a newer state came first)."""
    errors = page.evaluate("() => +(document.body.dataset.errors || 0)")
    if state_id(page) != sid or not page.locator(selector).count():
        return False
    try:  # a claim window may close under the click
        page.click(selector, timeout=3000)
    except PlaywrightTimeout:
        return False
    page.wait_for_function(
        "([sid, errs]) => +document.body.dataset.stateId !== sid"
        " || +(document.body.dataset.errors || 0) !== errs",
        arg=[sid, errors])
    return True


def compose_meld(page: Page, action: str, sid: int) -> bool:
    """Meld as a person would: click the cards of each meld, put each group aside (g),
    then meld (m). The page must send the engine's own arrangement (with each wild's
    meaning), so it is never refused."""
    groups = [[tok.split("=")[0] for tok in g.split()] for g in action.removeprefix("meld ").split("/")]
    for k, group in enumerate(groups):
        for card in group:
            page.click(f'#cards button.card[data-card="{card}"]:not(.sel):not(.grouped)')
        if k < len(groups) - 1:
            page.keyboard.press("g")
    assert page.get_attribute("#meld-selected", "data-action") == action
    errors = page.evaluate("() => +(document.body.dataset.errors || 0)")
    if not click_and_wait(page, "#meld-selected", sid):
        return False
    assert page.evaluate("() => +(document.body.dataset.errors || 0)") == errors, page.inner_text("#error")
    return True


def play_one_move(page: Page) -> str:
    """One move by clicking, as a person would: take the hint when there is one, else
    draw, meld or lay off what the page offers, else discard the last card."""
    for _ in range(20):
        now = page.wait_for_function(READY).json_value()
        kind, hint, sid = now["kind"], now["hint"] or "", now["sid"]
        if kind == "result":
            return kind
        if kind == "claim":
            if click_and_wait(page, '#claim button[data-action="pass"]', sid):
                return kind
            continue
        page.keyboard.press("Escape")  # no card selected
        if hint.startswith("meld ") and compose_meld(page, hint, sid):
            return "meld"
        if hint.startswith("discard "):
            page.click(f'#cards button.card[data-card="{hint.split()[1]}"]')
            if click_and_wait(page, '#actions button[data-action="discard"]:not([disabled])', sid):
                return "discard"
            continue
        if hint and click_and_wait(page, f'#actions button.act[data-action="{hint}"]', sid):
            return kind
        if kind == "draw":
            done = click_and_wait(page, '#actions button[data-action="draw"]', sid)
        elif kind == "play" and page.locator(LAY).count():
            done = click_and_wait(page, f"{LAY} >> nth=0", sid)
        else:
            page.locator("#cards button.card[data-discard]").last.click()
            done = click_and_wait(page, '#actions button[data-action="discard"]:not([disabled])', sid)
        if done:
            return kind
    raise AssertionError("no move went through in 20 tries")


# ---------------------------------------------------------------------------- tests

def test_lobby_creates_a_table_against_three_bots_and_a_whole_deal_is_played_by_clicking(
        server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    page = contexts().new_page()
    page.goto(base + "/")
    page.fill("#c-name", "Ann")
    page.select_option("#c-ruleset", "basic")
    page.select_option("#c-players", "4")
    for i in (1, 2, 3):
        assert page.input_value(f"#c-seat-{i}") == "bot:medium"
    page.click("#c-more summary")
    page.fill("#c-seed", "3")
    page.fill("#c-bot-delay", "0")
    page.click("#c-submit")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand")
    assert page.inner_text("#contract") == "No contract: meld any sets and runs."
    assert "a seed its creator chose" in page.inner_text("#seeded")  # (seed 3, given in the form)
    assert page.locator("#seats li.seat").count() == 4
    assert "Ann (you)" in page.inner_text("#seats")
    kinds: list[str] = []
    while (kind := play_one_move(page)) != "result":
        kinds.append(kind)
        assert len(kinds) < 200, "the deal did not end"
    assert "meld" in kinds  # Ann laid a meld down through the composer (cards clicked, then m)
    # the deal's result shows every hand and the points
    rows = page.locator("#result tbody tr")
    assert rows.count() == 4
    assert "Deal 1 result" in page.inner_text("#result")
    assert page.locator("#result .badge").count() <= 1
    assert page.locator("#result tbody td .face").count() > 0  # the hands left, card by card
    assert "Deal 2" in page.inner_text("#log")  # the next deal has begun


def test_two_people_at_one_table_each_see_only_their_own_hand(server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="contract", seats=["human", "human", "bot:medium", "bot:medium"], seed=11)
    ann, bob = contexts().new_page(), contexts().new_page()
    seen_ann, seen_bob = watch_messages(ann), watch_messages(bob)
    join(ann, base, tid, "Ann")
    join(bob, base, tid, "Bob")
    ann.wait_for_selector("#cards button.card")
    bob.wait_for_selector("#cards button.card")
    table = server["app"].state.hub.get(tid)
    ann.wait_for_function("n => document.querySelectorAll('#cards button.card').length === n",
                          arg=len(table.game.view(0)["hand"]))
    bob.wait_for_function("n => document.querySelectorAll('#cards button.card').length === n",
                          arg=len(table.game.view(1)["hand"]))
    a, b = hand_on_screen(ann), hand_on_screen(bob)
    assert sorted(a) == sorted(table.game.view(0)["hand"])
    assert sorted(b) == sorted(table.game.view(1)["hand"])
    # what each page was sent once seated: its own seat, its own hand, never the other's
    # (before joining, a page watches as a spectator: no hand at all)
    def seated(seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
        states = [m for m in seen if m["type"] == "state"]
        first = next(i for i, m in enumerate(states) if m["seat"] is not None)
        assert all(m["seat"] is None and m["view"]["hand"] == [] for m in states[:first])
        return states[first:]

    states_a, states_b = seated(seen_ann), seated(seen_bob)
    assert {m["seat"] for m in states_a} == {0} and {m["seat"] for m in states_b} == {1}
    assert all(m["view"]["seat"] == 0 for m in states_a)
    assert all(m["view"]["seat"] == 1 for m in states_b)
    # the other player appears by name and hand size only
    assert "Bob" in ann.inner_text("#seats") and "Ann" in bob.inner_text("#seats")
    assert ann.locator("#seats [data-seat='1'] .face").count() == len(
        states_a[-1]["view"]["known"][1])


def test_a_refused_move_shows_the_engines_sentence(server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="contract", seats=["human", "bot:easy", "bot:easy", "bot:easy"], seed=4)
    page = contexts().new_page()
    join(page, base, tid, "Cleo")
    page.wait_for_selector('#actions button[data-action="draw"]')
    page.click("#typebox summary")
    page.fill("#typed", "discard 7H")
    page.press("#typed", "Enter")
    page.wait_for_selector("#error")
    text = page.inner_text("#error")
    assert "draw" in text.lower(), text  # the engine says to draw first
    # nothing changed: still the draw
    assert page.locator('#actions button[data-action="draw"]').count() == 1


def test_reload_in_the_middle_of_a_game_keeps_the_seat(server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="contract", seats=["human", *["bot:medium"] * 3], seed=7)
    page = contexts().new_page()
    sockets: list[Any] = []

    def through(ws: Any) -> None:  # pass every websocket through, keeping a handle to cut it
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    join(page, base, tid, "Dan")
    for _ in range(3):
        play_one_move(page)
    page.wait_for_function(READY)
    before = hand_on_screen(page)
    kind = page.evaluate(READY)["kind"]
    page.reload()
    page.wait_for_selector("#cards button.card")
    page.wait_for_function(READY)
    assert "Dan (you)" in page.inner_text("#seats li.me")
    assert page.locator("#join").count() == 0
    assert page.evaluate(READY)["kind"] == kind  # the table waited for Dan
    assert hand_on_screen(page) == before
    # a lost connection comes back too: the page reconnects by itself, to the same seat
    n = len(sockets)
    page.evaluate("() => { document.body.dataset.stateId = -1; }")
    sockets[-1].close(code=4000, reason="cut by the test")
    # wait for the new socket itself: a state message already on its way over the old one
    # could end the wait for a state before the page reconnected
    deadline = time.monotonic() + 20
    while len(sockets) <= n and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(sockets) > n
    page.wait_for_function("() => +document.body.dataset.stateId >= 0", timeout=20_000)
    assert "Dan (you)" in page.inner_text("#seats li.me")
    assert hand_on_screen(page) == before
    # and the seat still plays: one more move goes through
    assert play_one_move(page) in ("draw", "play", "discard", "claim")


def test_a_spectator_sees_no_hand(server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="liverpool", seats=["human", "bot:medium", "bot:medium"], seed=2)
    player = contexts().new_page()
    join(player, base, tid, "Eve")
    watcher = contexts().new_page()
    seen = watch_messages(watcher)
    watcher.goto(f"{base}/t/{tid}")
    watcher.wait_for_selector("#spectator")
    watcher.wait_for_selector("#seats li.seat")
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator("button.card").count() == 0
    assert watcher.locator("#join").count() == 0  # no free seat to take
    states = [m for m in seen if m["type"] == "state"]
    assert states and all(m["seat"] is None and m["view"]["hand"] == [] and m["legal"] == [] for m in states)
    assert "Eve" in watcher.inner_text("#seats")


def finished_table(base: str, name: str) -> tuple[str, str]:
    """A one-deal game of Basic whose only person, absent from the start (grace 0), is
    played by the stand-in bot: it ends in a second or two."""
    tid = make_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=5, grace_seconds=0,
                     options={"deals": 1})
    token = api(base, "POST", f"/api/tables/{tid}/join", {"name": name})["token"]
    t0 = time.monotonic()
    while api(base, "GET", f"/api/tables/{tid}")["status"] != "over":
        assert time.monotonic() - t0 < 60, "the game did not end"
        time.sleep(0.2)
    return tid, token


def test_a_finished_game_is_replayed_step_by_step_and_counts_in_the_stats(
        server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid, _ = finished_table(base, "Zoe")
    steps = len(api(base, "GET", f"/api/tables/{tid}")["record"]["actions"])
    page = contexts().new_page()
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#standings")
    assert "Zoe" in page.inner_text("#standings") and "winner" in page.inner_text("#standings")
    page.click("#replay-link")
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step") == f"Step 0 of {steps}"
    assert page.locator("#hands li").count() == 2  # over: every hand is shown
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#replay-step >> text=Step 1 of {steps}")
    first = api(base, "GET", f"/api/tables/{tid}")["record"]["actions"][0]
    assert first in page.inner_text("#replay-action")
    page.click("[data-fk=r-last]")
    page.wait_for_selector(f"#replay-step >> text=Step {steps} of {steps}")
    assert "Deal 1 result" in page.inner_text("#result")
    # the API behind it: a step out of range, or a game not over, is refused
    waiting = make_table(base, ruleset="basic", seats=["human", "bot:easy"])
    for path, code in ((f"/api/tables/{tid}/replay/{steps + 1}", 404),
                       (f"/api/tables/{waiting}/replay/0", 409)):
        with pytest.raises(urllib.error.HTTPError) as e:
            api(base, "GET", path)
        assert e.value.code == code
    # the stats page of the person counts the game
    page.goto(f"{base}/stats/Zoe")
    page.wait_for_selector("#stats-table")
    row = page.inner_text("#stats-table tbody tr")
    assert row.split("\t")[:2] == ["basic", "1"]


def test_a_turn_is_played_with_the_keyboard_alone_at_a_phones_width(
        server: dict[str, Any], browser: Browser) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="basic", seats=["human", *["bot:easy"] * 3], seed=8)
    ctx = browser.new_context(viewport={"width": 380, "height": 800}, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.goto(f"{base}/t/{tid}")
        page.wait_for_selector("#j-name")
        for _ in range(30):  # Tab to the name field
            if page.evaluate("() => document.activeElement.id") == "j-name":
                break
            page.keyboard.press("Tab")
        page.keyboard.type("Kim")
        page.keyboard.press("Enter")
        page.wait_for_selector('#actions button[data-action="draw"]')
        # nothing wider than the phone
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 380
        sid = state_id(page)
        page.keyboard.press("d")  # draw
        page.wait_for_function("sid => +document.body.dataset.stateId > sid", arg=sid)
        page.wait_for_selector('#actions button[data-action="discard"]')
        for _ in range(60):  # Tab to the hand
            if page.evaluate("() => document.activeElement.classList.contains('card')"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("End")  # the last card
        card = page.evaluate("() => document.activeElement.dataset.card")
        page.keyboard.press("Space")
        assert page.get_attribute(f'#cards button[data-card="{card}"]', "aria-pressed") == "true"
        assert page.inner_text('#actions button[data-action="discard"]') == f"Discard {card}"
        for _ in range(60):  # Tab to the Discard button, Enter
            if page.evaluate("() => document.activeElement.dataset.action") == "discard":
                break
            page.keyboard.press("Tab")
        sid = state_id(page)
        page.keyboard.press("Enter")
        page.wait_for_function("sid => +document.body.dataset.stateId > sid", arg=sid)
        assert f"Kim discarded {card}" in page.inner_text("#log")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 380
    finally:
        ctx.close()


def test_the_player_of_a_finished_game_starts_a_rematch_in_the_same_seat(
        server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid, token = finished_table(base, "Ray")
    page = contexts().new_page()
    page.goto(base + "/")
    # this browser holds Ray's seat, as if Ray had joined here
    page.evaluate("([t, tok]) => localStorage.setItem('rk.seat.' + t,"
                  " JSON.stringify({seat: 0, token: tok, name: 'Ray'}))", [tid, token])
    page.goto(f"{base}/t/{tid}")
    page.click("#rematch")
    page.wait_for_url(re.compile(r".*/t/(?!" + tid + r")\w+$"))
    new = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#seats li.me >> text=Ray (you)")
    info = api(base, "GET", f"/api/tables/{new}")
    assert info["ruleset"] == "basic" and [s["kind"] for s in info["seats"]] == ["human", "bot:easy"]
    assert info["seats"][0]["name"] == "Ray"


def test_a_table_is_created_from_an_uploaded_house_rules_file(server: dict[str, Any], contexts: Any) -> None:
    page = contexts().new_page()
    page.goto(server["base"] + "/")
    page.fill("#c-name", "Hal")
    page.select_option("#c-source", "file")
    assert page.locator("#c-ruleset").is_hidden()
    house = b'extends = "basic"\nname = "Our Basic"\ntarget = 50\n'
    page.set_input_files("#c-file", files=[{"name": "house.toml", "mimeType": "text/plain", "buffer": house}])
    page.select_option("#c-players", "2")
    page.click("#c-submit")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#status-h")
    assert page.inner_text("#status-h").startswith("Our Basic")
    assert "Hal (you)" in page.inner_text("#seats")


def test_a_meld_before_drawing_is_composed_from_the_selected_cards(server: dict[str, Any],
                                                                    contexts: Any) -> None:
    """Ten-card melds at the start of a turn, before drawing (a seven-hand pat deal too): the
    page offers the composer then, not only after the draw.  Seed 9: seat 0 plays first and
    holds 5S 6S 7S 8S."""
    base = server["base"]
    tid = make_table(base, ruleset="ten-card", seats=["human", "bot:easy", "bot:easy", "bot:easy"], seed=9,
                     hints=False)
    page = contexts().new_page()
    join(page, base, tid, "Tia")
    page.wait_for_selector("#meld-selected")
    assert compose_meld(page, "meld 5S 6S 7S 8S", state_id(page))
    page.wait_for_selector("#actions button[data-action='draw']")
    assert "5S" not in hand_on_screen(page) and len(hand_on_screen(page)) == 6


def test_a_may_i_is_asked_of_both_people_at_once_with_a_countdown(
        server: dict[str, Any], contexts: Any) -> None:
    base = server["base"]
    tid = make_table(base, ruleset="contract", seats=["human", "human", "bot:medium", "bot:medium"], seed=11,
                     claim_seconds=5)
    ann, bob = contexts().new_page(), contexts().new_page()
    join(ann, base, tid, "Ann")
    join(bob, base, tid, "Bob")
    t0 = time.monotonic()
    while True:
        assert time.monotonic() - t0 < 60, "no May I reached both people"
        ready = [p.evaluate(READY) for p in (ann, bob)]
        if all(r and r["kind"] == "claim" for r in ready):
            break
        # whoever may move, moves (one asked alone passes at once)
        mover = next((p for p, r in zip((ann, bob), ready, strict=True) if r), None)
        if mover is not None:
            play_one_move(mover)
        else:
            time.sleep(0.05)
    for p in (ann, bob):
        assert p.locator('#claim [data-action="buy"]').count() == 1
        assert p.locator('#claim [data-action="pass"]').count() == 1
        assert re.fullmatch(r"[0-5] s left", p.inner_text("#countdown"))
    window = ann.evaluate("() => document.body.dataset.window")
    # Ann passes: she is told her answer is in, and Bob is still asked
    ann.click('#claim [data-action="pass"]')
    ann.wait_for_selector("#claim >> text=Your answer is in")
    assert bob.locator('#claim [data-action="buy"]').count() == 1
    assert bob.evaluate("() => document.body.dataset.window") == window
    left = float(bob.locator("#countdown").inner_text().split()[0])
    bob.click('#claim [data-action="pass"]')
    t1 = time.monotonic()
    # both answered: the window closes at once, before its countdown ends
    ann.wait_for_function("w => document.body.dataset.window !== w", arg=window, timeout=5000)
    if left >= 2:
        assert time.monotonic() - t1 < left - 0.5


def test_the_page_says_it_is_reconnecting_and_comes_back_after_the_server_is_killed(
        tmp_path: Path, contexts: Any) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from crashkit import ServerProc

    srv = ServerProc(f"sqlite:///{tmp_path / 'b.db'}", free_port())
    try:
        srv.start()
        tid = make_table(srv.base, ruleset="contract", seats=["human", *["bot:medium"] * 3], seed=7)
        page = contexts().new_page()
        join(page, srv.base, tid, "Eve")
        play_one_move(page)
        page.wait_for_function(READY)
        before, sid = hand_on_screen(page), state_id(page)
        srv.kill()  # SIGKILL: no close frame, no goodbye
        page.wait_for_function("() => /reconnecting in/i.test(document.getElementById('conn').textContent)",
                               timeout=20_000)
        assert "Eve (you)" in page.inner_text("#seats li.me")  # the table stays on screen meanwhile
        srv.start()
        # it comes back by itself (backoff: within about 0.5 + 1 + 2 + 4 s of the kill)
        page.wait_for_function(f"() => +document.body.dataset.stateId > {sid}", timeout=30_000)
        page.wait_for_function("() => document.getElementById('conn').textContent === 'Connected'")
        assert "Eve (you)" in page.inner_text("#seats li.me") and page.locator("#join").count() == 0
        assert hand_on_screen(page) == before
        assert play_one_move(page) in ("draw", "play", "discard", "claim", "meld", "result")
    finally:
        srv.close()
