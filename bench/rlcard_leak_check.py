"""Does RLCard's gin rummy show the seat not acting the acting seat's hand?  (figures only)

    pip install rlcard    # 1.2.0
    python bench/rlcard_leak_check.py [--games N] [--seed S]

At every decision of random games it asks ``env.get_state(p)`` for the seat ``p`` that is
*not* acting (as PettingZoo's RLCard wrapper does for ``observe(agent)``) and compares the
observation's hand plane (``obs[0]``) and the raw state's ``hand`` with the two true hands.
RLCard's ``_extract_state`` and ``Game.get_state`` read the *current* player's hand whatever
seat is asked, so every check is expected to show the acting seat's hand.  rummykit's own
test of the same property is tests/test_rl.py (twin deals look the same to seat 0).
"""

from __future__ import annotations

import argparse

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    try:
        import rlcard  # type: ignore[import-not-found]
        from rlcard.games.gin_rummy.utils import utils  # type: ignore[import-not-found]
    except ImportError:
        raise SystemExit("rlcard is not installed: pip install rlcard") from None

    env = rlcard.make("gin-rummy", config={"seed": a.seed})
    rng = np.random.default_rng(a.seed)
    checks = obs_actor = obs_own = raw_actor = raw_own = control = 0
    for _ in range(a.games):
        state, actor = env.reset()
        while not env.is_over():
            other = 1 - actor
            players = env.game.round.players
            actor_hand = utils.encode_cards(players[actor].hand)
            own_hand = utils.encode_cards(players[other].hand)
            seen = env.get_state(other)
            raw = sorted(env.game.get_state(other)["hand"])
            checks += 1
            control += bool(np.array_equal(state["obs"][0], actor_hand))  # the acting seat's own view
            obs_actor += bool(np.array_equal(seen["obs"][0], actor_hand))
            obs_own += bool(np.array_equal(seen["obs"][0], own_hand))
            raw_actor += raw == sorted(c.get_index() for c in players[actor].hand)
            raw_own += raw == sorted(c.get_index() for c in players[other].hand)
            state, actor = env.step(int(rng.choice(list(state["legal_actions"]))))
    print(f"RLCard {rlcard.__version__} gin-rummy, {a.games} random games, {checks} decisions: "
          f"get_state(seat not acting)")
    print(f"  obs[0] (hand plane) is the acting seat's hand: {obs_actor} of {checks}; "
          f"its own hand: {obs_own}")
    print(f"  raw state 'hand' is the acting seat's hand:     {raw_actor} of {checks}; "
          f"its own hand: {raw_own}")
    print(f"  (control: the acting seat's own obs[0] is its hand in {control} of {checks})")


if __name__ == "__main__":
    main()
