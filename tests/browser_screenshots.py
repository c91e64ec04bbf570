"""Take the README's screenshots of the browser app: docs/lobby.png and docs/table.png.

    .venv/bin/python tests/browser_screenshots.py

Starts a server on 127.0.0.1 (a free port, a temporary SQLite file), fills the lobby with
a few tables, plays a game of Contract by clicking until melds are on the table, and
shoots both pages with Debian's Chromium through Playwright."""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).parent))
from test_browser import (  # noqa: E402
    CHROMIUM_ARGS,
    READY,
    api,
    chromium_path,
    free_port,
    join,
    make_table,
    play_one_move,
)

from rummykit.server.app import create_app  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> None:
    exe = chromium_path()
    if exe is None:
        sys.exit("Chromium is missing: apt-get install -y chromium fonts-liberation")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        srv = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{tmp}/s.db"), host="127.0.0.1",
                                            port=port, log_level="warning"))
        th = threading.Thread(target=srv.run, daemon=True)
        th.start()
        t0 = time.monotonic()
        while not srv.started and time.monotonic() - t0 < 30:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        try:
            shoot(base, exe)
        finally:
            srv.should_exit = True
            th.join(15)


def shoot(base: str, exe: str) -> None:
    # a lobby with a table waiting for people and two being played
    wait = make_table(base, ruleset="may-i", seats=["human", "human", "human", "bot:hard"], bot_delay=0.6)
    api(base, "POST", f"/api/tables/{wait}/join", {"name": "Grandma Jo"})
    make_table(base, ruleset="liverpool", seats=["bot:medium"] * 4, bot_delay=2, options={"deals": 7})
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        ctx = b.new_context(viewport={"width": 1200, "height": 900}, device_scale_factor=1)
        ctx.set_default_timeout(20_000)
        page = ctx.new_page()
        tid = make_table(base, ruleset="contract", seats=["human", "bot:medium", "bot:hard", "bot:easy"],
                         seed=21, claim_seconds=0.5, names={"1": "Robo", "2": "Deep Blue", "3": "Rookie"})
        join(page, base, tid, "Ann")
        page.goto(base + "/")
        page.wait_for_selector("#tables table")
        page.wait_for_selector("#create")
        page.fill("#c-name", "Ann")
        page.screenshot(path=str(DOCS / "lobby.png"), full_page=True)
        # a game of Contract, played by clicking, until melds are down and it is Ann's move
        page.goto(f"{base}/t/{tid}")
        page.wait_for_selector("#cards button.card")
        for _ in range(300):
            state = page.wait_for_function(READY).json_value()
            if page.locator("#melds li.meld").count() >= 3 and state["kind"] in ("play", "discard"):
                page.wait_for_timeout(1500)  # claim windows of the others close first
                if page.evaluate(READY) == state:
                    break  # Ann's move: nothing changes until she makes it
                continue
            play_one_move(page)
        if page.locator("#error").count():
            page.click("#error button")
        page.keyboard.press("Escape")
        cards = page.locator("#cards button.card[data-discard]")
        cards.nth(cards.count() - 1).click()
        page.mouse.move(0, 0)
        page.screenshot(path=str(DOCS / "table.png"), full_page=True)
        b.close()
    print("wrote", DOCS / "lobby.png", "and", DOCS / "table.png")


if __name__ == "__main__":
    main()
