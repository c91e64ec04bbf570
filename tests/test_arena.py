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
    assert "unknown player" in runner.invoke(main, ["arena", "-b", "medium,genius,random,random"]).output
    assert "3-5 players" in runner.invoke(main, ["arena", "-b", "medium,random"]).output
