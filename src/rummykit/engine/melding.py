"""Putting cards on the table: melds (the contract, and single melds after it or in the
Basic family), lay-offs, and swapping a card for a melded wild.

For each action: ``why_not_x`` (the reason it is barred now, or None), ``x_options``
(the listed legal moves) and ``apply_x`` (verify, then play; see :mod:`.draw`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import CARDS, NUM_FACES, Card, format_cards
from ..melds import Rank, Reading, TableMeld, face_at, reading_from_items
from ..rules.spec import Component
from ..solver import ContractRules, Solver
from .actions import Action, IllegalActionError, LayOff, Meld, Swap
from .flow import (
    contract,
    contract_needed,
    contract_text,
    event,
    forget,
    know,
    seat_name,
    went_out,
    whole_hand_round,
)
from .going_down import (
    completable,
    laid_toward,
    open_parts,
    solve,
    step_options,
    take_away,
    why_not_end,
    why_not_leave,
)
from .state import Phase, Setup, State


def _meanings(rd: Reading) -> tuple[tuple[int, int], ...]:
    """What each card of a reading stands for, as (card, face or rank) pairs, in order."""
    if rd.kind == "run":
        return tuple(sorted((int(c), int(face_at(rd.suit, rd.lo + i))) for i, c in enumerate(rd.cards)))
    return tuple(sorted((int(c), rd.rank) for c in rd.cards))


# ------------------------------------------------------------------ when

def when_table_play(setup: Setup, st: State, meld: bool = False) -> None:
    """Melds, lay-offs and swaps come after the draw (or, where the rules say so, only before
    it); in a "pat" round a meld may also come before the draw (``meld``: the action is one)."""
    if setup.spec.meld_before_draw:
        if st.phase != Phase.DRAW:
            raise IllegalActionError(
                "In this game you meld and lay off only at the start of your turn, before drawing")
    elif st.phase != Phase.PLAY and not (meld and pat_now(setup, st)):
        raise IllegalActionError("Draw first: take the top discard or draw from the stock")


def pat_now(setup: Setup, st: State) -> bool:
    """Whether the seat to play may go out now, before drawing, by melding its whole hand as
    held: a whole-hand round of a ruleset that allows it ("pat"), at the start of its turn,
    before its contract (the contract uses every card: the meld goes out)."""
    return (setup.spec.pat_before_draw and st.phase == Phase.DRAW and whole_hand_round(setup, st)
            and not st.down[st.current])


def why_not_meld(setup: Setup, st: State, seat: int) -> str | None:
    sp = setup.spec
    if sp.contracts:
        if not st.down[seat]:
            return None
        mode = sp.after_contract_melds
        if sp.contract_count == "at_least" and st.down_turn[seat] == st.turn_index:
            return None  # (more melds than the contract asks for may go down with it)
        if mode == "none":
            return "After the contract you may only lay off, not lay down new melds"
        if mode == "later_turns" and st.down_turn[seat] == st.turn_index:
            return "New melds after the contract wait for a later turn"
        return None
    if sp.melds_per_turn == "one" and st.melds_this_turn >= 1:
        return "You may lay down only one meld a turn"
    return None


def why_not_layoff(setup: Setup, st: State, seat: int) -> str | None:
    sp = setup.spec
    if sp.contracts:
        if not st.down[seat]:
            return f"You must meet the contract — {contract_text(setup, st)} — before laying off"
        if st.down_turn[seat] == st.turn_index and not sp.layoff_on_contract_turn:
            return "You may not lay off on the turn you meet the contract; wait for your next turn"
        return None
    if st.round_no in sp.whole_hand_meld_deals and not st.down[seat]:
        return "In this deal nobody may lay off before melding the whole hand"
    if not sp.layoff_before_own_meld and not st.down[seat]:
        return "You must lay down a meld of your own before laying off"
    return None


def why_not_swap(setup: Setup, st: State, seat: int) -> str | None:
    sp = setup.spec
    if not sp.wild_swaps:
        return "Melded wild cards cannot be taken back in this game"
    if not sp.swapped_wild_placed:
        return None  # (the wild goes to the hand: any player, on its turn)
    if not st.down[seat]:
        return "You must meet the contract before swapping for a joker"
    if not sp.swap_on_contract_turn and st.down_turn[seat] == st.turn_index:
        return "You may swap for a joker only on a turn after the one you met the contract"
    if sp.swap_on_contract_turn:  # (the wild then goes on the table: so may a lay-off now?)
        return why_not_layoff(setup, st, seat)
    return None


# ------------------------------------------------------------------ melds


def meld_options(setup: Setup, st: State, seat: int) -> list[Action]:
    if why_not_meld(setup, st, seat) is not None:
        return []
    hand = st.hands[seat]
    sp = setup.spec
    rules = st.rules
    assert rules is not None and st.solver is not None
    if contract_needed(setup, st, seat):
        return step_options(setup, st, seat)  # (the contract, laid meld by meld)
    if not sp.contracts and st.round_no in sp.whole_hand_meld_deals and not st.down[seat]:
        return _whole_hand_options(setup, st, seat)
    out: list[Action] = []
    seen = set()
    cnt = [0] * 53
    for c in hand:
        cnt[c] += 1
    wilds = sorted({c for c in hand if rules.is_wild(c)})
    for kind, lo in (("set", rules.min_set), ("run", rules.min_run)):
        for one in st.solver.melds_from(cnt, kind, lo, len(hand)):
            for rd in _wild_choices(one, hand, wilds) if len(wilds) > 1 else (one,):
                items = rd.items(rules)  # (the cards and what the wilds stand for: 7D JK JK is
                if items in seen:        # a set of 7s and a run 7D-9D, two melds)
                    continue
                seen.add(items)
                act = Meld((items,))
                if why_not_leave(setup, st, seat, act.cards(), (rd,)) is None:
                    out.append(act)
    return out


def _wild_choices(rd: Reading, hand: Sequence[Card], wilds: Sequence[Card]) -> list[Reading]:
    """``rd`` (its wild slots filled with the most valuable wild cards) and the same meld
    with each other wild card of the hand in a slot instead: which wild a meld spends is the
    player's choice (ten-card: ``2C=7C 8C 9C`` keeps the joker, ``JK=7C 8C 9C`` the 2C, which
    can still be a natural 2 in ``AC 2C 3C``)."""
    out = [rd]
    means = rd.meanings()
    slots = [i for i, (c, m) in enumerate(zip(rd.cards, means, strict=True))
             if c in wilds and not (c == m if rd.kind == "run" else c.rank == rd.rank)]
    if not slots:
        return out
    spare = Counter(hand)
    spare.subtract(rd.cards)
    for w in wilds:
        if spare[w] <= 0:
            continue
        at = next((i for i in reversed(slots) if rd.cards[i] != w), None)
        if at is None or (rd.kind == "run" and means[at] == w):
            continue  # (every slot holds it already; or there it would be a natural card)
        cards = list(rd.cards)
        cards[at] = w
        if rd.kind == "run":
            out.append(Reading("run", tuple(cards), suit=rd.suit, lo=rd.lo))
        else:
            out.append(Reading(rd.kind, tuple(sorted(cards)), rank=rd.rank))
    return out


def _whole_hand_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """Wrotham deals 4-6: melds of the whole hand at once, keeping at most one card to discard."""
    hand = st.hands[seat]
    rules = st.rules
    assert rules is not None
    comps = (Component("meld", 3),)
    out: list[Action] = []
    tried = set()
    for skip in [None, *sorted(set(hand))]:
        rest = list(hand)
        if skip is not None:
            rest.remove(skip)
        key = tuple(sorted(rest))
        if key in tried or len(rest) < 3:
            continue
        tried.add(key)
        sol = _whole_hand_solver(setup, st).solve(comps, rest, whole_hand=True)
        if sol is not None:
            act = Meld(tuple(rd.items(rules) for rd in sol))
            if why_not_leave(setup, st, seat, act.cards(), sol) is None:
                out.append(act)
    return out


def _whole_hand_solver(setup: Setup, st: State) -> Solver:
    if st.wh_solver is None:
        assert st.rules is not None
        st.wh_solver = Solver(st.rules, list(setup.values), ContractRules(count="at_least"))
    return st.wh_solver


def _reading_text(st: State, rd: Reading) -> str:
    rules = st.rules
    assert rules is not None
    return " ".join(f"{c}={m}" if rules.is_wild(c) else str(c)
                    for c, m in zip(rd.cards, rd.meanings(), strict=True))


def _resolve(setup: Setup, st: State, a: Meld, *, contract: bool) -> list[list[Reading]]:
    rules = st.rules
    assert rules is not None
    out = []
    for i, g in enumerate(a.melds):
        if contract:
            rds = reading_from_items(g, rules, min_set=2, min_run=2, pair=True)
        else:
            rds = reading_from_items(g, rules)
        if not rds:
            cards = format_cards(c for c, _ in g)
            what = f"meld {i + 1} ({cards})" if len(a.melds) > 1 else cards
            raise IllegalActionError(f"{what} is not a legal meld in {setup.spec.name}")
        out.append(rds)
    return out


def verify_meld(setup: Setup, st: State, seat: int, a: Meld) -> list[Reading]:
    """The readings ``a`` is played as; raises with the reason when it may not be."""
    why = why_not_meld(setup, st, seat)
    if why:
        raise IllegalActionError(why)
    cards = a.cards()
    need = Counter(cards)
    have = Counter(st.hands[seat])
    missing = [c for c in need if need[c] > have[c]]
    if missing:
        raise IllegalActionError(f"You do not hold {format_cards(sorted(missing))}")
    sp = setup.spec
    if contract_needed(setup, st, seat):
        return _verify_contract_melds(setup, st, seat, a)
    whole_meld = not sp.contracts and st.round_no in sp.whole_hand_meld_deals and not st.down[seat]
    if len(a.melds) > 1 and not whole_meld:
        raise IllegalActionError("Lay down one meld at a time")
    readings = []
    for rds in _resolve(setup, st, a, contract=False):
        if len(rds) > 1:
            alts = "; ".join(_reading_text(st, rd) for rd in rds[:6])
            raise IllegalActionError(f"Say what the wild cards stand for; the legal readings are: {alts}")
        readings.append(rds[0])
    if whole_meld and len(st.hands[seat]) - len(cards) > 1:
        raise IllegalActionError(
            "In this deal you may meld only when you can lay down your whole hand at once")
    why = why_not_leave(setup, st, seat, cards, readings)
    if why:
        raise IllegalActionError(why)
    return readings


def _not_the_contract(setup: Setup, st: State) -> str:
    sp = setup.spec
    whole = whole_hand_round(setup, st)
    return (f"That is not the contract: you must lay down "
            f"{'at least' if sp.contract_count == 'at_least' else 'exactly'} {contract_text(setup, st)}"
            + (" (each meld exactly that size)" if sp.contract_sizes == "exact" and not whole else ""))


def _verify_contract_melds(setup: Setup, st: State, seat: int, a: Meld) -> list[Reading]:
    """A seat not yet down: one meld is the next step of its contract; several at once
    are the same steps, judged together when they complete the contract (as a contract
    was always judged: their wilds read as the whole asks), else one after another."""
    options = _resolve(setup, st, a, contract=True)
    laid = laid_toward(setup, st, seat)
    if len(options) == 1:
        return [_verify_step(setup, st, seat, laid, options[0])]
    solver = st.solver
    assert solver is not None
    whole = whole_hand_round(setup, st)
    con = contract(setup, st)
    fixed: list[list[Reading]] = [[rd] for rd in laid]
    got = solver.meets(con, fixed + options, whole_hand=whole)
    if got is None:
        if len(laid) + len(options) < len(con):
            return _verify_steps(setup, st, seat, options)
        raise IllegalActionError(_not_the_contract(setup, st))
    k = len(fixed)
    for i, rds in enumerate(options):
        if len(rds) < 2:
            continue
        # the wilds of this meld read several ways: which ones meet the contract?
        fits = [rd for rd in rds
                if solver.meets(con, fixed + options[:i] + [[rd]] + options[i + 1:], whole_hand=whole)]
        # readings where every card stands for the same thing (a 13-card run read A-K or 2-A) are one meld
        if len({_meanings(rd) for rd in fits}) > 1:
            raise IllegalActionError("Say what the wild cards stand for; the legal readings are: "
                                     + "; ".join(_reading_text(st, rd) for rd in fits[:6]))
    readings = got[k:]
    why = why_not_leave(setup, st, seat, a.cards(), readings)
    if why:
        raise IllegalActionError(why)
    return readings


def _verify_steps(setup: Setup, st: State, seat: int, options: list[list[Reading]]) -> list[Reading]:
    """Several melds that do not complete the contract: each the next step, in order
    (judged on a copy of the position, so nothing changes if one is refused)."""
    sim = st.copy()
    out = []
    for i, rds in enumerate(options):
        try:
            rd = _verify_step(setup, sim, seat, laid_toward(setup, sim, seat), rds)
        except IllegalActionError as e:
            raise IllegalActionError(f"Meld {i + 1} ({format_cards(rds[0].cards)}): {e}") from None
        _place(setup, sim, seat, rd)
        out.append(rd)
    return out


def _verify_step(setup: Setup, st: State, seat: int, laid: list[Reading], rds: list[Reading]) -> Reading:
    """The reading of one meld laid as the next step of the contract (``rds``: its readings):
    one after which the rest can still be made, in a way the turn may end from."""
    fits = [rd for rd in rds if completable(setup, st, seat, laid, rd)]
    if not fits:
        parts = [p for rd in rds for p in open_parts(setup, st, [*laid, rd])]
        if not parts:
            raise IllegalActionError(_not_the_contract(setup, st) if not laid else
                                     f"{format_cards(rds[0].cards)} is no meld the rest of the contract "
                                     f"asks for: you must lay down {contract_text(setup, st)}")
        if () in parts:
            rd = rds[0]
            rest = list(st.hands[seat])
            for c in rd.cards:
                rest.remove(c)
            why = why_not_end(setup, st, seat, rest, (rd,))
            if why:
                raise IllegalActionError(why)
        rest = list(st.hands[seat])
        for c in rds[0].cards:
            rest.remove(c)
        whole = whole_hand_round(setup, st)
        makeable = any(solve(setup, st, p, rest, whole, [*laid, rd]) is not None
                       for rd in rds for p in open_parts(setup, st, [*laid, rd]) if p)
        raise IllegalActionError(
            f"After {format_cards(rds[0].cards)} the rest of the contract — {contract_text(setup, st)} — "
            f"could not be made from the cards left" + (" in a way your turn could end" if makeable else ""))
    # readings where every card stands for the same thing (a 13-card run read A-K or 2-A) are one meld
    if len({_meanings(rd) for rd in fits}) > 1:
        raise IllegalActionError("Say what the wild cards stand for; the legal readings are: "
                                 + "; ".join(_reading_text(st, rd) for rd in fits[:6]))
    return fits[0]


def _place(setup: Setup, st: State, seat: int, rd: Reading) -> None:
    """``rd``'s cards from ``seat``'s hand onto the table, a meld of its own."""
    rules = st.rules
    assert rules is not None
    hand = st.hands[seat]
    for c in rd.cards:
        hand.remove(c)
        forget(st, seat, c)
        if c in st.pending:
            st.pending.remove(c)
    st.table.append(TableMeld.from_reading(rd, seat, rules, setup.spec.wild_limit_on_layoffs))


def _listed_readings(st: State, a: Meld, contract_meld: bool) -> list[Reading]:
    """The readings of a listed meld action (every wild's meaning given: one reading)."""
    rules = st.rules
    assert rules is not None
    if contract_meld:
        return [reading_from_items(g, rules, min_set=2, min_run=2, pair=True)[0] for g in a.melds]
    return [reading_from_items(g, rules)[0] for g in a.melds]


def apply_meld(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, Meld)
    when_table_play(setup, st, meld=True)
    seat = st.current
    contract_meld = contract_needed(setup, st, seat)
    readings = verify_meld(setup, st, seat, a) if check else _listed_readings(st, a, contract_meld)
    hand = st.hands[seat]
    rules = st.rules
    assert rules is not None
    earlier = len(laid_toward(setup, st, seat)) if contract_meld else 0
    for rd in readings:
        _place(setup, st, seat, rd)
    # (every meld laid toward the contract is one of its parts: it is met with the last)
    met = not contract_meld or earlier + len(readings) >= len(contract(setup, st))
    if met and not st.down[seat]:
        st.down[seat] = True
        st.down_turn[seat] = st.turn_index
    st.melds_this_turn += len(readings)
    st.played_this_turn = True
    first = len(st.table) - len(readings) + 1
    desc = "; ".join(f"#{first + i} {format_cards(rd.cards)} ({rd.describe()})"
                     for i, rd in enumerate(readings))
    name = seat_name(seat)
    if not contract_meld:
        text = f"{name} melded {desc}"
    elif not met:
        text = f"{name} laid {desc} toward the contract"
    elif earlier:
        text = f"{name} laid {desc} and met the contract"
    else:
        text = f"{name} met the contract with {desc}"
    event(st, seat, "meld", text, melds=[[str(c) for c in rd.cards] for rd in readings],
          contract=contract_meld)
    canon = Meld(tuple(rd.items(rules) for rd in readings))
    if not hand:
        went_out(setup, st, seat)
    return canon


# ------------------------------------------------------------------ lay-offs


def _accepts(st: State, m: TableMeld) -> list[Card]:
    """Natural faces ``m`` accepts now (wilds are checked separately)."""
    rules = st.rules
    assert rules is not None
    if m.kind == "set":
        if rules.set_max is not None and len(m.cards) >= rules.set_max:
            return []
        return [CARDS[s * 13 + m.rank - 1] for s in range(4)]
    if m.kind != "run":
        return []
    return [face_at(m.suit, m.lo - 1), face_at(m.suit, m.hi + 1)]


def layoff_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """Every lay-off, by meld then by card, each move once."""
    if not st.table or why_not_layoff(setup, st, seat) is not None:
        return []
    hand = st.hands[seat]
    have = sorted(set(hand))
    rules = st.rules
    assert rules is not None
    held = [False] * NUM_FACES
    for c in have:
        held[c] = True
    wilds = [c for c in have if rules.is_wild(c)]
    out: dict[LayOff, None] = {}
    for i, m in enumerate(st.table):
        picks = list(wilds)  # the hand's cards the meld may take, in the hand's order
        for f in _accepts(st, m):
            if held[f] and f not in picks:
                picks.append(f)
        if len(picks) > 1:
            picks.sort()
        for c in picks:
            for mean in m.layoff_meanings(c, rules):
                out[LayOff(c, i, mean)] = None
    acts: list[Action] = list(out)
    if len(hand) <= 2:
        acts = [a for a in acts if isinstance(a, LayOff)
                and why_not_leave(setup, st, seat, [a.card], onto=a) is None]
    return acts


def verify_layoff(setup: Setup, st: State, seat: int, a: LayOff) -> Card | Rank | None:
    """What the laid-off card stands for; raises with the reason when it may not be laid off."""
    why = why_not_layoff(setup, st, seat)
    if why:
        raise IllegalActionError(why)
    if not 0 <= a.meld < len(st.table):
        raise IllegalActionError(
            f"There is no meld {a.meld + 1} on the table (melds are numbered 1-{len(st.table)})"
            if st.table else "There are no melds on the table to lay off on")
    if a.card not in st.hands[seat]:
        raise IllegalActionError(f"You do not hold {a.card}")
    m = st.table[a.meld]
    rules = st.rules
    assert rules is not None
    ways = m.layoff_meanings(a.card, rules)
    if not ways:
        raise IllegalActionError(f"{a.card} does not fit meld {a.meld + 1} ({m.describe()})")
    if a.meaning is None:
        if len(ways) > 1:
            alts = " or ".join(f"layoff {a.card}={w} {a.meld + 1}" for w in ways)
            raise IllegalActionError(f"Say which end the {a.card} goes: {alts}")
        mean = ways[0]
    else:
        # by kind as well as value: as ints, the rank 7 equals the card 8C
        same = [w for w in ways if type(w) is type(a.meaning) and w == a.meaning]
        if not same:
            raise IllegalActionError(
                f"{a.card} cannot stand for {a.meaning} on meld {a.meld + 1} ({m.describe()})")
        mean = same[0]
    why = why_not_leave(setup, st, seat, [a.card], onto=LayOff(a.card, a.meld, mean))
    if why:
        raise IllegalActionError(why)
    return mean


def apply_layoff(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, LayOff)
    when_table_play(setup, st)
    seat = st.current
    mean = verify_layoff(setup, st, seat, a) if check else a.meaning
    a = LayOff(a.card, a.meld, mean)
    lay_off(setup, st, seat, a)
    return a


def lay_off(setup: Setup, st: State, seat: int, a: LayOff) -> None:
    rules = st.rules
    assert rules is not None
    st.hands[seat].remove(a.card)
    forget(st, seat, a.card)
    st.table[a.meld].add(a.card, a.meaning, rules)
    if a.card in st.pending and not setup.spec.swapped_wild_to_new_meld:
        st.pending.remove(a.card)
    st.played_this_turn = True
    event(st, seat, "layoff", f"{seat_name(seat)} laid off {a.card} on meld {a.meld + 1}",
          card=str(a.card), meld=a.meld + 1, meaning=None if a.meaning is None else str(a.meaning))
    if not st.hands[seat]:
        went_out(setup, st, seat)


# ------------------------------------------------------------------ swaps


def swap_options(setup: Setup, st: State, seat: int) -> list[Action]:
    if not setup.spec.wild_swaps or why_not_swap(setup, st, seat) is not None:
        return []
    have = set(st.hands[seat])
    rules = st.rules
    assert rules is not None
    out: list[Action] = []
    for i, m in enumerate(st.table):
        if not m.wilds:
            continue
        for face in m.swappable(rules):
            if face in have:
                act = Swap(face, i)
                if why_not_follow_up(setup, st, seat, act) is None:
                    out.append(act)
    return out


def why_not_follow_up(setup: Setup, st: State, seat: int, act: Swap) -> str | None:
    """A swapped wild that must be laid the same turn needs somewhere to go, and laying it
    there must not leave a position the player cannot end the turn from."""
    sp = setup.spec
    rules = st.rules
    assert rules is not None and st.solver is not None
    m = st.table[act.meld]
    at = m.swappable(rules)[act.card]
    wild = m.cards[at]
    if sp.swapped_wild_placed and not sp.swapped_wild_to_new_meld:
        # judged on a copy of the table as the swap leaves it (the run holds the natural card
        # and one wild fewer: a one-wild-a-meld rule lets the wild back onto it); nothing of
        # the game changes (a bot may be asked on another thread while a person's screen is
        # drawn from the same game)
        swapped = m.copy()
        swapped.cards[at] = act.card
        swapped.wilds -= 1
        table = list(st.table)
        table[act.meld] = swapped
        left = take_away(st.hands[seat], (act.card,))  # (the hand once the wild is laid off)
        why = f"The {wild} you would take could not be laid off anywhere this turn"
        for i, t in enumerate(table):
            for meaning in t.layoff_meanings(wild, rules):
                bar = why_not_end(setup, st, seat, left, onto=LayOff(wild, i, meaning), table=table)
                if bar is None:
                    return None
                why = f"If you swapped {act.card} for the {wild} and laid it off, {bar[0].lower()}{bar[1:]}"
        return why
    if sp.swapped_wild_to_new_meld:
        cnt = [0] * 53
        for c in st.hands[seat]:
            cnt[c] += 1
        cnt[act.card] -= 1
        cnt[wild] += 1
        for kind, lo in (("set", rules.min_set), ("run", rules.min_run)):
            for rd in st.solver.melds_from(cnt, kind, lo, lo):
                if rd.wilds():
                    return None
        return f"The {wild} you would take could not go into a new meld this turn"
    return None


def verify_swap(setup: Setup, st: State, seat: int, a: Swap) -> None:
    why = why_not_swap(setup, st, seat)
    if why:
        raise IllegalActionError(why)
    if not 0 <= a.meld < len(st.table):
        raise IllegalActionError(f"There is no meld {a.meld + 1} on the table")
    if a.card not in st.hands[seat]:
        raise IllegalActionError(f"You do not hold {a.card}")
    m = st.table[a.meld]
    assert st.rules is not None
    if m.kind != "run" and not (m.kind == "set" and st.rules.swap_sets):
        raise IllegalActionError("Wild cards in sets are dead: only a run's wild can be swapped")
    if a.card not in m.swappable(st.rules):
        raise IllegalActionError(f"No wild card in meld {a.meld + 1} ({m.describe()}) stands for {a.card}")
    why = why_not_follow_up(setup, st, seat, a)
    if why:
        raise IllegalActionError(why)


def apply_swap(setup: Setup, st: State, a: Action, check: bool) -> Action:
    assert isinstance(a, Swap)
    when_table_play(setup, st)
    seat = st.current
    if check:
        verify_swap(setup, st, seat, a)
    assert st.rules is not None
    m = st.table[a.meld]
    i = m.swappable(st.rules)[a.card]
    wild = m.cards[i]
    m.cards[i] = a.card
    m.wilds -= 1
    hand = st.hands[seat]
    hand.remove(a.card)
    hand.append(wild)
    forget(st, seat, a.card)
    know(st, seat, wild)
    if setup.spec.swapped_wild_placed:
        st.pending.append(wild)
    st.played_this_turn = True
    event(st, seat, "swap", f"{seat_name(seat)} put {a.card} in meld {a.meld + 1} and took {wild}",
          card=str(a.card), meld=a.meld + 1, wild=str(wild))
    return a


def table_options(setup: Setup, st: State, seat: int) -> list[Action]:
    """Melds, then lay-offs, then swaps: what the seat may put on the table now."""
    return meld_options(setup, st, seat) + layoff_options(setup, st, seat) + swap_options(setup, st, seat)
