"""The arena (groundwork of the bots issue): duplicate play, statistics, outputs."""

import csv
import json

from click.testing import CliRunner

from rummykit.arena import play_one, run_arena, wilson
from rummykit.cli.main import main


def test_duplicate_play_deals_the_same_cards_to_every_rotation():
    a = play_one("basic", ["medium", "random"], deal=3, rotation=0, seed=1)
    b = play_one("basic", ["medium", "random"], deal=3, rotation=1, seed=1)
    assert a.entries == [0, 1] and b.entries == [1, 0]
    import rummykit as rk

    g0 = rk.new_game("basic", players=2, seed=1 * 1_000_003 + 3)
    g1 = rk.new_game("basic", players=2, seed=1 * 1_000_003 + 3)
    assert g0.hands == g1.hands


def test_arena_statistics_add_up_and_are_deterministic():
    s = run_arena("contract", ["medium", "random", "random"], games=6, seed=2)
    assert s.games == 6 and [b["bot"] for b in s.bots] == ["medium", "random", "random (2)"]
    assert abs(sum(b["win_share"] for b in s.bots) - 1) < 1e-9
    for b in s.bots:
        lo, hi = b["win_share_ci"]
        assert 0 <= lo <= b["win_share"] <= hi <= 1
    again = run_arena("contract", ["medium", "random", "random"], games=6, seed=2, workers=2)
    assert [b["win_share"] for b in again.bots] == [b["win_share"] for b in s.bots]
    assert [b["mean_score"] for b in again.bots] == [b["mean_score"] for b in s.bots]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60


def test_arena_command_json_csv_and_plot(tmp_path):
    out_csv, out_png = tmp_path / "a.csv", tmp_path / "a.png"
    r = CliRunner().invoke(main, ["arena", "-v", "basic", "-b", "medium,random", "-n", "4", "-q", "--json",
                                  "--csv", str(out_csv), "--plot", str(out_png)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for b in data["bots"]:
        assert {"bot", "games", "win_share", "win_share_ci", "mean_score", "mean_decision_ms"} <= set(b)
    rows = list(csv.DictReader(out_csv.open()))
    assert [row["bot"] for row in rows] == ["medium", "random"]
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_refuses_bad_input():
    runner = CliRunner()
    assert "unknown level" in runner.invoke(main, ["arena", "-b", "medium,genius,random,random"]).output
    assert "3-5 players" in runner.invoke(main, ["arena", "-b", "medium,random"]).output


def _arena_json(args):
    r = CliRunner().invoke(main, ["arena", "-v", "basic", "-b", "medium,random", "--seed", "4", "-q",
                                  "--json", *args])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    timing = ("mean_decision_ms", "median_decision_ms", "p99_decision_ms")
    return [{k: v for k, v in b.items() if k not in timing} for b in data["bots"]]


def test_arena_results_file_goes_on_after_a_stop_and_gives_the_uninterrupted_figures(tmp_path):
    whole = _arena_json(["-n", "8"])
    path = tmp_path / "games.jsonl"
    assert _arena_json(["-n", "4", "--results", str(path)])  # the first half, then a stop
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 4 and json.loads(lines[0])["arena"]["bots"] == ["medium", "random"]
    path.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])  # killed mid-write
    assert _arena_json(["-n", "8", "--results", str(path)]) == whole
    assert len(path.read_text().splitlines()) == 1 + 8
    assert _arena_json(["-n", "8", "--results", str(path)]) == whole  # nothing left to play


def test_arena_refuses_a_results_file_of_another_arena_or_a_damaged_one(tmp_path):
    path = tmp_path / "games.jsonl"
    _arena_json(["-n", "2", "--results", str(path)])
    before = path.read_bytes()
    runner = CliRunner()
    r = runner.invoke(main, ["arena", "-v", "basic", "-b", "medium,random", "--seed", "5", "-n", "2",
                             "--results", str(path)])
    assert r.exit_code != 0 and "another arena" in r.output and "seed 4" in r.output
    assert path.read_bytes() == before
    lines = before.decode().splitlines(keepends=True)
    path.write_text(lines[0] + "{not json\n" + "".join(lines[1:]))
    damaged = path.read_bytes()
    r = runner.invoke(main, ["arena", "-v", "basic", "-b", "medium,random", "--seed", "4", "-n", "2",
                             "--results", str(path)])
    assert r.exit_code != 0 and "line 2 is not a game result" in r.output
    assert path.read_bytes() == damaged
