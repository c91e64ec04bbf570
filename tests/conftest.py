"""Shared helpers: stacked deals written in card notation."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import rummykit as rk
from rummykit.cards import make_pack
from rummykit.engine.game import Game
from rummykit.engine.state import State

P = rk.parse_cards


def stack(hands: list[str], upcard: str, stock: str = "", *, dealer: int = 0,
          starter_extra: str | None = None) -> list[rk.Card]:
    """The pack, top card first, that deals ``hands`` (seat by seat) one card at a time from
    the dealer's left, turns up ``upcard``, and leaves ``stock`` on top of the stock."""
    n = len(hands)
    hs = [P(h) for h in hands]
    size = len(hs[0])
    assert all(len(h) == size for h in hs), "every hand must have the same size"
    deck: list[rk.Card] = []
    for i in range(size):
        for k in range(1, n + 1):
            deck.append(hs[(dealer + k) % n][i])
    if starter_extra is not None:
        deck.extend(P(starter_extra))
    deck.extend(P(upcard))
    deck.extend(P(stock))
    return deck


def deal(variant: str, hands: list[str], upcard: str, stock: str = "", *, dealer: int = 0,
         options: dict[str, Any] | None = None, starter_extra: str | None = None, seed: int = 0,
         first_round: int = 1) -> Game:
    """A new game whose first deal is exactly ``hands``; seat dealer+1 plays first."""
    deck = stack(hands, upcard, stock, dealer=dealer, starter_extra=starter_extra)
    g = rk.new_game(variant, players=len(hands), seed=seed, options=options, deck=deck, dealer=dealer,
                    first_round=first_round)
    for s, h in enumerate(hands):
        want = P(h) + (P(starter_extra) if starter_extra and s == (dealer + 1) % len(hands) else [])
        assert sorted(g.hands[s]) == sorted(want), f"seat {s} was not dealt {h}"
    return g


def play(g: Game, *texts: str) -> Game:
    for t in texts:
        g.apply(t)
    return g


def hand(g: Game, seat: int) -> str:
    return rk.format_cards(sorted(g.hands[seat]))


def snapshot(g: Game) -> str:
    """Everything about a game's state, to check that an illegal action changed nothing."""
    return json.dumps(
        {
            "views": [g.view(s) for s in range(g.n)],
            "hands": [sorted(h) for h in g.hands],
            "stock": list(g.stock),
            "discard": list(g.discard),
            "table": [(m.kind, list(m.cards), m.lo, m.rank, m.suit, m.wilds) for m in g.table],
            "record": g.record(),
            "phase": g.phase,
            "asked": g.asked,
            "pending": list(g.pending),
        },
        sort_keys=True,
        default=str,
    )


# every field of the engine's one State declaration (a new field is covered at once), less
# those fingerprinted apart below: the rng by its state, the table by its melds' contents,
# the log, actions and history by their lengths, and the per-round rule objects
STATE_FIELDS = tuple(f for f in State.field_names()
                     if f not in ("rng", "table", "log", "actions", "history", "rules", "solver"))


def fingerprint(g: Game) -> str:
    """Every mutable field of the engine, cheaply (for long random games)."""
    data = {f: getattr(g.state, f) for f in STATE_FIELDS}
    data["table"] = [(m.kind, list(m.cards), m.lo, m.rank, m.suit, m.wilds, m.owner) for m in g.table]
    data["sizes"] = (len(g.log), len(g.actions), len(g.history))
    data["rng"] = g.state.rng.getstate()
    return repr(data)


def all_cards(g: Game) -> Counter[int]:
    c: Counter[int] = Counter()
    for h in g.hands:
        c.update(h)
    c.update(g.stock)
    c.update(g.discard)
    for m in g.table:
        c.update(m.cards)
    return c


def full_pack(g: Game) -> Counter[int]:
    return Counter(make_pack(g.decks, g.jokers))


def illegal(g: Game, text: str, match: str | None = None) -> str:
    """Apply ``text``, expect IllegalActionError, and check nothing changed."""
    before = snapshot(g)
    with pytest.raises(rk.IllegalActionError) as e:
        g.apply(text)
    assert snapshot(g) == before
    if match is not None:
        assert match in str(e.value), str(e.value)
    return str(e.value)
