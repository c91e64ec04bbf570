"""Take the README's screenshots of the browser app: docs/lobby.png, docs/table.png (a
desktop window, 1280x800) and docs/table-phone.png (a phone, 390x844), mid-turn.

    .venv/bin/python tests/browser_screenshots.py

Starts a server on 127.0.0.1 (a free port, a temporary SQLite file), fills the lobby with
a few tables, plays Contract Rummy by dragging and clicking as a person does until melds
are on the table, and shoots the pages with Debian's Chromium through Playwright."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from browserkit import DESKTOP, PHONE, READY, Person, api, join, launch, make_table, start_server  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv, th, base, _ = start_server(Path(tmp) / "s.db")
        try:
            shoot(base)
        finally:
            srv.should_exit = True
            th.join(15)


def play_until_melds(page: object, person: Person, melds: int) -> None:
    """Play on until ``melds`` melds are on the table and it is this seat's turn to discard."""
    for _ in range(400):
        now = page.evaluate(READY)  # type: ignore[attr-defined]
        if now and now["kind"] == "result":
            page.locator("#next-deal").click()  # type: ignore[attr-defined]
            continue
        if page.locator("#melds li.meld").count() >= melds and now and now["kind"] == "play" \
                and not now["hint"].startswith(("meld", "layoff")):  # type: ignore[attr-defined]
            return
        if now:
            person.move()
        else:
            page.wait_for_timeout(50)  # type: ignore[attr-defined]


def shoot(base: str) -> None:
    wait = make_table(base, ruleset="may-i", seats=["human", "human", "human", "bot:hard"],
                      name="Friday May I?")
    api(base, "POST", f"/api/tables/{wait}/join", {"name": "Cleo"})
    make_table(base, ruleset="liverpool", seats=["bot:easy", "bot:medium", "bot:hard"], bot_delay=1)
    with sync_playwright() as p:
        b = launch(p)
        for size, name in ((DESKTOP, "table.png"), (PHONE, "table-phone.png")):
            ctx = b.new_context(viewport=size, has_touch=size is PHONE)
            page = ctx.new_page()
            seats = ["human", "bot:medium", "bot:medium", "bot:hard"]
            names = {"1": "Robo", "2": "Deep Blue", "3": "Ada"}
            tid = make_table(base, ruleset="contract", seats=seats, names=names, bot_delay=0.05,
                             claim_seconds=1)
            join(page, base, tid, "Ann")
            person = Person(page)
            play_until_melds(page, person, 3)
            page.locator("#cards button.hc").nth(2).click()
            page.wait_for_timeout(600)
            page.screenshot(path=str(DOCS / name))
            ctx.close()
        ctx = b.new_context(viewport=DESKTOP)
        page = ctx.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#open-list")
        page.wait_for_timeout(300)
        page.screenshot(path=str(DOCS / "lobby.png"))
        ctx.close()
        b.close()
    print("wrote", ", ".join(str(DOCS / n) for n in ("lobby.png", "table.png", "table-phone.png")))


if __name__ == "__main__":
    main()
