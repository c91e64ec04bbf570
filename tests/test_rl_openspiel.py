"""The OpenSpiel game (needs open_spiel: the bench extra): OpenSpiel's own random-simulation
test, and ISMCTS playing it through resample_from_infostate."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import rummykit.rl.openspiel  # noqa: E402,F401


def test_openspiel_random_simulation_test_one_deal():
    game = pyspiel.load_game("python_rummykit", {"ruleset": "contract", "players": 3, "max_deals": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_resample_from_infostate_keeps_what_the_player_sees():
    game = pyspiel.load_game("python_rummykit", {"ruleset": "shanghai", "players": 3, "max_deals": 1})
    state = game.new_initial_state()
    state.apply_action(7)
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
    state.apply_action(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 1.4, 8,
                           random_state=np.random.RandomState(1))
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
