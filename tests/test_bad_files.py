"""Damaged and hostile files (issue 14): house-rules files, game-record files and saved-game
databases.  A rules file that loads plays; anything else is refused with the key named.
Every damaged file gets one clear line and exit code 1 from the CLI — no traceback — and
is left byte for byte as it was."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.cli.main import main
from rummykit.play.session import Session
from rummykit.rules.spec import RuleSpec
from rummykit.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError

EXAMPLES = int(os.environ.get("RK_FUZZ", "60"))


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def assert_one_clear_line(result: Any, *words: str) -> str:
    """Exit code 1, one line of output, no traceback, and the line says ``words``."""
    out = result.output.strip()
    assert result.exit_code == 1, out
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out
    assert len(out.splitlines()) == 1, out
    for w in words:
        assert w in out, out
    return out


# -- house-rules files ---------------------------------------------------------------------

RULES_CASES = {
    "extends-empty": ('extends = ""\n', "extends"),
    "extends-dot": ('extends = "."\n', "extends"),
    "extends-folder": ('extends = "sub"\n', "extends"),
    "extends-itself": ('extends = "rules.toml"\n', "extends itself"),
    "extends-a-number": ("extends = 3\n", "extends"),
    "contract-count-10e20": ('extends = "contract"\ncontracts = ["100000000000000000000S3", "S3+R4", "2R4", '
                             '"3S3", "2S3+R4", "S3+2R4", "3R4"]\n', "contracts"),
    "hand-size-overflows-the-pack": ('extends = "basic"\nhand_size = [10]\n', "hand_size"),
    "deals-0": ('extends = "contract"\ndeals = 0\n', "deals"),
    "deals-minus-1": ('extends = "contract"\ndeals = -1\n', "deals"),
    "contract-run-of-1": ('extends = "contract"\ncontracts = ["R1", "S3+R4", "2R4", "3S3", "2S3+R4", '
                          '"S3+2R4", "3R4"]\n', "contracts"),
    "contract-set-of-1": ('extends = "contract"\ncontracts = ["S1+S3", "S3+R4", "2R4", "3S3", "2S3+R4", '
                          '"S3+2R4", "3R4"]\n', "contracts"),
    "contract-pair-of-3": ('extends = "contract"\ncontracts = ["P3", "S3+R4", "2R4", "3S3", "2S3+R4", '
                           '"S3+2R4", "3R4"]\n', "contracts"),
    "contract-run-of-20": ('extends = "contract"\ncontracts = ["R20", "S3+R4", "2R4", "3S3", "2S3+R4", '
                           '"S3+2R4", "3R4"]\n', "contracts"),
    "contract-no-hand-holds": ('extends = "seven-hand"\nbuying = { enabled = false }\n'
                               'contracts = ["2S3", "S3+R3", "2R3", "2S3+R3", "5S3", "3S3", "3R3", "R3"]\n',
                               "contracts"),
    "jokers-1e9": ('extends = "basic"\npack = [{ players = [2, 6], decks = 1, jokers = 1000000000 }]\n',
                   "jokers"),
    "target-0": ('extends = "basic"\ntarget = 0\n', "target"),
    "target-by-players-0": ('extends = "traditional"\ntarget_by_players = { 2 = 0, 3 = 150, 4 = 200 }\n',
                            "target_by_players"),
    "all-card-values-0": ('extends = "basic"\ncard_values = { A = 0, 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0, '
                          '7 = 0, 8 = 0, 9 = 0, T = 0, J = 0, Q = 0, K = 0, JK = 0 }\n', "card_values"),
    "negative-card-value": ('extends = "basic"\ncard_values = { A = -5 }\n', "card_values"),
    "players-huge": ('extends = "basic"\nplayers = [2, 100000000000]\n', "players"),
    "hand-size-0": ('extends = "basic"\nhand_size = [0]\n', "hand_size"),
    "hand-size-empty": ('extends = "basic"\nhand_size = []\n', "hand_size"),
    "min-run-99": ('extends = "basic"\nmin_run = 99\n', "min_run"),
    # games nobody can win (and, where a deal nobody went out of scores nothing, matches that never end)
    "no-way-to-go-out": ('extends = "traditional"\ngo_out_by_discard = false\n'
                         'go_out_without_discard = false\n', "go_out_by_discard"),
    "melds-before-the-draw-but-must-discard-to-go-out": (
        'extends = "ten-card"\ngo_out_without_discard = false\n', "go_out_without_discard"),
    "no-meld-can-be-made": ('extends = "traditional"\nmin_set = 5\nmin_run = 14\n', "min_set"),
    "whole-hand-deal-longer-than-its-contract": (
        'extends = "contract"\nhand_size = [20, 10, 10, 12, 12, 12, 12]\nwhole_hand_rounds = [1, 7]\n',
        "whole_hand_rounds"),
    "whole-hand-pair": ('extends = "contract"\ncontracts = ["P2", "S3+R4", "2R4", "3S3", "2S3+R4", "S3+2R4", '
                        '"3R4"]\nwhole_hand_rounds = [1, 7]\n', "whole_hand_rounds"),
    "nested-too-deep": ('extends = "basic"\nnotes = ' + "[" * 600 + "]" * 600 + "\n", "nested too deep"),
    "max-stock-reuses-false": ('extends = "basic"\nmax_stock_reuses = false\n', "max_stock_reuses"),
    "buying-in-deal-0": ('extends = "contract"\nbuying = { rounds = [0, 2] }\n', "buying.rounds"),
    "empty-id": ('extends = "basic"\nid = ""\n', "id"),
    "not-toml": ("this is = = not toml\n", "not valid TOML"),
    "not-utf8": (b"extends = \"basic\"\nname = \"\xff\xfe\"\n", "UTF-8"),
}


def _write_rules(tmp_path: Path, text: str | bytes) -> Path:
    (tmp_path / "sub").mkdir(exist_ok=True)
    p = tmp_path / "rules.toml"
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return p


@pytest.mark.parametrize("case", RULES_CASES)
def test_a_house_rules_file_that_cannot_be_played_is_refused_with_the_key_named(tmp_path, case):
    text, key = RULES_CASES[case]
    p = _write_rules(tmp_path, text)
    before = p.read_bytes()
    with pytest.raises(rk.RulesError) as err:
        rk.load_variant(p)
    assert any(key in problem for problem in err.value.problems), err.value.problems
    assert rk.check_rules_file(p) == err.value.problems
    r = run_cli("rules", "check", str(p))
    assert r.exit_code == 1 and "Traceback" not in r.output and key in r.output
    assert all(line.startswith("  - ") for line in r.output.strip().splitlines()[1:])
    assert_one_clear_line(run_cli("rules", "show", str(p)), key)
    assert p.read_bytes() == before


def test_extends_that_go_round_in_a_circle_are_refused(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "./a.toml"\n')
    with pytest.raises(rk.RulesError, match="extends itself"):
        rk.load_variant(tmp_path / "a.toml")


def test_a_folder_given_as_a_rules_file_is_refused(tmp_path):
    with pytest.raises(rk.RulesError, match="folder"):
        rk.load_variant(tmp_path)
    with pytest.raises(rk.RulesError):
        rk.load_variant("")


def test_house_rules_as_options_are_checked_the_same_way():
    with pytest.raises(rk.RulesError, match="deals"):
        rk.get_variant("contract").with_options({"deals": 0})
    with pytest.raises(rk.RulesError, match="options"):
        rk.get_variant("contract").with_options("deals=0")  # type: ignore[arg-type]
    with pytest.raises(rk.RulesError, match="hand_size"):
        rk.new_game("basic", players=6, options={"hand_size": [10]})


def test_every_built_in_ruleset_still_loads():
    for vid in rk.variant_ids():
        assert rk.get_variant(vid).id == vid


def _toml(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        items = [_toml(x) for x in v]
        return "[" + ", ".join(x for x in items if x is not None) + "]"
    items = [(json.dumps(str(k)), _toml(x)) for k, x in v.items()]
    return "{ " + ", ".join(f"{k} = {x}" for k, x in items if x is not None) + " }"


RULE_KEYS = sorted(set(RuleSpec.model_fields) - {"id", "name", "source", "notes"})
small = st.one_of(st.integers(-2, 14), st.sampled_from([0, 1, 100, 10**6, 10**12, -(10**12)]))
rule_value = st.recursive(
    st.one_of(st.none(), st.booleans(), small, st.floats(allow_nan=True), st.text(max_size=5),
              st.sampled_from(["low", "wrap", "penalty", "any", "S3", "2S3+R4", "R1", "players-1", "all"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["players", "decks", "jokers", "enabled", "limit",
                                                             "A", "JK", "2", "3", "x"]), inner, max_size=4)),
    max_leaves=8,
)


def _literals(ann: Any) -> list[Any]:
    if get_origin(ann) is Literal:
        return list(get_args(ann))
    return [x for a in get_args(ann) for x in _literals(a)]


def _near(base: str, key: str) -> st.SearchStrategy[Any]:
    """Values like the ones ``base`` has for ``key``: most house rules are near a real one."""
    field = RuleSpec.model_fields[key]
    v = rk.get_variant(base).raw.get(key, field.default)
    lits = _literals(field.annotation)
    if lits:
        return st.sampled_from(lits)
    if isinstance(v, bool) or field.annotation in (bool, "bool"):
        return st.booleans()
    if isinstance(v, int):
        return st.sampled_from(sorted({-1, 0, 1, 2, 3, 5, 10, v, v + 1, 2 * v, 100}))
    if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
        return st.lists(st.integers(0, 16), min_size=1, max_size=len(v) + 2)
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        parts = ["2S3", "R4", "S3+R4", "M3", "P2", "3R4", "S1", "4S3", "S5+R5+P2", "2R7", "R13"]
        return st.lists(st.sampled_from(parts), min_size=1, max_size=len(v) + 2)
    if isinstance(v, dict) and v:
        return st.fixed_dictionaries({k: st.sampled_from([0, 1, 2, 5, 10, x if isinstance(x, int) else 0])
                                      for k, x in v.items()})
    return rule_value


def _plays(v: rk.Variant, seed: int) -> None:
    """Every pack deals (each player count, the first and the last deal) and random legal
    play goes on without an error."""
    lo, hi = v.spec.players
    deals = v.spec.num_deals()
    rng = random.Random(seed)
    for n in sorted({lo, hi}):
        for first in sorted({1, deals or 1}):
            g = rk.new_game(v, players=n, seed=seed, first_round=first)
            for _ in range(60):
                if g.is_over:
                    break
                g.apply(rng.choice(g.legal_actions()))


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(["basic", "contract", "liverpool", "wrotham", "shanghai", "traditional",
                              "ten-card", "seven-hand", "progressive"]),
       keys=st.lists(st.sampled_from(RULE_KEYS), max_size=3, unique=True), data=st.data())
def test_random_house_rules_files_load_and_play_or_are_refused_by_key(tmp_path, base, keys, data):
    changes = {k: data.draw(st.one_of(_near(base, k), _near(base, k), rule_value)) for k in keys}
    lines = [f'extends = "{base}"']
    for k, v in changes.items():
        text = _toml(v)
        if text is not None:
            lines.append(f"{k} = {text}")
    p = tmp_path / "house.toml"
    p.write_text("\n".join(lines) + "\n")
    try:
        v = rk.load_variant(p)
    except rk.RulesError as e:
        assert e.problems and all(p.strip() for p in e.problems)
        event("refused")
        return
    event("loaded")
    _plays(v, seed=len(lines))


# -- game-record files: rummykit hint FILE ---------------------------------------------------


def _good_record() -> dict[str, Any]:
    g = rk.new_game("basic", players=2, seed=3)
    g.apply("draw")
    return g.record()


RECORD_FILES: dict[str, Callable[[], bytes]] = {
    "empty": lambda: b"",
    "not-utf8": lambda: b"\xff\xfe{}",
    "not-json": lambda: b"this is not a record",
    "a-json-list": lambda: b"[1, 2, 3]",
    "deeply-nested": lambda: b"[" * 100_000,
    "fields-of-the-wrong-type":
        lambda: json.dumps({**_good_record(), "options": "x", "dealer": "x"}).encode(),
    "actions-null": lambda: json.dumps({**_good_record(), "actions": None}).encode(),
    "ruleset-a-list": lambda: json.dumps({**_good_record(), "ruleset": ["basic"]}).encode(),
    "an-illegal-action": lambda: json.dumps({**_good_record(), "actions": ["draw", "draw"]}).encode(),
    "an-empty-meld": lambda: json.dumps({**_good_record(), "actions": ["draw", "meld "]}).encode(),
    "bad-rules": lambda: json.dumps({**_good_record(), "rules": {"id": "x"}}).encode(),
}


@pytest.mark.parametrize("case", RECORD_FILES)
def test_hint_on_a_damaged_record_file_prints_one_line_and_leaves_it_unchanged(tmp_path, case):
    p = tmp_path / "game.json"
    p.write_bytes(RECORD_FILES[case]())
    before = p.read_bytes()
    assert_one_clear_line(run_cli("hint", str(p)), "game.json")
    assert p.read_bytes() == before


def test_hint_on_a_line_that_is_not_in_the_file_says_so(tmp_path):
    p = tmp_path / "games.jsonl"
    p.write_text(json.dumps(_good_record()) + "\n" + json.dumps(_good_record()) + "\n")
    assert_one_clear_line(run_cli("hint", str(p), "--line", "5"), "--line 5")
    assert_one_clear_line(run_cli("hint", str(p), "--line", "0"), "--line 0")


# -- saved-game databases ------------------------------------------------------------------


def _saved(path: Path) -> None:
    """A database with one finished game (bots only) and one unfinished."""
    with Store(path) as store:
        s = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=4)
        gid = store.new_game({**s.game.record(), "actions": None}, ["human", "easy"], 0, "Ann")
        store.db.execute("UPDATE games SET finished = 1.0, scores = '[\"0\", \"0\"]', won = 0 WHERE id = ?",
                         (gid,))


def _damage_text(path: Path, column: str) -> None:
    db = sqlite3.connect(path)
    db.execute(f"UPDATE games SET {column} = CAST(X'FFFE41' AS TEXT)")
    db.commit()
    db.close()


def _our_id_no_tables(path: Path, version: int) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()


def _bad_setup(path: Path) -> None:
    _saved(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET setup = '{not json', seats = '7'")
    db.commit()
    db.close()


def _deep_setup(path: Path) -> None:
    _saved(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET setup = ?", ('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}",))
    db.commit()
    db.close()


def _played(path: Path) -> None:
    """A database as a player leaves it: one unfinished game some moves in (the person's
    and the bots'), one finished game; the write-ahead log folded in (the store closed)."""
    with Store(path) as store:
        s = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=4, name="Ann")
        for _ in range(6):
            if s.human_to_act:
                s.play(s.legal_actions()[0])
            else:
                s.bot_step()
        assert store.game(s.id).actions
    _saved_finished(path)


def _saved_finished(path: Path) -> None:
    with Store(path) as store:
        s = Session.start(store, rk.get_variant("basic"), 2, ["easy"], seed=5)
        store.db.execute("UPDATE games SET finished = 1.0, scores = '[\"0\", \"0\"]', won = 0 WHERE id = ?",
                         (s.id,))


def _flip(path: Path, needle: bytes, at: int, byte: int) -> None:
    """Bytes flipped in the file itself, as a bad disk or a bad copy does: byte ``at`` of
    the first ``needle`` in it becomes ``byte``."""
    _played(path)
    data = bytearray(path.read_bytes())
    i = data.find(needle)
    assert i >= 0, needle
    data[i + at] = byte
    path.write_bytes(bytes(data))


def _flip_page(path: Path, page: int, offset: int, byte: int) -> None:
    _played(path)
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    data[size * (page - 1) + offset] ^= byte
    path.write_bytes(bytes(data))


def _truncated(path: Path) -> None:
    _played(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


# damage inside the file's bytes (issue 42: six commands crashed with UnicodeDecodeError):
# each found by SQLite's check of the file, by reading the schema, or by reading the row
FLIPPED: dict[str, tuple[Callable[[Path], None], str]] = {
    "flipped-bytes-in-the-schema": (lambda p: _flip(p, b"ruleset TEXT NOT NULL", 1, 0xFF), "not UTF-8"),
    "flipped-bytes-in-a-tables-name": (lambda p: _flip(p, b"CREATE TABLE games", 14, 0xE9), "damaged"),
    "flipped-bytes-in-a-players-name": (lambda p: _flip(p, b"Ann", 1, 0xFF), "not UTF-8"),
    "flipped-bytes-in-a-set-up": (lambda p: _flip(p, b'"ruleset": "basic"', 9, ord(";")), "damaged"),
    "flipped-bytes-in-an-action": (lambda p: _flip(p, b"discard ", 2, 0xC0), "not UTF-8"),
    "flipped-bytes-in-a-page-header": (lambda p: _flip_page(p, 2, 0, 0xFF), "damaged"),
    "flipped-bytes-in-a-cell-pointer": (lambda p: _flip_page(p, 2, 8, 0xFF), "damaged"),
    "flipped-bytes-in-the-page-size": (lambda p: _flip(p, b"SQLite format 3\x00", 16, 0x03), "damaged"),
    "cut-in-half": (_truncated, "damaged"),
}


DB_CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "one-byte": (lambda p: p.write_bytes(b"x"), "not a rummykit database"),
    "not-sqlite": (lambda p: p.write_bytes(b"a shopping list\n" * 100), "not a rummykit database"),
    "our-id-no-tables": (lambda p: _our_id_no_tables(p, SCHEMA_VERSION), "damaged"),
    "our-id-version-0": (lambda p: _our_id_no_tables(p, 0), "damaged"),
    "invalid-utf8-ruleset": (lambda p: (_saved(p), _damage_text(p, "ruleset")), "damaged"),
    "invalid-utf8-name": (lambda p: (_saved(p), _damage_text(p, "name")), "damaged"),
    "setup-not-json": (_bad_setup, "damaged"),
    "setup-nested-too-deep": (_deep_setup, "damaged"),
    "read-only-file": (lambda p: (_saved(p), p.chmod(0o444)), "read-only"),
    "read-only-folder": (lambda p: (_saved(p), p.parent.chmod(0o555)), "read-only"),
    "read-only-folder-no-file": (lambda p: p.parent.chmod(0o555), "does not exist"),
    **FLIPPED,
}
PLAY = ["play", "--plain", "--speed", "0", "-v", "basic", "-p", "2", "--seed", "1"]
COMMANDS = [["games"], ["stats"], ["replay", "1", "--no-pause"], ["replay", "2", "--no-pause"],
            ["resume", "1", "--plain", "--speed", "0"], ["hint", "--game", "1"], PLAY]


@pytest.fixture
def db_dir(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    yield d
    d.chmod(0o755)
    for f in d.iterdir():
        f.chmod(0o644)


def _files(d: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(d.iterdir())}


@pytest.mark.parametrize("case", DB_CASES)
def test_every_command_on_a_damaged_database_prints_one_line_and_leaves_the_file_unchanged(db_dir, case):
    make, words = DB_CASES[case]
    path = db_dir / "games.sqlite3"
    make(path)
    before = _files(db_dir)
    refused = 0
    for cmd in COMMANDS:
        r = run_cli(*cmd, "--db", str(path))
        if r.exit_code == 0:  # a command that never reads the damaged part works
            assert "Traceback" not in r.output
            # ... but the commands that write (play, resume) read every row first
            assert cmd[0] not in ("play", "resume"), f"{cmd[0]} wrote to a damaged file:\n{r.output}"
            continue
        out = assert_one_clear_line(r)
        refused += 1
        if words in out or (cmd is PLAY and case == "read-only-folder-no-file" and "read-only" in out):
            continue
        # a damaged row is found by the commands that read it; the others say what they miss
        assert case.startswith(("invalid-utf8", "setup", "flipped-bytes-in-a-", "flipped-bytes-in-an-")), out
    assert refused >= 3
    assert _files(db_dir) == before


@pytest.mark.parametrize("case", DB_CASES)
def test_the_store_refuses_a_damaged_database_with_a_store_error(db_dir, case):
    make, words = DB_CASES[case]
    path = db_dir / "games.sqlite3"
    make(path)
    before = _files(db_dir)
    with pytest.raises(StoreError) as err:
        with Store(path) as store:
            store.games()
            store.game(1)
            store.verify()
    assert isinstance(err.value, ValueError) and err.value.args[0]
    assert _files(db_dir) == before


def test_the_command_line_prints_no_traceback_on_damaged_files(db_dir, tmp_path):
    """The real entry point, in its own process, on each kind of damaged file."""
    db = db_dir / "games.sqlite3"
    _our_id_no_tables(db, SCHEMA_VERSION)
    record = tmp_path / "r.json"
    record.write_bytes(b"\xff\xfe")
    rules = tmp_path / "r.toml"
    rules.write_text('extends = "."\n')
    before = [p.read_bytes() for p in (db, record, rules)]
    for args in (["games", "--db", str(db)], ["hint", str(record)], ["rules", "show", str(rules)]):
        r = subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args], capture_output=True, text=True,
                           timeout=120)
        out = (r.stdout + r.stderr).strip()
        assert r.returncode == 1 and "Traceback" not in out and len(out.splitlines()) == 1, out
    assert [p.read_bytes() for p in (db, record, rules)] == before


def test_a_new_database_is_still_created_by_the_store_and_used(db_dir):
    # reading commands never create a database (issue 19); a game's store does
    path = db_dir / "new" / "games.sqlite3"
    r = run_cli("games", "--db", str(path))
    assert r.exit_code == 1 and "does not exist" in r.output and not path.parent.exists()
    path.parent.mkdir()
    with Store(path) as store:
        assert store.games() == []
    r = run_cli("games", "--db", str(path))
    assert r.exit_code == 0 and "No games yet" in r.output
    r = run_cli("stats", "--db", str(path))
    assert r.exit_code == 0


def test_a_rules_file_that_starts_with_a_byte_order_mark_loads(tmp_path):
    """Some editors write a UTF-8 byte-order mark first: it is no part of the rules (it was
    refused as "Invalid statement (at line 1, column 1)")."""
    p = _write_rules(tmp_path, b'\xef\xbb\xbfextends = "basic"\nname = "Ours"\n')
    assert rk.load_variant(p).spec.name == "Ours"


FLIP_TRIALS = int(os.environ.get("RK_FLIP_TRIALS", "25"))


def test_bits_flipped_at_random_never_give_a_traceback_and_reading_never_writes(db_dir):
    """Bits flipped at random places of a saved-games file (a seeded sweep): every command
    prints a clear line or works, never a traceback, and none but a game that goes on
    (play, resume) changes the file; those change it only where no damage is found (a bit
    flipped in free space, or in a value that still reads as rummykit wrote it)."""
    clean = db_dir / "clean.sqlite3"
    _played(clean)
    data = clean.read_bytes()
    clean.unlink()
    rng = random.Random(42)
    path = db_dir / "games.sqlite3"
    found = 0
    for _ in range(FLIP_TRIALS):
        flipped = bytearray(data)
        for _ in range(rng.choice([1, 2, 8])):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        for cmd in COMMANDS:
            path.write_bytes(bytes(flipped))
            r = run_cli(*cmd, "--db", str(path))
            assert r.exception is None or isinstance(r.exception, SystemExit), (cmd, repr(r.exception))
            assert "Traceback" not in r.output
            if r.exit_code != 0:
                assert_one_clear_line(r)
                found += "damaged" in r.output or "not a rummykit database" in r.output
            if r.exit_code != 0 or cmd[0] not in ("play", "resume"):
                assert path.read_bytes() == bytes(flipped), cmd
            assert sorted(f.name for f in db_dir.iterdir()) == ["games.sqlite3"]
    print(f"\n{FLIP_TRIALS} files with bits flipped: {found} refusals naming the damage")
