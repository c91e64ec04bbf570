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
from hypothesis import given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.engine.sample import Determinizer
from rummykit.engine.state import TURN_STATE, Phase, State
from rummykit.engine.view import View, as_view


def _played(vid: str, seed: int, steps: int) -> rk.Game:
    v = rk.get_variant(vid)
    g = rk.new_game(vid, players=v.spec.players[0], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


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
    with pytest.raises(AttributeError):
        v.hand = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        v.turn_state["asked"] = 3  # type: ignore[index]


def test_as_view_names_what_is_wrong_with_a_dict_that_is_not_a_view():
    with pytest.raises(ValueError, match="not a view"):
        as_view({"hand": ["7H"]})


@settings(max_examples=20, deadline=None)
@given(vid=st.sampled_from(rk.variant_ids()), seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_a_determinized_game_is_the_known_position_with_only_unseen_cards_dealt(vid: str, seed: int,
                                                                                 steps: int):
    g = _played(vid, seed, steps)
    if g.is_over:
        return
    seat = g.current_player
    view = g.observe(seat)
    dets = Determinizer(view)
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
