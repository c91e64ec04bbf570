"""One position, one set of moves (issue 13, class 1): ``legal_actions()`` — and the order
it lists them in — is a function of the position alone, never of the history of queries,
so a game rebuilt from its record offers exactly what the uninterrupted game offered, and a
resumed game continued by the same seeded bots ends exactly as the uninterrupted one.

``RUMMYKIT_REPLAY_STEPS`` sets how many actions of each game are checked step by step
(each step rebuilds the game from its record, so the cost grows with the square)."""

import os
import random

import pytest
from conftest import deal, play

import rummykit as rk
from rummykit.players import make_player

STEPS = int(os.environ.get("RUMMYKIT_REPLAY_STEPS", "160"))
P = rk.parse_cards


def texts(g) -> list[str]:
    return [rk.format_action(a) for a in g.legal_actions()]


def line_up(vid: str) -> tuple[int, list[str]]:
    lo, hi = rk.get_variant(vid).spec.players
    n = max(lo, min(4, hi))
    return n, (["medium", "random", "easy", "medium", "random"] * 2)[:n]


def bot_game(vid: str, seed: int, steps: int):
    """A game of seeded bots, its legal actions (as text) at every step, and its bots."""
    n, levels = line_up(vid)
    g = rk.new_game(vid, players=n, seed=seed)
    bots = [make_player(levels[s], seed * 10 + s) for s in range(n)]
    seen = []
    for _ in range(steps):
        if g.is_over:
            break
        s = g.current_player
        legal = g.legal_actions()
        seen.append([rk.format_action(a) for a in legal])
        g.apply(bots[s].choose(g.view(s), legal))
    return g, seen


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_legal_actions_of_a_rebuilt_game_equal_the_original_at_every_step(vid):
    g, seen = bot_game(vid, 3, STEPS)
    rec = g.record()
    for k, want in enumerate(seen):
        part = dict(rec, actions=rec["actions"][:k])
        assert texts(rk.replay(part)) == want, f"{vid}: step {k + 1} after {rec['actions'][k - 3:k]}"


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_a_resumed_game_continued_by_the_same_bots_ends_as_the_uninterrupted_one(vid):
    n, _ = line_up(vid)
    levels = ["medium", "easy"] * 4  # random bots buy everything in May I: long games
    seed = 5
    deals = rk.get_variant(vid).spec.num_deals()
    first = max(1, deals - 1) if deals else 1  # the last two deals: a whole match end, quickly

    def finish(g, bots, limit=20_000):
        for _ in range(limit):
            if g.is_over:
                return g
            s = g.current_player
            g.apply(bots[s].choose(g.view(s), g.legal_actions()))
        raise AssertionError("the game did not end")

    whole = finish(rk.new_game(vid, players=n, seed=seed, first_round=first),
                   [make_player(levels[s], s) for s in range(n)])
    actions = whole.record()["actions"]
    cut = random.Random(vid).randrange(1, max(2, len(actions) // 2))
    # the same bots (same seeds) played the first ``cut`` actions, then the game was saved
    bots = [make_player(levels[s], s) for s in range(n)]
    g = rk.new_game(vid, players=n, seed=seed, first_round=first)
    for _ in range(cut):
        s = g.current_player
        g.apply(bots[s].choose(g.view(s), g.legal_actions()))
    resumed = finish(rk.replay(g.record()), bots)
    assert resumed.record()["actions"] == actions
    assert resumed.scores == whole.scores and resumed.winners == whole.winners


def test_legal_actions_list_each_layoff_once_basic_run_2h_to_kh_takes_ah_once():
    # basic, ace low: the run 2H..KH takes AH below it; AH is one move, listed once
    g = deal("basic", ["JH QH KH AH 5S 7S 9S 2D 4D 6D", "2H 3H 4H 5H 6H 7H 8H 9H 3C 5C"], "KC",
             "TH 8C", dealer=0)
    play(g, "draw", "meld 2H 3H 4H 5H 6H 7H 8H 9H TH", "discard 3C")
    play(g, "draw", "layoff JH 1", "layoff QH 1", "layoff KH 1")
    acts = texts(g)
    assert acts.count("layoff AH 1") == 1, acts


def test_legal_actions_list_a_set_of_2s_once_in_ten_card():
    # ten-card, 2s wild: after the contract, 2C 2H 2S is one set of 2s (naturals) — one move
    g = deal("ten-card", ["2C 2H 2S 5D 6D 7D JD KD 3S 6S", "AC 3C 5C 7C 9C JC KC 4H 6H 8H",
                          "AD 3D 4D 8D 9D TD QD 5S 7S 9S", "4C 6C 8C TC QC 5H 7H 9H JH KH"], "QS",
             dealer=3)
    play(g, "meld 5D 6D 7D")
    acts = texts(g)
    assert len(acts) == len(set(acts)), [a for a in acts if acts.count(a) > 1]
    assert [a for a in acts if sorted(a.split()[1:]) == ["2C=2", "2H=2", "2S=2"]] == ["meld 2C=2 2H=2 2S=2"]
    layoffs = [a for a in acts if a.startswith("layoff")]
    assert layoffs == ["layoff 2C=4D 1", "layoff 2C=8D 1", "layoff 2H=4D 1", "layoff 2H=8D 1",
                       "layoff 2S=4D 1", "layoff 2S=8D 1"]  # by meld, then by card: never by set order
