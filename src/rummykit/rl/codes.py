"""The legal actions' ids and their mask, numbered in compiled code.

:class:`~.encoding.ActionCodec` lays out the ids (docs/rl.md); :func:`number_actions` is its
hot loop, run once per environment step: every legal action gets its id, and the mask its
byte.  It imports no numpy, so the install compiles it with mypyc beside the engine
(setup.py); without the build it runs as it is, the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import Action, Buy, Discard, Draw, LayOff, Meld, Pass, Take


def number_actions(legal: Sequence[Any], melds: Sequence[Any], encode: Callable[[Action, Sequence[Any]], int],
                   discard: int, layoff: int, slots: int, first_meld: int, meld_options: int, size: int,
                   meld_actions: list[Meld] | None) -> tuple[dict[int, Action], bytearray]:
    """id -> action for every ``legal`` action (each has its own id), and the mask of those
    ids (``size`` bytes, 1 where an id is legal).  The most frequent kinds (a discard, a
    natural card's lay-off, a meld option, a draw, take, buy or pass: the fixed ids of
    :class:`~.encoding.ActionSpace`) are numbered here as ``encode`` numbers them;
    ``encode(action, melds)`` numbers the rest (``melds``: the view's table melds).
    ``meld_actions``, if given, gets the meld actions that have an id, in order: the first
    ``meld_options`` of them (a documented limit, never reached in bot games)."""
    out: dict[int, Action] = {}
    mask = bytearray(size)
    k = 0
    # the classes as locals: compiled, a module global is a dict lookup at every use
    discard_t, layoff_t, draw_t, take_t, buy_t, pass_t, meld_t = Discard, LayOff, Draw, Take, Buy, Pass, Meld
    for a in legal:  # (Any: each kind's fields are read after its type is known)
        t = type(a)
        card: int  # (a Card is an int: read as one, it is not converted by a call)
        if t is discard_t:
            card = a.card
            i = discard + card
        elif t is layoff_t and a.meaning is None:
            card = a.card
            meld: int = a.meld
            i = layoff + card * slots + meld
        elif t is draw_t:
            i = 5 if a.both else 0
        elif t is take_t:
            i = 1
        elif t is buy_t:
            i = 2
        elif t is pass_t:
            i = 3
        elif t is meld_t:
            if k >= meld_options:
                continue
            i = first_meld + k
            k += 1
            if meld_actions is not None:
                meld_actions.append(a)
        else:
            i = encode(a, melds)
        if i in out:
            raise AssertionError(f"two legal actions share id {i}: {out[i]} and {a}")
        out[i] = a
        mask[i] = 1
    return out, mask
