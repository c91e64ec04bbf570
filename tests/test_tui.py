"""The Textual app, driven by Textual's pilot as a person would play: click cards, put a
meld aside, meld, lay off, discard, answer a May I, read the round's result."""

import asyncio
import os
from pathlib import Path

from conftest import deal
from textual.widgets import Button

import rummykit as rk
from rummykit.engine.record import make_record
from rummykit.play.session import Session
from rummykit.play.tui import CARD_W, Question, RummyApp
from rummykit.store import Store

DOCS = Path(__file__).resolve().parent.parent / "docs"


def new_app(tmp_path, seed: int) -> RummyApp:
    """A contract game for three where Ann (seat 0) plays first."""
    s = stacked_session(tmp_path, rk.new_game("contract", players=3, seed=seed, dealer=2))
    return RummyApp(s, rk.get_variant("contract"), speed=0)


def stacked_session(tmp_path, game) -> Session:
    store = Store(tmp_path / "games.sqlite3")
    setup = make_record(game)
    del setup["actions"]
    seats = ["human", "medium", "medium"]
    gid = store.new_game(setup, seats, 0, "Ann")
    return Session(store, gid, game, seats, 0, "Ann")


async def click_cards(pilot, app, cards: str) -> None:
    for c in cards.split():
        i = app.order.index(c)
        await pilot.click("#hand", offset=(i * CARD_W + 2, 1))


async def settle(pilot, app, answers=None, steps: int = 400) -> None:
    """Let the bots play until the person must act.  A May I offer is passed (and noted
    in ``answers``); any other question is left on screen."""
    for _ in range(steps):
        await pilot.pause()
        await app.workers.wait_for_complete()  # a bot thinking on its thread
        await pilot.pause()
        if isinstance(app.screen, Question):
            if answers is not None and "buy" in {b.id for b in app.screen.query(Button)}:
                answers.append(app.screen.text)
                await pilot.click("#pass")
                continue
            return
        if app.s.human_to_act or app.s.is_over:
            return


def test_a_person_plays_a_whole_round_in_the_textual_app(tmp_path):
    # Ann (seat 0) holds two sets and a card for each; seat 1 and seat 2 are medium bots
    g = deal("contract", ["7H 7S 7D 9C 9D 9S 7C 9H KC QC", "2C 3C 4D 5D 6H 8H TS JS QD KD",
                          "AS 3S 4S 5H 6C 8C TD JC QS KS"], "2D", "5S 8D 6D JD AH 3H 4C 2H TH",
             dealer=2)
    s = stacked_session(tmp_path, g)
    app = RummyApp(s, rk.get_variant("contract"), speed=0)
    answered_may_i = []

    async def run():
        async with app.run_test(size=(150, 48)) as pilot:
            await settle(pilot, app)
            assert s.human_to_act and s.view()["phase"] == "draw"
            await pilot.press("d")  # draw from the stock
            await settle(pilot, app, answered_may_i)
            await click_cards(pilot, app, "7H 7S 7D")
            await pilot.press("g")  # the first set, put aside
            assert sorted(app.groups[0]) == ["7D", "7H", "7S"] and not {"7H", "7S", "7D"} & set(app.order)
            await click_cards(pilot, app, "9C 9D 9S")
            await pilot.press("m")  # both sets go down
            assert s.view()["down"][0], app.messages
            await click_cards(pilot, app, "KC")
            await pilot.press("x")
            await settle(pilot, app, answered_may_i)
            if os.environ.get("RUMMYKIT_SCREENSHOT"):  # the picture in the README
                app.save_screenshot(filename="table.svg", path=str(DOCS))
            assert "KC" not in s.view()["hand"]
            laid_off = []
            for _turn in range(80):
                await settle(pilot, app, answered_may_i)
                if isinstance(app.screen, Question):
                    break  # the round's result
                if s.is_over or not s.human_to_act:
                    continue
                view = s.view()
                if view["phase"] == "draw":
                    await pilot.press("d")
                    continue
                acts = s.legal_actions()
                lay = [a for a in acts if isinstance(a, rk.LayOff)]
                if lay:
                    a = lay[0]
                    await click_cards(pilot, app, str(a.card))
                    await pilot.press("l")
                    await pilot.press(*str(a.meld + 1), "enter")
                    laid_off.append(str(a.card))
                    continue
                if view["phase"] == "play":
                    worst = max(view["hand"], key=lambda c: s.game.values[rk.parse_card(c)])
                    await click_cards(pilot, app, worst)
                    await pilot.press("x")
            assert isinstance(app.screen, Question)
            text = str(app.screen.text)
            assert "Round 1 result" in text and "Ann" in text
            assert {"7C", "9H"} <= set(laid_off)
            svg = app.export_screenshot()
            assert svg.startswith("<svg")

    asyncio.run(run())
    assert len(s.game.history) >= 1
    # everything the person did is in the database, and replays to the same game
    saved = s.store.game(s.id)
    assert saved.actions == s.game.actions
    assert rk.replay(saved.record()).view(0) == s.game.view(0)
    assert answered_may_i, "Ann was never offered a discard"


def test_sorting_and_moving_cards_keeps_the_selection(tmp_path):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=(150, 48)) as pilot:
            await pilot.pause()
            first = app.order[0]
            await pilot.click("#hand", offset=(2, 1))
            assert app.chosen() == [first]
            await pilot.press("o")  # by rank
            assert app.chosen() == [first]
            ranks = [rk.parse_card(c).rank or 14 for c in app.order]
            assert ranks == sorted(ranks)
            app.cursor = 0
            await pilot.press("]")
            assert app.order[1] == sorted(app.order, key=app._key)[0]

    asyncio.run(run())


def test_the_hint_and_the_rules_are_one_key_away(tmp_path):
    app = new_app(tmp_path, 9)

    async def run():
        async with app.run_test(size=(150, 48)) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            assert app.messages[-1].startswith("Hint: ")
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, Question) and "Contract Rummy" in app.screen.text

    asyncio.run(run())


def test_an_illegal_move_shows_the_engines_sentence_and_changes_nothing(tmp_path):
    app = new_app(tmp_path, 4)
    s = app.s

    async def run():
        async with app.run_test(size=(150, 48)) as pilot:
            await settle(pilot, app)
            assert s.view()["phase"] == "draw"
            before = (s.game.state_id, list(s.view()["hand"]))
            await pilot.click("#hand", offset=(2, 1))
            await pilot.press("x")  # discarding before drawing
            assert app.messages[-1] == "Not allowed: Draw first: take the top discard or draw from the stock"
            assert (s.game.state_id, s.view()["hand"]) == before
            assert s.store.game(s.id).actions == s.game.actions

    asyncio.run(run())


def test_the_table_answers_keys_while_a_bot_thinks(tmp_path, monkeypatch):
    """Bots choose on a worker thread: while one thinks the person can still sort the
    hand (here the bot is held until the test lets it go), then its move is played."""
    import threading

    app = new_app(tmp_path, 4)
    s = app.s
    go, started = threading.Event(), threading.Event()
    choose = Session.bot_choice

    def slow_choice(self):
        started.set()
        assert go.wait(10)
        return choose(self)

    monkeypatch.setattr(Session, "bot_choice", slow_choice)

    async def run():
        async with app.run_test(size=(150, 48)) as pilot:
            await pilot.pause()
            await pilot.press("d")  # Ann draws ...
            await pilot.click("#hand", offset=(2, 1))
            await pilot.press("x")  # ... and discards: the bots' turn
            for _ in range(100):
                await pilot.pause()
                if started.is_set():
                    break
            assert started.is_set() and app.thinking and not s.human_to_act
            before = s.game.state_id
            app.sort_by_suit = True
            await pilot.press("o")  # the table still answers: the hand is sorted by rank
            ranks = [rk.parse_card(c).rank or 14 for c in app.order]
            assert ranks == sorted(ranks) and s.game.state_id == before
            go.set()
            await settle(pilot, app)
            assert s.game.state_id > before

    asyncio.run(run())
