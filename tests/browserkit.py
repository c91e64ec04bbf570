"""The browser tests' kit: a real server on 127.0.0.1, Debian's Chromium through Playwright,
and a `Person` who plays a seat as people do — dragging cards and clicking, never typing a
move — following the seat's own hint (the medium bot's advice), so deals end.

Chromium comes from Debian (`apt-get install -y chromium fonts-liberation`; `.ci/run`
installs it); Playwright's own browser download is never used."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def chromium_path() -> str | None:
    for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium"):
        if Path(p).exists():
            return p
    return shutil.which("chromium")


def missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing: CI must run the browser tests (.ci/run installs it)")
    pytest.skip(f"{what} is missing")


try:
    from playwright.sync_api import Browser, Page, sync_playwright
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, **app_options: Any) -> tuple[Any, threading.Thread, str, Any]:
    """A uvicorn server in a thread on a free port: (server, thread, base url, app).
    ``app_options`` go to ``create_app`` beside the tests' table limit."""
    import uvicorn

    from rummykit.server.app import create_app
    from rummykit.server.limits import Limits

    # one client making a table per test, many tests a minute: not the abuse the limit is for
    app = create_app(f"sqlite:///{db}", limits=Limits(tables_per_ip=1000), **app_options)
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    t0 = time.monotonic()
    while not srv.started:
        if not th.is_alive() or time.monotonic() - t0 > 30:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return srv, th, f"http://127.0.0.1:{port}", app


def launch(p: Any) -> Browser:
    exe = chromium_path()
    if exe is None:
        missing("Chromium (/usr/bin/chromium)")
    return p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    srv, th, base, app = start_server(tmp_path_factory.mktemp("browser") / "server.db")
    try:
        yield {"base": base, "app": app}
    finally:
        srv.should_exit = True
        th.join(15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Any]:
    """make(size=DESKTOP) -> a fresh browser context (its own localStorage: one person),
    closed after the test. A phone-sized one has touch."""
    made: list[Any] = []

    def make(size: dict[str, int] | None = None) -> Any:
        size = size or DESKTOP
        c = browser.new_context(viewport=size, has_touch=size["width"] < 700)
        c.set_default_timeout(15_000)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


# ---------------------------------------------------------------------------- the server

def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def make_table(base: str, **body: Any) -> str:
    body.setdefault("bot_delay", 0.05)
    body.setdefault("claim_seconds", 2)
    return str(api(base, "POST", "/api/tables", body)["id"])


def finished_table(base: str, name: str, seed: int) -> tuple[str, str]:
    """A one-deal game of Basic whose only person, absent from the start (grace 0), is
    played by the stand-in bot: it ends in a second or two.  (table id, the seat's token)"""
    tid = make_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=seed, grace_seconds=0,
                     options={"deals": 1}, bot_delay=0)
    token = api(base, "POST", f"/api/tables/{tid}/join", {"name": name})["token"]
    t0 = time.monotonic()
    while api(base, "GET", f"/api/tables/{tid}")["status"] != "over":
        assert time.monotonic() - t0 < 60, "the game did not end"
        time.sleep(0.2)
    return tid, token


def watch_messages(page: Page, sent: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every websocket message the page receives, parsed (and those it sends, into ``sent``)."""
    got: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: got.append(json.loads(payload)))
        if sent is not None:
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_ws)
    return got


def join(page: Page, base: str, tid: str, name: str) -> None:
    """Sit down as a person does: the table's link, a name, Join."""
    page.goto(f"{base}/t/{tid}")
    page.get_by_role("textbox", name="Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    page.wait_for_function("() => !document.getElementById('join')")


def seat_in(page: Page, base: str, tid: str, seat: int, token: str, name: str) -> None:
    """This browser holds a seat joined over the API (as if it had joined here)."""
    page.goto(base + "/")
    page.evaluate("([t, s, tok, n]) => localStorage.setItem('rk.seat.' + t,"
                  " JSON.stringify({seat: s, token: tok, name: n}))", [tid, seat, token, name])
    page.goto(f"{base}/t/{tid}")


def ask_every_time(page: Page, tid: str) -> None:
    """The seat's player has chosen to be offered every card let go at table ``tid`` (the
    browser's default offers only the cards that fit the hand); before the page loads."""
    page.add_init_script(f"localStorage.setItem('rk.prefs.{tid}', "
                         "JSON.stringify({claims: 'always', deal_break: true}))")


def hand_on_screen(page: Page) -> list[str]:
    return list(page.locator("#cards button.hc").evaluate_all("els => els.map(e => e.dataset.card)"))


def state_id(page: Page) -> int:
    return int(page.evaluate("() => +(document.body.dataset.stateId || -1)"))


def errors(page: Page) -> int:
    return int(page.evaluate("() => +(document.body.dataset.errors || 0)"))


def no_horizontal_overflow(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def in_view(page: Page, selector: str) -> bool:
    """The element is wholly inside the window, with no scrolling."""
    return bool(page.evaluate("""s => { const e = document.querySelector(s); if (!e) return false;
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5
            && r.right <= window.innerWidth + 0.5; }""",
                              selector))


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of serious or critical impact on the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE.read_text())
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.map(n => n.target.join(' '))}));
    }""")
    return list(found)


# What the page offers now, read in one go: 'result' (a deal's result is shown), 'claim'
# (an offer to answer), 'draw', 'play'; with the seat's hint and the state on screen; null
# while a move is on its way or nothing is asked of the seat.
READY = """() => {
  const b = document.body.dataset;
  if (b.pending === "1") return null;
  const q = (s) => document.querySelector(s);
  const out = (kind) => ({kind, hint: b.hint || "", sid: +b.stateId});
  if (q('dialog#result-dlg[open]')) return out('result');
  if (q('#claim .claim-btn:not([disabled])')) return out('claim');
  const live = (a) => `#actions [data-action="${a}"]:not([disabled])`;
  if (q(live('draw') + ', ' + live('take'))) return out('draw');
  if (q('#actions [data-action="discard"], #actions button.act:not([disabled])')) return out('play');
  return null;
}"""


BOX = """s => { const e = document.querySelector(s); if (!e) return null;
  e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height}; }"""
HIT = """([s, x, y]) => { const e = document.querySelector(s); const at = document.elementFromPoint(x, y);
  if (e && at && (at === e || e.contains(at))) return true;
  const c = at && at.closest ? at.closest('[id], button, li') : null;
  const what = c ? c.tagName + '#' + c.id + '.' + c.className + ' ' + (c.dataset.card || '') : String(at);
  return what + ' at ' + x + ',' + y; }"""


class Person:
    """A person at a table in a browser page, moving by drag and drop and clicks only."""

    def __init__(self, page: Page):
        self.page = page
        self.moves: list[str] = []

    # -- the pointer --------------------------------------------------------------------

    def drag(self, src: str, dst: str, at: float = 0.5) -> None:
        """Press on a visible corner of the first element ``src`` selects (cards overlap),
        move, release over ``dst``. The page is redrawn as news comes in, but not while a
        pointer is down on it: so the press is checked to have caught the right element."""
        p = self.page
        hit: Any = None
        for _ in range(20):
            # cards that just came move into place for a moment: press once they are still
            p.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
            a = p.evaluate(BOX, src)
            if a is None:
                raise PlaywrightError(f"nothing to drag: {src}")
            x0, y0 = a["x"] + min(10, a["width"] / 3), a["y"] + 12
            hit = p.evaluate(HIT, [src, x0, y0])
            if hit is not True:
                p.wait_for_timeout(50)
                continue
            p.mouse.move(x0, y0)
            p.mouse.down()
            hit = p.evaluate(HIT, [src, x0, y0])
            if hit is True:
                break
            # redrawn just before the press: drag it nowhere (no click on another card)
            p.mouse.move(x0 + 40, y0 - 200, steps=3)
            p.mouse.up()
        else:
            raise PlaywrightError(f"could not press on {src}: {hit}")
        z = p.evaluate(BOX, dst)
        if z is None:
            p.mouse.up()
            raise PlaywrightError(f"nowhere to drop: {dst}")
        p.mouse.move(x0 + 12, y0 + 12, steps=2)
        p.mouse.move(z["x"] + z["width"] * at, z["y"] + z["height"] / 2, steps=6)
        p.mouse.up()

    @staticmethod
    def card(card: str) -> str:
        return f'#cards button.hc[data-card="{card}"]'

    def click_card(self, card: str) -> None:
        self.page.locator(self.card(card)).first.click()

    def wait_change(self, sid: int, errs: int, timeout: float = 15_000) -> None:
        self.page.wait_for_function(
            "([sid, errs]) => +document.body.dataset.stateId !== sid"
            " || +(document.body.dataset.errors || 0) !== errs",
            arg=[sid, errs], timeout=timeout)

    def answer_dialogs(self) -> None:
        for sel in ("#warn-dlg button.primary",):
            if self.page.locator(sel).count():
                self.page.locator(sel).click()

    # -- moves --------------------------------------------------------------------------

    def move(self, others: bool = False) -> str:
        """One move as a person makes it; returns its kind ('result' for a deal's end, 'idle'
        when a try came to nothing and nothing is asked of the seat now: another seat's
        turn came first, so whoever drives several people moves the others meanwhile).
        ``others``: other people at the table are driven by the caller, so a seat with
        nothing asked of it at once is 'idle', not stuck (an offer of 1.5 s can close
        between the caller's look and this move, and then the table waits for another
        person, whom a long wait here would never let move)."""
        p = self.page
        why: list[str] = []
        for attempt in range(20):
            try:
                first = 5000 if others else 60_000
                now = p.wait_for_function(READY, timeout=first if attempt == 0 else 3000).json_value()
            except PlaywrightTimeout:
                if attempt == 0 and not others:
                    raise
                return "idle"
            kind, hint, sid = now["kind"], now["hint"], now["sid"]
            errs = errors(p)
            if kind == "result":
                return "result"
            if kind == "claim":
                try:
                    p.wait_for_selector('#claim .claim-btn[data-action="pass"]:not([aria-disabled="true"])',
                                        timeout=3000)
                    p.locator('#claim .claim-btn[data-action="pass"]').click(timeout=2000)
                except PlaywrightTimeout:
                    continue  # the offer closed first
                self.wait_change(sid, errs)
                self.moves.append("pass")
                return "claim"
            try:
                done = self._follow(hint, kind)
            except PlaywrightError as e:  # (timeouts too) the page moved on under the move: look again
                why.append(f"{kind} {hint!r}: {str(e).splitlines()[0]}")
                done = False
            if not done:
                continue
            self.wait_change(sid, errs)
            assert errors(p) == errs, p.inner_text("#banners")
            self.moves.append(done if isinstance(done, str) else hint.split()[0])
            return kind
        raise AssertionError("no move went through in 20 tries: " + "; ".join(why[:2] + why[-2:]))

    def play_until(self, selector: str, kinds: tuple[str, ...] = ("draw", "play", "claim"),
                   seconds: float = 90) -> None:
        """Make the seat's moves of ``kinds`` until ``selector`` is on the page."""
        t0 = time.monotonic()
        while not self.page.locator(selector).count():
            assert time.monotonic() - t0 < seconds, f"{selector} never came"
            now = self.page.evaluate(READY)
            if now and now["kind"] in kinds:
                self.move()
            else:
                self.page.wait_for_timeout(50)

    def _follow(self, hint: str, kind: str) -> bool | str:
        p = self.page
        verb = hint.split()[0] if hint else ""
        if kind == "draw" and verb in ("", "draw"):
            self.drag("#stock", "#cards")
            return "draw"
        if verb in ("take", "draw"):  # "take", "draw both": a click on the discard pile
            p.locator("#discard").click()
            return "take"
        if verb == "meld":
            return self._build(hint)
        if verb == "layoff":
            _, tok, n = hint.split()
            self.drag(self.card(tok.split("=")[0]), f'#melds li.meld[data-meld="{n}"]')
            if p.locator("#choose-dlg").count():
                p.locator(f'#choose-dlg button[data-action="{hint}"]').click()
            return "layoff"
        if verb == "discard":
            self.drag(self.card(hint.split()[1]), "#discard")
            self.answer_dialogs()
            return "discard"
        if verb in ("swap", "rummy", "shanghai") and len(hint.split()) > 1:
            self.click_card(hint.split()[1])
        button = p.locator(f'#actions button[data-action="{hint}"]:not([disabled])')
        if hint and button.count():
            button.first.click()
            return verb
        if kind == "play":  # no hint: discard the last card
            self.drag("#cards button.hc:last-child", "#discard")
            self.answer_dialogs()
            return "discard"
        return False

    def _build(self, hint: str) -> bool | str:
        """Lay melds down by dragging their cards into the meld areas, then Meld."""
        p = self.page
        while p.locator("#build .x").count():  # what an earlier try left there goes back to the hand
            p.locator("#build .x").first.click()
        groups = [[tok.split("=")[0] for tok in g.split()] for g in hint.removeprefix("meld ").split("/")]
        for k, group in enumerate(groups):
            for i, card in enumerate(group):
                target = '[data-drop="group:new"]' if i == 0 else f'[data-drop="group:{k}"]'
                self.drag(self.card(card), target)
        built = p.locator('#build [data-fk="meld-built"]')
        built.wait_for()
        p.wait_for_function("() => { const b = document.querySelector('#build [data-fk=\"meld-built\"]');"
                            " return b && !b.disabled; }")
        assert built.get_attribute("data-action") == hint, (built.get_attribute("data-action"), hint)
        built.click()
        return "meld"
