"""A single-agent Gymnasium environment: one seat learns, rummykit bots play the others.

The action mask is in ``info["action_mask"]`` (np.int8) and ``action_masks()`` (bool), as
sb3-contrib's MaskablePPO expects.  An action outside the mask does not raise (Gymnasium's
``check_env`` samples unmasked actions): the episode ends with reward -1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..players import Player, make_player
from .aec import RummyEnv


class RummyGymEnv(gymnasium.Env):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str = "contract", players: int = 4,
                 opponents: str | Sequence[str] = "medium", seat: int = 0,
                 options: Mapping[str, Any] | None = None, episode: str = "match", reward: str = "score",
                 render_mode: str | None = None):
        self.aec = RummyEnv(ruleset, players, options, episode=episode, reward=reward,
                            render_mode="ansi" if render_mode == "ansi" else None)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0-{players - 1}, not {seat!r}")
        levels = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != players - 1:
            raise ValueError(f"opponents: give one level, or one per other seat ({players - 1}), "
                             f"not {len(levels)}")
        for level in levels:
            make_player(level)  # a bad level is refused now, with the player factory's message
        self.levels = levels
        self.seat = seat
        self.render_mode = render_mode
        self.me = self.aec.possible_agents[seat]
        self.observation_space = self.aec._obs_space["observation"]
        self.action_space = spaces.Discrete(self.aec.space.size)
        self._bots: dict[int, Player] = {}
        self._mask = np.zeros(self.aec.space.size, dtype=np.int8)

    def _others_play(self) -> float:
        """Bots move until it is this seat's turn or the episode ends; the reward this
        seat collected meanwhile."""
        aec = self.aec
        got = 0.0
        while not self._done() and aec.agent_selection != self.me:
            seat = aec.possible_agents.index(aec.agent_selection)
            g = aec.game
            assert g is not None
            act = self._bots[seat].choose(g.observe(seat), g.legal_actions())
            aec.step(aec.id_of(act))
            got += aec.rewards.get(self.me, 0.0)
        return got

    def _done(self) -> bool:
        return all(self.aec.terminations.values())

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        o = self.aec.observe(self.me)
        self._mask = o["action_mask"]
        return o["observation"], {"action_mask": o["action_mask"].copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.aec.reset(seed=game_seed)
        others = [s for s in range(self.aec.n) if s != self.seat]
        self._bots = {s: make_player(level, game_seed + s)
                      for s, level in zip(others, self.levels, strict=True)}
        self._others_play()
        return self._obs()

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done():
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if not (0 <= a < len(self._mask)) or not self._mask[a]:
            obs, info = self._obs()
            for agent in self.aec.agents:
                self.aec.terminations[agent] = True
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self.aec.step(a)
        reward = self.aec.rewards.get(self.me, 0.0)
        reward += self._others_play()
        obs, info = self._obs()
        return obs, float(reward), self._done(), False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.aec.render()
