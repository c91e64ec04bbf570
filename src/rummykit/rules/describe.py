"""A ruleset in plain words, for `rummykit rules show` and the `?` key of the table."""

from __future__ import annotations

import re

from .registry import Variant
from .spec import VALUE_KEYS, describe_contract

ACE = {
    "low": "aces are low only (A-2-3)",
    "high": "aces are high only (Q-K-A)",
    "low_or_high": "an ace is low or high but a run never turns the corner",
    "wrap": "runs may turn the corner (K-A-2)",
}
LIMIT = {
    "unlimited": "any number of wild cards in a meld",
    "at_most_one": "at most one wild card in a meld",
    "not_more_than_naturals": "never more wild cards than natural cards in a meld",
}
STOCK = {
    "turn_over": "the discard pile is turned over, unshuffled, as the new stock",
    "turn_over_shuffle": "the discard pile is shuffled to make the new stock",
    "end_round": "the round ends at once",
    "reshuffle_keep_top": "all discards but the top one are shuffled into a new stock",
    "turn_over_keep_upcard": "the discard pile is turned over unshuffled and its top card turned up",
}
SWAP = {
    "none": "Melded wild cards stay where they are.",
    "to_hand": "A player holding the card a joker in a run stands for may swap it in and take the joker.",
    "layoff_same_turn": "After your contract (on a later turn) you may swap the card a run's joker stands "
                        "for and take the joker, which you must lay off the same turn.",
    "new_meld_same_turn": "After your contract (on a later turn) you may swap the card a run's joker stands "
                          "for and take the joker, which must go into a new meld the same turn.",
    "table_same_turn": "Once down you may swap the card a run's joker stands for; the joker must go back on "
                       "the table the same turn.",
}


def clean_source(source: str) -> str:
    """Where the rules come from, without the project's own file numbers ("(seed 001)")."""
    source = re.sub(r"\s*\(seed \d+[^)]*\)", "", source)
    source = re.sub(r"^seed \d+, first part \((.*)\)$", r"a rules text for \1", source)
    return re.sub(r"^seed \d+,?\s*", "", source).strip()


def describe_rules(v: Variant) -> str:
    sp = v.spec
    source = clean_source(sp.source)
    lines = [f"{sp.name} ({sp.id})", f"Source: {source}" if source else ""]
    lo, hi = sp.players
    packs = []
    for p in sp.pack:
        d, j = sp.pack_for(p.players[0])
        jk = "players-1" if p.jokers == "players-1" else str(j)
        packs.append(f"{p.players[0]}-{p.players[1]} players: {d} deck{'s' if d > 1 else ''} and {jk} jokers")
    lines.append(f"Players: {lo}-{hi}. Pack: " + "; ".join(packs) + ".")
    if sp.hand_size:  # (it wins over hand_size_by_players, as in the game: spec.cards_dealt)
        lines.append(f"Cards dealt per deal: {', '.join(map(str, sp.hand_size[: sp.num_deals()]))}.")
    elif sp.hand_size_by_players:
        deal = ", ".join(f"{n} players {k}" for n, k in sorted(sp.hand_size_by_players.items()))
        lines.append(f"Cards dealt: {deal}.")
    if sp.starter_extra_card:
        lines.append("The first player gets one card more and does not draw on the first turn.")
    deals = sp.num_deals()
    tgt = sp.target_by_players or sp.target
    if deals:
        lines.append(f"The match is {deals} deals.")
    if tgt:
        lines.append(f"The match ends when a score reaches {tgt}.")
    wild = ["jokers"] if any(sp.pack_for(n)[1] for n in range(lo, hi + 1)) else []
    if sp.twos_wild:
        wild.append("2s")
    lines.append(
        f"Melds: sets of {sp.min_set}+ of one rank, runs of {sp.min_run}+ in one suit; {ACE[sp.ace_mode]}. "
        + (f"Wild cards: {' and '.join(wild)}; {LIMIT[sp.wild_limit]}" if wild else "No wild cards")
        + ("; a meld may be all wild." if sp.all_wild_melds
           else "." if not wild else "; every meld needs a natural card.")
    )
    if sp.contracts:
        lines.append("Contracts (the first meld of each deal, all at once):")
        for r in range(1, (deals or len(sp.contracts)) + 1):
            aces = "; no ace at each end" if r in sp.no_ace_both_ends_deals else ""
            lines.append(f"  {r}. {describe_contract(sp.contract(r), r in sp.whole_hand_rounds)}{aces}")
        how = "exactly the minimum size" if sp.contract_sizes == "exact" else "at least the minimum size"
        lines.append(f"  Contract melds are {how}.")
        if sp.runs_not_contiguous:
            lines.append("  Two runs of one suit in a contract may not be contiguous.")
        if sp.one_run_per_suit:
            lines.append("  A contract may hold only one run of a suit.")
        if sp.distinct_set_ranks:
            lines.append("  Two sets of the same rank do not both count.")
        if sp.pat_before_draw and sp.whole_hand_rounds:
            lines.append("  In the whole-hand deals you may go down at the start of your turn, before "
                         "drawing, with the hand as you hold it (\"pat\"), or after drawing.")
        after = {"none": "only lay off", "later_turns": "lay down new melds on later turns and lay off",
                 "any": "lay down new melds and lay off"}[sp.after_contract_melds]
        lines.append(f"After the contract you may {after}"
                     + ("; laying off is allowed on the turn of the contract." if sp.layoff_on_contract_turn
                        else "; laying off waits for the next turn."))
    else:
        per = "one meld" if sp.melds_per_turn == "one" else "any number of melds"
        lines.append(f"On your turn: draw, lay down {per}, lay off, discard.")
        if not sp.layoff_before_own_meld:
            lines.append("You may lay off only after laying down a meld of your own.")
        if sp.whole_hand_meld_deals:
            lines.append(f"Deals {', '.join(map(str, sp.whole_hand_meld_deals))}: nobody melds until able "
                         f"to lay down the whole hand at once.")
    if sp.meld_before_draw:
        lines.append("Melding and laying off happen only at the start of your turn, before drawing; "
                     "after drawing only the discard remains.")
    if sp.no_discard_of_taken_card:
        lines.append("You may not discard the card you took from the discard pile that turn.")
    if not sp.go_out_by_discard:
        lines.append("You may not go out by discarding your last card.")
    if not sp.go_out_without_discard:
        lines.append("You must discard to go out.")
    if sp.no_playable_discard:
        lines.append("Once down you may not discard a card that could be played; with no legal discard "
                     "you take the top discard and the top stock card.")
    lines.append(SWAP[sp.swap])
    if sp.swap_sets and sp.wild_swaps:
        lines.append("A joker in a set may be swapped too, for a card of the set's rank in a suit "
                     "the set lacks.")
    b = sp.buying
    if b is not None and b.enabled:
        rounds = "every deal" if b.rounds == "all" else "deals " + ", ".join(map(str, b.rounds))
        def cards(k: int) -> str:
            return f"takes {k} stock card{'s' if k != 1 else ''} with it" if k else "takes no extra card"

        extra = cards(b.extra_cards) + "".join(f", deal {r}: {cards(k)[6:]}"
                                               for r, k in sorted(b.extra_cards_by_round.items())
                                               if r <= (deals or r))
        lim = f"at most {b.limit} a deal" if b.limit is not None else "no limit"
        lim += "".join(f", deal {r}: at most {k}" for r, k in sorted(b.limit_by_round.items())
                       if r <= (deals or r))
        more = []
        if b.cost:
            more.append(f"each costs the buyer {b.cost} unit{'s' if b.cost != 1 else ''} into the kitty, "
                        "which the winner takes")
        if b.next_card:
            more.append("once it is taken, the card under it is offered the same way")
        if b.no_successive:
            more.append("nobody takes two cards in a row this way")
        if b.own_turn:
            more.append(f"the player to draw may also {b.verb.lower()} the upcard, then takes the "
                        "normal turn")
        lines.append(f"{b.verb[:1].upper()}{b.verb[1:]}: when the player to draw passes on the discard, "
                     f"another player may take it ({rounds}; {extra}; {lim}; nearest in turn order first)."
                     + "".join(f" {m[0].upper()}{m[1:]}." for m in more))
    if sp.shanghai_call:
        lines.append("Shanghai call: a discard that fits a meld may be called.")
    if sp.rummy_call:
        lines.append("Rummy call: a discard that could be played may be called; the caller sheds a card, "
                     "and a shed card that could be played may be called in turn.")
    if sp.stock_empty == "end_round":
        lines.append("When the stock is empty and the next player does not take the discard, the round ends "
                     "with nobody out.")
    else:
        k = sp.max_stock_reuses
        reuse = "" if k is None else f" (at most {k} time{'s' if k != 1 else ''})"
        lines.append(f"When the stock runs out, {STOCK[sp.stock_empty]}{reuse}.")
    vals = ", ".join(f"{k}={sp.card_values[k]}" for k in VALUE_KEYS)
    if sp.high_wins:
        lines.append(f"Scoring: whoever goes out scores the others' hands ({vals}); highest total wins.")
    else:
        lines.append(f"Scoring: the others take their hands as penalty ({vals}); lowest total wins.")
    if sp.high_wins and sp.nobody_out == "block":
        lines.append("If nobody goes out, the lowest hand scores the differences to every other hand "
                     "(a tie for lowest shares it).")
    elif sp.nobody_out == "stalemate":
        lines.append("If nobody goes out, nobody scores (a stalemate).")
    if sp.going_rummy != "none":
        lines.append(f"Going rummy (out in one turn having played nothing before): {sp.going_rummy}.")
    if sp.cut_bonus:
        lines.append(f"Before each deal the player on the dealer's right cuts; an exact cut is worth "
                     f"-{sp.cut_bonus}.")
    return "\n".join(x for x in lines if x)
