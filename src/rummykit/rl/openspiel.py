"""rummykit as an OpenSpiel game: importing this module registers ``python_rummykit``.

    import pyspiel, rummykit.rl.openspiel
    game = pyspiel.load_game("python_rummykit", {"ruleset": "contract", "players": 4})

Parameters: ``ruleset`` (a built-in id), ``players`` and ``max_deals`` (0, the default: the
whole match; n: the game ends after n deals, for short experiments and tests). The deal is
eight explicit chance events, a byte each of a 64-bit seed (uniform: the engine shuffles,
restocks and draws at random from it). So many seeds that a player's own hand leaves countless
deals possible: with few (1,024 once), each hand told the whole seed, and every information set
held one deal, the game one of perfect information. Actions are the ids of
:mod:`rummykit.rl.encoding`; observations come from ``view(player)`` only; returns are each
seat's final score, signed so that more is better, divided by 100. ``resample_from_infostate``
deals the unseen cards again consistently with the player's view
(:func:`rummykit.engine.sample.determinize`), so ISMCTS runs. Needs the ``bench`` extra
(open_spiel).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..engine.actions import Action, Meld
from ..engine.game import Game, new_game
from ..engine.sample import determinize
from ..rules.registry import get_variant
from .encoding import ActionCodec, ActionSpace, ObservationEncoder

SEED_BYTES = 8  # the deal's seed, drawn a byte at a time: one of 2**64
BYTE_OUTCOMES = 256
SCALE = 100.0
DEFAULTS = {"ruleset": "contract", "players": 4, "max_deals": 0}  # max_deals 0: the whole match

GAME_TYPE = pyspiel.GameType(
    short_name="python_rummykit",
    long_name="rummykit: the Rummy family (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


class Setup:
    """What one (ruleset, players) game never changes: shared by its states (a state copies
    only its key, so OpenSpiel's clone of a state stays cheap)."""

    _known: dict[tuple[str, int, int], Setup] = {}

    def __init__(self, ruleset: str, players: int, max_deals: int):
        self.variant = get_variant(ruleset)
        self.players = players
        self.max_deals = max_deals
        lo, hi = self.variant.spec.players
        if not lo <= players <= hi:
            raise ValueError(f"{self.variant.id} is for {lo}-{hi} players, not {players}")
        self.space = ActionSpace.for_variant(self.variant, players)
        self.codec = ActionCodec(self.space)
        self.encoder = ObservationEncoder(self.variant, players, self.space)

    @classmethod
    def of(cls, key: tuple[str, int, int]) -> Setup:
        got = cls._known.get(key)
        if got is None:
            got = cls._known[key] = cls(*key)
        return got


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None):
        p = {**DEFAULTS, **(params or {})}
        self.key = (str(p["ruleset"]), int(p["players"]), int(p["max_deals"]))
        setup = Setup.of(self.key)
        self.players = setup.players
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.space.size,
            max_chance_outcomes=BYTE_OUTCOMES,
            num_players=self.players,
            min_utility=-10_000.0 / SCALE,
            max_utility=10_000.0 / SCALE,
            utility_sum=None,
            max_game_length=200_000,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RummyObserver:
        return RummyObserver(Setup.of(self.key), iig_obs_type)


class RummyState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RummyGame, g: Game | None = None):
        super().__init__(game)
        self.key = game.key
        self.g = g
        self._seed: tuple[int, ...] = ()  # before the deal: the seed's bytes drawn so far
        self._table: dict[int, Action] | None = None

    @property
    def setup(self) -> Setup:
        return Setup.of(self.key)

    def _over(self) -> bool:
        g = self.g
        limit = self.setup.max_deals
        return g is not None and (g.is_over or (limit > 0 and len(g.history) >= limit))

    def current_player(self) -> int:
        if self.g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.g.current_player

    def _ids(self) -> dict[int, Action]:
        if self._table is None:
            g = self.g
            assert g is not None
            legal = g.legal_actions()
            self._table = self.setup.codec.table(legal, g.observe(g.current_player).melds)
        return self._table

    def _legal_actions(self, player: int) -> list[int]:
        if self.g is None or self._over() or player != self.g.current_player:
            return []
        return sorted(self._ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / BYTE_OUTCOMES) for b in range(BYTE_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self.g is None:
            seed = (*self._seed, int(action))
            if len(seed) < SEED_BYTES:
                self._seed = seed
            else:  # the last byte: deal
                self._seed = ()
                self.g = new_game(self.setup.variant, players=self.setup.players,
                                  seed=int.from_bytes(bytes(seed), "big"))
        else:
            self.g.apply(self._ids()[int(action)])
        self._table = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.g is None:
            return f"the deal's seed, byte {len(self._seed) + 1} of {SEED_BYTES}: {action}"
        act = self._ids().get(int(action))
        return act.text() if act is not None else f"id {action}"

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        if self.g is None or not self._over():
            return [0.0] * self.setup.players
        sign = 1.0 if self.setup.variant.spec.high_wins else -1.0
        return [sign * float(s) / SCALE for s in self.g.scores]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state the player cannot tell from this one: its view, the unseen cards dealt again."""
        if self.g is None or self._over():
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        return RummyState(self.get_game(), determinize(self.g.observe(player_id), rng, self.setup.variant))

    def __str__(self) -> str:
        if self.g is None:
            return f"(before the deal: {len(self._seed)} of the seed's {SEED_BYTES} bytes drawn)"
        return json.dumps(self.g.view(self.g.current_player)["hand"])


class RummyObserver:
    """Observations from ``view(player)``: the vector of :class:`ObservationEncoder`, and the
    view as JSON for strings (information-state strings include the deal's public log)."""

    def __init__(self, game: Setup, iig_obs_type: Any):
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RummyState, player: int) -> None:
        self.tensor.fill(0)
        if state.g is None:
            return
        melds: list[Meld] = []
        if not state._over() and player == state.g.current_player:
            melds = [a for a in state._ids().values() if isinstance(a, Meld)]
        self.tensor[:] = self.game.encoder.encode(state.g.observe(player), melds)

    def string_from(self, state: RummyState, player: int) -> str:
        if state.g is None:
            return f"p{player} before the deal"
        view = dict(state.g.view(player))
        if not self.perfect_recall:
            view.pop("log", None)
        return json.dumps(view, sort_keys=True, default=str)


pyspiel.register_game(GAME_TYPE, RummyGame)
