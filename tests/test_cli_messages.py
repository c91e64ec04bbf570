"""The command line's words (issue 19, items 5-8): "did you mean", plain words for a bad
players range, hint's record errors, reading commands that create nothing, replay's
table, and simulate on several workers giving the same games."""

import json
import random

import pytest
from click.testing import CliRunner

import rummykit as rk
from rummykit.cli.main import main
from rummykit.invoked import command as printed
from rummykit.play.session import Session
from rummykit.rules.describe import describe_rules
from rummykit.store import Store


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def one_error_line(r) -> str:
    """The message of a failed command: exit 1 and one line saying what is wrong."""
    assert r.exit_code == 1, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1, r.output
    return lines[0]


# -- "did you mean" -------------------------------------------------------------------


@pytest.mark.parametrize("command", [["play", "--plain"], ["simulate", "-q"], ["arena", "-q"]])
def test_a_misspelled_ruleset_gets_did_you_mean(tmp_path, command):
    r = run(*command, "-v", "liverpol", *(["--db", str(tmp_path / "g.db")] if "play" in command else []))
    assert r.exit_code != 0 and "unknown ruleset 'liverpol'; did you mean liverpool?" in r.output
    assert not (tmp_path / "g.db").exists()


def test_a_ruleset_nothing_like_any_lists_them_all():
    r = run("simulate", "-v", "canasta")
    assert "unknown ruleset 'canasta'; rummykit knows: basic, traditional" in r.output


def test_a_misspelled_house_rule_option_gets_did_you_mean():
    r = run("simulate", "-v", "basic", "-n", "1", "-q", "-o", "meld_per_turn=any")
    assert r.exit_code != 0 and "meld_per_turn: unknown key; did you mean melds_per_turn?" in r.output


def test_a_misspelled_key_in_a_rules_file_gets_did_you_mean(tmp_path):
    f = tmp_path / "ours.toml"
    f.write_text('extends = "basic"\nid = "ours"\nname = "Ours"\ngoing_rumy = "double"\n')
    r = run("rules", "check", str(f))
    assert "going_rumy: unknown key; did you mean going_rummy?" in r.output


def test_a_misspelled_bot_level_gets_did_you_mean(tmp_path):
    r = run("play", "--plain", "-b", "medum", "--db", str(tmp_path / "g.db"))
    assert r.exit_code != 0 and "unknown level 'medum'; did you mean medium?" in r.output


# -- plain words ------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["[2]", "2", "[2,3,4]"])
def test_a_bad_players_range_is_told_in_plain_words(value):
    r = run("simulate", "-v", "basic", "-n", "1", "-q", "-o", f"players={value}")
    assert r.exit_code != 0
    assert "players: write the fewest and the most players as two numbers, e.g. players = [3, 5]" in r.output
    assert "players.1" not in r.output and "valid tuple" not in r.output


def test_the_rules_text_does_not_show_the_projects_file_numbers():
    for vid in rk.variant_ids():
        text = run("rules", "show", vid).output
        assert "seed 0" not in text and "Source: " in text, vid


def test_the_rules_text_of_ten_card_says_melding_comes_before_drawing():
    text = describe_rules(rk.get_variant("ten-card"))
    assert "before drawing" in text and "only the discard" in text


def test_the_rules_text_of_seven_hand_tells_pat_and_the_eighth_hands_one_i_want_it():
    text = describe_rules(rk.get_variant("seven-hand").with_options({"deals": 8}))
    assert "  8. a run of the whole hand (no discard); no ace at each end" in text
    assert "deal 8: at most 1" in text and "before drawing" in text


def test_the_rules_text_of_block_says_when_the_round_ends_and_how_it_is_scored():
    text = describe_rules(rk.get_variant("block"))
    assert "at most 0 times" not in text
    assert "When the stock is empty and the next player does not take the discard, the round ends" in text
    assert "If nobody goes out, the lowest hand scores the differences to every other hand" in text
    assert "nobody scores" in describe_rules(rk.get_variant("traditional"))


def test_the_turn_prompt_offers_going_down_pat_before_drawing(tmp_path):
    from conftest import deal

    from rummykit.play.words import prompt_line

    s = Session.start(Store(tmp_path / "g.db"), rk.get_variant("seven-hand"), 3, ["random", "random"], seed=3)
    s.game = deal("seven-hand", ["7H 7S 7D 7C 9C 9D 9S 9H 5H 5S 5D", "AS 2S 6C 8C 8D TH JH QH 4D 5S 6S",
                                 "2C 3C 4C 5D 6D 8S TS JS QD KD AH"], "KS", "KC", dealer=2, first_round=6)
    assert prompt_line(s, s.view()) == ("Your turn: draw from the stock or take KS. Or go down now, pat: "
                                        "your hand as it is makes the contract.")


def test_results_say_deal_not_round(tmp_path):
    from rummykit.play.words import round_table

    store = Store(tmp_path / "g.db")
    s = Session.start(store, rk.get_variant("basic"), 2, ["random"], seed=3)
    while not s.game.history:
        s.play(s.legal_actions()[0]) if s.human_to_act else s.bot_step()
    assert round_table(s, s.game.history[0]).startswith("Deal 1 result:")


# -- hint and its record ------------------------------------------------------------------


def records_file(tmp_path, n: int):
    f = tmp_path / "games.jsonl"
    run("simulate", "-v", "basic", "-p", "2", "-n", str(n), "-q", "-w", "1", "--records", str(f))
    return f


def test_hint_line_beyond_a_short_record_file_says_how_many_there_are(tmp_path):
    f = records_file(tmp_path, 3)
    line = one_error_line(run("hint", str(f), "--line", "99"))
    assert line == f"Error: {f} holds 3 records, so there is no --line 99; choose --line 1-3"
    assert "--line counts from 1" in run("hint", str(f), "--line", "0").output


def test_hint_line_on_a_single_record_says_line_is_for_json_lines(tmp_path):
    g = rk.new_game("basic", players=2, seed=1)
    f = tmp_path / "one.json"
    f.write_text(json.dumps(g.record(), indent=2))
    line = one_error_line(run("hint", str(f), "--line", "2"))
    assert "holds one record, so there is no line 2" in line


def test_hint_refuses_a_record_whose_seed_is_not_a_number(tmp_path):
    g = rk.new_game("basic", players=2, seed=1)
    rec = {**g.record(), "seed": "x"}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rec))
    line = one_error_line(run("hint", str(f)))
    assert line == (f'Error: {f}: the record\'s seed must be a whole number, not "x"; '
                    "it is not a record rummykit wrote")


# -- reading commands create nothing ----------------------------------------------------------


@pytest.mark.parametrize("command", [["games"], ["games", "--json"], ["stats"], ["replay", "1"],
                                     ["hint", "--game", "1"]])
def test_reading_commands_create_no_folder_and_no_database(tmp_path, command):
    db = tmp_path / "some" / "missing" / "dir" / "x.db"
    line = one_error_line(run(*command, "--db", str(db)))
    assert line == f"Error: {db} does not exist: `{printed('play', db=db)}` starts a game and creates it."
    assert not (tmp_path / "some").exists()


def test_resume_with_no_database_says_there_is_nothing_to_resume(tmp_path):
    db = tmp_path / "nowhere" / "x.db"
    line = one_error_line(run("resume", "--plain", "--db", str(db)))
    assert "There is no unfinished game to resume" in line and not (tmp_path / "nowhere").exists()


def test_a_folder_given_as_the_database_is_refused(tmp_path):
    r = run("games", "--db", str(tmp_path))
    assert r.exit_code != 0 and "is a directory" in r.output


# -- replay shows the table ----------------------------------------------------------------


def test_replay_shows_every_hand_the_melds_and_the_discard_pile_at_each_step(tmp_path):
    db = tmp_path / "g.db"
    store = Store(db)
    s = Session.start(store, rk.get_variant("basic"), 2, ["random"], seed=3)
    rng = random.Random(1)
    while not s.is_over:
        s.play(rng.choice(s.legal_actions())) if s.human_to_act else s.bot_step()
    g = rk.replay(store.game(s.id).setup | {"actions": []})
    store.close()
    out = run("replay", str(s.id), "--no-pause", "--db", str(db)).output
    steps = out.split("\n[")
    assert len(steps) > len(s.game.actions) // 2
    for i, text in enumerate(s.game.actions[:40], 1):
        g.apply(text)
        step = next(st for st in steps if st.startswith(f"{i}/"))
        for seat in range(2):
            assert " ".join(g.view(seat)["hand"]) in step, step  # every hand, not only the person's
        pile = g.view(0)["discard_pile"]
        assert f"Discard pile ({len(pile)} card" in step
        for m in g.view(0)["melds"]:
            assert " ".join(m) in step


# -- simulate on several workers ---------------------------------------------------------------


def test_simulate_on_two_workers_gives_the_same_games_as_on_one(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    a = run("simulate", "-v", "contract", "-p", "3", "-n", "6", "--seed", "4", "-q", "-w", "1",
            "--records", str(one), "--json")
    b = run("simulate", "-v", "contract", "-p", "3", "-n", "6", "--seed", "4", "-q", "-w", "2",
            "--records", str(two), "--json")
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert one.read_text() == two.read_text() and len(one.read_text().splitlines()) == 6
    assert a.stdout == b.stdout


def test_simulate_prints_games_per_second_and_its_workers():
    r = run("simulate", "-v", "basic", "-p", "2", "-n", "4", "-q", "-w", "2")
    assert r.exit_code == 0 and "games/s" in r.output and "on 2 workers" in r.output
    assert "--workers must be at least 1" in run("simulate", "-n", "1", "-w", "0").output


# -- the arena's table at 80 columns -----------------------------------------------------------


def test_the_arena_table_reads_at_80_columns():
    r = CliRunner(env={"COLUMNS": "80"}).invoke(main, ["arena", "-v", "basic", "-p", "3", "-b",
                                                       "random,random,random", "-n", "3", "-q"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    rows = [ln for ln in lines if ln.strip().startswith("random")]
    assert len(rows) == 6  # three in the results, three in the times
    for row in rows[:3]:
        cells = row.replace("random (", "random(").split()  # the same bot at several seats: "random (2)"
        assert len(cells) == 7 and cells[1].endswith("%") and "-" in cells[2] and "-" in cells[6], row


@pytest.mark.parametrize("key, near", [("going-rummy", "going_rummy"), ("-", None)])
def test_a_rules_key_with_a_hyphen_is_named_as_unknown(tmp_path, key, near):
    """A key with a hyphen (a common slip for the underscore) is the player's key, not a
    type tag of pydantic's: it is named, never a crash (hypothesis found '-' in a record)."""
    f = tmp_path / "ours.toml"
    f.write_text(f'extends = "basic"\nid = "ours"\nname = "Ours"\n"{key}" = "double"\n')
    r = run("rules", "check", str(f))
    assert f"{key}: unknown key" in r.output and "Traceback" not in r.output
    if near:
        assert f"did you mean {near}?" in r.output


# -- commands that work as printed (issue 42) -----------------------------------------------


def test_a_bot_level_that_does_not_exist_is_called_a_level(tmp_path):
    r = run("play", "-b", "superhard", "--db", str(tmp_path / "g.sqlite3"))
    assert r.exit_code != 0 and "unknown level 'superhard'; did you mean hard?" in r.output
    assert "player" not in r.output.lower().replace("players", "")


def test_the_program_is_named_as_it_can_be_run_again(tmp_path, monkeypatch):
    from rummykit.invoked import program

    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "rummykit"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # the venv not activated: its bin is not on PATH
    assert program(str(script)) == "venv/bin/rummykit"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # outside the current folder: the whole path
    assert program(str(script)) == str(script)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")  # activated: the name is enough
    assert program(str(script)) == "rummykit"
    other = tmp_path / "other"  # another rummykit first on PATH: this one is named by its path
    other.mkdir()
    (other / "rummykit").write_text("#!/bin/sh\n")
    (other / "rummykit").chmod(0o755)
    monkeypatch.setenv("PATH", f"{other}:{bin_dir}")
    assert program(str(script)) == str(script)
    # run through the interpreter (python -m rummykit, or a test runner)
    assert program("/x/pytest", "/opt/py/bin/python3") == "/opt/py/bin/python3 -m rummykit"
    assert program("/x/main.py", "/opt/my py/python3") == "'/opt/my py/python3' -m rummykit"


def test_an_unfinished_game_is_listed_with_its_running_scores(tmp_path):
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        s = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=3, options={"target": 500})
        while not s.game.history:  # the first deal played out, the match going on
            if s.human_to_act:
                s.play(s.hint()[0])
            else:
                s.bot_step()
        assert not s.is_over and any(s.game.scores)
        want = [str(x) for x in s.game.scores]
    listed = json.loads(run("games", "--json", "--db", str(db)).output)
    assert listed[0]["finished"] is None and listed[0]["scores"] == want
    table = run("games", "--db", str(db)).output
    assert "playing" in table and " ".join(want) in table
