"""Invariants over random legal play (hypothesis chooses the seeds): for every ruleset and
every player count, cards are conserved after every action, every game ends, views leak
nothing, replays are exact and illegal actions change nothing."""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import all_cards, fingerprint, full_pack, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummykit as rk

ENGINE_RULESETS = ["basic", "traditional", "block", "wrotham", "contract", "liverpool", "may-i",
                   "denexa", "combination"]
CALL_RULESETS = ["shanghai", "shanghai-powe", "shanghai-kolsov", "progressive", "ten-card", "seven-hand"]
PAIRS = [(v, n) for v in ENGINE_RULESETS
         for n in range(rk.get_variant(v).spec.players[0], rk.get_variant(v).spec.players[1] + 1)]
CALL_PAIRS = [(v, n) for v in CALL_RULESETS
              for n in range(rk.get_variant(v).spec.players[0], rk.get_variant(v).spec.players[1] + 1)]
ONE_DECK = {"basic", "traditional", "block"}
OWN_KEYS = {"seat", "hand", "taken", "must_place"}
CARD_RE = re.compile(r"\b(?:[A2-9TJQK][CDHS]|JK)\b")
MAX_DECISIONS = 60_000


def public_cards(g, round_actions: list[str]) -> set[str]:
    """Card faces anyone at the table has seen this round."""
    seen: set[str] = set()
    for ev in g.log:
        if ev["verb"] == "deal":
            seen.add(ev["card"])
    for text in round_actions:
        seen.update(CARD_RE.findall(text))
    for m in g.table:
        seen.update(str(c) for c in m.cards)
    return seen


def check_views(g, round_actions: list[str]) -> None:
    views = [g.view(s) for s in range(g.n)]
    json.dumps(views[0])  # JSON-safe (the others differ only in their own facts)
    # everything but a seat's own facts is the same for every seat: nothing private there
    shared = [{k: v for k, v in view.items() if k not in OWN_KEYS} for view in views]
    assert all(s == shared[0] for s in shared[1:])
    for ev in g.log:
        if ev["verb"] in ("draw", "restock"):  # no card drawn from the stock is named
            assert set(ev) <= {"seat", "verb", "text", "source", "reuses"}
            assert not CARD_RE.findall(ev["text"])
    if g.spec.id in ONE_DECK:
        seen = public_cards(g, round_actions)
        for seat, view in enumerate(views):
            shown = {k: v for k, v in view.items() if k not in ("hand", "last_round")}
            # the scoring at a round's end shows every hand: that part is public
            shown["log"] = [ev for ev in view["log"] if ev["verb"] != "round_end"]
            text = json.dumps(shown)
            for other in range(g.n):
                if other == seat:
                    continue
                for c in g.hands[other]:
                    if str(c) not in seen:
                        assert str(c) not in text, f"seat {seat} sees {c} of seat {other}"
            for c in g.stock:
                if str(c) not in seen:
                    assert str(c) not in text, f"seat {seat} sees stock card {c}"


BAD_ACTIONS = ["discard {c}", "layoff {c} 1", "layoff {c} 9", "swap {c} 1", "meld {c} {d} {e}",
               "take", "draw", "buy", "pass", "cut", "draw both", "meld {c} {d} {e} / {c} {d} {e}",
               "discard", "frobnicate", "layoff JK=9H 1", "meld {c}"]


def try_bad_action(g, rng: random.Random) -> None:
    """An action that may well be illegal: if it is, nothing may change."""
    cards = ["AH", "7S", "KD", "2C", "JK", "9H", "TC", "5D"]
    text = rng.choice(BAD_ACTIONS).format(c=rng.choice(cards), d=rng.choice(cards), e=rng.choice(cards))
    before = fingerprint(g)
    try:
        g.apply(text)
    except rk.IllegalActionError:
        assert fingerprint(g) == before, text


def play_checked(variant: str, players: int, seed: int) -> None:
    g = rk.new_game(variant, players=players, seed=seed)
    rng = random.Random(seed)
    pack = full_pack(g)
    round_no, round_start = g.round_no, 0
    steps = 0

    def new_round() -> None:
        nonlocal round_no, round_start
        if g.round_no != round_no:
            round_no, round_start = g.round_no, len(g.actions)

    while not g.is_over:
        assert steps < MAX_DECISIONS, "the game did not end"
        acts = g.legal_actions()
        assert acts, f"no legal action in phase {g.phase}"
        if rng.random() < 0.02:
            try_bad_action(g, rng)
            new_round()
            if g.is_over:
                break
            acts = g.legal_actions()
        if g.phase in ("may_i", "call") and rng.random() < 0.75:
            g.apply("pass")  # random play, but without the 80-card hands of always buying
        else:
            g.apply(rng.choice(acts))
        new_round()
        steps += 1
        assert all_cards(g) == pack, "cards not conserved"
        assert 0 <= g.current_player < g.n
        if steps % 97 == 0:
            check_views(g, g.actions[round_start:])
    check_views(g, g.actions[round_start:])
    again = rk.replay(json.loads(json.dumps(g.record())))
    assert again.scores == g.scores and again.is_over
    assert [again.view(s) for s in range(g.n)] == [g.view(s) for s in range(g.n)]


@pytest.mark.parametrize("variant,players", PAIRS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=False)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_play_invariants(variant, players, seed):
    play_checked(variant, players, seed)


@pytest.mark.parametrize("variant,players", CALL_PAIRS)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_random_play_invariants_call_rulesets(variant, players, seed):
    play_checked(variant, players, seed)


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(ENGINE_RULESETS + CALL_RULESETS), seed=st.integers(0, 2**31 - 1),
       cut=st.integers(1, 400))
def test_replay_of_a_partial_game_is_exact(variant, seed, cut):
    v = rk.get_variant(variant)
    g = rk.new_game(variant, players=v.spec.players[0] + 1, seed=seed,
                    first_round=1 + seed % (v.spec.num_deals() or 1))
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    again = rk.replay(g.record())
    assert snapshot(again) == snapshot(g)


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(ENGINE_RULESETS + CALL_RULESETS), seed=st.integers(0, 2**31 - 1))
def test_same_seed_and_actions_same_game(variant, seed):
    a = rk.new_game(variant, players=4, seed=seed)
    b = rk.new_game(variant, players=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(150):
        if a.is_over:
            break
        act = rng.choice(a.legal_actions())
        assert act in b.legal_actions()
        a.apply(act)
        b.apply(act)
    assert snapshot(a) == snapshot(b)


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(ENGINE_RULESETS + CALL_RULESETS), seed=st.integers(0, 2**31 - 1))
def test_action_text_round_trip(variant, seed):
    v = rk.get_variant(variant)
    g = rk.new_game(variant, players=4, seed=seed, first_round=1 + seed % (v.spec.num_deals() or 1))
    rng = random.Random(seed)
    for _ in range(200):
        if g.is_over:
            break
        acts = g.legal_actions()
        for a in acts:
            assert rk.parse_action(rk.format_action(a)) == a
        g.apply(rng.choice(acts))
