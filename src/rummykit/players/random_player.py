"""The random player: any legal action, uniformly, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]
