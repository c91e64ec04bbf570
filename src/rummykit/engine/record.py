"""Game records: everything needed to rebuild a game exactly, as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from ..cards import format_cards
from .turn import action_texts

if TYPE_CHECKING:
    from .state import Setup, State


def make_record(game: Any) -> dict[str, Any]:
    """The record of ``game`` (anything with ``setup`` and ``state``: a Game)."""
    return record_of(game.setup, game.state)


def record_of(setup: Setup, st: State) -> dict[str, Any]:
    from .._version import __version__
    from ..rules.registry import ORDER, get_variant

    rec: dict[str, Any] = {
        "rummykit": __version__,
        "ruleset": setup.spec.id,
        "options": dict(setup.options),
        "seed": setup.seed,
        "players": setup.n,
        "dealer": setup.first_dealer,
        "first_round": setup.first_round,
        "deck": format_cards(setup.stacked) if setup.stacked is not None else None,
        "actions": list(action_texts(st)),
        "scores": [str(s) for s in st.scores],
    }
    base = setup.base_variant
    if base.id not in ORDER or base.raw != get_variant(base.id).raw:
        rec["rules"] = base.raw
    return rec


class RecordSchema(BaseModel):
    """The shape of a game record; keys it does not know are kept out of the game (a
    newer rummykit or another program may add some)."""

    model_config = ConfigDict(extra="ignore")

    rummykit: StrictStr | None = None
    ruleset: StrictStr
    options: dict[StrictStr, Any] | None = None
    seed: StrictInt
    players: StrictInt
    dealer: StrictInt | None = None
    first_round: StrictInt = 1
    deck: StrictStr | list[StrictStr] | None = None
    actions: list[StrictStr]
    scores: list[StrictStr | StrictInt] | None = None
    rules: dict[StrictStr, Any] | None = None


_PLAIN = {
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "list_type": "must be a list",
    "dict_type": "must be a JSON object",
}


def _schema_problems(e: ValidationError) -> list[str]:
    out: list[str] = []
    for err in e.errors():
        loc = [str(x) for x in err["loc"]]
        # a union reports each of its arms: name the field once, by its first arm
        key = loc[0] if loc else ""
        where = key + "".join(f"[{x}]" for x in loc[1:] if x.isdigit())
        if err["type"] == "missing":
            msg = "missing (the game record lacks it; every record has it)"
        else:
            msg = _PLAIN.get(err["type"]) or err["msg"].removeprefix("Value error, ")
            got = err.get("input")
            if not isinstance(got, dict | list):
                msg += f" (got {got!r:.40})"
        line = f"{where}: {msg}"
        if not any(o.startswith(f"{where}: ") for o in out):
            out.append(line)
    return out


def check_record(record: object) -> RecordSchema:
    """The record's fields, type-checked; ValueError lists one problem per bad field."""
    if not isinstance(record, dict):
        raise ValueError(f"a game record is a JSON object, not {type(record).__name__}")
    try:
        return RecordSchema.model_validate(record)
    except ValidationError as e:
        raise ValueError("bad game record: " + "; ".join(_schema_problems(e))) from None
