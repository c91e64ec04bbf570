"""What one seat sees of the state, read in compiled code: the values of a
:class:`~.view.View`'s fields, in order, which :func:`.view.observe` wraps in the frozen View.

Compiled with mypyc where the install built it (setup.py), like the turn machine: reading
some thirty fields of the state, copying its lists into tuples and building the table's
meld views is most of what a view costs, and an RL environment asks for one every step.
The rules of what a seat may see are here and nowhere else: its own hand (sorted), its own
turn's facts (the card it took, the wilds it must place) only on its own turn, and for
everyone the public facts.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from .flow import buy_limit, contract_text
from .state import TURN_STATE, Phase, Setup, State

# the table's meld views, shared while a meld stays as it is: (number, owner, kind, cards,
# suit, lo, rank) -> MeldView.  Views are frozen, so any game may share one.
_MELD_VIEWS: dict[tuple[Any, ...], Any] = {}
_MELD_VIEWS_MAX = 4096  # then it starts afresh


def meld_views(st: State, new_meld_view: Callable[..., Any]) -> tuple[Any, ...]:
    """A MeldView per table meld (``new_meld_view`` builds one: view.py's class)."""
    out: list[Any] = []
    memo = _MELD_VIEWS
    i = 0
    for m in st.table:
        i += 1
        key = (i, m.owner, m.kind, tuple(m.cards), m.suit, m.lo, m.rank)
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MELD_VIEWS_MAX:
                memo.clear()
            got = memo[key] = new_meld_view(*key)
        out.append(got)
    return tuple(out)


def turn_state(st: State) -> MappingProxyType[str, Any]:
    """Where the turn stands, as every seat saw it: state.TURN_STATE's keys, in order (its
    lists as tuples)."""
    out: dict[str, Any] = {}
    for key, name, _kind in TURN_STATE:
        v = getattr(st, name)
        out[key] = tuple(v) if type(v) is list else v
    return MappingProxyType(out)


def own_turn(st: State, seat: int | None) -> bool:
    """Whether it is ``seat``'s own turn (drawing or playing): only then does its view show
    the card it took from the discard pile and the wilds it must still place."""
    return seat is not None and seat == st.current and (st.phase is Phase.DRAW or st.phase is Phase.PLAY)


def view_values(setup: Setup, st: State, seat: int | None, new_meld_view: Callable[..., Any]) -> list[Any]:
    """The fields of ``seat``'s View in order (``None``: a spectator's: no hand, no own-turn
    facts); the last, the View's JSON cache, is None."""
    sp = setup.spec
    lim: int | None = None
    if sp.buying is not None and sp.buy_allowed(st.round_no):
        lim = buy_limit(setup, st)
    mine = own_turn(st, seat)
    asked = st.asked
    hands = st.hands
    over = st.is_over
    settlement = st.settlement
    known: list[tuple[Any, ...]] = []
    for k in st.known:
        known.append(tuple(sorted(k)) if k else ())
    return [
        sp.id, sp.name, seat, setup.n, st.round_no, setup.deals, st.dealer, contract_text(setup, st),
        asked if asked is not None else st.current, st.current,
        Phase.OVER if over else st.phase,
        () if seat is None else tuple(sorted(hands[seat])),  # Cards sort by suit, then rank
        tuple([len(h) for h in hands]), len(st.stock), tuple(st.discard),
        meld_views(st, new_meld_view),
        tuple(st.down), tuple(st.buys),
        None if lim is None else tuple([max(0, lim - b) for b in st.buys]),
        st.stock_reuses, tuple(st.scores), st.kitty, tuple(st.log), st.last_round, over,
        tuple(st.winners), st.state_id,
        st.taken if mine else None,
        tuple(st.pending) if mine else (),
        tuple(known),
        turn_state(st),
        None if not over or settlement is None else tuple(settlement),
        None,
    ]
