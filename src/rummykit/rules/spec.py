"""RuleSpec: one ruleset as frozen, validated data.

Every behaviour of the engine is a field here; rule files (TOML) and a table's house
rules (``options``) are both just values for these fields.  Validation is pydantic's,
with extra keys forbidden, so a rules file gets one message per bad key.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..cards import JOKER_CODE
from ..melds import Component, MeldRules

VALUE_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "JK")
_COMPONENT = re.compile(r"^(\d*)([SRPM])(\d+)$")
MAX_CONTRACT_MELDS = 13  # melds of one kind in one contract part (2S3: 2)
MAX_MELD_SIZE = 52  # cards in one contract meld (a run is at most 14, a set 4 per deck + wilds)
MAX_VALUE = 1000  # a card's penalty value, a buy's cost, a cut bonus
MAX_DEALS = 1000
MAX_TARGET = 10**6
KIND_NAMES = {"S": "set", "R": "run", "P": "pair", "M": "meld"}


@lru_cache(maxsize=256)
def parse_contract(text: str) -> tuple[Component, ...]:
    """``"2S3+R4"`` → two sets of 3 and a run of 4.  ``""`` means no contract."""
    comps: list[Component] = []
    if not text.strip():
        return ()
    for part in text.replace(" ", "").split("+"):
        m = _COMPONENT.match(part)
        if not m:
            raise ValueError(
                f"bad contract part {part!r}: write e.g. 2S3 (two sets of 3), R4 (a run "
                f"of 4), P2 (a pair) or M3 (one meld, set or run, of 3), joined by +"
            )
        # short digit strings: a count of 10**20 is refused here, never multiplied out
        count, size = m.group(1) or "1", m.group(3)
        n = int(count) if len(count) <= 3 else MAX_CONTRACT_MELDS + 1
        if not 1 <= n <= MAX_CONTRACT_MELDS:
            raise ValueError(f"bad contract part {part!r}: the count must be 1-{MAX_CONTRACT_MELDS}")
        k = int(size) if len(size) <= 3 else 999
        if m.group(2) == "P" and k != 2:
            raise ValueError(f"bad contract part {part!r}: a pair has 2 cards (P2)")
        if not 2 <= k <= MAX_MELD_SIZE:
            raise ValueError(
                f"bad contract part {part!r}: a meld has 2-{MAX_MELD_SIZE} cards, not {size}"
            )
        comps.extend([Component(KIND_NAMES[m.group(2)], int(m.group(3)))] * n)
    order = {"run": 0, "set": 1, "meld": 2, "pair": 3}
    return tuple(sorted(comps, key=lambda c: (order[c.kind], -c.size)))


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
_KIND_ORDER = {"set": 0, "run": 1, "meld": 2, "pair": 3}


def describe_contract(comps: tuple[Component, ...], whole_hand: bool = False) -> str:
    """Plain words: ``two sets of 3 and a run of 4``."""
    if not comps:
        return "no contract"
    groups: dict[tuple[str, int], int] = {}
    for c in comps:
        groups[(c.kind, c.size)] = groups.get((c.kind, c.size), 0) + 1
    parts = []
    for (kind, size), n in sorted(groups.items(), key=lambda kv: (_KIND_ORDER[kv[0][0]], kv[0][1])):
        noun = kind if n == 1 else kind + "s"
        size_text = "two" if kind == "pair" else _WORDS.get(size, str(size))
        if kind == "pair":
            parts.append("a pair" if n == 1 else f"{_WORDS.get(n, str(n))} pairs")
            continue
        parts.append(f"{'a' if n == 1 else _WORDS.get(n, str(n))} {noun} of {size_text}")
    if whole_hand and len(comps) == 1 and comps[0].kind != "pair":
        return f"a {comps[0].kind} of the whole hand (no discard)"  # (its size is the hand's)
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if whole_hand:
        text += ", using the whole hand (no discard)"
    return text


class PackRule(BaseModel):
    """The pack for a range of player counts."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    players: tuple[int, int]
    decks: int = Field(ge=1, le=8)
    jokers: int | Literal["players-1", "two-per-deck"] = 0

    @field_validator("jokers")
    @classmethod
    def _jokers(cls, v: int | str) -> int | str:
        if isinstance(v, int) and not 0 <= v <= 64:
            raise ValueError(f"a pack holds 0-64 jokers, not {v}")
        return v


class BuyRules(BaseModel):
    """Taking the discard out of turn (May I / buy / I want it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    enabled: bool = True
    rounds: list[int] | Literal["all"] = "all"
    extra_cards: int = Field(default=1, ge=0, le=4)
    extra_cards_by_round: dict[int, Annotated[int, Field(ge=0, le=4)]] = {}
    limit: int | None = Field(default=None, ge=0)
    limit_by_round: dict[int, Annotated[int, Field(ge=0)]] = {}
    next_card: bool = True
    no_successive: bool = False
    cost: int = Field(default=0, ge=0, le=MAX_VALUE)
    own_turn: bool = False
    verb: str = "May I"


class RuleSpec(BaseModel):
    """A whole ruleset.  Keyword-only, frozen and validated on creation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    source: str = ""
    notes: str = ""
    players: tuple[int, int]
    pack: list[PackRule]

    # dealing and the match
    # wins over hand_size_by_players; deal r gets entry r (the last one for later deals)
    hand_size: Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=1)] | None = None
    hand_size_by_players: dict[int, Annotated[int, Field(ge=1)]] | None = None
    starter_extra_card: bool = False
    deals: int | None = Field(default=None, ge=1, le=MAX_DEALS)
    target: int | None = Field(default=None, ge=0, le=MAX_TARGET)  # 0: no target
    target_by_players: dict[int, Annotated[int, Field(ge=0, le=MAX_TARGET)]] | None = None

    # melds
    ace_mode: Literal["low", "high", "low_or_high", "wrap"] = "low"
    twos_wild: bool = False
    wild_limit: Literal["unlimited", "at_most_one", "not_more_than_naturals"] = "unlimited"
    wild_limit_on_layoffs: bool = True
    all_wild_melds: bool = False
    min_set: int = Field(default=3, ge=2, le=8)
    min_run: int = Field(default=3, ge=2, le=14)
    ace_both_ends: bool = True  # low_or_high with several decks: A-2-...-K-A (14 cards) is a run
    no_ace_both_ends_deals: list[int] = []  # deals where a run may not have an ace at each end

    # contracts
    contracts: list[str] = []
    contract_sizes: Literal["exact", "at_least"] = "at_least"
    contract_count: Literal["exact", "at_least"] = "exact"
    runs_not_contiguous: bool = False
    one_run_per_suit: bool = False
    distinct_set_ranks: bool = False
    whole_hand_rounds: list[int] = []
    # in those rounds a player may also go out at the start of a turn, before drawing, with
    # the hand as held ("pat": seven-hand)
    pat_before_draw: bool = False

    # the turn
    meld_before_draw: bool = False
    melds_per_turn: Literal["one", "any"] = "one"
    after_contract_melds: Literal["none", "later_turns", "any"] = "none"
    layoff_before_own_meld: bool = True
    layoff_on_contract_turn: bool = False
    no_discard_of_taken_card: bool = False
    go_out_by_discard: bool = True
    go_out_without_discard: bool = True
    no_playable_discard: bool = False
    swap: Literal["none", "to_hand", "layoff_same_turn", "new_meld_same_turn", "table_same_turn"] = (
        "none"
    )
    # where swapping is allowed: a set's wild too, for a card of the set's rank and a suit it
    # lacks (Wrotham: "the card that a melded joker represents")
    swap_sets: bool = False
    whole_hand_meld_deals: list[int] = []

    # out of turn
    buying: BuyRules | None = None
    shanghai_call: bool = False
    rummy_call: bool = False

    # the stock
    stock_empty: Literal[
        "turn_over", "turn_over_shuffle", "end_round", "reshuffle_keep_top", "turn_over_keep_upcard"
    ] = "turn_over"
    max_stock_reuses: int | None = Field(default=None, ge=0)
    # every round ends: after this many turns nobody is out and the round is scored as
    # ``nobody_out`` says (RULES.md 4.5, a table setting; null: no limit)
    max_turns: int | None = Field(default=1000, ge=1)
    on_reuse_limit: Literal["block", "stalemate", "penalty"] = "penalty"

    # scoring
    scoring: Literal["winner_takes", "penalty"] = "penalty"
    card_values: dict[str, Annotated[int, Field(ge=0, le=MAX_VALUE)]]
    going_rummy: Literal["none", "double", "plus10"] = "none"
    nobody_out: Literal["block", "stalemate", "penalty"] = "penalty"
    stalemate_detection: bool = False
    cut_bonus: int = Field(default=0, ge=0, le=MAX_VALUE)
    settlement: Literal["none", "position"] = "none"

    def __copy__(self) -> RuleSpec:
        return self

    # -- rule facts, each named once (engine, bots, RL, terminal and server read these,
    # never the fields they come from)

    @property
    def high_wins(self) -> bool:
        """Whether the highest total wins (whoever goes out scores the others' hands);
        else the lowest (penalty scoring)."""
        return self.scoring == "winner_takes"

    @property
    def wild_swaps(self) -> bool:
        """Whether a melded wild may ever be swapped for the card it stands for."""
        return self.swap != "none"

    @property
    def swap_on_contract_turn(self) -> bool:
        """Whether a player may swap for a wild on the turn it meets the contract (and,
        where there is no contract, on any turn)."""
        return self.swap in ("to_hand", "table_same_turn")

    @property
    def swapped_wild_placed(self) -> bool:
        """Whether a wild taken by a swap must be played the same turn (not kept in hand)."""
        return self.swap not in ("none", "to_hand")

    @property
    def swapped_wild_to_new_meld(self) -> bool:
        """Whether that wild must go into a new meld (not onto a meld on the table)."""
        return self.swap == "new_meld_same_turn"

    def __deepcopy__(self, memo: dict[int, object] | None = None) -> RuleSpec:
        return self  # frozen: a copied game shares it

    @field_validator("card_values")
    @classmethod
    def _values(cls, v: dict[str, int]) -> dict[str, int]:
        bad = sorted(set(v) - set(VALUE_KEYS))
        if bad:
            raise ValueError(f"unknown card keys {bad}; use {', '.join(VALUE_KEYS)}")
        missing = [k for k in VALUE_KEYS if k not in v]
        if missing:
            raise ValueError(f"missing values for {', '.join(missing)}")
        return v

    @field_validator("max_stock_reuses", "max_turns", mode="before")
    @classmethod
    def _no_limit(cls, v: object) -> object:
        """TOML has no null: "none" says no limit.  A true or false is no count of times."""
        if isinstance(v, str) and v.strip().lower() in ("none", "no limit", "unlimited"):
            return None
        if isinstance(v, bool):
            raise ValueError('a number of times, or "none" for no limit (not true or false)')
        return v

    @field_validator("contracts")
    @classmethod
    def _contracts(cls, v: list[str]) -> list[str]:
        for text in v:
            parse_contract(text)
        return v

    @model_validator(mode="after")
    def _consistent(self) -> RuleSpec:
        lo, hi = self.players
        if not 2 <= lo <= hi <= 12:  # every check below loops over the player counts
            raise ValueError(f"players: {lo}-{hi} is not a range within 2-12")
        problems = []
        counts = range(lo, hi + 1)
        for p in self.pack:
            if not 2 <= p.players[0] <= p.players[1] <= 12:
                problems.append(f"pack: players {p.players[0]}-{p.players[1]} is not a range within 2-12")
        for n in counts:
            covering = sum(p.players[0] <= n <= p.players[1] for p in self.pack)
            if not covering:
                problems.append(f"pack: no pack is given for {n} players")
            elif covering > 1:  # (the first would be used, the others silently not)
                problems.append(f"pack: {covering} packs are given for {n} players: give one")
        if self.hand_size is None and self.hand_size_by_players is None:
            problems.append("hand_size: give hand_size (per deal) or hand_size_by_players")
        if self.hand_size is None and self.hand_size_by_players is not None:
            for n in counts:
                if n not in self.hand_size_by_players:
                    problems.append(f"hand_size_by_players: no hand size for {n} players")
        if self.contracts:
            nd = self.deals or len(self.contracts)
            if len(self.contracts) < nd:
                problems.append(f"contracts: {nd} deals but only {len(self.contracts)} contracts")
            if self.hand_size is not None and len(self.hand_size) < nd:
                problems.append(f"hand_size: {nd} deals but only {len(self.hand_size)} sizes")
        for r in self.whole_hand_rounds:
            if not 1 <= r <= len(self.contracts):
                problems.append(f"whole_hand_rounds: {r} is not a deal with a contract")
        if not self.id.strip() or not self.name.strip():
            problems.append("id and name: each must be some text, not empty")
        # (a number past the last deal may be for a deal an option adds: seven-hand's eighth)
        named: list[tuple[str, list[int]]] = [
            ("whole_hand_meld_deals", self.whole_hand_meld_deals),
            ("no_ace_both_ends_deals", self.no_ace_both_ends_deals)]
        b = self.buying
        if b is not None:
            named += [("buying.rounds", [] if b.rounds == "all" else list(b.rounds)),
                      ("buying.limit_by_round", list(b.limit_by_round)),
                      ("buying.extra_cards_by_round", list(b.extra_cards_by_round))]
        for key, deals in named:
            for r in deals:
                if r < 1:
                    problems.append(f"{key}: {r} is no deal (deals are numbered from 1)")
                    break
        if problems:
            raise ValueError("; ".join(problems))
        problems.extend(self._plays())
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _deal_numbers(self) -> range:
        """The deals whose hand size or contract can differ: every deal of a fixed-length
        match, else every entry of ``hand_size`` and ``contracts``."""
        nd = self.num_deals()
        if nd is None:
            nd = max(len(self.hand_size or [1]), len(self.contracts), 1)
        return range(1, nd + 1)

    def _plays(self) -> list[str]:
        """What would stop a game under these rules: a pack that cannot deal, a contract
        no hand can meet, a match that never ends.  (A file that loads plays.)"""
        problems = []
        lo, hi = self.players
        deals = self._deal_numbers()
        for n in range(lo, hi + 1):
            pack = self.pack_size(n)
            for r in deals:
                size = self.cards_dealt(r, n)
                if n * size + 2 + self.starter_extra_card > pack:
                    problems.append(
                        f"hand_size: {n} players x {size} cards do not fit the pack of {pack} "
                        f"(the deal also turns up a card and leaves one to draw)"
                    )
                    break
        if problems:
            return problems
        for r in deals:
            if not self.contracts:
                break
            comps = self.contract(r)
            need = sum(c.size for c in comps)
            for n in range(lo, hi + 1):
                hold = self.cards_dealt(r, n) + 1  # after drawing
                if self.buy_allowed(r):
                    lim = self.buy_limit(r)
                    more = self.buy_penalty(r)
                    hold = self.pack_size(n) if lim is None else hold + lim * (1 + more)
                if need > hold:
                    problems.append(
                        f"contracts: deal {r} asks for {need} cards but a hand of {n} players "
                        f"holds at most {hold}"
                    )
                    break
                for c in comps:
                    most = self._largest_meld(c.kind, n)
                    if c.size > most:
                        problems.append(
                            f"contracts: deal {r} asks for a {c.kind} of {c.size}, but the longest "
                            f"possible with {n} players is {most}"
                        )
                        break
                else:
                    continue
                break
        problems.extend(self._can_go_out())
        if self.high_wins:  # (most wins: a hand's value may not count for its holder)
            for key in ("nobody_out", "on_reuse_limit"):
                if getattr(self, key) == "penalty":
                    problems.append(
                        f"{key}: \"penalty\" scores each hand's value to its holder, which fits penalty "
                        f"scoring (the lowest total wins), but with scoring = \"winner_takes\" the biggest "
                        f"hand would gain most: use \"block\" or \"stalemate\"")
        if self.num_deals() is None:
            for n in range(lo, hi + 1):
                if self.match_target(n) is None:
                    key = "target_by_players" if self.target_by_players is not None else "target"
                    problems.append(
                        f"{key}: with {n} players the match would never end: give deals, or a "
                        f"target above 0"
                    )
                    break
            if not any(self.card_values.values()):
                problems.append(
                    "card_values: every card is worth 0, so no score ever reaches the target: "
                    "give some cards a value, or a number of deals"
                )
        return problems

    def _can_go_out(self) -> list[str]:
        """What would stop anyone ever going out: then no deal is won and, where a deal nobody
        went out of scores nothing (traditional's stalemate), the match would never end."""
        if not self.go_out_by_discard and not self.go_out_without_discard:
            return ["go_out_by_discard and go_out_without_discard are both false: nobody could "
                    "ever go out"]
        if self.meld_before_draw and not self.go_out_without_discard:
            return ["go_out_without_discard: melding comes only before the draw (meld_before_draw), "
                    "so the last cards are melded without a discard: nobody could ever go out"]
        lo, hi = self.players
        if not self.contracts:
            for n in range(lo, hi + 1):
                no_set = self.min_set > self._largest_meld("set", n)
                if no_set and self.min_run > self._largest_meld("run", n):
                    return [f"min_set and min_run: with {n} players no set of {self.min_set} and no run "
                            f"of {self.min_run} can be made, so nobody could meld or go out"]
            return []
        if self.contract_count != "exact":
            return []  # (more melds may always be added)
        for r in self.whole_hand_rounds:
            comps = self.contract(r)
            for n in range(lo, hi + 1):
                fewest = self.cards_dealt(r, n) + (0 if self.pat_before_draw else 1)
                most = sum(self._largest_meld(c.kind, n) for c in comps)
                if fewest > most:
                    return [f"whole_hand_rounds: deal {r} is melded whole, but its contract "
                            f"({describe_contract(comps)}) holds at most {most} cards and a hand of "
                            f"{n} players holds {fewest} when it may go down"]
        return []

    def _largest_meld(self, kind: str, players: int) -> int:
        """The most cards a meld of ``kind`` can hold with ``players`` players' pack."""
        decks, jokers = self.pack_for(players)
        run = 14 if self.ace_mode == "low_or_high" and self.ace_both_ends else 13
        wilds = jokers + (4 * decks if self.twos_wild else 0)
        same_rank = 4 if decks == 1 else 4 * decks + wilds
        if kind == "run":
            return run
        if kind == "pair":
            return 2
        if kind == "set":
            return same_rank
        return max(run, same_rank)

    # -- derived facts ----------------------------------------------------------------

    def pack_for(self, players: int) -> tuple[int, int]:
        """(decks, jokers) for ``players``."""
        for p in self.pack:
            if p.players[0] <= players <= p.players[1]:
                if p.jokers == "players-1":
                    return p.decks, players - 1
                if p.jokers == "two-per-deck":
                    return p.decks, 2 * p.decks
                return p.decks, p.jokers
        raise ValueError(f"no pack for {players} players")

    def pack_size(self, players: int) -> int:
        d, j = self.pack_for(players)
        return 52 * d + j

    def cards_dealt(self, round_no: int, players: int) -> int:
        if self.hand_size is not None:
            return self.hand_size[min(round_no, len(self.hand_size)) - 1]
        assert self.hand_size_by_players is not None
        return self.hand_size_by_players[players]

    def num_deals(self) -> int | None:
        return self.deals if self.deals is not None else (len(self.contracts) or None)

    def match_target(self, players: int) -> int | None:
        if self.target_by_players is not None:
            return self.target_by_players.get(players, self.target) or None
        return self.target or None

    def contract(self, round_no: int) -> tuple[Component, ...]:
        if not self.contracts:
            return ()
        return parse_contract(self.contracts[round_no - 1])

    def meld_rules(self, players: int, round_no: int | None = None) -> MeldRules:
        """How melds are judged with ``players`` at the table (in deal ``round_no``, where a
        deal changes them)."""
        decks, _ = self.pack_for(players)
        return MeldRules(
            ace_mode=self.ace_mode,
            twos_wild=self.twos_wild,
            wild_limit=self.wild_limit,
            natural_required=not self.all_wild_melds,
            set_max=4 if decks == 1 else None,
            min_set=self.min_set,
            min_run=self.min_run,
            ace_both_ends=self.ace_both_ends and round_no not in self.no_ace_both_ends_deals,
            swap_sets=self.swap_sets and self.wild_swaps,
        )

    def values_table(self) -> list[int]:
        """Penalty value of every card face, indexed by face code."""
        out = [0] * 53
        for code in range(52):
            out[code] = self.card_values[VALUE_KEYS[code % 13]]
        out[JOKER_CODE] = self.card_values["JK"]
        return out

    def buy_allowed(self, round_no: int) -> bool:
        b = self.buying
        return b is not None and b.enabled and (b.rounds == "all" or round_no in b.rounds)

    def buy_limit(self, deal: int) -> int | None:
        """The buys each seat may make in deal ``deal`` (None: no limit; where there is
        buying)."""
        b = self.buying
        return None if b is None else b.limit_by_round.get(deal, b.limit)

    def buy_penalty(self, deal: int) -> int:
        """The cards from the stock a buyer takes besides the discard in deal ``deal`` (its
        penalty); 0 where that deal has no buying."""
        b = self.buying
        if b is None or not self.buy_allowed(deal):
            return 0
        return b.extra_cards_by_round.get(deal, b.extra_cards)
