"""House rules in words: a label, what each option does, and a sentence for any of its values.

The lobby shows a table's options as these sentences, and every table shows how its rules
differ from its ruleset's own (:func:`differences`).  The option keys are the ones a table may
set as form fields (``rummykit.server.app.ruleset_options``: the spec's plain switches,
numbers and choices); :func:`differences` also words the keys only a house-rules file can
change (the pack, the contracts, the card values, the buying rules, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .describe import ACE, LIMIT, STOCK, SWAP
from .registry import Variant
from .spec import VALUE_KEYS, BuyRules, RuleSpec, describe_contract, parse_contract


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _s(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _deals(ns: list[int]) -> str:
    if not ns:
        return "no deal"
    return ("deal " if len(ns) == 1 else "deals ") + ", ".join(map(str, ns))


Say = Callable[[Any, RuleSpec | None], str]


@dataclass(frozen=True)
class Option:
    """One house-rule option in words: ``label`` names it, ``help`` says what it decides,
    ``say(value, spec)`` is the rule as a sentence for that value (``spec``: the ruleset it
    is set in, where the words depend on it), ``choices`` short words for each choice."""

    label: str
    help: str
    say: Say
    choices: dict[str, str] | None = None


def _switch(on: str, off: str) -> Say:
    return lambda v, _sp: on if v else off


def _choice(words: dict[str, str]) -> Say:
    return lambda v, _sp: words[v]


def _say_deals(v: Any, sp: RuleSpec | None) -> str:
    if v is None:
        if sp is not None and sp.contracts:
            return f"Every contract is played: {_s(len(sp.contracts), 'deal')}."
        return "No fixed number of deals: the match is played to its target score."
    return f"The match is {_s(v, 'deal')}."


def _say_target(v: Any, _sp: RuleSpec | None) -> str:
    if not v:
        return "No target score: the match is its number of deals."
    return f"The match ends when a score reaches {v}."


def _say_min(kind: str) -> Say:
    return lambda v, _sp: f"A {kind} needs at least {v} cards."


def _say_reuses(v: Any, _sp: RuleSpec | None) -> str:
    if v is None:
        return "The stock may be rebuilt any number of times."
    if v == 0:
        return "The stock is never rebuilt: when it runs out, the deal ends with nobody out."
    return (f"The stock may be rebuilt at most {'once' if v == 1 else f'{v} times'}; when it runs out "
            "again the deal ends with nobody out.")


def _say_turns(v: Any, _sp: RuleSpec | None) -> str:
    if v is None:
        return "A deal has no limit on its number of turns."
    return f"A deal ends with nobody out after {_s(v, 'turn')}."


def _say_cut(v: Any, _sp: RuleSpec | None) -> str:
    if not v:
        return "There is no cut for a bonus before each deal."
    return (f"Before each deal the player on the dealer's right cuts the pack; an exact cut is worth "
            f"{v} points.")


NOBODY_OUT = {
    "block": "the lowest hand scores the differences to every other hand",
    "stalemate": "nobody scores (a stalemate)",
    "penalty": "everyone takes the value of the hand as penalty",
}

OPTIONS: dict[str, Option] = {
    "starter_extra_card": Option(
        "First player's extra card",
        "Whether the first player is dealt one card more and skips the draw on the first turn.",
        _switch("The first player gets one card more and does not draw on the first turn.",
                "Everyone is dealt the same number of cards; the first player draws as usual.")),
    "deals": Option(
        "Number of deals",
        "How many deals the match lasts (empty: as the ruleset plays it).",
        _say_deals),
    "target": Option(
        "Target score",
        "The score that ends the match when someone reaches it (0: none).",
        _say_target),
    "ace_mode": Option(
        "Aces",
        "Where an ace may stand in a run: low, high, either, or round the corner.",
        _choice({k: _cap(v) + "." for k, v in ACE.items()}),
        {"low": "low only (A-2-3)", "high": "high only (Q-K-A)", "low_or_high": "low or high",
         "wrap": "round the corner (K-A-2)"}),
    "twos_wild": Option(
        "2s wild",
        "Whether the 2s are wild cards, like jokers.",
        _switch("2s are wild.", "2s are not wild.")),
    "wild_limit": Option(
        "Wild cards per meld",
        "How many wild cards one meld may hold.",
        _choice({k: _cap(v) + "." for k, v in LIMIT.items()}),
        {"unlimited": "any number", "at_most_one": "at most one",
         "not_more_than_naturals": "no more than the natural cards"}),
    "wild_limit_on_layoffs": Option(
        "Wild limit on lay-offs",
        "Whether the limit on wild cards in a meld holds for the cards laid off on it too.",
        _switch("The limit on wild cards in a meld holds for cards laid off on it too.",
                "Wild cards may be laid off on a meld beyond the limit on wild cards.")),
    "all_wild_melds": Option(
        "All-wild melds",
        "Whether a meld may be made of wild cards only.",
        _switch("A meld may be all wild cards.", "Every meld needs at least one natural card.")),
    "min_set": Option(
        "Smallest set",
        "The fewest cards of one rank that make a set.",
        _say_min("set")),
    "min_run": Option(
        "Shortest run",
        "The fewest cards in sequence of one suit that make a run.",
        _say_min("run")),
    "ace_both_ends": Option(
        "Ace at both ends",
        "With aces low or high and several decks: whether a run may hold an ace at each end "
        "(A-2-...-K-A).",
        _switch("A run may have an ace at each end (A-2-...-K-A).",
                "A run may not have an ace at each end.")),
    "contract_sizes": Option(
        "Contract meld sizes",
        "Whether the contract's melds must be exactly their size or may be longer.",
        _choice({"exact": "The contract's melds are exactly the size asked: more cards are laid off later.",
                 "at_least": "The contract's melds may be longer than the size asked."}),
        {"exact": "exactly the size", "at_least": "at least the size"}),
    "contract_count": Option(
        "Melds with the contract",
        "Whether going down lays exactly the contract's melds or may add more melds.",
        _choice({"exact": "Going down lays exactly the contract's melds.",
                 "at_least": "Going down may lay more melds than the contract asks."}),
        {"exact": "exactly the contract", "at_least": "the contract and more"}),
    "runs_not_contiguous": Option(
        "Runs of one suit apart",
        "Whether two runs of one suit in a contract must not touch (no 3-6 and 7-10 of hearts).",
        _switch("Two runs of one suit in a contract may not be contiguous.",
                "Two runs of one suit in a contract may be contiguous.")),
    "one_run_per_suit": Option(
        "One run per suit",
        "Whether a contract may hold only one run of each suit.",
        _switch("A contract may hold only one run of a suit.",
                "A contract may hold several runs of one suit.")),
    "distinct_set_ranks": Option(
        "Sets of different ranks",
        "Whether two sets of the same rank may both count toward a contract.",
        _switch("Two sets of the same rank do not both count toward a contract.",
                "Two sets of the same rank both count toward a contract.")),
    "pat_before_draw": Option(
        "Going down pat",
        "In the deals melded with the whole hand: whether one may go down before drawing, with "
        "the hand as held.",
        _switch("In the whole-hand deals you may go down before drawing, with the hand as you hold it.",
                "In the whole-hand deals you go down after drawing.")),
    "meld_before_draw": Option(
        "Meld before drawing",
        "Whether melding and laying off come at the start of the turn, before the draw.",
        _switch("You meld and lay off at the start of your turn, before drawing; after drawing you "
                "only discard.",
                "You draw first, then meld and lay off, then discard.")),
    "melds_per_turn": Option(
        "Melds per turn",
        "How many new melds a player may lay down in one turn.",
        _choice({"one": "One new meld in a turn.", "any": "Any number of melds in a turn."}),
        {"one": "one", "any": "any number"}),
    "after_contract_melds": Option(
        "New melds after the contract",
        "Whether a player who is down may lay down new melds, or only lay off.",
        _choice({"none": "After going down you only lay off: no new melds.",
                 "later_turns": "After going down you may lay down new melds from your next turn on.",
                 "any": "After going down you may lay down new melds at any time, that turn too."}),
        {"none": "lay off only", "later_turns": "from the next turn", "any": "any time"}),
    "layoff_before_own_meld": Option(
        "Lay off before melding",
        "Whether a player may lay off before laying down a meld of their own.",
        _switch("You may lay off before you have laid down a meld of your own.",
                "You may lay off only after laying down a meld of your own.")),
    "layoff_on_contract_turn": Option(
        "Lay off when going down",
        "Whether a player may lay off in the turn of going down.",
        _switch("You may lay off in the same turn as going down.",
                "Laying off waits for the turn after going down.")),
    "no_discard_of_taken_card": Option(
        "Keep the card taken",
        "Whether the card taken from the discard pile may go back on it the same turn.",
        _switch("You may not discard the card you took from the discard pile that turn.",
                "You may discard the card you took from the discard pile.")),
    "go_out_by_discard": Option(
        "Go out by discarding",
        "Whether a player may go out by discarding the last card.",
        _switch("You may go out by discarding your last card.",
                "You may not go out by discarding your last card: it must be melded or laid off.")),
    "go_out_without_discard": Option(
        "Go out without discarding",
        "Whether a player may go out by melding or laying off every card, with no discard.",
        _switch("You may go out by melding or laying off every card, without a discard.",
                "You must discard to go out.")),
    "no_playable_discard": Option(
        "No playable discards",
        "Whether a player who is down may discard a card that could be played on the table.",
        _switch("Once down you may not discard a card that could be played; with no legal discard you "
                "take the top discard and the top stock card.",
                "You may discard any card, one that could be played too.")),
    "swap": Option(
        "Swapping jokers",
        "Whether and when a player may swap the card a melded joker stands for and take the joker.",
        _choice(dict(SWAP)),
        {"none": "never", "to_hand": "into the hand", "layoff_same_turn": "to lay off that turn",
         "new_meld_same_turn": "into a new meld that turn",
         "table_same_turn": "back on the table that turn"}),
    "swap_sets": Option(
        "Swapping in sets",
        "Where jokers may be swapped: whether a set's joker may be too.",
        _switch("A joker in a set may be swapped too, for a card of the set's rank in a suit it lacks.",
                "Only a run's joker may be swapped, not a set's.")),
    "shanghai_call": Option(
        "Shanghai call",
        "Whether a discard that fits a table meld may be called by another player.",
        _switch("A discard that fits a meld on the table may be called (Shanghai).",
                "There is no Shanghai call.")),
    "rummy_call": Option(
        "Rummy call",
        "Whether a discard that could be played may be called by another player, who sheds a card.",
        _switch("A discard that could be played may be called (Rummy); the caller sheds a card.",
                "There is no Rummy call.")),
    "stock_empty": Option(
        "When the stock runs out",
        "What happens when a card must be drawn from an empty stock.",
        _choice({k: f"When the stock runs out, {v}." for k, v in STOCK.items()}),
        {"turn_over": "turn the pile over", "turn_over_shuffle": "shuffle the pile",
         "end_round": "the deal ends", "reshuffle_keep_top": "shuffle all but the top card",
         "turn_over_keep_upcard": "turn over, top card up"}),
    "max_stock_reuses": Option(
        "Stock rebuilds",
        "How many times the stock may be rebuilt in a deal before the deal ends (empty: no limit).",
        _say_reuses),
    "max_turns": Option(
        "Turns per deal",
        "The most turns a deal lasts before it ends with nobody out (empty: no limit).",
        _say_turns),
    "on_reuse_limit": Option(
        "Scoring at the rebuild limit",
        "How a deal ended by the limit on stock rebuilds is scored.",
        _choice({k: f"A deal ended by the limit on stock rebuilds: {v}." for k, v in NOBODY_OUT.items()}),
        {"block": "block scoring", "stalemate": "nobody scores", "penalty": "everyone pays"}),
    "scoring": Option(
        "Scoring",
        "Whether the player who goes out scores the others' hands, or everyone else pays them.",
        _choice({"winner_takes": "Whoever goes out scores the others' hands; the highest total wins.",
                 "penalty": "The others take their hands as penalty; the lowest total wins."}),
        {"winner_takes": "the winner scores", "penalty": "penalty points"}),
    "going_rummy": Option(
        "Going rummy",
        "A bonus for going out in one turn having played nothing before.",
        _choice({"none": "Going rummy earns nothing extra.",
                 "double": "Going rummy (out in one turn, nothing played before) doubles the score.",
                 "plus10": "Going rummy (out in one turn, nothing played before) is worth 10 more."}),
        {"none": "no bonus", "double": "double", "plus10": "plus 10"}),
    "nobody_out": Option(
        "Nobody out",
        "How a deal that ends with nobody out is scored.",
        _choice({k: f"If nobody goes out, {v}." for k, v in NOBODY_OUT.items()}),
        {"block": "block scoring", "stalemate": "nobody scores", "penalty": "everyone pays"}),
    "stalemate_detection": Option(
        "Stalemates",
        "Whether a deal nobody can ever win ends at once as a stalemate.",
        _switch("A deal nobody can ever go out of ends at once: nobody scores.",
                "A deal is not ended early when nobody can go out.")),
    "cut_bonus": Option(
        "Cut bonus",
        "Points for an exact cut before each deal (0: no cut).",
        _say_cut),
    "settlement": Option(
        "Settlement",
        "Whether the match ends with payments by finishing place.",
        _choice({"none": "No settlement at the end.",
                 "position": "At the end each place pays the winner by position (2 units a place), "
                             "plus the kitty."}),
        {"none": "none", "position": "by position"}),
}


def label(key: str) -> str:
    """The option's short name ("Aces")."""
    return OPTIONS[key].label


def help_text(key: str) -> str:
    """What the option decides, in a sentence."""
    return OPTIONS[key].help


def sentence(key: str, value: Any, spec: RuleSpec | None = None) -> str:
    """The rule that ``value`` of option ``key`` makes, as a sentence ("Aces are low only
    (A-2-3)."); ``spec``: the ruleset it is set in, where the words depend on it."""
    return OPTIONS[key].say(value, spec)


def choice_labels(key: str) -> dict[str, str] | None:
    """Short words for each choice of a choice option; None for a switch or a number."""
    c = OPTIONS[key].choices
    return None if c is None else dict(c)


# -- the keys only a rules file changes --------------------------------------------------

SKIP = ("id", "name", "source", "notes")


def _pack(sp: RuleSpec) -> str:
    parts = []
    for p in sp.pack:
        d, j = sp.pack_for(p.players[0])
        jk = ("one joker fewer than the players" if p.jokers == "players-1"
              else _s(j, "joker") if j else "no jokers")
        parts.append(f"{p.players[0]}-{p.players[1]} players: {_s(d, 'deck')} and {jk}")
    return "The pack: " + "; ".join(parts) + "."


def _contracts(sp: RuleSpec) -> str:
    if not sp.contracts:
        return "There are no contracts: any sets and runs may be melded."
    deals = sp.num_deals() or len(sp.contracts)
    return "The contracts: " + "; ".join(
        f"{r}. {describe_contract(parse_contract(sp.contracts[r - 1]), r in sp.whole_hand_rounds)}"
        for r in range(1, min(deals, len(sp.contracts)) + 1)) + "."


def _hand(sp: RuleSpec) -> str:
    if sp.hand_size:
        sizes = sp.hand_size[: sp.num_deals() or len(sp.hand_size)]
        if len(set(sizes)) == 1:
            return f"Each player is dealt {sizes[0]} cards."
        return "Cards dealt per deal: " + ", ".join(map(str, sizes)) + "."
    by = sp.hand_size_by_players or {}
    return "Cards dealt: " + ", ".join(f"{n} players {k}" for n, k in sorted(by.items())) + "."


def _targets(sp: RuleSpec) -> str:
    by = sp.target_by_players
    if not by:
        return _say_target(sp.target, sp)
    return "The match ends when a score reaches " + ", ".join(
        f"{k} ({n} players)" for n, k in sorted(by.items())) + "."


def _values(sp: RuleSpec, base: RuleSpec) -> str:
    names = {"T": "10", "JK": "joker"}
    changed = [k for k in VALUE_KEYS if sp.card_values[k] != base.card_values.get(k)]
    return "Card values: " + ", ".join(f"{names.get(k, k)} = {sp.card_values[k]}" for k in changed) + "."


def _buying(b: BuyRules | None, base: BuyRules | None) -> list[str]:
    if b is None or not b.enabled:
        return ["Nobody may take a discard out of turn (no May I, no buying)."]
    verb = b.verb
    out = []
    fresh = base is None or not base.enabled  # (then every rule of it is new)
    was = base if base is not None else b
    if fresh:
        out.append(f"{verb}: when the player to draw passes on the discard, another player may take it.")
    if fresh and b.rounds != "all" or not fresh and b.rounds != was.rounds:
        out.append(f"{verb} in every deal." if b.rounds == "all" else
                   f"{verb} only in {_deals(list(b.rounds))}.")
    if fresh or b.extra_cards != was.extra_cards or b.extra_cards_by_round != was.extra_cards_by_round:
        more = "".join(f"; deal {r}: {k}" for r, k in sorted(b.extra_cards_by_round.items()))
        out.append(f"{verb} takes {_s(b.extra_cards, 'card')} from the stock with the discard{more}.")
    if fresh or b.limit != was.limit or b.limit_by_round != was.limit_by_round:
        lim = "no limit" if b.limit is None else f"at most {b.limit} a deal"
        more = "".join(f"; deal {r}: at most {k}" for r, k in sorted(b.limit_by_round.items()))
        out.append(f"{verb}: {lim}{more}.")
    if fresh and b.next_card or not fresh and b.next_card != was.next_card:
        out.append("Once a discard is taken, the card under it is offered the same way." if b.next_card
                   else "Only the top discard is offered, not the card under it.")
    if fresh and b.no_successive or not fresh and b.no_successive != was.no_successive:
        out.append("Nobody takes two cards in a row this way." if b.no_successive
                   else "A player may take two cards in a row this way.")
    if fresh and b.cost or not fresh and b.cost != was.cost:
        out.append(f"Each costs the buyer {b.cost} into the kitty, which the winner takes." if b.cost
                   else "Taking a discard out of turn costs nothing into the kitty.")
    if fresh and b.own_turn or not fresh and b.own_turn != was.own_turn:
        out.append(f"The player to draw may also {verb.lower()} the upcard, then takes a normal turn."
                   if b.own_turn else f"The player to draw may not {verb.lower()} the upcard.")
    if not out:  # (only its name changed)
        out.append(f"Taking a discard out of turn is called {verb!r}.")
    return out


def _other(key: str, sp: RuleSpec, base: RuleSpec) -> list[str]:
    """The sentences for a key that is not a form option."""
    if key == "players":
        return [f"For {sp.players[0]}-{sp.players[1]} players."]
    if key == "pack":
        return [_pack(sp)]
    if key in ("hand_size", "hand_size_by_players"):
        return [_hand(sp)]
    if key == "target_by_players":
        return [_targets(sp)]
    if key in ("contracts", "whole_hand_rounds"):
        return [_contracts(sp)]
    if key == "no_ace_both_ends_deals":
        return [f"No run may have an ace at each end in {_deals(sp.no_ace_both_ends_deals)}."
                if sp.no_ace_both_ends_deals else "A run may have an ace at each end in every deal."]
    if key == "whole_hand_meld_deals":
        return [f"In {_deals(sp.whole_hand_meld_deals)} nobody melds until able to lay down the whole hand."
                if sp.whole_hand_meld_deals else "No deal is melded with the whole hand at once."]
    if key == "card_values":
        return [_values(sp, base)]
    if key == "buying":
        return _buying(sp.buying, base.buying)
    return [f"{_cap(key.replace('_', ' '))}: {getattr(sp, key)}."]  # (a key added to the spec later)


def _same_play(key: str, sp: RuleSpec, bp: RuleSpec) -> bool:
    """Whether two specs that write ``key`` differently deal the same hands and ask the same
    contracts in the deals ``sp`` plays (a list cut to fewer deals is no difference)."""
    deals = range(1, (sp.num_deals() or max(len(sp.contracts), len(sp.hand_size or [1]))) + 1)
    if key in ("hand_size", "hand_size_by_players"):
        try:
            return all(sp.cards_dealt(r, n) == bp.cards_dealt(r, n) for r in deals
                       for n in range(sp.players[0], sp.players[1] + 1))
        except KeyError:  # (bp deals nothing to that many players)
            return False
    if key == "contracts":
        return len(bp.contracts) >= len(deals) and all(sp.contract(r) == bp.contract(r) for r in deals)
    return False


def differences(variant: Variant, base: Variant) -> list[str]:
    """How ``variant``'s rules differ from ``base``'s, one sentence per rule, in the order of
    the spec's fields (empty when they play the same)."""
    sp, bp = variant.spec, base.spec
    out: list[str] = []
    said: set[str] = set()
    for key in RuleSpec.model_fields:
        if key in SKIP or getattr(sp, key) == getattr(bp, key) or _same_play(key, sp, bp):
            continue
        if key in OPTIONS:
            lines = [sentence(key, getattr(sp, key), sp)]
        else:
            lines = _other(key, sp, bp)
        for line in lines:
            if line not in said:  # (hand_size and its by-players twin say one thing)
                said.add(line)
                out.append(line)
    return out
