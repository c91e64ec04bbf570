"""The environment's observations are kept up to date from each seat's successive views
(``SeatObserver``); here they must equal the from-scratch encoding of the same view
(``ObservationEncoder.encode``) at every step, whichever seats are observed when, across
deals, new games and a game put in place of another."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

import rummykit as rk  # noqa: E402
import rummykit.rl as rl  # noqa: E402
from rummykit.rl.encoding import SeatObserver  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def from_scratch(e, seat):
    g = e.game
    acting = not g.is_over and seat == g.current_player
    return e.encoder.encode(g.observe(seat), e._melds if acting else ())


def check_seat(e, seat):
    got = e.observe(e.possible_agents[seat])["observation"]
    want = from_scratch(e, seat)
    bad = np.flatnonzero(got != want)
    assert not len(bad), (f"{e.variant.id} {e.n}p, state {e.game.state_id}, seat {seat}: "
                          f"{[(int(i), float(got[i]), float(want[i])) for i in bad[:8]]}")


def play(e, rng, steps, observe_seats):
    """Random legal moves; before each, ``observe_seats(e)`` says which seats to check."""
    seeds = iter(range(10_000, 20_000))
    for _ in range(steps):
        if all(e.terminations.values()):
            e.reset(seed=next(seeds))
        for seat in observe_seats(e):
            check_seat(e, seat)
        ids = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(ids[rng.randrange(len(ids))]))


@pytest.mark.parametrize("vid, n, episode", [
    ("contract", 4, "match"), ("basic", 2, "match"), ("may-i", 4, "deal"), ("shanghai", 3, "deal"),
    ("liverpool", 5, "deal"), ("progressive", 3, "deal"), ("wrotham", 6, "deal"), ("ten-card", 5, "deal"),
    ("block", 6, "deal"), ("seven-hand", 4, "deal"), ("denexa", 3, "deal"),
    ("combination", 3, "deal"), ("traditional", 4, "deal"),
])
def test_every_seat_every_step_equals_the_from_scratch_encoding(vid, n, episode):
    e = rl.env(vid, n, episode=episode)
    e.reset(seed=3)
    play(e, random.Random(3), 1500, lambda e: range(e.n))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vid=st.sampled_from(["contract", "basic", "may-i", "shanghai", "liverpool", "progressive",
                            "combination", "shanghai-powe", "wrotham", "ten-card", "seven-hand"]),
       seed=st.integers(0, 10_000), every=st.integers(1, 7))
def test_seats_observed_now_and_then_still_get_the_from_scratch_vector(vid, seed, every):
    """A seat observed only at some steps (its last view long gone, the table and the deal
    changed since) gets the same vector as one observed at every step."""
    lo, hi = rk.get_variant(vid).spec.players
    rng = random.Random(seed)
    n = rng.randint(lo, hi)
    e = rl.env(vid, n, episode=rng.choice(["deal", "match"]))
    e.reset(seed=seed)
    play(e, rng, 300, lambda e: [s for s in range(e.n) if rng.randrange(every) == 0])


def test_a_game_put_in_place_of_another_is_encoded_afresh():
    e = rl.env("contract", 4)
    e.reset(seed=1)
    play(e, random.Random(1), 120, lambda e: range(e.n))
    other = rk.new_game("contract", players=4, seed=99)
    for _ in range(40):
        acts = other.legal_actions()
        other.apply(acts[len(acts) // 2])
    e.game = other
    e._refresh()
    for seat in range(4):
        check_seat(e, seat)


def test_an_observer_reads_the_views_alone():
    """Fed the views of two unrelated games in turn, it gives each one's own vector."""
    e = rl.env("shanghai", 4)
    games = [rk.new_game("shanghai", players=4, seed=s) for s in (5, 6)]
    ob = SeatObserver(e.encoder, 2)
    rng = random.Random(0)
    for _ in range(200):
        g = games[rng.randrange(2)]
        if g.is_over:
            continue
        v = g.observe(2)
        assert np.array_equal(ob.update(v), e.encoder.encode(v))
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])


@pytest.mark.parametrize("vid, n", [("contract", 4), ("basic", 2), ("may-i", 5), ("progressive", 3)])
def test_the_view_observe_builds_is_the_one_its_fields_build_by_name(vid, n):
    """``observe`` builds a View in one call, its fields in order (compiled: set in C); the
    same fields given by name give an equal View, field for field, and the table's meld views
    rebuild through their dataclass constructor to equal ones."""
    import dataclasses

    from rummykit.engine.view import FIELDS, View

    g = rk.new_game(vid, players=n, seed=2)
    rng = random.Random(2)
    for _ in range(300):
        if g.is_over:
            break
        for seat in (*range(n), None):
            v = g.observe(seat)
            again = View(**{f: getattr(v, f) for f in FIELDS})
            assert v == again and type(v) is type(again)
            for f in FIELDS:
                assert type(getattr(v, f)) is type(getattr(again, f))
            assert all(m == dataclasses.replace(m) for m in v.melds)
            assert v.as_dict() == g.view(seat)
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
