"""Playing as a person: the saved-game store, the session, ``rummykit play --plain``,
``resume`` after a killed process, ``games``, ``replay`` and ``stats``."""

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rummykit as rk
from rummykit.cli.main import main
from rummykit.play.plain import PlainUI
from rummykit.play.session import Session
from rummykit.store import SCHEMA_VERSION, Store, StoreError


def person_policy(s: Session) -> str:
    """What a simple human does: meld, lay off, draw from the stock, shed the costliest
    card, pass on offers."""
    acts = s.legal_actions()
    for kind in (rk.Meld, rk.LayOff):
        for a in acts:
            if isinstance(a, kind):
                return a.text()
    if rk.Draw() in acts:
        return "draw"
    if rk.Pass() in acts:
        return "pass"
    discards = [a for a in acts if isinstance(a, rk.Discard)]
    if discards:
        return max(discards, key=lambda a: (s.game.values[a.card], a.card)).text()
    return acts[0].text()


def script(tmp_path, variant: str, players: int, seed: int,
           limit: int | None = None) -> tuple[list[str], Session]:
    """The person's lines for a game, found by playing it in-process first (games are
    deterministic from their seed and actions, bots included)."""
    store = Store(tmp_path / "script.sqlite3")
    s = Session.start(store, rk.get_variant(variant), players, ["medium"] * (players - 1), seed=seed)
    lines: list[str] = []
    while not s.is_over and (limit is None or len(lines) < limit):
        if s.offer_goes_by():
            s.play("pass")  # a card that does not fit: plain mode passes without asking
        elif s.human_to_act:
            line = person_policy(s)
            lines.append(line)
            s.play(line)
        else:
            s.bot_step()
    return lines, s


def cli(*args: str, input: str | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args], input=input,
                          capture_output=True, text=True, timeout=timeout)


# -- the store -------------------------------------------------------------------------


def test_a_new_database_carries_rummykits_id_and_schema_version(tmp_path):
    path = tmp_path / "g.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] != 0
    db.close()
    Store(path).close()  # opening it again migrates nothing and loses nothing


def test_a_saved_games_file_of_schema_1_is_upgraded_and_its_games_kept(tmp_path):
    """Schema 2 adds each game's kept choices (the terminal's n): a file written before it
    is upgraded when opened, every game still there, with no choices."""
    from rummykit.store import APPLICATION_ID, MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    MIGRATIONS[0](db)  # the schema as version 1 wrote it
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO games (ruleset, players, setup, seats, human, name, started) VALUES "
               "('basic', 2, ?, '[\"human\", \"easy\"]', 0, 'Old', 1.0)",
               (json.dumps(rk.new_game("basic", players=2, seed=1).record() | {"actions": []}),))
    db.execute("COMMIT")
    db.close()
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    saved = store.last_unfinished()
    assert saved is not None and saved.name == "Old" and saved.prefs == {}
    store.set_prefs(saved.id, {"never_may_i": True})
    assert store.game(saved.id).prefs == {"never_may_i": True}
    store.close()


def test_a_damaged_database_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"this is not a database, it is a shopping list\n" * 20)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a rummykit database"):
        Store(path)
    assert path.read_bytes() == before


def test_another_programs_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store(path)
    assert path.read_bytes() == before
    result = CliRunner().invoke(main, ["games", "--db", str(path)])
    assert result.exit_code != 0 and "not a rummykit database" in result.output


def test_two_programs_opening_a_new_database_at_once_both_get_it(tmp_path):
    """``rummykit play`` and a reader may open a new file together: an empty database (no
    tables, no id: another process is setting it up) is taken, and a set-up that another
    process finished first is not done again."""
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = WAL")  # the file exists, nothing is in it yet
    db.close()
    first = Store(path)  # was refused as another program's database
    second = Store(tmp_path / "g.sqlite3")
    second._migrate()  # as if it had read version 0 before the first finished: was "table exists"
    assert second.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    first.close()
    second.close()


def test_a_database_from_a_newer_rummykit_is_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer rummykit"):
        Store(path)


# -- the session -----------------------------------------------------------------------


def test_every_action_is_saved_as_it_happens_and_replays_to_the_same_game(tmp_path):
    lines, s = script(tmp_path, "contract", 3, seed=2, limit=12)
    saved = s.store.game(s.id)
    assert saved.actions == s.game.actions and len(saved.actions) > 12
    assert rk.replay(saved.record()).view(0) == s.view()


def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    lines, whole = script(tmp_path / "a", "contract", 3, seed=8, limit=40)
    store = Store(tmp_path / "b" / "g.sqlite3")
    s = Session.start(store, rk.get_variant("contract"), 3, ["medium", "medium"], seed=8)
    played, resumed = 0, False
    while played < len(lines):
        if played == 15 and not resumed:  # as if the terminal closed here
            s = Session.resume(store, store.last_unfinished())
            resumed = True
        if s.offer_goes_by():
            s.play("pass")  # as script() does
        elif s.human_to_act:
            s.play(lines[played])
            played += 1
        else:
            s.bot_step()
    assert s.game.actions == whole.game.actions


def test_an_illegal_move_in_plain_mode_is_explained_and_changes_nothing(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    s = Session.start(store, rk.get_variant("basic"), 2, ["medium"], seed=3)
    while not s.human_to_act:
        s.bot_step()
    before = list(s.game.actions)
    out = io.StringIO()
    PlainUI(s, rk.get_variant("basic"), io.StringIO("discard ZZ\n99\nq\n"), out).run()
    text = out.getvalue()
    assert "Not allowed:" in text and "There is no action 99" in text
    assert s.game.actions == before == store.game(s.id).actions


def test_plain_mode_puts_a_may_i_to_the_person_only_when_the_card_fits_unless_asked(tmp_path):
    """As the full-screen game and the browser: 3C, of no use toward 7H 7S 9C 9D's two
    sets, passes by itself with a line saying so; "a" has every card offered, kept with the
    game; 7D is offered."""
    from helpers import may_i_offered, saved_game

    for card, typed, asked in (("3C", "q\n", False), ("7D", "q\n", True), ("3C", "a\nq\n", False)):
        store = Store(tmp_path / f"{card}{len(typed)}.sqlite3")
        g = may_i_offered(card)
        gid = saved_game(store, g, ["human", "medium", "medium"], "Ann")
        s = Session.resume(store, store.game(gid))
        out = io.StringIO()
        PlainUI(s, rk.get_variant("contract"), io.StringIO(typed), out).run()
        text = out.getvalue()
        passed = "You passed on 3C: it does not fit your hand (a: be offered every card)." in text
        assert passed == (not asked), text
        assert (s.game.actions[len(g.actions):][:1] == ["pass"]) == (not asked)
        if typed.startswith("a"):
            assert "Every discard will be offered" in text and store.game(gid).prefs == {"claims": "always"}
    # asked about every card from the start, 3C is put to the person
    store = Store(tmp_path / "always.sqlite3")
    g = may_i_offered("3C")
    gid = saved_game(store, g, ["human", "medium", "medium"], "Ann")
    store.set_prefs(gid, {"claims": "always"})
    s = Session.resume(store, store.game(gid))
    out = io.StringIO()
    PlainUI(s, rk.get_variant("contract"), io.StringIO("q\n"), out).run()
    assert "You passed on 3C" not in out.getvalue() and len(s.game.actions) == len(g.actions)


def test_plain_mode_prints_the_view_in_words_and_numbered_actions(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    s = Session.start(store, rk.get_variant("contract"), 4, ["medium"] * 3, seed=3)
    out = io.StringIO()
    PlainUI(s, rk.get_variant("contract"), io.StringIO("h\nq\n"), out).run()
    text = out.getvalue()
    assert "Contract Rummy, deal 1 of 7: two sets of three" in text
    assert "Your hand (" in text and "Discard pile:" in text and "Stock:" in text
    assert "  1. " in text and "Hint: " in text
    assert "rummykit resume" in text


# -- the commands, as separate processes ------------------------------------------------


def test_plain_play_of_a_whole_basic_game_from_stdin_then_stats(tmp_path):
    lines, done = script(tmp_path, "basic", 2, seed=11)
    assert done.is_over
    db = str(tmp_path / "games.sqlite3")
    run = cli("play", "--plain", "-v", "basic", "-p", "2", "-b", "medium", "--seed", "11", "--speed", "0",
              "--db", db, input="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    assert "Game over. Final standings:" in run.stdout
    # each deal's end follows the move that ended it (a discard, a lay-off, a meld), which a
    # new deal's log no longer holds
    out = run.stdout.splitlines()
    ends = [i for i, line in enumerate(out) if line.endswith(" went out.")]
    assert len(ends) == len(done.game.history)
    assert all(any(w in out[i - 1] for w in ("discarded", "laid off", "melded")) for i in ends), \
        [out[i - 1] for i in ends]
    stats = cli("stats", "--json", "--db", db)
    rows = json.loads(stats.stdout)
    assert rows[0]["ruleset"] == "basic" and rows[0]["played"] == 1
    assert rows[0]["won"] == int(0 in done.game.winners)
    assert rows[0]["rounds"] == len(done.game.history)
    table = cli("stats", "--db", db)
    assert "basic" in table.stdout and "played" in table.stdout
    listed = json.loads(cli("games", "--json", "--db", db).stdout)
    assert listed[0]["finished"] is not None
    shown = cli("replay", str(listed[0]["id"]), "--no-pause", "--db", db)
    assert shown.returncode == 0 and "Game over. Final standings:" in shown.stdout


def test_killing_plain_play_mid_round_loses_nothing_and_resume_goes_on(tmp_path):
    lines, _ = script(tmp_path, "contract", 4, seed=5, limit=6)
    db = str(tmp_path / "games.sqlite3")
    cmd = [sys.executable, "-m", "rummykit.cli.main", "play", "--plain", "-v", "contract", "-p", "4",
           "-b", "medium", "--seed", "5", "--speed", "0", "--db", db]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            text=True)
    assert proc.stdin is not None
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()  # stdin stays open: the game waits for the next move
    deadline = time.time() + 120
    count = -1
    while time.time() < deadline:
        time.sleep(0.5)
        with Store(db) as store:
            saved = store.last_unfinished()
            n = len(saved.actions) if saved else 0
        game = rk.replay(saved.record()) if saved else None
        if n == count and game is not None and game.current_player == 0 and n > len(lines):
            break
        count = n
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    with Store(db) as store:
        saved = store.last_unfinished()
    assert saved is not None
    game = rk.replay(saved.record())
    assert not game.history, "the kill should land mid-round"
    view = game.view(0)
    resumed = cli("resume", "--plain", "--db", db, input="q\n")
    assert resumed.returncode == 0, resumed.stderr
    assert f"Your hand ({len(view['hand'])}): {' '.join(view['hand'])}" in resumed.stdout
    for seat in range(4):
        assert f"score {view['scores'][seat]}" in resumed.stdout
    for cards in view["melds"]:
        assert " ".join(cards) in resumed.stdout
    with Store(db) as store:
        assert store.last_unfinished().actions == saved.actions  # quitting adds nothing


def test_play_refuses_bad_options_before_saving_anything(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    r = CliRunner()
    bad = [
        (["play", "--plain", "-p", "9", "--db", db], "for 3-5 players"),
        (["play", "--plain", "-b", "easy,grandmaster,hard", "--db", db], "unknown level"),
        (["play", "--plain", "-b", "easy,hard", "--db", db], "need 3"),
        (["play", "--plain", "-v", "canasta", "--db", db], "unknown ruleset"),
    ]
    for args, why in bad:
        result = r.invoke(main, args)
        assert result.exit_code != 0 and why in result.output, (args, result.output)
    assert not os.path.exists(db)  # nothing was saved: not even an empty database
    nothing = r.invoke(main, ["resume", "--plain", "--db", db])
    assert nothing.exit_code != 0 and "no unfinished game" in nothing.output


def test_play_with_no_arguments_starts_contract_for_four_and_saves_it(tmp_path):
    # the README's main command; with no terminal it falls back to the plain mode
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "rummykit.cli.main", "play"], input="", capture_output=True,
                         text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    assert "Contract Rummy, 4 players" in run.stdout and "Input ended" in run.stdout
    listed = subprocess.run([sys.executable, "-m", "rummykit.cli.main", "games", "--json"],
                            capture_output=True, text=True, timeout=60, env=env)
    rows = json.loads(listed.stdout)
    assert rows[0]["ruleset"] == "contract" and rows[0]["players"] == 4 and rows[0]["finished"] is None


def test_a_shanghai_call_is_asked_with_what_it_costs(tmp_path):
    from conftest import deal

    from rummykit.engine.record import make_record
    from rummykit.play.words import describe_view

    g = deal("shanghai", ["3C 3D 3H 5C 5D 5H 8S 9S TS JS QS", "AS 2S 6C 8C 8D TH JH QH 4D 3S KD",
                          "4C 6D 7D 8H 9H TC JC QD KC KH AD", "2C 2D 7C 7S 9C 9D JD QC KS AC AH"],
             "4S", "2H 6H 6S 7H 3S 4H 5S 6C 7C")
    no = ["pass"] * 3  # on the upcard; afterwards the discarder is not asked
    no2 = ["pass"] * 2
    for act in ["draw", *no, "discard KD", "take", "discard AD", "draw", *no2, "discard AC", "draw", *no2,
                "meld 3C 3D 3H / 5C 5D 5H", "discard 8S", "draw", *no2, "discard 3S"]:
        g.apply(act)
    store = Store(tmp_path / "g.sqlite3")
    setup = make_record(g)
    del setup["actions"]
    seats = ["medium", "medium", "human", "medium"]
    s = Session(store, store.new_game(setup, seats, 2, "Bo"), g, seats, 2, "Bo")
    assert s.human_to_act
    text = describe_view(s)
    assert "Call Shanghai? You lay it off, and Seat 1 (medium) draws a card at random from your hand." in text


def test_hint_for_a_saved_game_position(tmp_path):
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    s = Session.start(store, rk.get_variant("contract"), 3, ["medium", "medium"], seed=6)
    while not s.human_to_act:
        s.bot_step()
    store.close()
    r = CliRunner()
    got = r.invoke(main, ["hint", "--game", str(s.id), "--db", str(db)])
    assert got.exit_code == 0 and "hint: " in got.output, got.output
    hard = r.invoke(main, ["hint", "--game", str(s.id), "--db", str(db), "--level", "hard:samples=2"])
    assert hard.exit_code == 0 and "hint: " in hard.output
    both = r.invoke(main, ["hint", "x.json", "--game", "1", "--db", str(db)])
    assert both.exit_code != 0 and "one of them" in both.output
    missing = r.invoke(main, ["hint", "--game", "99", "--db", str(db)])
    assert missing.exit_code != 0 and "no game 99" in missing.output


def test_hint_for_a_saved_game_is_refused_on_a_bots_turn_and_never_shows_its_hand(tmp_path):
    """A saved game's hint advises its person only: on a bot's turn it would print the bot's
    hidden hand."""
    db = tmp_path / "g.sqlite3"
    store = Store(db)
    s = Session.start(store, rk.get_variant("contract"), 3, ["medium", "medium"], seed=6)
    while s.human_to_act:
        s.play(s.legal_actions()[0])
    bot = s.game.current_player
    assert bot != s.human
    hidden = " ".join(s.game.view(bot)["hand"])
    store.close()
    got = CliRunner().invoke(main, ["hint", "--game", str(s.id), "--db", str(db)])
    assert got.exit_code != 0 and "a hint is only for your own seat (0)" in got.output, got.output
    assert hidden not in got.output
    asked = CliRunner().invoke(main, ["hint", "--game", str(s.id), "--db", str(db), "--seat", str(bot)])
    assert asked.exit_code != 0 and hidden not in asked.output


def test_stats_best_game_under_a_house_rules_file_where_the_highest_total_wins(tmp_path):
    """A house-rules file's own id is no built-in ruleset: its saved games say how they
    score (the best game was taken as the lowest total)."""
    import random

    from rummykit.cli.simulate import play_random

    rules = tmp_path / "ours.toml"
    rules.write_text('extends = "basic"\nid = "our-basic"\nname = "Ours"\nmelds_per_turn = "any"\n')
    v = rk.load_variant(rules)
    db = tmp_path / "g.sqlite3"
    mine = []
    with Store(db) as store:
        for seed in (1, 2, 3):
            g = rk.new_game(v, players=2, seed=seed)
            play_random(g, random.Random(seed))
            rec = g.record()
            gid = store.new_game({**rec, "actions": []}, ["human", "random"], 0, "Ann")
            acts = rec["actions"]
            for i, a in enumerate(acts[:-1]):
                store.add_action(gid, i, 0, a)
            final = ([str(s) for s in g.scores], 0 in g.winners)
            store.add_action(gid, len(acts) - 1, 0, acts[-1], final=final)
            mine.append((g.scores[0], gid))
    got = CliRunner().invoke(main, ["stats", "--json", "--db", str(db)])
    assert got.exit_code == 0, got.output
    best = json.loads(got.output)[0]["best_game"]
    assert best["id"] == max(mine)[1] and best["score"] == max(mine)[0]


def test_the_command_printed_on_quitting_works_as_printed_after_the_readmes_set_up(tmp_path):
    """The README's set-up runs ``.venv/bin/rummykit play`` with the venv not activated, so
    ``rummykit`` is not on PATH: the quit message names the program by its path, the game
    and the ``--db`` file, and that command, typed into a shell as printed, resumes it."""
    import re
    import shutil

    exe = Path(sys.executable).parent / "rummykit"
    if not exe.exists():
        pytest.skip("the rummykit script is not beside this Python (not a pip-installed venv)")
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    assert shutil.which("rummykit", path=env["PATH"]) is None
    db = tmp_path / "my games.sqlite3"  # not the default file, and a space in its name
    played = subprocess.run([str(exe), "play", "--plain", "-v", "basic", "-p", "2", "--speed", "0",
                             "--seed", "5", "--db", str(db)], input="q\n", capture_output=True, text=True,
                            timeout=300, env=env, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    printed = re.search(r"The game is saved: `([^`]+)` goes on from here", played.stdout)
    assert printed, played.stdout[-500:]
    cmd = printed.group(1)
    assert str(exe) in cmd and "resume 1" in cmd and "--db" in cmd
    again = subprocess.run(cmd + " --plain --speed 0", shell=True, input="q\n", capture_output=True,
                           text=True, timeout=300, env=env, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Game 1: Basic Rummy" in again.stdout and "The game is saved" in again.stdout


def test_after_a_shanghai_call_on_your_discard_plain_mode_names_the_card_you_drew(tmp_path):
    # Shanghai: Seat 1 calls on the person's discard; the log says "drew a card at random
    # from Seat 1's hand", and the person, who saw it arrive, is told which card it was
    from helpers import saved_game, shanghai_called_on_seat_0

    g, discard = shanghai_called_on_seat_0()
    store = Store(tmp_path / "g.sqlite3")
    gid = saved_game(store, g, ["human", "medium", "medium", "medium"], "You")
    s = Session.resume(store, store.game(gid))
    before = list(s.view()["hand"])
    out = io.StringIO()
    PlainUI(s, rk.get_variant("shanghai"), io.StringIO(f"{discard}\nq\n"), out).run()
    text = out.getvalue()
    called = [line for line in text.splitlines() if "called Shanghai" in line]
    assert called, text
    hand = s.view()["hand"]
    for c in before:
        if c in hand:
            hand.remove(c)
    assert len(hand) == 1  # the card drawn
    caller = called[0].split(" called Shanghai")[0].strip()
    assert called[0].endswith(f"(you drew {hand[0]} from {caller}'s hand)"), called[0]
