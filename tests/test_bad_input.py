"""Bad input through the public API (issue 14): wrongly typed or random action objects,
view seats, new_game arguments and game records.  Each is accepted and replays, or is
refused with a ValueError subclass whose message says what is wrong — and the game is
exactly as it was (its record, every seat's view, every engine field)."""

from __future__ import annotations

import dataclasses
import os
import random
from typing import Any

import pytest
from conftest import deal, fingerprint, snapshot
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rummykit as rk
from rummykit.cards import Card
from rummykit.engine.game import Game

# RK_FUZZ=5000 pytest tests/test_bad_input.py runs a long fuzz; the default stays quick
EXAMPLES = int(os.environ.get("RK_FUZZ", "120"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def state(g: Game) -> str:
    return snapshot(g) + fingerprint(g)


def refused_unchanged(g: Game, action: Any) -> rk.IllegalActionError:
    before = state(g)
    with pytest.raises(rk.IllegalActionError) as err:
        g.apply(action)
    assert str(err.value).strip()
    assert state(g) == before
    return err.value


# -- positions to throw things at --------------------------------------------------------


def _advance(variant: str, players: int, seed: int, until, limit: int = 3000) -> dict[str, Any]:
    """The record of a game played by random legal moves (melds and lay-offs preferred)
    until ``until(g)``."""
    g = rk.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if until(g):
            return g.record()
        legal = g.legal_actions()
        plays = [a for a in legal if isinstance(a, (rk.Meld, rk.LayOff, rk.Swap))]
        g.apply(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(legal))
    raise AssertionError(f"{variant}: the position was never reached")


def _melds_down(g: Game) -> bool:
    return g.phase == "play" and bool(g.table) and not g.is_over


POSITIONS: dict[str, dict[str, Any]] = {}


def position(name: str) -> Game:
    makers = {
        "basic-after-draw": lambda: _advance("basic", 2, 1, lambda g: g.phase == "play"),
        "basic-melds-down": lambda: _advance("basic", 3, 4, _melds_down),
        "shanghai-melds-down": lambda: _advance("shanghai", 3, 13, _melds_down),
        "contract-may-i": lambda: _advance("contract", 4, 7, lambda g: g.phase == "may_i"),
        "liverpool-cut": lambda: _advance("liverpool", 3, 2, lambda g: g.phase == "cut"),
        "shanghai-call": lambda: _advance("shanghai", 3, 5, lambda g: g.phase == "call"),
        "wrotham-swap": lambda: _advance(
            "wrotham", 3, 3, lambda g: any(isinstance(a, rk.Swap) for a in g.legal_actions())),
    }
    if name not in POSITIONS:
        POSITIONS[name] = makers[name]()
    return rk.replay(POSITIONS[name])


POSITION_NAMES = ["basic-after-draw", "basic-melds-down", "shanghai-melds-down", "contract-may-i",
                  "liverpool-cut", "shanghai-call", "wrotham-swap"]


# -- one test per case of the issue ------------------------------------------------------


def test_an_empty_meld_is_refused_and_changes_nothing():
    g = rk.new_game("basic", players=2, seed=1)
    g.apply("draw")
    e = refused_unchanged(g, rk.Meld(()))
    assert "empty" in str(e)
    refused_unchanged(g, rk.Meld(((),)))
    assert "meld " not in g.actions


@pytest.mark.parametrize("card", [7, 7.0, True, None, b"7H", ["7H"], Card(60)],
                         ids=["int", "float", "bool", "none", "bytes", "list", "card-60"])
def test_a_card_that_is_not_a_card_is_refused(card):
    g = rk.new_game("basic", players=2, seed=1)
    g.apply("draw")
    e = refused_unchanged(g, rk.Discard(card))
    assert "Discard.card" in str(e)
    assert g.actions == ["draw"]


def test_discarding_a_held_card_as_an_int_in_shanghai_changes_nothing():
    """Shanghai, 3 players, seed 13, the first play phase with melds on the table: the int of a
    held card was taken out of the hand before an AttributeError (discard_top '38')."""
    g = rk.new_game("shanghai", players=3, seed=13)
    rng = random.Random(13)
    while not _melds_down(g):
        legal = g.legal_actions()
        plays = [a for a in legal if isinstance(a, rk.Meld)]
        g.apply(rng.choice(plays) if plays else rng.choice(legal))
    held = g.hands[g.current_player][0]
    e = refused_unchanged(g, rk.Discard(int(held)))
    assert "not" in str(e) and repr(int(held)) in str(e)
    assert g.view(0)["discard_top"] != str(int(held))


def test_a_card_given_as_text_in_an_action_object_is_the_card():
    g = rk.new_game("basic", players=2, seed=1)
    g.apply("draw")
    card = str(g.hands[g.current][0])
    g.apply(rk.Discard(card.lower()))
    assert g.actions[-1] == f"discard {card}"
    assert snapshot(rk.replay(g.record())) == snapshot(g)


@pytest.mark.parametrize("meld", ["1", 1.0, None, True, -1, (0,)])
def test_a_meld_number_that_is_not_an_index_is_refused(meld):
    g = position("basic-melds-down")
    card = g.hands[g.current][0]
    e = refused_unchanged(g, rk.LayOff(card, meld))
    assert "LayOff.meld" in str(e)
    refused_unchanged(g, rk.Swap(card, meld))


def test_a_meld_number_past_the_table_is_refused():
    g = position("basic-melds-down")
    card = g.hands[g.current][0]
    e = refused_unchanged(g, rk.LayOff(card, 99))
    assert "no meld 100" in str(e)


@pytest.mark.parametrize("bad", [
    rk.Draw(both="yes"),
    rk.Draw(both=1),
    rk.Meld("7C 7D 7S"),
    rk.Meld((("7C", "7D"),)),
    rk.Meld(((("7C", None, None),),)),
    rk.Meld(((("JK", "JK"),),)),
    rk.Meld(((("JK", 7),),)),
    rk.Meld(((("JK", rk.Rank(14)),),)),
    rk.CallShanghai(discard="7H", layoff=rk.LayOff(rk.parse_card("7H"), 0)),
    rk.CallShanghai(layoff="layoff 7H 1"),
    rk.CallRummy(card=3),
    rk.LayOff(rk.parse_card("7H"), rk.parse_card("2C")),
    rk.Swap(rk.parse_card("7H"), rk.Rank(1)),
    rk.Discard("7H" * 1000),
    "discard",
    None,
    42,
    object(),
    {"verb": "draw"},
])
def test_a_wrongly_typed_field_is_an_illegal_action_error_not_a_type_error(bad):
    g = position("basic-after-draw")
    refused_unchanged(g, bad)


class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_an_object_whose_repr_fails_still_gets_a_message():
    g = position("basic-after-draw")
    assert "Discard.card" in str(refused_unchanged(g, rk.Discard(_BadRepr())))


def test_a_rank_meaning_is_not_taken_for_the_card_with_the_same_number():
    """As ints, the card 7C is 6, like the rank 6: 'JK=7C' on a set of sixes was accepted."""
    g = deal("wrotham", ["2C 3C 4D 8D TH JS QS", "6C 6D 6H JK 9S KD KH"], "5S",
             starter_extra="AH", stock="2S 3S 4S")
    g.apply("meld 6C 6D 6H")
    e = refused_unchanged(g, "layoff JK=7C 1")
    assert "cannot stand for 7C" in str(e)
    refused_unchanged(g, rk.LayOff(rk.JOKER, 0, rk.parse_card("7C")))
    g.apply(rk.LayOff(rk.JOKER, 0, rk.Rank(6)))
    assert g.actions[-1] == "layoff JK=6 1"


@pytest.mark.parametrize("seat", [True, False, "0", 0.0, 99, -1, [0], b"0"])
def test_view_refuses_a_seat_that_is_not_a_seat_number(seat):
    g = rk.new_game("basic", players=2, seed=1)
    with pytest.raises(ValueError, match="seat must be a seat number 0-1"):
        g.view(seat)


@pytest.mark.parametrize("kwargs, name", [
    ({"players": "4"}, "players"),
    ({"players": 4.0}, "players"),
    ({"players": True}, "players"),
    ({"players": 99}, "players"),
    ({"seed": 1.5}, "seed"),
    ({"seed": None}, "seed"),
    ({"seed": "7"}, "seed"),
    ({"dealer": "x"}, "dealer"),
    ({"dealer": 9}, "dealer"),
    ({"dealer": 1.0}, "dealer"),
    ({"deck": "garbage"}, "deck"),
    ({"deck": 5}, "deck"),
    ({"deck": [1.5]}, "deck card 1"),
    ({"deck": [99]}, "deck card 1"),
    ({"deck": ["AH", None]}, "deck card 2"),
    ({"deck": "AH AH"}, "stacked deck"),
    ({"options": "x"}, "options"),
    ({"options": [("target", 50)]}, "options"),
    ({"options": {1: 2}}, "options"),
    ({"options": {"target": {1, 2}}}, "options"),
    ({"options": {"target": "lots"}}, "target"),
    ({"options": {"nonsense": 1}}, "nonsense"),
    ({"first_round": 0}, "first_round"),
    ({"variant": "contract", "players": 3, "first_round": 8}, "first_round"),
    ({"first_round": "1"}, "first_round"),
    ({"variant": ["basic"]}, "variant"),
    ({"variant": None}, "variant"),
    ({"variant": "nope"}, "unknown ruleset"),
])
def test_new_game_names_the_bad_argument(kwargs, name):
    args: dict[str, Any] = {"variant": "basic", "players": 2, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=name):
        rk.new_game(**args)


def test_new_game_takes_numpy_like_ints_and_card_text_in_a_deck():
    class Index:
        def __init__(self, i: int):
            self.i = i

        def __index__(self) -> int:
            return self.i

    g = rk.new_game("basic", players=Index(2), seed=Index(5), dealer=Index(0),
                    deck=["AH", rk.parse_card("2H"), 2])
    assert (g.n, g.seed, g.first_dealer) == (2, 5, 0)
    assert type(g.n) is int and g.record()["deck"] == "AH 2H 3C"
    assert snapshot(rk.replay(g.record())) == snapshot(g)


GOOD = {"ruleset": "basic", "seed": 1, "players": 2, "actions": ["draw"]}


@pytest.mark.parametrize("change, field", [
    ({"options": "x"}, "options"),
    ({"dealer": "x"}, "dealer"),
    ({"actions": None}, "actions"),
    ({"actions": ["draw", 3]}, r"actions\[1\]"),
    ({"ruleset": ["basic"]}, "ruleset"),
    ({"ruleset": None}, "ruleset"),
    ({"seed": "1"}, "seed"),
    ({"seed": 1.5}, "seed"),
    ({"players": True}, "players"),
    ({"first_round": None}, "first_round"),
    ({"deck": 5}, "deck"),
    ({"rules": "contract"}, "rules"),
    ({"rules": {"id": "x"}}, "name"),
    ({"ruleset": "nope"}, "unknown ruleset"),
    ({"actions": ["meld "]}, "action 1"),
])
def test_replay_names_each_bad_field(change, field):
    with pytest.raises(ValueError, match=field):
        rk.replay({**GOOD, **change})


def test_replay_lists_every_bad_field_at_once():
    with pytest.raises(ValueError) as err:
        rk.replay({"ruleset": 1, "seed": "x", "players": None, "actions": "draw"})
    for field in ("ruleset", "seed", "players", "actions"):
        assert f"{field}: " in str(err.value)


def test_apply_leaves_the_game_as_it_was_after_an_unexpected_error(monkeypatch: pytest.MonkeyPatch):
    """A safety net for engine bugs: the action's half-done changes are undone (the game is
    rebuilt from its record) and the error is reported as it is."""
    import rummykit.engine.game as game_module

    g = position("basic-after-draw")
    before = state(g)
    card = g.hands[g.current][0]
    real = game_module.APPLY[rk.Discard]

    def broken(setup: object, st: Any, a: rk.Discard, check: bool) -> None:
        st.hands[st.current].remove(a.card)
        st.discard.append(a.card)
        game_module.APPLY[rk.Discard] = real  # one bug, once
        raise RuntimeError("a bug")

    monkeypatch.setitem(game_module.APPLY, rk.Discard, broken)
    with pytest.raises(RuntimeError, match="a bug"):
        g.apply(rk.Discard(card))
    assert state(g) == before
    g.apply(rk.Discard(card))  # the rebuilt game is whole
    assert g.actions[-1] == f"discard {card}"


# -- property tests ----------------------------------------------------------------------

CARD_TEXT = ["7H", "JK", "10h", "T♥", "x", "", "7", "KS=7", "AS", "2C"]
junk = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 60), st.floats(allow_nan=True), st.text(max_size=4),
    st.sampled_from(CARD_TEXT), st.integers(0, 52).map(Card), st.integers(-1, 15).map(rk.Rank),
    st.just(()), st.lists(st.integers(0, 52), max_size=3), st.binary(max_size=3), st.just(object()),
    st.integers(53, 80).map(Card),
)
item = st.one_of(junk, st.tuples(junk, junk), st.tuples(junk, junk, junk))
group = st.one_of(junk, st.lists(item, max_size=4), st.lists(item, max_size=4).map(tuple))
random_action = st.one_of(
    st.builds(rk.Draw, junk), st.just(rk.Take()),
    st.builds(rk.Meld, st.one_of(junk, st.lists(group, max_size=3))),
    st.builds(rk.LayOff, junk, junk, junk), st.builds(rk.Swap, junk, junk), st.builds(rk.Discard, junk),
    st.just(rk.Buy()), st.just(rk.Pass()), st.builds(rk.CallShanghai, junk, junk),
    st.builds(rk.CallShanghai, st.none(), st.builds(rk.LayOff, junk, junk, junk)),
    st.builds(rk.CallRummy, junk), st.just(rk.Cut()), junk, st.text(max_size=12),
)


def _plausible(g: Game, data: st.DataObject) -> Any:
    """An action near a legal one: a listed action with one field replaced by junk, a held
    card (as a Card, its text or its int), or a meld number near the table's."""
    legal = g.legal_actions()
    hand = g.hands[g.current_player]
    held = st.sampled_from(hand) if hand else st.just(rk.JOKER)
    near = st.one_of(
        held, held.map(str), held.map(int), held.map(lambda c: str(c).lower()), junk,
        st.integers(-1, len(g.table) + 1), st.sampled_from(["9", "9H", "K", rk.Rank(9)]),
    )
    base = data.draw(st.sampled_from(legal)) if legal else rk.Draw()
    fields = [f.name for f in dataclasses.fields(base)]
    if fields and data.draw(st.booleans()):
        name = data.draw(st.sampled_from(fields))
        return dataclasses.replace(base, **{name: data.draw(near)})
    kind = data.draw(st.sampled_from(["discard", "layoff", "swap", "meld", "legal"]))
    if kind == "discard":
        return rk.Discard(data.draw(near))
    if kind == "layoff":
        return rk.LayOff(data.draw(near), data.draw(near), data.draw(st.one_of(st.none(), near)))
    if kind == "swap":
        return rk.Swap(data.draw(near), data.draw(near))
    if kind == "meld":
        return rk.Meld(tuple(tuple(data.draw(st.lists(near, max_size=5)))
                             for _ in range(data.draw(st.integers(0, 2)))))
    return base


def _accepted_or_refused_unchanged(g: Game, action: Any) -> None:
    before = state(g)
    try:
        g.apply(action)
    except ValueError as e:
        assert isinstance(e, rk.IllegalActionError), type(e)
        assert str(e).strip()
        assert state(g) == before
        event("refused")
        return
    event("accepted")
    again = rk.replay(g.record())  # what was accepted was stored as text that replays
    assert snapshot(again) == snapshot(g)
    assert rk.parse_action(g.actions[-1]).text() == g.actions[-1]


@FUZZ
@given(name=st.sampled_from(POSITION_NAMES), action=random_action)
def test_random_action_objects_are_accepted_and_replay_or_change_nothing(name, action):
    _accepted_or_refused_unchanged(position(name), action)


@FUZZ
@given(name=st.sampled_from(POSITION_NAMES), data=st.data())
def test_near_legal_action_objects_are_accepted_and_replay_or_change_nothing(name, data):
    g = position(name)
    _accepted_or_refused_unchanged(g, _plausible(g, data))


json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
              st.text(max_size=6), st.sampled_from(["basic", "contract", "draw", "AH 2H", "meld "])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=10,
)
RECORD_KEYS = ["rummykit", "ruleset", "options", "seed", "players", "dealer", "first_round", "deck",
               "actions", "scores", "rules"]


@FUZZ
@given(changes=st.dictionaries(st.sampled_from(RECORD_KEYS), json_value, max_size=3),
       drop=st.lists(st.sampled_from(RECORD_KEYS), max_size=2), whole=st.one_of(st.none(), json_value))
def test_damaged_records_replay_or_raise_a_value_error_with_a_message(changes, drop, whole):
    rec = position("basic-after-draw").record()
    rec.update(changes)
    for k in drop:
        rec.pop(k, None)
    for record in (rec, whole):
        try:
            g = rk.replay(record)
        except ValueError as e:
            assert str(e).strip()
            event("refused")
            continue
        event("accepted")
        assert snapshot(rk.replay(g.record())) == snapshot(g)


arg = st.one_of(junk, json_value, st.integers(-3, 8))


def mostly(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``good`` three times in four (st.one_of would weigh each of ``bad``'s branches alike)."""
    return st.integers(0, 3).flatmap(lambda i: bad if i == 0 else good)


@FUZZ
@given(variant=mostly(st.sampled_from(["basic", "contract", "liverpool"]), junk),
       players=mostly(st.integers(3, 5), arg), seed=mostly(st.integers(), arg),
       options=mostly(st.one_of(st.none(), st.just({}),
                                st.fixed_dictionaries({"target": st.integers(1, 500)})),
                      st.one_of(json_value, st.dictionaries(
                          st.sampled_from(["target", "hand_size", "deals", "min_run", "x"]), arg))),
       deck=mostly(st.one_of(st.none(), st.lists(st.sampled_from(["AH", "2C", "JK", "TD"]), max_size=4)),
                   st.one_of(arg, st.lists(st.one_of(st.sampled_from(CARD_TEXT), arg), max_size=6))),
       dealer=mostly(st.one_of(st.none(), st.integers(0, 2)), arg), first_round=mostly(st.just(1), arg))
def test_new_game_with_random_arguments_gives_a_game_that_replays_or_a_value_error(
        variant, players, seed, options, deck, dealer, first_round):
    try:
        g = rk.new_game(variant, players, seed, options, deck=deck, dealer=dealer, first_round=first_round)
    except ValueError as e:
        assert str(e).strip()
        event("refused")
        return
    event("accepted")
    assert snapshot(rk.replay(g.record())) == snapshot(g)
