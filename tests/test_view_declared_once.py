"""The view declared once (issue 41): every public fact of a seat's view is one entry of
``engine/viewspec.py``, and the code that writes the view out (``seen.py``, ``view.py``) is
generated from it, in marked regions.  These tests fail while a region is stale, while the
declaration and the View, the dict, ``as_view`` and the turn machine's resets disagree, or
while a seat is shown what it may not see."""

from __future__ import annotations

import json
import random
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from helpers import played_at_random

import rummykit as rk
from rummykit.cards import Card
from rummykit.engine import flow, viewgen, viewspec
from rummykit.engine import state as state_module
from rummykit.engine.seen import ViewFields, seen_view, turn_values, view_dict
from rummykit.engine.state import TURN_STATE, Phase, State
from rummykit.engine.view import FIELDS, SEAT_KEYS, View, as_view, build_view, build_views, observe
from rummykit.players import make_player

FACTS = {f.name: f for f in viewspec.FACTS}
# rulesets enough to show every fact and every kind of deal: a one-deal game, contracts (buys,
# May I, Shanghai calls, the cut), a ten-card deal, a pat hand, Progressive's settlement
RULESETS = ("basic", "contract", "may-i", "liverpool", "shanghai", "ten-card", "seven-hand", "progressive")


def test_the_generated_code_is_what_the_declaration_makes_now():
    stale = viewgen.stale()
    assert not stale, f"stale: {sorted(p.name for p in stale)}; run python -m rummykit.engine.viewgen"


def test_the_generator_writes_nothing_twice_and_finds_every_region():
    for name, regions in viewgen.REGIONS.items():
        text = (viewgen.HERE / name).read_text()
        once = viewgen.render(text, regions, name)
        assert viewgen.render(once, regions, name) == once
    with pytest.raises(ValueError, match="no marker"):
        viewgen.render("x = 1\n", viewgen.REGIONS["view.py"], "view.py")


def test_the_declaration_is_whole_and_consistent():
    names = [f.name for f in viewspec.FACTS]
    assert len(set(names)) == len(names)
    assert FIELDS == tuple(names)
    keys = [k if isinstance(k, str) else k.name for k in viewspec.JSON_KEYS]
    assert len(set(keys)) == len(keys)
    assert sorted(k for k in keys if k in FACTS) == sorted(names)  # every fact once in the dict
    # an optional key comes last: the dict has it only when it is not None
    optional = [k for k in keys if k in FACTS and FACTS[k].optional]
    assert keys[len(keys) - len(optional):] == optional
    state_fields = {f.name: f for f in fields(State)}
    for f in viewspec.FACTS:
        assert f.who in viewspec.WHO and f.life in viewspec.LIVES, f.name
        assert (f.life == viewspec.SETUP) == (not f.state and f.name != "turn_state"), f.name
        assert all(s in state_fields for s in f.state), f.name
        assert (f.who == viewspec.PUBLIC) == (f.name not in SEAT_KEYS), f.name
    lives = viewspec.state_lives()  # (raises if two facts disagree)
    assert set(lives.values()) <= {viewspec.MATCH, viewspec.DEAL, viewspec.TURN}
    assert TURN_STATE == tuple((t.key, t.field, t.kind) for t in viewspec.TURN_FACTS)
    st = rk.new_game("contract", players=4, seed=1).state
    for t in viewspec.TURN_FACTS:
        assert t.field in state_fields and t.kind in ("plain", "card", "cards")
        assert t.many == isinstance(getattr(st, t.field), list), t.key
    assert turn_values(st) == tuple(
        tuple(v) if isinstance(v, list) else v for v in (getattr(st, t.field) for t in viewspec.TURN_FACTS)
    )


def test_every_public_name_is_where_it_was():
    import rummykit.engine.seen as seen
    import rummykit.engine.view as view

    for name in ("View", "FIELDS", "as_view", "build_view", "build_views", "observe", "MeldView"):
        assert hasattr(view, name), name
    for name in ("ViewFields", "view_dict", "seen_view", "turn_values", "MeldView"):
        assert hasattr(seen, name), name
    assert issubclass(View, ViewFields) and callable(seen_view)


# ------------------------------------------------------------------ views from real games


def _games() -> list[rk.Game]:
    """Positions of seeded games: random play part way, and a whole match of medium bots."""
    out: list[rk.Game] = []
    for vid in RULESETS:
        n = rk.get_variant(vid).spec.players[0]
        g = rk.new_game(vid, players=max(n, 3), seed=7)
        rng = random.Random(7)
        for step in range(160):
            if g.is_over:
                break
            if step % 40 == 39:
                out.append(g.copy())
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
        out.append(g)
    for vid in ("progressive", "basic"):  # to the end: the final view, settlement and all
        g = rk.new_game(vid, players=3, seed=2)
        bots = [make_player("medium", seed=i) for i in range(g.n)]
        while not g.is_over:
            p = g.current_player
            g.apply(bots[p].choose(g.observe(p), g.legal_actions()))
        out.append(g)
    return out


@pytest.fixture(scope="module")
def games() -> list[rk.Game]:
    return _games()


def _json_keys(v: View) -> list[str]:
    keys = []
    for k in viewspec.JSON_KEYS:
        name = k if isinstance(k, str) else k.name
        if isinstance(k, str) and FACTS[k].optional and getattr(v, k) is None:
            continue
        keys.append(name)
    return keys


def test_every_fact_is_in_the_view_and_the_dict_and_comes_back_through_as_view(games):
    settled = 0
    for g in games:
        for seat in [*range(g.n), None]:
            v = g.observe(seat)
            d = view_dict(v)
            assert list(d) == _json_keys(v)  # the dict's keys, in the declared order
            assert d == g.view(seat) == build_view(g.setup, g.state, seat)
            for f in viewspec.FACTS:
                getattr(v, f.name)  # a field of the View
            again = as_view(d)
            assert again == v and type(again) is View
            assert as_view(json.loads(json.dumps(d))) == v
            assert view_dict(again) == d
            settled += d.get("settlement") is not None
    assert settled  # (a Progressive match was played to its settlement)


def test_the_view_of_the_declaration_is_what_the_state_holds(games):
    """The declared reads, evaluated plainly (not through the generated code), give the
    View's fields: the declaration says what the view is."""
    import rummykit.engine.seen as seen

    for g in games:
        setup, st = g.setup, g.state
        for seat in [*range(g.n), None]:
            v = observe(setup, st, seat)
            scope: dict[str, Any] = {**vars(seen), "setup": setup, "st": st, "seat": seat}
            for name, expr in viewspec.PRELUDE:
                scope[name] = eval(expr, scope)
            for f in viewspec.FACTS:
                want = eval(viewgen.value_expr(f), scope)
                got = v.turn_state if f.name == "turn_state" else getattr(v, f.name)
                if f.name == "turn_state":
                    assert tuple(got.values()) == want
                else:
                    assert got == (tuple(want) if f.name == "log" else want), f.name


def test_a_seat_sees_only_its_own_hand_and_its_own_turn_facts(games):
    own = [f for f in viewspec.FACTS if f.who == viewspec.OWN]
    own_turn = [f for f in viewspec.FACTS if f.who == viewspec.OWN_TURN]
    assert {f.name for f in own} == {"hand"} and {f.name for f in own_turn} == {"taken", "must_place"}
    for g in games:
        st = g.state
        spectator = g.observe(None)
        for f in own + own_turn:  # a spectator: the hidden value
            assert getattr(spectator, f.name) == eval(f.hidden), f.name
        for seat in range(g.n):
            v = g.observe(seat)
            assert v.seat == seat and v.hand == tuple(sorted(st.hands[seat]))
            mine = seat == st.current and st.phase in (Phase.DRAW, Phase.PLAY)
            for f in own_turn:
                if not mine:
                    assert getattr(v, f.name) == eval(f.hidden), (f.name, seat)
            if mine:
                assert v.taken == st.taken and v.must_place == tuple(st.pending)
        # every seat's dict, built at once for the table, is its own view
        seats = [*range(g.n), None]
        together = build_views(g.setup, st, seats)
        for seat in seats:
            assert together[seat] == g.view(seat)
            assert list(together[seat]) == list(g.view(seat))


# ------------------------------------------------------------------ lifetimes and the resets


# State's annotations as written (a compiled State's dataclass fields carry only the classes)
ANNOTATIONS = dict(re.findall(r"^    (\w+): ([^=#\n]+?)(?: =.*)?$",
                              (Path(state_module.__file__).parent / "state.py").read_text(), re.M))


def _junk(name: str, value: Any) -> Any:
    """A value of the field's type that the field cannot hold after a reset."""
    kind = ANNOTATIONS[name]
    if isinstance(value, list):
        return [*value, "junk"]
    if isinstance(value, Phase):
        return Phase.CALL if value is not Phase.CALL else Phase.MAY_I
    if isinstance(value, bool):
        return not value
    if value is None:
        return Card(5) if "Card" in kind else "junk" if "str" in kind else 3
    if isinstance(value, Card | str) or "None" in kind:
        return None
    if isinstance(value, int):
        return value + 1000
    raise AssertionError(f"no junk for State.{name} ({kind})")


def _position(st: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in State.field_names():
        if name in ("rng", "rules", "solver"):
            continue
        x = getattr(st, name)
        if name == "table":
            x = [(m.kind, list(m.cards), m.lo, m.rank, m.suit, m.wilds, m.owner) for m in x]
        out[name] = repr(x)
    out["rng"] = repr(st.rng.getstate())
    return out


def _mid_deal(vid: str, steps: int = 60) -> rk.Game:
    return played_at_random(vid, 3, steps)


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_start_round_sets_afresh_every_fact_declared_to_live_a_deal_or_a_turn(vid: str):
    """The declaration's lifetimes hold start_round's resets: whatever a State field that
    lives a deal or a turn held before (junk here), the next deal starts the same; a field
    that lives the match is carried over (the deal's number counts on)."""
    g = _mid_deal(vid)
    lives = viewspec.state_lives()
    fresh = [name for name, life in lives.items() if life in (viewspec.DEAL, viewspec.TURN)]
    clean, dirty = g.state.copy(), g.state.copy()
    for name in fresh:
        setattr(dirty, name, _junk(name, getattr(dirty, name)))
    flow.start_round(g.setup, clean)
    flow.start_round(g.setup, dirty)
    a, b = _position(clean), _position(dirty)
    for name in fresh:
        assert a[name] == b[name], f"start_round keeps State.{name}, declared to live a {lives[name]}"
    before = g.state
    for name, life in lives.items():
        if life == viewspec.MATCH:
            want = before.round_no + 1 if name == "round_no" else getattr(before, name)
            assert getattr(clean, name) == want, f"start_round changed State.{name}, which lives the match"


@pytest.mark.parametrize("vid", ["contract", "seven-hand", "ten-card"])
def test_reset_turn_sets_afresh_every_fact_declared_to_live_a_turn(vid: str):
    g = _mid_deal(vid, 45)
    lives = viewspec.state_lives()
    turn = [name for name, life in lives.items() if life == viewspec.TURN]
    assert turn
    clean, dirty = g.state.copy(), g.state.copy()
    for name in turn:
        setattr(dirty, name, _junk(name, getattr(dirty, name)))
    flow.reset_turn(clean)
    flow.reset_turn(dirty)
    assert _position(clean) == _position(dirty)


def test_a_view_is_built_from_the_declared_fields_in_order():
    v = rk.new_game("shanghai", players=4, seed=4).observe(1)
    values = [getattr(v, f) for f in FIELDS]
    assert View(*values) == v
    assert View(**dict(zip(FIELDS, values, strict=True))) == v
    values[FIELDS.index("log")] = list(v.log)
    assert View(*values, log_length=0).log == ()  # (the extra argument, after the facts)
