"""The review page in the browser (review.js), driven by Playwright in Debian's Chromium
against a real server: reached from a finished table's result, it shows the progress while
the server works, then the totals and the moments, stepped through by buttons and keys.

Without Chromium or Playwright these tests are skipped, except in CI (see browserkit)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import (
    DESKTOP,
    PHONE,
    axe_violations,
    browser,  # noqa: F401  (fixtures)
    contexts,  # noqa: F401
    finished_table,
    make_table,
    seat_in,
    start_server,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # reviews that are quick: few deals of the unseen cards
    srv, th, url, _ = start_server(tmp_path_factory.mktemp("review") / "server.db", review_workers=1,
                                   review_settings={"samples": 6, "horizon": 2})
    try:
        yield url
    finally:
        srv.should_exit = True
        th.join(15)


def test_the_review_of_a_finished_table_is_opened_from_the_result_and_stepped_through(
        base: str, contexts: Any) -> None:
    tid, token = finished_table(base, seed=1, name="Zoe")  # seed 1: its review has four moments
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
