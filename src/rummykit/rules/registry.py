"""Finding and loading rulesets: built-in TOML files, a user's house-rules file, options.

A rules file is TOML with the keys of :class:`RuleSpec`; ``extends = "contract"`` (a
built-in id or a path) starts from another ruleset, whose tables are merged key by key.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..cards import Card, parse_cards
from ..melds import MeldRules, Reading, readings
from ..solver import ContractRules, Solver
from .spec import RuleSpec

VARIANT_DIR = Path(__file__).parent / "variants"
ORDER = (
    "basic", "traditional", "block", "wrotham", "contract", "liverpool", "may-i", "denexa",
    "shanghai", "shanghai-powe", "shanghai-kolsov", "progressive", "ten-card", "combination",
    "seven-hand",
)  # fmt: skip


class RulesError(ValueError):
    """A rules file or options that do not make a valid ruleset; ``problems`` lists
    one message per bad key."""

    def __init__(self, problems: Sequence[str], source: str = "rules"):
        self.problems = list(problems)
        super().__init__(f"{source}: " + "; ".join(self.problems))


def variant_ids() -> list[str]:
    """Every built-in ruleset id, in the order of RULES.md."""
    return list(ORDER)


# keys that say one thing two ways: a file (or options) giving one replaces the other it extends
_EITHER = (("hand_size", "hand_size_by_players"), ("target", "target_by_players"))


def _merge_tables(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), dict):
            out[k] = _merge_tables(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """A ruleset's data ``base`` with ``over`` (a file that extends it, or options) on top."""
    out = _merge_tables(base, over)
    # the basic family's house rule "ace high or low (ace then scores 15)" (RULES.md 4.5): the
    # switch alone (as the browser's options set it) brings the value, unless A is given too
    values = out.get("card_values")
    if (over.get("ace_mode") == "low_or_high" and base.get("ace_mode", "low") == "low"
            and isinstance(values, dict) and values.get("A") == 1
            and "A" not in (over.get("card_values") or {})):
        out["card_values"] = {**values, "A": 15}
    # and its house rule "penalty scoring to 100": the switch alone brings the target of 100
    # (traditional's own targets, 150 and 200 for 3 and 4 players, are for its winner-takes
    # scoring), unless a target is given too
    if (over.get("scoring") == "penalty" and base.get("scoring") == "winner_takes"
            and "target" not in over and "target_by_players" not in over
            and (base.get("target") or base.get("target_by_players"))):
        out["target"] = 100
        out.pop("target_by_players", None)
    for a, b in _EITHER:  # (hand_size would win over the hand_size_by_players just given)
        if a in over and b not in over:
            out.pop(b, None)
        elif b in over and a not in over:
            out.pop(a, None)
    return out


def _load_toml(path: Path) -> dict[str, Any]:
    if path.is_dir():
        raise RulesError([f"{path} is a folder, not a rules file"], str(path))
    try:
        raw = path.read_bytes()
        # a byte-order mark (some editors on Windows write one) is no part of the rules
        return tomllib.loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except FileNotFoundError:
        raise RulesError([f"no such file {path}"], str(path)) from None
    except OSError as e:
        raise RulesError([f"cannot read {path}: {e.strerror or e}"], str(path)) from None
    except UnicodeDecodeError:
        raise RulesError(["not valid TOML: the file is not UTF-8 text"], str(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError([f"not valid TOML: {e}"], str(path)) from None
    except RecursionError:
        raise RulesError(["not a rules file: its tables or lists are nested too deep to read"],
                         str(path)) from None


def _resolve(data: dict[str, Any], here: Path | None, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    parent = data.get("extends")
    data = {k: v for k, v in data.items() if k != "extends"}
    if parent is None:
        return data
    if not isinstance(parent, str) or not parent.strip():
        raise RulesError([f"extends: must be a ruleset id ({', '.join(ORDER)}) or a file path, "
                          f"not {parent!r:.40}"])
    if parent in ORDER:
        if parent in seen:
            raise RulesError([f"extends: {parent!r} extends itself"])
        base = _raw_builtin(parent)
    else:
        p = Path(parent)
        if here is not None and not p.is_absolute():
            p = here / p
        if not p.exists():
            raise RulesError(
                [f"extends: {parent!r} is neither a ruleset ({', '.join(ORDER)}) nor a file"]
            )
        if not p.is_file():
            raise RulesError([f"extends: {parent!r} is a folder, not a rules file"])
        key = str(p.resolve())
        if key in seen:
            raise RulesError([f"extends: {parent!r} extends itself"])
        if len(seen) >= 20:
            raise RulesError([f"extends: more than 20 files extend each other (at {parent!r})"])
        base = _resolve(_load_toml(p), p.parent, seen + (key,))
    return _merge(base, data)


@cache
def _raw_builtin(vid: str) -> dict[str, Any]:
    return _resolve(_load_toml(VARIANT_DIR / f"{vid}.toml"), VARIANT_DIR, (vid,))


_TYPE_TAGS = {"int", "str", "bool", "float", "dict", "list", "none", "tuple"}


def _known_keys() -> list[str]:
    from .spec import BuyRules, PackRule

    return sorted({*RuleSpec.model_fields, *BuyRules.model_fields, *PackRule.model_fields, "extends"})


def _format_errors(e: ValidationError) -> list[str]:
    """Pydantic's errors in a player's words, one line per key: ``players: write two numbers
    ...`` rather than ``players.1: missing``, and a "did you mean" for a misspelled key."""
    import difflib
    import json

    by_key: dict[str, list[str]] = {}
    for err in e.errors():
        path = list(err["loc"])
        # a union names each of its arms ("jokers.int", "jokers.literal[...]"): one key
        # (an unknown key is the player's own word, hyphen or not: never a tag)
        while err["type"] != "extra_forbidden" and path and isinstance(path[-1], str) and (
            path[-1] in _TYPE_TAGS or any(ch in path[-1] for ch in "[]-")
        ):
            path.pop()
        msg = err["msg"].removeprefix("Value error, ")
        shape = err["type"] in ("tuple_type", "too_long", "too_short") or (
            len(path) > 1 and isinstance(path[-1], int)
            and err["type"] in ("missing", "int_parsing", "int_type"))
        if shape and "players" in path:
            whole = path[-1] == "players" or err["type"] == "missing"  # else the input is one item
            path = path[: path.index("players") + 1]
            msg = "write the fewest and the most players as two numbers, e.g. players = [3, 5]" + (
                f" (not {json.dumps(err['input'])})" if whole else "")
        elif err["type"] == "extra_forbidden":
            msg = "unknown key (not a rule rummykit knows)"
            near = difflib.get_close_matches(str(path[-1]), _known_keys(), n=1, cutoff=0.7)
            if near:
                msg = f"unknown key; did you mean {near[0]}?"
        elif err["type"] == "missing":
            msg = "missing: every ruleset needs it (or extend one that has it)"
        loc = ".".join(str(x) for x in path)
        msgs = by_key.setdefault(loc, [])
        if msg not in msgs:
            msgs.append(msg)
    out = []
    for loc, msgs in by_key.items():
        if loc:
            out.append(f"{loc}: {' or '.join(msgs)}")
        else:  # the checks across keys: one "key: problem" each, joined by "; "
            out.extend(p for m in msgs for p in m.split("; "))
    return out


def build_spec(data: Mapping[str, Any], source: str = "rules") -> RuleSpec:
    try:
        return RuleSpec(**data)
    except ValidationError as e:
        raise RulesError(_format_errors(e), source) from None
    except TypeError as e:
        raise RulesError([str(e)], source) from None


class Variant:
    """A ruleset: its :class:`RuleSpec` plus meld and contract judgement."""

    def __init__(self, spec: RuleSpec, raw: Mapping[str, Any] | None = None):
        self.spec = spec
        self.id = spec.id
        self.name = spec.name
        self.raw = dict(raw) if raw is not None else spec.model_dump()
        self._solvers: dict[MeldRules, Solver] = {}
        self.values = spec.values_table()  # penalty value of every face, by face code

    def __repr__(self) -> str:
        return f"Variant({self.id!r})"

    def __copy__(self) -> Variant:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Variant:
        return self  # rule data and solver caches that never change a game: a copied game shares them

    def with_options(self, options: Mapping[str, Any] | None) -> Variant:
        """This ruleset with a table's house rules (keys of the spec) applied."""
        if not options:
            return self
        if not isinstance(options, Mapping):
            raise RulesError([f"options must be a table of house rules, not {options!r:.40}"], "options")
        raw = _merge(self.raw, options)
        return Variant(build_spec(raw, "options"), raw)

    def meld_rules(self, players: int | None = None, round_no: int | None = None) -> MeldRules:
        return self.spec.meld_rules(players or self.spec.players[0], round_no)

    def solver(self, players: int | None = None, round_no: int | None = None) -> Solver:
        """The contract solver for ``players`` (in deal ``round_no``: a deal may change
        how melds are judged), shared by every game of this ruleset."""
        rules = self.meld_rules(players, round_no)
        s = self._solvers.get(rules)
        if s is None:
            s = self._solvers[rules] = Solver(rules, self.spec.values_table(), self._contract_rules())
        return s

    def _contract_rules(self, sizes: str | None = None) -> ContractRules:
        sp = self.spec
        return ContractRules(
            sizes=sizes or sp.contract_sizes,
            count=sp.contract_count,
            not_contiguous=sp.runs_not_contiguous,
            one_run_per_suit=sp.one_run_per_suit,
            distinct_set_ranks=sp.distinct_set_ranks,
            extra_min=min(sp.min_set, sp.min_run),
        )

    def _round(self, round_no: int) -> None:
        n = len(self.spec.contracts)
        if not 1 <= round_no <= n:
            raise ValueError(f"{self.id} has contracts for deals 1-{n}, not {round_no}")

    def is_valid_meld(self, cards: Sequence[Card] | str, players: int | None = None) -> bool:
        """Whether ``cards`` form one legal meld, in some reading of their wilds."""
        cs = parse_cards(cards) if isinstance(cards, str) else list(cards)
        return bool(readings(cs, self.meld_rules(players)))

    def meld_readings(self, cards: Sequence[Card] | str, players: int | None = None) -> list[Reading]:
        cs = parse_cards(cards) if isinstance(cards, str) else list(cards)
        return readings(cs, self.meld_rules(players))

    def meets_contract(
        self,
        round_no: int,
        melds: Sequence[Sequence[Card] | str],
        hand: Sequence[Card] | str | None = None,
    ) -> bool:
        """Whether ``melds`` are a legal initial meld for deal ``round_no`` (1-based).
        In deals that must use the whole hand, pass ``hand`` to check that too."""
        self._round(round_no)
        ms = [parse_cards(m) if isinstance(m, str) else list(m) for m in melds]
        whole = round_no in self.spec.whole_hand_rounds
        if hand is not None and whole:
            h = parse_cards(hand) if isinstance(hand, str) else list(hand)
            if sorted(h) != sorted(c for m in ms for c in m):
                return False
        solver = self.solver(None, round_no)
        return solver.meets(self.spec.contract(round_no), ms, whole_hand=whole) is not None

    def find_contract(
        self, round_no: int, hand: Sequence[Card] | str, players: int | None = None
    ) -> list[list[Card]] | None:
        """Melds meeting deal ``round_no``'s contract from ``hand`` with the least
        leftover penalty (each in table order), or None."""
        self._round(round_no)
        h = parse_cards(hand) if isinstance(hand, str) else list(hand)
        whole = round_no in self.spec.whole_hand_rounds
        best = self.solver(players, round_no).solve(self.spec.contract(round_no), h, whole_hand=whole)
        return None if best is None else [list(rd.cards) for rd in best]

    def contract_text(self, round_no: int) -> str:
        from .spec import describe_contract

        if not self.spec.contracts:
            return "no contract"
        return describe_contract(
            self.spec.contract(round_no), round_no in self.spec.whole_hand_rounds
        )


@cache
def get_variant(vid: str) -> Variant:
    """The built-in ruleset ``vid``; ValueError naming the known ids otherwise."""
    if vid not in ORDER:
        raise ValueError(f"unknown ruleset {vid!r}; rummykit knows: {', '.join(ORDER)}")
    raw = _raw_builtin(vid)
    return Variant(build_spec(raw, f"{vid}.toml"), raw)


def load_variant(path: str | Path) -> Variant:
    """A ruleset from a TOML file (a user's house rules).  A file that loads plays: every
    pack it gives deals and every match it allows ends; RulesError names each bad key."""
    if not isinstance(path, str | Path) or not str(path).strip():
        raise RulesError([f"a rules file is a path, not {path!r:.40}"])
    p = Path(path)
    raw = _resolve(_load_toml(p), p.parent, (str(p.resolve()),))
    return Variant(build_spec(raw, str(p)), raw)


def check_rules_file(path: str | Path) -> list[str]:
    """Every problem in a rules file, one line per key; empty if it is valid."""
    try:
        load_variant(path)
    except RulesError as e:
        return e.problems
    return []
