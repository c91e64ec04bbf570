"""A finished game, step by step, for the browser's replay: the public view at each step
(the engine's view(None)) with every hand shown, since the game is over and nothing is
secret any more. Built once per game by replaying its record, kept for a few games."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..engine.game import replay


class Replays:
    def __init__(self, keep: int = 8):
        self.keep = keep
        self._steps: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()  # the server builds steps in worker threads

    def steps(self, key: str, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Every step of the game of ``record``: step 0 is the first deal before any move,
        step k the table after the k-th action."""
        with self._lock:
            got = self._steps.get(key)
        if got is None:
            got = build_steps(record)
        with self._lock:
            self._steps[key] = got
            self._steps.move_to_end(key)
            while len(self._steps) > self.keep:
                self._steps.popitem(last=False)
        return got

    def step(self, key: str, record: dict[str, Any], k: int) -> dict[str, Any]:
        """Step ``k`` as JSON: {"step", "steps" (the last step), "action", "seat", "view", "hands"};
        IndexError when there is no such step."""
        all_steps = self.steps(key, record)
        if not 0 <= k < len(all_steps):
            raise IndexError(f"step must be 0-{len(all_steps) - 1}, not {k}")
        return dict(all_steps[k], step=k, steps=len(all_steps) - 1)


def build_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    rec = dict(record, actions=[])
    g = replay(rec)
    out = [_public(g, None, None)]
    for text in record["actions"]:
        seat = g.current_player
        g.apply(text)
        out.append(_public(g, text, seat))
    return out


def _public(g: Any, action: str | None, seat: int | None) -> dict[str, Any]:
    hands = [g.view(s)["hand"] for s in range(g.n)]  # the game is over: every hand may be shown
    return {"action": action, "seat": seat, "view": g.view(None), "hands": hands}
