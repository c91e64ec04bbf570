"""The OpenSpiel game (needs open_spiel: the bench extra): OpenSpiel's own random-simulation
test, and ISMCTS playing it through resample_from_infostate."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import rummykit.rl.openspiel  # noqa: E402,F401
from rummykit.rl.openspiel import SEED_BYTES  # noqa: E402


def deal(state, seed_bytes):
    """The deal's chance nodes: one byte of the seed each."""
    for b in seed_bytes:
        assert state.is_chance_node()
        state.apply_action(b)
    assert not state.is_chance_node()


def test_openspiel_random_simulation_test_one_deal():
    game = pyspiel.load_game("python_rummykit", {"ruleset": "contract", "players": 3, "max_deals": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_resample_from_infostate_keeps_what_the_player_sees():
    game = pyspiel.load_game("python_rummykit", {"ruleset": "shanghai", "players": 3, "max_deals": 1})
    state = game.new_initial_state()
    deal(state, [7] * SEED_BYTES)
    rng = np.random.RandomState(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.observation_tensor(p) == state.observation_tensor(p)
    assert other.legal_actions() == state.legal_actions()


def test_ismcts_plays_a_few_moves():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_rummykit", {"ruleset": "basic", "players": 2, "max_deals": 1})
    state = game.new_initial_state()
    deal(state, [3] * SEED_BYTES)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 1.4, 8,
                           random_state=np.random.RandomState(1))
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiel_deal_is_one_of_2_64_seeds_so_a_hand_does_not_tell_the_deal():
    """A player's first hand must leave many deals possible: eight uniform chance nodes of a
    byte each, and every byte changes the deal (1,024 seeds let a hand tell the seed)."""
    game = pyspiel.load_game("python_rummykit", {"ruleset": "basic", "players": 2, "max_deals": 1})
    assert game.max_chance_outcomes() == 256 and SEED_BYTES == 8
    state = game.new_initial_state()
    for _ in range(SEED_BYTES):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert state.information_state_string(0) == "p0 before the deal"
        state.apply_action(0)
    hands = set()
    for k in range(SEED_BYTES):
        s = game.new_initial_state()
        deal(s, [1 if i == k else 0 for i in range(SEED_BYTES)])
        hands.add(s.observation_string(0))
    hands.add(state.observation_string(0))
    assert len(hands) == SEED_BYTES + 1
