"""The review page in the browser (review.js), driven by Playwright in Debian's Chromium
against a real server: reached from a finished table's result, it shows the progress while
the server works, then the totals and the moments, stepped through by buttons and keys.

Without Chromium or Playwright these tests are skipped, except in CI (see browserkit)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    DESKTOP,
    PHONE,
    api,
    axe_violations,
    browser,  # noqa: F401  (fixtures)
    contexts,  # noqa: F401
    free_port,
    make_table,
    seat_in,
)


def start_server(db: Path) -> tuple[Any, threading.Thread, str]:
    """A uvicorn server in a thread whose reviews are quick (few deals of the unseen cards)."""
    import uvicorn

    from rummykit.server.app import create_app

    app = create_app(f"sqlite:///{db}", review_workers=1, review_settings={"samples": 6, "horizon": 2})
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    t0 = time.monotonic()
    while not srv.started:
        if not th.is_alive() or time.monotonic() - t0 > 30:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return srv, th, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    srv, th, url = start_server(tmp_path_factory.mktemp("review") / "server.db")
    try:
        yield url
    finally:
        srv.should_exit = True
        th.join(15)


def finished_table(base: str, name: str) -> tuple[str, str]:
    """A one-deal game of Basic whose only person, absent from the start (grace 0), is
    played by the stand-in bot (seed 1: its review has four moments)."""
    tid = make_table(base, ruleset="basic", seats=["human", "bot:easy"], seed=1, grace_seconds=0,
                     options={"deals": 1}, bot_delay=0)
    token = api(base, "POST", f"/api/tables/{tid}/join", {"name": name})["token"]
    t0 = time.monotonic()
    while api(base, "GET", f"/api/tables/{tid}")["status"] != "over":
        assert time.monotonic() - t0 < 60, "the game did not end"
        time.sleep(0.2)
    return tid, token


def test_the_review_of_a_finished_table_is_opened_from_the_result_and_stepped_through(
        base: str, contexts: Any) -> None:
    tid, token = finished_table(base, "Zoe")
    page = contexts().new_page()
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/review?seat=" in r.url else None)
    seat_in(page, base, tid, 0, token, "Zoe")
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("dialog#result-dlg[open] #standings")
    page.get_by_role("link", name="Review my game").click()
    page.wait_for_selector("#rv-h")
    assert answers[0] == 202 and answers[-1] == 200  # the progress first: the server worked meanwhile
    assert page.url.endswith(f"/t/{tid}/review?seat=0&m=0")
    assert page.inner_text("#rv-h").startswith("Zoe's game, reviewed")
    assert "Deal 1" in page.inner_text("#rv-totals")
    steps = page.locator("ol.rv-moments li").count()
    assert steps >= 2
    assert page.inner_text("#rv-step") == f"Moment 1 of {steps}"
    first = page.inner_text("#rv-mh")
    assert first.startswith("Deal 1, turn ")
    hand = page.get_by_role("region", name="Zoe's hand")
    assert hand.locator(".pc").count() >= 1
    assert page.inner_text("#rv-why").strip()
    assert page.get_by_role("button", name="Back one moment").is_disabled()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#rv-step >> text=Moment 2 of {steps}")
    assert page.inner_text("#rv-mh") != first
    assert page.url.endswith("&m=1")
    page.get_by_role("button", name="Back one moment").click()
    page.wait_for_selector(f"#rv-step >> text=Moment 1 of {steps}")
    page.keyboard.press("End")
    page.wait_for_selector(f"#rv-step >> text=Moment {steps} of {steps}")
    assert page.get_by_role("button", name="Next moment").is_disabled()
    page.locator("ol.rv-moments button").first.click()
    page.wait_for_selector(f"#rv-step >> text=Moment 1 of {steps}")
    assert axe_violations(page) == []
    # the link is shared: another browser, with no seat here, opens the same moment
    other = contexts(PHONE).new_page()
    other.goto(f"{base}/t/{tid}/review?seat=0&m=1")
    other.wait_for_selector(f"#rv-step >> text=Moment 2 of {steps}")
    # the table of the deals fits the phone: no column scrolled out of sight (a tester's
    # Cards and Choices were)
    wide = other.evaluate("() => { const s = document.querySelector('#rv-totals .scroll');"
                          " return [s.scrollWidth, s.clientWidth]; }")
    assert wide[0] <= wide[1] + 1, wide
    if os.environ.get("RUMMYKIT_SHOTS"):  # to look at
        other.screenshot(path=os.path.join(os.environ["RUMMYKIT_SHOTS"], "review-phone.png"), full_page=True)
    # and from there, another seat's review
    other.get_by_role("link", name="Easy bot 2's review").click()
    other.wait_for_selector("#rv-h >> text=Easy bot 2's game, reviewed")


def test_the_review_page_says_what_is_wrong(base: str, contexts: Any) -> None:
    waiting = make_table(base, ruleset="basic", seats=["human", "bot:easy"])
    page = contexts(DESKTOP).new_page()
    page.goto(f"{base}/t/{waiting}/review?seat=0")
    page.wait_for_selector("p.error >> text=a game is reviewed once it is over")
    page.goto(f"{base}/t/nope/review?seat=0")
    page.wait_for_selector("p.error >> text=no table")
