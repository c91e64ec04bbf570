"""Computer players (groundwork of the bots issue): the Player protocol, the random and the
heuristic player.  They see only the seat's view and the legal actions."""

import pytest
from conftest import deal
from helpers import twin_deals

import rummykit as rk
from rummykit.players import HeuristicPlayer, Player, RandomPlayer, make_player


def play_out(g, bots, limit=200_000):
    for _ in range(limit):
        if g.is_over:
            return
        s = g.current_player
        acts = g.legal_actions()
        a = bots[s].choose(g.view(s), acts)
        assert a in acts
        g.apply(a)
    raise AssertionError("the game did not end")


def test_players_follow_the_protocol():
    for p in (RandomPlayer(1), HeuristicPlayer(1), make_player("medium"), make_player("random")):
        assert isinstance(p, Player)
    with pytest.raises(ValueError, match="unknown level"):
        make_player("grandmaster")


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_heuristic_and_random_bots_only_make_legal_moves(vid):
    sp = rk.get_variant(vid).spec
    n = sp.players[0]
    g = rk.new_game(vid, players=n, seed=5, first_round=max(1, (sp.num_deals() or 1) - 1))
    play_out(g, [HeuristicPlayer(s) if s % 2 == 0 else RandomPlayer(s) for s in range(n)])


@pytest.mark.parametrize("level", ["medium", "easy"])
@pytest.mark.parametrize("vid", ["contract", "may-i", "basic", "ten-card"])
def test_a_heuristic_bot_plays_the_move_its_hint_suggests(vid, level):
    """choose skips building the sentence; it must still be explain's action."""
    n = 4 if rk.get_variant(vid).spec.players[1] >= 4 else 2
    g = rk.new_game(vid, players=n, seed=3)
    bots = [make_player(level, seed=s) for s in range(n)]
    hints = [make_player(level, seed=s) for s in range(n)]
    for _ in range(400):
        if g.is_over:
            break
        s = g.current_player
        acts, view = g.legal_actions(), g.view(s)
        a = bots[s].choose(view, acts)
        assert a == hints[s].explain(view, acts)[0]
        g.apply(a)


def test_heuristic_choice_depends_only_on_its_view_and_seed():
    a, b = twin_deals()
    va, vb = a.view(1), b.view(1)
    assert va == vb
    got_a = HeuristicPlayer(7).explain(va, a.legal_actions())
    assert got_a == HeuristicPlayer(7).explain(vb, b.legal_actions())
    assert HeuristicPlayer(7).choose(va, a.legal_actions()) == rk.Take()  # 9S makes the second set


def test_heuristic_melds_the_contract_as_soon_as_it_can_and_explains_why():
    g = deal("contract", ["AS 2S 6C 8C 8D TH JH QH 4D 5S", "7H 7S 7D 9C 9D 3H 4H 5H KC QC",
                          "2C 3C 4C 5D 6D 8S TS JS QD KD"], "9S", "6H 7C")
    bot = HeuristicPlayer(1)
    g.apply(bot.choose(g.view(1), g.legal_actions()))  # takes 9S
    action, why = bot.explain(g.view(1), g.legal_actions())
    assert isinstance(action, rk.Meld) and "two sets of three" in why


def test_heuristic_beats_random_players_in_contract():
    wins = 0
    for seed in range(4):
        g = rk.new_game("contract", players=4, seed=seed)
        play_out(g, [HeuristicPlayer(seed)] + [RandomPlayer(seed * 10 + s) for s in range(1, 4)])
        wins += 0 in g.winners
    assert wins >= 3
