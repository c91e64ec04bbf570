"""The rebuilt engine's seams: the one State declaration, copies, the typed View and the
determinizer that copies the known position."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys

import pytest
from helpers import played_at_random
from hypothesis import given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.engine.sample import Determinizer
from rummykit.engine.state import TURN_STATE, Phase, State
from rummykit.engine.view import FIELDS, View, as_view


def _played(vid: str, seed: int, steps: int) -> rk.Game:
    return played_at_random(vid, seed, steps)


def test_every_turn_fact_a_seat_sees_is_a_field_of_the_one_state():
    names = set(State.field_names())
    for key, field, kind in TURN_STATE:
        assert field in names, key
        assert kind in ("plain", "card", "cards")


def test_phase_is_the_text_the_views_show():
    g = rk.new_game("contract", players=4, seed=1)
    assert g.phase is Phase.DRAW and g.phase == "draw" and g.view(0)["phase"] == "draw"


@settings(max_examples=25, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_a_copy_plays_on_without_touching_the_original(vid: str, seed: int, steps: int):
    g = _played(vid, seed, steps)
    if g.is_over:
        return
    before = json.dumps([g.view(s) for s in range(g.n)], default=str)
    record = g.record()
    for c in (g.copy(), copy.copy(g), copy.deepcopy(g)):
        rng = random.Random(seed + 1)
        for _ in range(40):
            if c.is_over:
                break
            acts = c.legal_actions()
            c.apply(acts[rng.randrange(len(acts))])
        assert json.dumps([g.view(s) for s in range(g.n)], default=str) == before
        assert g.record() == record


@settings(max_examples=15, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_a_pickled_game_plays_on_as_the_original(vid: str, seed: int, steps: int):
    # compiled with mypyc (setup.py), frozen dataclasses and the solver pickle through their
    # own __reduce__: both forms must give the same game
    g = _played(vid, seed, steps)
    c = pickle.loads(pickle.dumps(g))
    assert c.record() == g.record()
    for x in (g, c):
        rng = random.Random(seed + 1)
        for _ in range(40):
            if x.is_over:
                break
            acts = x.legal_actions()
            x.apply(acts[rng.randrange(len(acts))])
    assert c.record() == g.record()


def test_rummykit_pure_python_imports_the_sources():
    code = ("import rummykit, rummykit._compiled as c, rummykit.solver as s, rummykit.engine.flow as f; "
            "print(c.compiled(), s.__file__.endswith('.py'), f.__file__.endswith('.py'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "RUMMYKIT_PURE_PYTHON": "1"}).stdout.split()
    assert out == ["False", "True", "True"]


@settings(max_examples=25, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_the_typed_view_is_the_dict_view(vid: str, seed: int, steps: int):
    g = _played(vid, seed, steps)
    for seat in [*range(g.n), None]:
        d = g.view(seat)
        v = g.observe(seat)
        assert isinstance(v, View)
        assert v.as_dict() == d
        assert dict(v) == d  # the Mapping face
        assert v["hand"] == d["hand"] and v.get("no such key") is None
        again = as_view(json.loads(json.dumps(d)))  # a view read back from JSON
        assert again.as_dict() == d


def test_a_view_cannot_be_changed():
    v = rk.new_game("contract", players=4, seed=2).observe(0)
    for name in FIELDS:
        with pytest.raises(AttributeError):
            setattr(v, name, getattr(v, name))
        with pytest.raises(AttributeError):
            delattr(v, name)
    with pytest.raises(TypeError):
        v.turn_state["asked"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        hash(v)  # equal by value: not a key


def test_a_view_pickles_copies_and_compares_by_its_fields():
    g = rk.new_game("contract", players=4, seed=2)
    for a in g.legal_actions()[:1]:
        g.apply(a)
    v = g.observe(g.current_player)
    back = pickle.loads(pickle.dumps(v))
    assert back == v and type(back) is View and back.as_dict() == v.as_dict()
    assert copy.copy(v) is v and copy.deepcopy(v) is v
    assert v == g.observe(g.current_player) and v != g.observe((g.current_player + 1) % 4)
    assert v != v.as_dict() and "hand" in v and list(v.keys()) == list(v.as_dict())
    assert "View(ruleset='contract'" in repr(v)


def test_as_view_names_what_is_wrong_with_a_dict_that_is_not_a_view():
    with pytest.raises(ValueError, match="not a view"):
        as_view({"hand": ["7H"]})


@settings(max_examples=20, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 150),
       odds=st.sampled_from([None, 0.04, 0.5, 3.0]))
def test_a_determinized_game_is_the_known_position_with_only_unseen_cards_dealt(
        vid: str, seed: int, steps: int, odds: float | None):
    g = _played(vid, seed, steps)
    if g.is_over:
        return
    seat = g.current_player
    view = g.observe(seat)
    # leaning on what the seats' play says (any odds, any cards) deals only hands the view allows
    leaning = None if odds is None else [{rk.Card(f): odds for f in range(s % 3, 53, 3)} for s in range(g.n)]
    dets = Determinizer(view, leaning=leaning)
    for k in range(3):
        s = dets.sample(random.Random(k))
        # what the seat sees of the sample is what it saw of the game (the log included)
        assert s.view(seat) == g.view(seat)
        assert s.legal_actions() == g.legal_actions()
        # the known cards stay with their holders; hand sizes and the stock agree
        for other in range(g.n):
            assert len(s.hands[other]) == len(g.hands[other])
            held = list(s.hands[other])
            for c in g.known[other]:
                held.remove(c)
        assert len(s.stock) == len(g.stock)
        # samples are independent: playing one on leaves the next sample as it was
        acts = s.legal_actions()
        s.apply(acts[0])
        assert dets.sample(random.Random(k)).view(seat) == g.view(seat)


def test_a_source_changed_after_its_module_was_compiled_is_named(tmp_path):
    import os
    from importlib.machinery import EXTENSION_SUFFIXES

    from rummykit._compiled import stale_builds

    pkg = tmp_path / "rummykit"
    (pkg / "engine").mkdir(parents=True)
    for name in ("solver", "engine/flow"):
        (pkg / f"{name}.py").write_text("x = 1\n")
        (pkg / f"{name}{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    os.utime(pkg / "engine/flow.py", (2e9, 2e9))  # edited after the build
    assert stale_builds(pkg) == [os.path.join("rummykit", "engine", "flow.py")]


def test_an_install_that_goes_pure_python_removes_the_old_build_from_src(tmp_path):
    """setup.py: an editable install builds the extensions into src, where an extension
    beside its .py is what Python imports; when a later install goes pure Python (asked
    for, or mypyc failed), the old build must go, or it would keep running."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    built = sorted(root.glob("src/**/*.so"))
    # (imported under another name, setup.py only defines its functions: no build, and
    # nothing removed from the real tree)
    spec = importlib.util.spec_from_file_location("rummykit_setup", root / "setup.py")
    setup_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_py)
    old = []
    for src in setup_py.COMPILED:
        py = tmp_path / src
        py.parent.mkdir(parents=True, exist_ok=True)
        py.write_text("x = 1\n")
        for tag in ("cpython-311-x86_64-linux-gnu.so", "cpython-312-x86_64-linux-gnu.so"):
            old.append(py.with_name(f"{py.stem}.{tag}"))
    old += [tmp_path / "src" / "9aba1b08f356da060bd5__mypyc.cpython-311-x86_64-linux-gnu.so"]
    for p in old:
        p.write_bytes(b"")
    other = tmp_path / "src" / "rummykit" / "cards.cpython-311-x86_64-linux-gnu.so"  # not ours
    other.write_bytes(b"")
    keep = frozenset({str(old[0].resolve())})
    assert setup_py.old_extensions(tmp_path, keep) == sorted(old[1:])
    setup_py.remove_old_extensions(tmp_path)
    assert not any(p.exists() for p in old) and other.exists()
    assert all((tmp_path / src).exists() for src in setup_py.COMPILED)
    assert sorted(root.glob("src/**/*.so")) == built  # the checkout's own build is untouched


@settings(max_examples=20, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000),
       reads=st.lists(st.integers(0, 150), max_size=4))
def test_the_record_reads_every_action_as_its_text_however_often_it_is_read(vid: str, seed: int,
                                                                             reads: list[int]):
    """The engine keeps each action as played and writes its text when the record is read:
    reading it now and then mid-game, or only at the end, gives the same texts."""
    v = rk.get_variant(vid)
    g = rk.new_game(vid, players=v.spec.players[0], seed=seed)
    rng = random.Random(seed)
    texts: list[str] = []
    for step in range(150):
        if g.is_over:
            break
        acts = g.legal_actions()
        a = acts[rng.randrange(len(acts))]
        texts.append(a.text())
        g.apply(a)
        if step in reads:
            assert g.actions == texts
    assert g.actions == texts
    assert g.record()["actions"] == g.actions
    assert rk.replay(g.record()).actions == g.actions


def _reference_view(g: rk.Game, seat: int | None) -> View:
    """A seat's View written out from the State the slow, plain way (the observer before it
    was compiled): what ``observe`` must give, field for field."""
    from rummykit.engine.flow import buy_limit, contract_text
    from rummykit.engine.view import MeldView

    s, sp = g.state, g.setup.spec
    lim = buy_limit(g.setup, s) if sp.buying is not None and sp.buy_allowed(s.round_no) else None
    own_turn = seat == s.current and s.phase in (Phase.DRAW, Phase.PLAY)
    turn = {key: (tuple(v) if isinstance(v, list) else v)
            for key, name, _kind in TURN_STATE for v in [getattr(s, name)]}
    return View(
        ruleset=sp.id, name=sp.name, seat=seat, players=g.setup.n, round=s.round_no, deals=g.setup.deals,
        dealer=s.dealer, contract=contract_text(g.setup, s),
        current_player=s.asked if s.asked is not None else s.current, turn=s.current,
        phase=Phase.OVER if s.is_over else s.phase,
        hand=() if seat is None else tuple(sorted(s.hands[seat])),
        hand_sizes=tuple(len(h) for h in s.hands), stock_size=len(s.stock), discard_pile=tuple(s.discard),
        melds=tuple(MeldView(i + 1, m.owner, m.kind, tuple(m.cards), m.suit, m.lo, m.rank)
                    for i, m in enumerate(s.table)),
        down=tuple(s.down), buys=tuple(s.buys),
        buys_left=None if lim is None else tuple(max(0, lim - b) for b in s.buys),
        stock_reuses=s.stock_reuses, scores=tuple(s.scores), kitty=s.kitty, log=tuple(s.log),
        last_round=s.last_round, is_over=s.is_over, winners=tuple(s.winners), state_id=s.state_id,
        taken=s.taken if own_turn else None, must_place=tuple(s.pending) if own_turn else (),
        known=tuple(tuple(sorted(k)) for k in s.known), turn_state=turn,
        settlement=None if not s.is_over or s.settlement is None else tuple(s.settlement),
    )


@settings(max_examples=30, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_what_a_seat_sees_is_read_from_the_state_field_for_field(vid: str, seed: int, steps: int):
    """``observe`` (compiled where the install built it) gives the View a plain reading of the
    State gives, for every seat and a spectator: the own hand and own-turn facts to the seat
    alone, the turn state under every key of TURN_STATE, in order."""
    g = _played(vid, seed, steps)
    for seat in [*range(g.n), None]:
        v, ref = g.observe(seat), _reference_view(g, seat)
        for f in FIELDS:
            if f == "turn_state":
                assert list(v.turn_state.items()) == list(ref.turn_state.items())
            else:
                assert getattr(v, f) == getattr(ref, f), f
                assert type(getattr(v, f)) is type(getattr(ref, f)), f


@settings(max_examples=20, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000))
def test_every_view_shows_the_hand_and_the_known_cards_sorted_at_every_step(vid: str, seed: int):
    """A view mends the hand it sorted last (a card came or left) and the state keeps the
    known cards in order: at every step of a game, for every seat, they are the state's
    cards sorted, as a plain sort gives them."""
    g = rk.new_game(vid, players=rk.get_variant(vid).spec.players[0], seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if g.is_over:
            break
        for seat in range(g.n):
            v = g.observe(seat)
            assert v.hand == tuple(sorted(g.state.hands[seat]))
            assert v.known == tuple(tuple(sorted(k)) for k in g.state.known)
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("read_first", [False, True])
def test_a_views_log_is_the_log_when_it_was_taken_however_the_game_goes_on(read_first):
    """A View keeps the deal's log list and its length, and copies it only when read: read
    before or after more play (into the next deal, which starts a new list), it is the same."""
    g = rk.new_game("contract", players=4, seed=5)
    rng = random.Random(2)
    for _ in range(30):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    v = g.observe(0)
    then = tuple(g.state.log)
    if read_first:
        assert v.log == then
    while g.round_no == 1 and not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    assert g.round_no == 2 and len(then) == 30
    assert v.log == then and tuple(v["log"]) == then


# -- rule facts named once ------------------------------------------------------------------

def test_each_rule_fact_is_named_once_on_the_spec_and_read_by_that_name():
    """``high_wins``, the swap facts, ``buy_penalty(deal)`` and ``buy_limit(deal)`` are
    properties of the RuleSpec; nothing outside the rules' own rooms reads the fields they
    come from (``scoring``, ``swap``, a buy's per-deal tables)."""
    from pathlib import Path

    src = Path(rk.__file__).parent
    own = {src / "rules" / "spec.py", src / "rules" / "describe.py", src / "rules" / "options.py",
           src / "rules" / "registry.py"}
    raw = ('scoring == "winner_takes"', 'scoring != "winner_takes"', ".swap ==", ".swap !=", ".swap in",
           "extra_cards_by_round.get", "limit_by_round.get", "SWAP_ON_CONTRACT_TURN")
    found = [f"{p.relative_to(src)}: {word}" for p in sorted(src.rglob("*.py")) if p not in own
             for word in raw if word in p.read_text()]
    assert not found, found


@pytest.mark.parametrize("vid, high, on_turn, placed, new_meld", [
    ("basic", True, False, False, False),
    ("wrotham", True, True, False, False),
    ("contract", False, False, True, False),
    ("denexa", False, False, True, True),
    ("combination", False, True, True, False),
    ("may-i", False, False, False, False),
])
def test_the_spec_names_who_wins_and_what_a_swapped_wild_must_do(vid, high, on_turn, placed, new_meld):
    sp = rk.get_variant(vid).spec
    assert (sp.high_wins, sp.swap_on_contract_turn, sp.swapped_wild_placed, sp.swapped_wild_to_new_meld) == (
        high, on_turn, placed, new_meld)


def test_the_spec_names_each_deals_buy_penalty_and_limit():
    sp = rk.get_variant("progressive").spec  # buying in deals 9-14; deals 12-13: a card, two buys
    assert [sp.buy_penalty(d) for d in (8, 9, 12)] == [0, 0, 1]
    assert [sp.buy_limit(d) for d in (9, 12)] == [1, 2]


def test_a_seat_that_discarded_a_rank_in_a_deal_of_sets_is_dealt_that_rank_seldom():
    # Contract Rummy deal 1 (two sets of three): seat 1 drew and threw 9S; hard's deals of
    # the unseen cards (infer=1) give seat 1 a nine seldom, where an even deal gives it
    # about three in every four samples
    from conftest import deal, play

    from rummykit.players.search import LEAN_SETS, SearchPlayer

    g = deal("contract", ["2C 3C 5S 6S 9C KC KD 3D 8D JD", "4D 5D 6D 7S 9S JC QD 2H 6H 7H",
                          "AS 2S 6C 8C 8H TH JH QH AD 4H"], "KS", "QC 2D 3D 5H")
    play(g, "draw", "pass", "pass", "discard 9S")  # seat 1 plays first: it drew QC and threw 9S
    seat = 2
    view = g.observe(seat)
    hard = SearchPlayer(0, infer=1)
    lean = hard.leaning(view, g.variant)
    assert lean is not None and lean[seat] == {} and lean[0] == {}
    assert lean[1] == {rk.Card(9 - 1 + 13 * k): LEAN_SETS for k in range(4)}
    nines = {rk.Card(8 + 13 * k) for k in range(4)}
    even, leaning = Determinizer(view), Determinizer(view, leaning=lean)
    count = [sum(c in nines for k in range(400) for c in d.sample(random.Random(k)).hands[1])
             for d in (even, leaning)]
    assert count[0] > 200 and count[1] < count[0] / 5, count
    assert SearchPlayer(0).leaning(view, g.variant) is not None  # (asked for; used only with infer=1)


def test_a_seat_that_discarded_a_card_in_a_deal_of_runs_is_dealt_it_and_its_neighbours_seldom():
    # Contract Rummy deal 3 (two runs of four): seat 1 threw 9S; in medium's play such a
    # seat holds 9S, then 8S and TS, then 7S and JS, less often than other cards
    from conftest import deal, play

    from rummykit.players.search import LEAN_RUNS, SearchPlayer

    g = deal("contract", ["2C 3C 5S 6S 9C KC KD 3D 8D JD", "4D 5D 6D 7S 9S JC QD 2H 6H 7H",
                          "AS 2S 6C 8C 8H TH JH QH AD 4H"], "KH", "QC 2D 3D 5H", first_round=3)
    play(g, "draw", "pass", "pass", "discard 9S")
    lean = SearchPlayer(0, infer=1).leaning(g.observe(2), g.variant)
    assert lean is not None
    P = rk.parse_card
    assert lean[1] == {P("9S"): LEAN_RUNS[0], P("8S"): LEAN_RUNS[1], P("TS"): LEAN_RUNS[1],
                       P("7S"): LEAN_RUNS[2], P("JS"): LEAN_RUNS[2]}
    assert lean[0] == lean[2] == {}


@pytest.mark.parametrize("odds", [0, -1.0, float("nan"), float("inf"), "2"])
def test_leaning_odds_that_are_not_a_finite_number_above_0_are_refused(odds):
    g = rk.new_game("contract", players=4, seed=1)
    with pytest.raises(ValueError, match="must be a finite number above 0"):
        Determinizer(g.observe(0), leaning=[{}, {rk.parse_card("9S"): odds}, {}, {}])
