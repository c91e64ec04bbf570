"""A PettingZoo AEC environment for every rummykit ruleset (docs/rl.md).

Agents ``player_0`` ... ``player_{n-1}`` are the seats; the agent to act is the engine's
``current_player``, so an out-of-turn window (May I, buy, Shanghai, Rummy) is a turn of the
seat asked, exactly as the engine asks it, and a seat often acts twice in a row.  The
environment sees the game through ``view(seat)`` and ``legal_actions()`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.env import AECEnv

from ..engine.actions import Action, Meld
from ..engine.game import Game, new_game
from ..engine.view import View, observe
from ..rules.registry import Variant, get_variant
from .encoding import ActionCodec, ActionSpace, ObservationEncoder, SeatObserver

INT8 = np.dtype(np.int8)  # (given positionally, numpy reads the mask's dtype at half the cost)
SCORE_SCALE = 100.0  # reward="score": a deal's points divided by this
RENDER_MODES = ("human", "ansi")


class RummyEnv(AECEnv):  # type: ignore[misc]
    """``episode``: "match" (every deal to the final scores) or "deal" (one deal);
    ``reward``: "score" (each deal's points, more is better, / SCORE_SCALE, at the deal's
    end) or "win" (at the end, the winners share +1 and the others -1)."""

    metadata = {"name": "rummykit_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, ruleset: str | Variant = "contract", players: int = 4,
                 options: Mapping[str, Any] | None = None, deck: Any = None, dealer: int | None = None,
                 episode: str = "match", reward: str = "score", render_mode: str | None = None):
        super().__init__()
        base = get_variant(ruleset) if isinstance(ruleset, str) else ruleset
        self.variant = base.with_options(options)
        lo, hi = self.variant.spec.players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise ValueError(f"{self.variant.id} is for {lo}-{hi} players, not {players!r}")
        if episode not in ("match", "deal"):
            raise ValueError(f"episode must be 'match' or 'deal', not {episode!r}")
        if reward not in ("score", "win"):
            raise ValueError(f"reward must be 'score' or 'win', not {reward!r}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.n, self.deck, self.dealer = players, deck, dealer
        self.episode, self.reward_mode, self.render_mode = episode, reward, render_mode
        self.space = ActionSpace.for_variant(self.variant, players)
        self.codec = ActionCodec(self.space)
        self.encoder = ObservationEncoder(self.variant, players, self.space)
        # each seat's observation, updated from its successive views (the same vector as
        # self.encoder.encode, without writing every part again)
        self._observers = [SeatObserver(self.encoder, s) for s in range(players)]
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(self.space.size)
        self.game: Game | None = None
        self._seed: int | None = None

    # -- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # -- the game -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same ``seed`` and actions give the same game.  ``options`` is
        ignored (house rules come at construction)."""
        if seed is None:  # a fresh game: the next seed, or one from the operating system
            fresh = int(np.random.SeedSequence().generate_state(1)[0])
            seed = self._seed + 1 if self._seed is not None else fresh
        self._seed = seed
        self.game = new_game(self.variant, players=self.n, seed=seed, deck=self.deck, dealer=self.dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False  # whether a reward was given at the last step
        self._refresh()

    def _refresh(self) -> None:
        g = self.game
        assert g is not None
        self._melds: list[Meld] = []  # the meld options with an id, in order
        if g.is_over:
            self._acting = -1
            self._seen: tuple[int, View] | None = None
            self._table: dict[int, Action] = {}
            self._mask: bytearray | None = bytearray(self.space.size)
            return
        seat = self._acting = g.current_player
        self.agent_selection = self.possible_agents[seat]
        view = observe(g.setup, g.state, seat)  # g.observe(seat) without its seat check: the engine's own
        self._seen = (seat, view)  # the acting seat's view, built once per step
        self._table, self._mask = self.codec.numbered(g.legal_actions(), view.melds, self._melds)

    def _view(self, seat: int) -> View:
        """The seat's typed view of the position now."""
        seen = self._seen
        if seen is not None and seen[0] == seat:
            return seen[1]
        assert self.game is not None
        return self.game.observe(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        if seat == self._acting:
            seen = self._seen
            assert seen is not None
            obs = self._observers[seat].update(seen[1], self._melds)  # (the step's view)
            # a fresh, writable int8 array each call: the step's mask bytes the first time
            # (the caller may write to them), made again from the ids after that
            mask = self._mask
            if mask is None:
                mask = self.codec.mask_bytes(self._table)
            self._mask = None
            return {"observation": obs, "action_mask": np.frombuffer(mask, INT8)}
        obs = self._observers[seat].update(self._view(seat))
        return {"observation": obs, "action_mask": np.zeros(self.space.size, INT8)}

    def action_of(self, action_id: int) -> Action:
        """The engine action id ``action_id`` stands for now; ValueError if it is not legal."""
        try:
            return self._table[int(action_id)]
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"action id {action_id!r} is not legal now (see the action mask)") from None

    def id_of(self, action: Action) -> int:
        """The id of a legal ``action`` now; ValueError if the encoding has none for it."""
        for i, a in self._table.items():
            if a == action:
                return i
        raise ValueError(f"{action.text()} is not legal now, or has no id (docs/rl.md: what is lost)")

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None
        if action is None:
            raise ValueError("a live agent must act: None is only for agents already done")
        act = self._table.get(action) if type(action) is int else None
        if act is None:
            act = self.action_of(action)  # (a numpy integer; or not legal: the error)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # (rewards come only at a deal's end: the dicts stay as they are)
            self._clear_rewards()
            self._rewarded = False
        deals_before = len(g.state.history)
        g.apply(act)
        history = g.state.history
        if len(history) > deals_before:
            self._rewarded = True
            if self.reward_mode == "score":
                for result in history[deals_before:]:
                    self._score_rewards(result)
        done = g.is_over or (self.episode == "deal" and len(history) > 0)
        if done:
            self._rewarded = True
            if self.reward_mode == "win":
                self._win_rewards()
            for a in self.agents:
                self.terminations[a] = True
        self._refresh()
        if self._rewarded:
            self._accumulate_rewards()
        if done:
            self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def _score_rewards(self, result: Mapping[str, Any]) -> None:
        sign = 1.0 if self.variant.spec.high_wins else -1.0
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] += sign * float(Fraction(result["points"][s])) / SCORE_SCALE

    def _win_rewards(self) -> None:
        g = self.game
        assert g is not None
        if self.episode == "deal":
            pts = [float(Fraction(p)) for p in g.history[0]["points"]]  # exact text: "37/2"
            best = max(pts) if self.variant.spec.high_wins else min(pts)
            winners = [s for s in range(self.n) if pts[s] == best]
        else:
            winners = list(g.winners)
        losers = [s for s in range(self.n) if s not in winners]
        for s, a in enumerate(self.possible_agents):
            if not losers:
                self.rewards[a] = 0.0
            elif s in winners:
                self.rewards[a] = 1.0 / len(winners)
            else:
                self.rewards[a] = -1.0 / len(losers)

    # -- showing it -----------------------------------------------------------------------

    def render(self) -> str | None:
        """The acting agent's view in card notation (never a hidden card)."""
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        seat = g.current_player
        v = g.view(seat)
        lines = [
            f"{v['name']} — deal {v['round']}, {v['contract']}; {self.agent_selection} to act ({v['phase']})",
            f"hand: {' '.join(v['hand'])}",
            f"discard: {v['discard_top'] or '-'}   stock: {v['stock_size']}",
        ]
        lines += [f"meld {i + 1}: {' '.join(m)}" for i, m in enumerate(v["melds"])]
        lines.append("hand sizes: " + " ".join(str(h) for h in v["hand_sizes"])
                     + "   scores: " + " ".join(str(x) for x in v["scores"]))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
