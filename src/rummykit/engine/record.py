"""Game records: everything needed to rebuild a game exactly, as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import format_cards

if TYPE_CHECKING:
    from .game import Game

RECORD_KEYS = ("ruleset", "seed", "players", "actions")


def make_record(g: Game) -> dict[str, Any]:
    from .. import __version__
    from ..rules.registry import ORDER, get_variant

    rec: dict[str, Any] = {
        "rummykit": __version__,
        "ruleset": g.spec.id,
        "options": g.options,
        "seed": g.seed,
        "players": g.n,
        "dealer": g.first_dealer,
        "first_round": g.first_round,
        "deck": format_cards(g.stacked) if g.stacked is not None else None,
        "actions": list(g.actions),
        "scores": [str(s) for s in g.scores],
    }
    base = g.base_variant
    if base.id not in ORDER or base.raw != get_variant(base.id).raw:
        rec["rules"] = base.raw
    return rec


def replay(record: dict[str, Any]) -> Game:
    """Rebuild a game from its record; ValueError says what is wrong with a bad one."""
    from ..rules.registry import Variant, build_spec, get_variant
    from .game import IllegalActionError, new_game

    if not isinstance(record, dict):
        raise ValueError("a game record is a JSON object")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise ValueError(f"the game record lacks {', '.join(missing)}")
    if "rules" in record:
        raw = record["rules"]
        v = Variant(build_spec(raw, "record rules"), raw)
    else:
        v = get_variant(record["ruleset"])
    g = new_game(
        v,
        players=record["players"],
        seed=record["seed"],
        options=record.get("options") or None,
        deck=record.get("deck"),
        dealer=record.get("dealer"),
        first_round=record.get("first_round", 1),
    )
    for i, text in enumerate(record["actions"]):
        try:
            g.apply(text)
        except IllegalActionError as e:
            raise ValueError(f"action {i + 1} of the record ({text!r}) is illegal: {e}") from None
    return g
