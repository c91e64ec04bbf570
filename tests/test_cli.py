"""The rummykit command line."""

import json

from click.testing import CliRunner

import rummykit as rk
from rummykit.cli.main import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_prints_a_summary():
    r = run("simulate", "--variant", "basic", "--players", "2", "--games", "3", "--seed", "1", "-q")
    assert r.exit_code == 0, r.output
    for word in ("games", "deals", "mean actions per game", "deals ended", "mean final score",
                 "games per second"):
        assert word in r.output


def test_simulate_json_writes_one_record_per_game_that_replays():
    r = CliRunner().invoke(main, ["simulate", "-v", "contract", "-p", "3", "-n", "2", "--json", "-q"])
    assert r.exit_code == 0
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == 2
    for ln in lines:
        rec = json.loads(ln)
        assert [str(s) for s in rk.replay(rec).scores] == rec["scores"]


def test_simulate_records_file(tmp_path):
    out = tmp_path / "games.jsonl"
    r = run("simulate", "-v", "block", "-p", "4", "-n", "2", "--records", str(out), "-q")
    assert r.exit_code == 0 and len(out.read_text().splitlines()) == 2


def test_simulate_with_a_house_rule_option():
    r = run("simulate", "-v", "basic", "-p", "2", "-n", "1", "-o", "melds_per_turn=any", "-q")
    assert r.exit_code == 0, r.output


def test_simulate_refuses_bad_input():
    assert "3-5 players" in run("simulate", "-v", "contract", "-p", "9").output
    assert "unknown ruleset" in run("simulate", "-v", "gin").output
    assert "melds_per_turn" in run("simulate", "-v", "basic", "-o", "melds_per_turn=many").output


def test_rules_show_prints_a_ruleset_in_plain_words():
    r = run("rules", "show", "contract")
    assert r.exit_code == 0
    assert "two sets of three" in r.output and "three runs of four, using the whole hand" in r.output
    assert "May I" in r.output


def test_rules_list_names_all_fifteen():
    r = run("rules", "list")
    for vid in rk.variant_ids():
        assert vid in r.output


def test_rules_check_reports_every_problem_by_key(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('extends = "contract"\nid = "x"\nname = "X"\nace_mode = "sideways"\nmelds = 3\n'
                 'players = [3, 20]\ncard_values = { A = 15, Z = 3 }\ncontracts = ["2S3", "S3+Q4"]\n')
    r = run("rules", "check", str(f))
    assert r.exit_code == 1
    for key in ("ace_mode", "melds", "card_values", "contracts"):
        assert key in r.output, r.output


def test_rules_check_accepts_a_good_house_rules_file(tmp_path):
    f = tmp_path / "good.toml"
    f.write_text('extends = "basic"\nid = "ours"\nname = "Our Rummy"\nmelds_per_turn = "any"\n'
                 'going_rummy = "plus10"\nace_mode = "low_or_high"\ncard_values = { A = 15 }\n')
    r = run("rules", "check", str(f))
    assert r.exit_code == 0 and "OK" in r.output
    assert rk.load_variant(f).spec.card_values["A"] == 15


def test_rules_check_bad_toml_and_missing_file(tmp_path):
    f = tmp_path / "broken.toml"
    f.write_text("this is = = not toml")
    assert "not valid TOML" in run("rules", "check", str(f)).output
    assert "no such file" in run("rules", "check", str(tmp_path / "nope.toml")).output


def test_house_rules_file_extending_a_missing_ruleset(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text('extends = "gin"\nid = "x"\nname = "X"\n')
    assert "extends" in run("rules", "check", str(f)).output


def test_readme_quick_start_examples():
    v = rk.get_variant("contract")
    assert v.is_valid_meld(rk.parse_cards("QH KH AH JK"))
    got = v.find_contract(2, rk.parse_cards("7C 7D JK 3H 4H 5H 6H 9S KD"))
    assert sorted(map(rk.format_cards, got)) == ["3H 4H 5H 6H", "7C 7D JK"]


import pytest  # noqa: E402


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_simulate_works_for_every_ruleset(vid):
    r = run("simulate", "-v", vid, "-n", "1", "--seed", "3", "-q")
    assert r.exit_code == 0, r.output
    assert "games per second" in r.output


def test_hint_for_a_saved_position(tmp_path):
    import random

    g = rk.new_game("contract", players=3, seed=4)
    rng = random.Random(1)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(g.record()))
    r = run("hint", str(f))
    assert r.exit_code == 0, r.output
    assert "hint: " in r.output and " — " in r.output
    other = (g.current_player + 1) % 3
    assert "is not to act" in run("hint", str(f), "--seat", str(other)).output


def test_hint_refuses_a_bad_file(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    r = run("hint", str(f))
    assert r.exit_code != 0 and "not a game record" in r.output
    f.write_text(json.dumps({"ruleset": "contract"}))
    assert "lacks" in run("hint", str(f)).output
