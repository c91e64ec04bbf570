"""The Textual app, driven by Textual's pilot with the keyboard only, as a person would
play at 80x24 and at 120x40: put a meld aside, meld, lay off, discard with x then Enter,
pass May I offers shown in place with Esc, close every dialog with Esc."""

import asyncio
import os
from pathlib import Path

import pytest
from conftest import deal
from textual.widgets import RichLog

import rummykit as rk
from rummykit.engine.record import make_record
from rummykit.play.session import Session
from rummykit.play.tui import AskNumber, Question, RummyApp, in_notation
from rummykit.store import Store

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZES = [(80, 24), (120, 40)]


def new_app(tmp_path, seed: int, name: str = "Ann") -> RummyApp:
    """A contract game for three where Ann (seat 0) plays first."""
    s = stacked_session(tmp_path, rk.new_game("contract", players=3, seed=seed, dealer=2), name)
    return RummyApp(s, rk.get_variant("contract"), speed=0)


def stacked_session(tmp_path, game, name: str = "Ann") -> Session:
    store = Store(tmp_path / "games.sqlite3")
    setup = make_record(game)
    del setup["actions"]
    seats = ["human", "medium", "medium"]
    gid = store.new_game(setup, seats, 0, name)
    return Session(store, gid, game, seats, 0, name)


async def shown(pilot, app) -> str:
    """What the terminal shows, line by line, once the last key has been drawn."""
    await pilot.pause()
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def select(pilot, app, cards: str) -> None:
    """Select cards with ←/→ and space."""
    for c in cards.split():
        while app.order[app.cursor] != c:
            await pilot.press("right")
        await pilot.press("space")


async def settle(pilot, app, offers=None, steps: int = 400) -> None:
    """Let the bots play until the person must act.  A May I offer is checked to be on
    the table (no dialog), noted in ``offers`` and passed with Esc; a dialog is left on
    screen."""
    for _ in range(steps):
        await pilot.pause()
        await app.workers.wait_for_complete()  # a bot thinking on its thread
        await pilot.pause()
        if isinstance(app.screen, Question):
            return
        if app.passes_offer():
            continue  # passed by itself (offers off, or a card that does not fit)
        if offers is not None and app.offer() == "may_i":
            text = await shown(pilot, app)
            assert "May I?" in text and "[buy]" in text and "Enter/Esc: pass" in text, text
            assert "n Never May I" in text  # the footer shows the keys
            offers.append(text)
            await pilot.press("escape")
            continue
        if app.s.human_to_act or app.s.is_over:
            return


WHOLE_DEAL = (["7H 7S 7D 9C 9D 9S 7C 9H KC QC", "2C 3C 4D 5D 6H 8H TS JS QD KD",
               "AS 3S 4S 5H 6C 8C TD JC QS KS"], "2D", "5S 8D 6D JD AH 3H 4C 2H TH")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_person_plays_a_whole_deal_with_the_keyboard_only(tmp_path, size):
    # Ann (seat 0) holds two sets and a card for each; seat 1 and seat 2 are medium bots
    g = deal("contract", *WHOLE_DEAL, dealer=2)
    s = stacked_session(tmp_path, g)
    app = RummyApp(s, rk.get_variant("contract"), speed=0, claims="always")  # every offer, to see them
    offers: list[str] = []

    async def run():
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert s.human_to_act and s.view()["phase"] == "draw"
            text = await shown(pilot, app)
            assert "Moves" in text and "draw from the stock  [draw]" in text, text
            assert "▶ to play · D dealer" in text
            await pilot.press("d")  # draw from the stock
            await settle(pilot, app, offers)
            await select(pilot, app, "7H 7S 7D")
            await pilot.press("g")  # the first set, put aside
            assert sorted(app.groups[0]) == ["7D", "7H", "7S"] and not {"7H", "7S", "7D"} & set(app.order)
            assert "Melds put aside: (7♦ 7♥ 7♠)" in await shown(pilot, app)
            await select(pilot, app, "9C 9D 9S")
            await pilot.press("m")  # both sets go down
            assert s.view()["down"][0], app.messages
            await select(pilot, app, "KC")
            await pilot.press("x")  # picks KC: its move is highlighted, nothing played yet
            assert "KC" in s.view()["hand"]
            text = await shown(pilot, app)
            assert "Discard K♣? Enter: discard it" in text and "discard K♣  [discard K♣]" in text, text
            await pilot.press("enter")
            assert "KC" not in s.view()["hand"]
            await settle(pilot, app, offers)
            if os.environ.get("RUMMYKIT_SCREENSHOT"):  # the pictures in the README and docs/
                app.save_screenshot(filename=f"table-{size[0]}x{size[1]}.svg", path=str(DOCS))
                if size == (120, 40):
                    app.save_screenshot(filename="table.svg", path=str(DOCS))
            laid_off = []
            for _turn in range(80):
                await settle(pilot, app, offers)
                if isinstance(app.screen, Question):
                    break  # the deal's result
                if s.is_over or not s.human_to_act:
                    continue
                view = s.view()
                text = await shown(pilot, app)
                assert "Moves" in text and "  [" in text, text  # the moves list, brackets and all
                if view["phase"] == "draw":
                    await pilot.press("d")
                    continue
                acts = s.legal_actions()
                lay = [a for a in acts if isinstance(a, rk.LayOff)]
                if lay:
                    a = lay[0]
                    await select(pilot, app, str(a.card))
                    await pilot.press("l")
                    assert isinstance(app.screen, AskNumber)
                    await pilot.press(*str(a.meld + 1), "enter")
                    laid_off.append(str(a.card))
                    continue
                if view["phase"] == "play":
                    worst = max(view["hand"], key=lambda c: s.game.values[rk.parse_card(c)])
                    while app.order[app.cursor] != worst:
                        await pilot.press("right")
                    await pilot.press("x", "enter")  # the card under the cursor
            assert isinstance(app.screen, Question)
            text = str(app.screen.text)
            assert "Deal 1 result" in text and "Ann" in text and "Seat 0" not in text
            assert "Deal 1 result" in await shown(pilot, app)
            assert {"7C", "9H"} <= set(laid_off)
            await pilot.press("escape")  # Esc closes the result: the next deal starts
            await pilot.pause()
            assert not isinstance(app.screen, Question)
            assert s.view()["round"] == 2
            # the log kept the deal's last moves: a new deal's log no longer holds them
            logged = [strip.text for strip in app.query_one("#log", RichLog).lines]
            ended = [i for i, line in enumerate(logged) if line.startswith("Round 1 ended")]
            assert ended and "went out" in logged[ended[0]], logged[-8:]

    asyncio.run(run())
    # everything the person did is in the database, and replays to the same game
    saved = s.store.game(s.id)
    assert saved.actions == s.game.actions
    assert rk.replay(saved.record()).view(0) == s.game.view(0)
    assert offers, "Ann was never offered a discard"
    for text in offers:
        assert "deal 1 of 7" in text and "Discard pile:" in text  # on the table itself, no dialog


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_esc_closes_every_dialog(tmp_path, size):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, Question) and "Contract Rummy" in app.screen.text
            assert "x  Enter" in await shown(pilot, app)  # the keys come first
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, Question)
            await pilot.press("question_mark")
            await pilot.press("question_mark")  # ? again closes it too
            await pilot.pause()
            assert not isinstance(app.screen, Question)
            await pilot.press("d", "space", "l")
            await pilot.pause()
            assert isinstance(app.screen, AskNumber)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, AskNumber)

    asyncio.run(run())


def test_the_rules_in_the_help_do_not_show_the_projects_file_numbers(tmp_path):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            assert "Source: pagat.com Contract Rummy" in app.screen.text
            assert "seed 001" not in app.screen.text

    asyncio.run(run())


def test_never_offer_may_i_passes_every_offer_for_the_rest_of_the_game(tmp_path):
    g = deal("contract", *WHOLE_DEAL, dealer=2)
    s = stacked_session(tmp_path, g)
    app = RummyApp(s, rk.get_variant("contract"), speed=0, claims="always")

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await select(pilot, app, "KC")
            await pilot.press("x", "enter")
            for _ in range(12):  # to the first offer (Ann plays on while the bots take what they want)
                await settle(pilot, app)
                if app.offer() == "may_i" or isinstance(app.screen, Question) or not s.human_to_act:
                    break
                await pilot.press("d")
                await pilot.press("x", "enter")
            assert app.offer() == "may_i"
            before = len(s.game.actions)
            await pilot.press("n")  # passes this one, and every later one
            assert app.never_may_i and s.game.actions[before] == "pass"
            for _ in range(6):
                await settle(pilot, app)
                if not s.human_to_act or isinstance(app.screen, Question):
                    break
                assert app.offer() != "may_i"
                await pilot.press("d")
                await pilot.press("x", "enter")
            seats = [seat for _, seat in s.store.db.execute(
                "SELECT n, seat FROM actions WHERE game = ? ORDER BY n", (s.id,)).fetchall()]
            mine = [a for a, seat in zip(s.game.actions, seats, strict=True) if seat == 0]
            assert mine.count("pass") >= 2, mine  # offers after the switch were passed without a word

    asyncio.run(run())


def test_never_offer_may_i_is_kept_across_resume(tmp_path):
    """Issue 38: the terminal's n is kept with the game: quit, resume, still no offers."""
    g = deal("contract", *WHOLE_DEAL, dealer=2)
    s = stacked_session(tmp_path, g)
    app = RummyApp(s, rk.get_variant("contract"), speed=0)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("n")
            assert app.never_may_i

    asyncio.run(run())
    s.store.close()
    store = Store(tmp_path / "games.sqlite3")
    saved = store.game(s.id)
    assert saved.prefs == {"claims": "never"}
    again = Session.resume(store, saved)
    assert RummyApp(again, rk.get_variant("contract"), speed=0).never_may_i
    # n again turns offers back on (for the cards that fit), and that is kept too
    again.set_pref("claims", "fits")
    assert store.game(s.id).prefs == {"claims": "fits"}
    # a game saved before the choice had three answers still keeps its "never"
    again.set_pref("claims", None)
    again.set_pref("never_may_i", True)
    assert RummyApp(Session.resume(store, store.game(s.id)), rk.get_variant("contract"), speed=0).never_may_i


def offered(tmp_path, card: str) -> Session:
    """Ann (seat 0, two pairs toward two sets) is offered ``card`` (May I), seat 1's discard."""
    from helpers import may_i_offered

    return stacked_session(tmp_path, may_i_offered(card))


@pytest.mark.parametrize("card, fits", [("3C", False), ("7D", True)])
def test_may_i_is_offered_by_default_only_for_a_card_that_fits_the_hand(tmp_path, card, fits):
    """As in the browser: a May I offer of a card that does not bring the contract closer
    (3C, to 7H 7S 9C 9D toward two sets) is passed by itself, with a line saying so; 7D is
    put to the person.  a: every card is offered."""
    s = offered(tmp_path, card)
    n = len(s.game.actions)
    app = RummyApp(s, rk.get_variant("contract"), speed=0)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            if fits:
                assert app.offer() == "may_i" and not app.passes_offer()
                assert "m: May I" in await shown(pilot, app)
                await pilot.press("escape")
            else:
                for _ in range(20):
                    await pilot.pause()
                    if len(s.game.actions) > n:
                        break
                assert s.game.actions[n] == "pass"  # (the bots play on)
                said = "You passed on 3C: it does not fit your hand (a: be offered every card)."
                assert said in app.messages

    asyncio.run(run())


def test_a_asks_about_every_discard_and_is_kept_with_the_game(tmp_path):
    s = offered(tmp_path, "3C")
    app = RummyApp(s, rk.get_variant("contract"), speed=0, claims="always")

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.offer() == "may_i" and not app.passes_offer()  # 3C is put to Ann
            n = len(s.game.actions)
            await pilot.press("a")  # back to the cards that fit: 3C goes by
            for _ in range(20):
                await pilot.pause()
                if len(s.game.actions) > n:
                    break
            assert s.game.actions[n] == "pass"
            assert s.store.game(s.id).prefs == {"claims": "fits"}

    asyncio.run(run())
    with pytest.raises(ValueError, match="claims"):
        RummyApp(s, rk.get_variant("contract"), claims="sometimes")


def test_card_texts_with_brackets_and_names_with_markup_are_shown_as_written(tmp_path):
    app = new_app(tmp_path, 4, name="[bold]Ann[/bold]")

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await pilot.pause()
            text = await shown(pilot, app)
            assert "[bold]Ann[/bold]" in text
            first = app.s.legal_actions()[0]
            assert f"[{in_notation(first.text(), True)}]" in text, text  # e.g. [discard 2♣]

    asyncio.run(run())


def test_one_card_notation_per_screen_and_c_switches_it(tmp_path):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await pilot.pause()
            text = await shown(pilot, app)
            hand = app.s.view()["hand"]
            assert any(s in text for s in "♣♦♥♠")
            assert not any(c in text.split() for c in hand if c != "JK")  # no TC beside 10♣
            await pilot.press("c")
            await pilot.pause()
            text = await shown(pilot, app)
            assert not any(s in text for s in "♣♦♥♠"), text
            assert "[discard " + hand[0] + "]" in text or "[discard " in text

    asyncio.run(run())


def test_in_notation_rewrites_every_card_and_nothing_else():
    assert in_notation("Seat 1 took TC; meld 7C 7D JK=7 / 3H JK=5H 6H", True) == \
        "Seat 1 took 10♣; meld 7♣ 7♦ JK=7 / 3♥ JK=5♥ 6♥"
    assert in_notation("discard TC AS", False) == "discard TC AS"
    assert in_notation("Deal 1: 10 cards each", True) == "Deal 1: 10 cards each"


def test_sorting_and_moving_cards_keeps_the_selection(tmp_path):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
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


def test_the_hint_is_one_key_away(tmp_path):
    app = new_app(tmp_path, 9)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            assert app.messages[-1].startswith("Hint: ")

    asyncio.run(run())


def test_the_terminal_hint_and_contract_line_are_the_hand_evaluations(tmp_path):
    """The hint the terminal shows is the medium bot's explain for the person's view, and the
    contract line ("working toward it") its progress: one evaluation (issue 39)."""
    from rummykit.players import HeuristicPlayer

    app = new_app(tmp_path, 9)
    s = app.s

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            bot = HeuristicPlayer(s._bot_seed(s.human), s.game.variant)
            action, why = bot.explain(s.view(), s.legal_actions())
            await pilot.press("h")
            assert app.messages[-1] == app.cards(f"Hint: {action.text()}. {why}")
            progress = bot.progress(s.view())["text"]
            assert "Working toward it" in progress or "lay it down" in progress
            assert str(app.query_one("#contract").render()) == app.cards(progress)

    asyncio.run(run())


def test_an_illegal_move_shows_the_engines_sentence_and_changes_nothing(tmp_path):
    app = new_app(tmp_path, 4)
    s = app.s

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert s.view()["phase"] == "draw"
            before = (s.game.state_id, list(s.view()["hand"]))
            app.action_discard()  # discarding before drawing (the key is hidden then)
            await pilot.pause()
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
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("d")  # Ann draws ...
            await pilot.press("x", "enter")  # ... and discards: the bots' turn
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


def test_a_hand_too_wide_for_boxes_goes_on_short_lines_at_80_columns(tmp_path):
    app = new_app(tmp_path, 4)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.order = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6H 7H 8H 9H JK".split()
            text = app.hand_text()
            lines = text.plain.splitlines()
            assert 1 < len(lines) <= 3 and max(len(ln) for ln in lines) <= 80
            assert "10♣" in text.plain and "JK" in text.plain and "5♦" in text.plain
            hand = app.query_one("#hand")
            row, x0, _, i = hand.spots[-1]  # the joker: a click there selects it
            assert app.order[i] == "JK" and row == len(lines) - 1

    asyncio.run(run())


def test_bots_play_on_while_the_help_is_open_and_esc_returns_to_the_table(tmp_path):
    s = stacked_session(tmp_path, deal("contract", *WHOLE_DEAL, dealer=2))
    app = RummyApp(s, rk.get_variant("contract"), speed=0)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert s.view()["phase"] == "draw"
            await pilot.press("d")
            await settle(pilot, app, [])
            app.speed = 0.3  # each bot move waits a while: the help opens before they play
            await pilot.press("x", "enter")  # the bots' turn
            await pilot.press("question_mark")
            before = s.game.state_id
            for _ in range(100):
                await pilot.pause(0.1)
                await app.workers.wait_for_complete()
                if s.game.state_id > before + 1:
                    break
            assert s.game.state_id > before and isinstance(app.screen, Question)
            await pilot.press("escape")
            await settle(pilot, app)
            assert not isinstance(app.screen, Question) and "Moves" in await shown(pilot, app)

    asyncio.run(run())


@pytest.mark.parametrize("ruleset, limited", [("contract", False), ("shanghai", True)])
def test_the_buys_left_column_shows_only_where_buys_are_limited(tmp_path, ruleset, limited):
    s = stacked_session(tmp_path, rk.new_game(ruleset, players=3, seed=2, dealer=2))
    app = RummyApp(s, rk.get_variant(ruleset), speed=0)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            text = await shown(pilot, app)
            assert ("buys left" in text) == limited, text
            players = text.splitlines()[1:5]
            assert not any(line.rstrip().endswith(" -") or " - " in line for line in players), players

    asyncio.run(run())


def test_after_a_shanghai_call_on_your_discard_the_log_names_the_card_you_drew(tmp_path):
    # as in plain mode (tests/test_play.py): the public log says "drew a card at random
    # from Seat 1's hand"; the person's log adds which card it was
    from helpers import saved_game, shanghai_called_on_seat_0

    g, discard = shanghai_called_on_seat_0()
    store = Store(tmp_path / "g.sqlite3")
    gid = saved_game(store, g, ["human", "medium", "medium", "medium"], "Ann")
    s = Session.resume(store, store.game(gid))
    app = RummyApp(s, rk.get_variant("shanghai"), speed=0)

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            before = list(s.view()["hand"])
            s.play(discard)
            app.after_change()
            await settle(pilot, app)
            hand = list(s.view()["hand"])
            for c in before:
                if c in hand:
                    hand.remove(c)
            assert len(hand) == 1
            log = " ".join(" ".join(strip.text for strip in app.query_one("#log").lines).split())
            assert "called Shanghai" in log
            drawn = {f"(you drew {in_notation(hand[0], sym)} from " for sym in (True, False)}
            assert any(d in log for d in drawn), log

    asyncio.run(run())
