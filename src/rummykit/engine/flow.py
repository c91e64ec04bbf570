"""The turn machine: deals, the stock, the out-of-turn windows, the end of a turn, of a
round and of the match — driven by the rule spec.

Functions over a match's :class:`~.state.Setup` and :class:`~.state.State`.  The action
modules (draw, melding, discard) call down into these; this module imports none of them.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from fractions import Fraction
from typing import Any

from ..cards import Card, format_cards, make_pack, sorted_cards
from ..melds import Component
from ..rules.spec import describe_contract
from .events import NESTED, Event, frozen
from .scoring import hand_value, number, score_round, settlement
from .state import Phase, Setup, State


def seat_name(s: int) -> str:
    return f"Seat {s}"


# ------------------------------------------------------------------ the match


def new_state(setup: Setup) -> State:
    """The match before its first deal (then :func:`start_round` deals it)."""
    rng = random.Random(setup.seed)
    rng.randrange(setup.n)  # the first dealer's draw: made even when it was given, so replays agree
    return State(rng=rng, round_no=setup.first_round - 1, dealer=setup.first_dealer,
                 scores=[Fraction(0)] * setup.n)


def first_dealer(seed: int, n: int, dealer: int | None) -> int:
    """The first dealer: as given, else drawn by the match's first random number."""
    drawn = random.Random(seed).randrange(n)
    return dealer if dealer is not None else drawn


def start_round(setup: Setup, st: State) -> None:
    """The next deal: fresh round fields, the pack shuffled, then the cut or the deal."""
    sp = setup.spec
    n = setup.n
    st.round_no += 1
    st.rules = sp.meld_rules(n, st.round_no)  # a deal may change them: seven-hand's one-run pat
    st.solver = setup.variant.solver(n, st.round_no)
    st.hands = [[] for _ in range(n)]
    st.stock, st.discard, st.discard_by, st.table = [], [], [], []
    st.down = [False] * n
    st.down_turn = [-1] * n
    st.played_before = [False] * n
    st.buys = [0] * n
    st.known = [() for _ in range(n)]
    st.last_log = st.log  # (its closing moves: what ended it, for those who saw it end)
    st.log = []
    st.stock_reuses = 0
    st.turn_index = 0
    st.current = (st.dealer + 1) % n
    st.asked = None
    st.queue = []
    st.last_taker = None
    st.call_kind = None
    st.protected = False
    st.contract_cache = {}  # a fresh dict: copies of the last round may still share the old one
    st.contract_words = None
    st.buy_cap = None
    st.wh_solver = None
    reset_turn(st)
    gather_pack(setup, st)
    if sp.cut_bonus:
        st.phase = Phase.CUT
        st.asked = (st.dealer - 1) % n
    else:
        deal(setup, st)


def reset_turn(st: State) -> None:
    st.taken = None
    st.melds_this_turn = 0
    st.played_this_turn = False
    st.pending = []
    st.skip_draw = False


def gather_pack(setup: Setup, st: State) -> None:
    """The whole pack, shuffled (or stacked), face down as the stock."""
    if setup.stacked is not None and st.round_no == setup.first_round:
        # the stacked cards on top, the rest shuffled beneath them
        rest = Counter(make_pack(setup.decks, setup.jokers))
        rest.subtract(setup.stacked)
        below = [c for c, k in sorted(rest.items()) for _ in range(k)]
        st.rng.shuffle(below)
        pack = list(setup.stacked) + below
    else:
        pack = make_pack(setup.decks, setup.jokers)
        st.rng.shuffle(pack)
    st.stock = pack[::-1]


def deal(setup: Setup, st: State) -> None:
    n = setup.n
    sp = setup.spec
    size = sp.cards_dealt(st.round_no, n)
    for _ in range(size):
        for k in range(1, n + 1):
            st.hands[(st.dealer + k) % n].append(st.stock.pop())
    if sp.starter_extra_card:
        st.hands[st.current].append(st.stock.pop())
        st.skip_draw = True
    push_discard(st, st.stock.pop(), None)
    st.phase = Phase.PLAY if st.skip_draw else Phase.DRAW
    st.asked = None
    event(st, None, "deal", f"Deal {st.round_no}: {size} cards each; {st.discard[-1]} turned up",
          card=str(st.discard[-1]), dealer=st.dealer)


# ------------------------------------------------------------------ small facts


def event(st: State, seat: int | None, verb: str, text: str, **data: Any) -> None:
    """Log one line of the round.  The event is built here, without the Python ``Event``
    constructor's loop: plain values go in as they are, lists and dicts frozen."""
    d: dict[str, Any] = {"seat": seat, "verb": verb, "text": text}
    for k, v in data.items():
        d[k] = frozen(v) if type(v) in NESTED else v
    e = Event.__new__(Event)
    dict.update(e, d)
    st.log.append(e)


def buy_event(log: list[Event], at: int, seat: int, text: str, card: str, extra: int) -> None:
    """A buy's line, put at ``at`` in ``log`` (the round's log when the buy began: drawing
    its penalty cards may have logged a rebuilt stock or ended the round since)."""
    e = Event.__new__(Event)
    dict.update(e, {"seat": seat, "verb": "buy", "text": text, "card": card, "extra": extra})
    log.insert(at, e)


def push_discard(st: State, c: Card, seat: int | None) -> None:
    st.discard.append(c)
    st.discard_by.append(seat)


def pop_discard(st: State) -> Card:
    st.discard_by.pop()
    return st.discard.pop()


def know(st: State, seat: int, c: Card) -> None:
    """``c`` went into ``seat``'s hand in public view.  The cards known in a hand are a
    sorted tuple, as views show them, replaced when it changes: views and copies of the
    state share it (nothing else reads their order)."""
    k = st.known[seat]
    i = bisect_right(k, c)
    st.known[seat] = k[:i] + (c,) + k[i:]


def forget(st: State, seat: int, c: Card) -> None:
    """``c`` left ``seat``'s hand in public view: one fewer card known to be there."""
    k = st.known[seat]
    if c in k:
        i = k.index(c)
        st.known[seat] = k[:i] + k[i + 1:]


def contract(setup: Setup, st: State) -> tuple[Component, ...]:
    """The deal's contract, its parts (kept for the deal, beside its number: the engine
    asks at every meld it judges)."""
    memo = st.contract_parts
    if memo is None or memo[0] != st.round_no:
        parts = setup.spec.contract(st.round_no) if setup.spec.contracts else ()
        memo = st.contract_parts = (st.round_no, parts)
    return memo[1]


def whole_hand_round(setup: Setup, st: State) -> bool:
    return st.round_no in setup.spec.whole_hand_rounds


def contract_text(setup: Setup, st: State) -> str:
    """The deal's contract in words (a deal's contract depends on its number alone: the
    words are kept for the deal, beside the number they were made for)."""
    if not setup.spec.contracts:
        return "no contract"
    memo = st.contract_words
    if memo is None or memo[0] != st.round_no:
        con = contract(setup, st)
        memo = st.contract_words = (st.round_no, describe_contract(con, whole_hand_round(setup, st)))
    return memo[1]


def contract_needed(setup: Setup, st: State, seat: int) -> bool:
    return bool(setup.spec.contracts) and not st.down[seat]


def buy_limit(setup: Setup, st: State) -> int | None:
    """Buys each seat may make this deal (None: no limit); only where there is buying."""
    return setup.spec.buy_limit(st.round_no)


def buy_cap(setup: Setup, st: State) -> int | None:
    """Buys each seat may make this deal: None where this deal has no buying, or no limit
    (kept for the deal, beside its number: a view asks every time)."""
    memo = st.buy_cap
    if memo is None or memo[0] != st.round_no:
        sp = setup.spec
        cap = buy_limit(setup, st) if sp.buying is not None and sp.buy_allowed(st.round_no) else None
        memo = st.buy_cap = (st.round_no, cap)
    return memo[1]


def playable(st: State, c: Card) -> bool:
    """Whether ``c`` could be laid off on some meld on the table."""
    rules = st.rules
    return any(m.layoff_meanings(c, rules) for m in st.table)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the stock


def pop_stock(setup: Setup, st: State) -> Card | None:
    """The top stock card, rebuilding the stock when it is empty; None when the round
    ended instead."""
    if not st.stock and not restock(setup, st):
        return None
    return st.stock.pop()


def restock(setup: Setup, st: State) -> bool:
    sp = setup.spec
    if sp.max_stock_reuses is not None and st.stock_reuses >= sp.max_stock_reuses:
        if sp.stock_empty == "end_round":
            end_round(setup, st, None, sp.nobody_out, "the stock ran out")
        else:
            k = st.stock_reuses
            times = "once" if k == 1 else f"{k} times"
            end_round(setup, st, None, sp.on_reuse_limit,
                      f"the stock ran out after being rebuilt {times} (the limit)", limit="max_stock_reuses")
        return False
    mode = sp.stock_empty
    pile = st.discard
    if mode == "end_round":
        end_round(setup, st, None, sp.nobody_out, "the stock ran out")
        return False
    if mode == "reshuffle_keep_top":
        if len(pile) < 2:
            end_round(setup, st, None, sp.nobody_out, "the stock and the discard pile ran out")
            return False
        top = pile.pop()
        st.rng.shuffle(pile)
        st.stock, st.discard, st.discard_by = pile, [top], st.discard_by[-1:]
    else:
        if not pile:
            end_round(setup, st, None, sp.nobody_out, "the stock and the discard pile ran out")
            return False
        if mode == "turn_over_shuffle":
            st.rng.shuffle(pile)
            st.stock = pile
        else:
            st.stock = pile[::-1]
        st.discard, st.discard_by = [], []
        if mode == "turn_over_keep_upcard" and len(st.stock) > 1:
            push_discard(st, st.stock.pop(), None)
    st.stock_reuses += 1
    event(st, None, "restock", f"The discard pile became the stock ({len(st.stock)} cards)",
          reuses=st.stock_reuses)
    return True


# ------------------------------------------------------------------ the windows


def eligible_buyers(setup: Setup, st: State) -> list[int]:
    """The seats a May I / buy window asks, in turn order from the seat to play: never
    the seat that discarded the card, nor one out of buys, nor (where the rules say so)
    the seat that took the last one."""
    sp = setup.spec
    b = sp.buying
    if b is None or not sp.buy_allowed(st.round_no) or not st.discard or st.protected:
        return []
    lim = buy_limit(setup, st)
    n = setup.n
    discarder = st.discard_by[-1]
    out = []
    for k in range(1, n):
        s = (st.current + k) % n
        if s == discarder or (lim is not None and st.buys[s] >= lim):
            continue
        if b.no_successive and s == st.last_taker:
            continue
        out.append(s)
    return out


def open_buy_window(st: State, buyers: list[int]) -> None:
    st.queue = buyers
    st.asked = buyers[0]
    st.phase = Phase.MAY_I


def finish_draw(setup: Setup, st: State, seat: int) -> None:
    """The seat to play draws from the stock (a window closed, or none opened)."""
    st.asked = None
    st.queue = []
    c = pop_stock(setup, st)
    if c is None:
        return
    st.hands[seat].append(c)
    st.phase = Phase.PLAY
    event(st, seat, "draw", f"{seat_name(seat)} drew from the stock", source="stock")


def open_call_window(setup: Setup, st: State, seat: int) -> bool:
    """After ``seat``'s discard: a Shanghai or Rummy window if the discard could be
    played on the table and someone may call."""
    sp = setup.spec
    if not st.discard or not st.table or (not sp.shanghai_call and not sp.rummy_call):
        return False
    if st.protected or not playable(st, st.discard[-1]):
        return False
    kind = "shanghai" if sp.shanghai_call else "rummy"
    n = setup.n
    queue = [(seat + k) % n for k in range(1, n)]
    if kind == "rummy":
        queue = [s for s in queue if len(st.hands[s]) >= 2]
    if not queue:
        return False
    st.call_kind = kind
    st.queue = queue
    st.asked = queue[0]
    st.phase = Phase.CALL
    return True


# ------------------------------------------------------------------ turns and rounds


def end_turn(setup: Setup, st: State, seat: int) -> None:
    if st.played_this_turn:
        st.played_before[seat] = True
    if setup.spec.stalemate_detection and stalemate(st):
        end_round(setup, st, None, "stalemate", "nobody can ever go out (stalemate)")
        return
    if open_call_window(setup, st, seat):
        return
    next_turn(setup, st)


def next_turn(setup: Setup, st: State) -> None:
    limit = setup.spec.max_turns
    if limit is not None and st.turn_index + 1 >= limit:
        end_round(setup, st, None, setup.spec.nobody_out,
                  f"the round reached its limit of {limit} turns with nobody out", limit="max_turns")
        return
    st.asked = None
    st.call_kind = None
    st.current = (st.current + 1) % setup.n
    st.turn_index += 1
    reset_turn(st)
    st.phase = Phase.DRAW


def stalemate(st: State) -> bool:
    """Sound: every hand holds one card (so nobody can meld), and no card off the
    table fits any table meld, so the table never changes and nobody goes out."""
    if any(len(h) != 1 for h in st.hands):
        return False
    loose = set(st.stock) | set(st.discard) | {h[0] for h in st.hands}
    rules = st.rules
    return not any(m.layoff_meanings(c, rules) for m in st.table for c in loose)  # type: ignore[arg-type]


def went_out(setup: Setup, st: State, seat: int) -> None:
    rummy = not st.played_before[seat] and setup.spec.going_rummy != "none"
    end_round(setup, st, seat, "out", f"{seat_name(seat)} went out", rummy=rummy)


def end_round(setup: Setup, st: State, winner: int | None, mode: str, reason: str,
              rummy: bool = False, limit: str | None = None) -> None:
    sp = setup.spec
    n = setup.n
    pts = score_round(sp, setup.values, st.hands, winner, mode, rummy)
    for s in range(n):
        st.scores[s] += pts[s]
    result: dict[str, Any] = {
        "round": st.round_no,
        "winner": winner,
        "reason": reason,
        "ended_by": "out" if winner is not None else mode,
        "rummy": bool(rummy and winner is not None),
        "hands": [format_cards(sorted_cards(h)) for h in st.hands],
        "hand_values": [hand_value(h, setup.values) for h in st.hands],
        "points": [number(p) for p in pts],
        "scores": [number(s) for s in st.scores],
        "stock_reuses": st.stock_reuses,
        "buys": list(st.buys),  # each seat's buys this deal (each paid the buying cost into the kitty)
        # the table limit that ended the round: "max_turns", "max_stock_reuses" or None
        "limit": limit,
    }
    event(st, winner, "round_end", f"Round {st.round_no} ended: {reason}", result=result)
    st.last_round = result
    st.history.append(result)
    st.phase = Phase.OVER
    st.asked = None
    if match_over(setup, st):
        st.is_over = True
        finish_match(setup, st)
        return
    st.dealer = (st.dealer + 1) % n
    start_round(setup, st)


def match_over(setup: Setup, st: State) -> bool:
    deals = setup.deals
    if deals is not None and st.round_no >= deals:
        return True
    target = setup.spec.match_target(setup.n)
    return target is not None and any(s >= target for s in st.scores)


def finish_match(setup: Setup, st: State) -> None:
    sp = setup.spec
    best = max(st.scores) if sp.high_wins else min(st.scores)
    st.winners = [s for s in range(setup.n) if st.scores[s] == best]
    if sp.settlement == "position":  # places from the best score: the lowest, or the highest
        ranked = [-s for s in st.scores] if sp.high_wins else st.scores
        cost = sp.buying.cost if sp.buying is not None else 0
        paid = [cost * sum(r["buys"][s] for r in st.history) for s in range(setup.n)]
        st.settlement = settlement(ranked, st.kitty, paid)
