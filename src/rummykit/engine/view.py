"""Per-seat views: JSON-safe dicts holding exactly what one seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import sorted_cards
from .scoring import number

if TYPE_CHECKING:
    from .game import Game


def build_view(g: Game, seat: int) -> dict[str, Any]:
    sp = g.spec
    lim = g._buy_limit() if sp.buying is not None and sp.buy_allowed(g.round_no) else None
    own_turn = seat == g.current and g.phase in ("draw", "play")
    view: dict[str, Any] = {
        "ruleset": sp.id,
        "name": sp.name,
        "seat": seat,
        "players": g.n,
        "round": g.round_no,
        "deals": g.deals,
        "dealer": g.dealer,
        "contract": g.contract_text(),
        "current_player": g.current_player,
        "turn": g.current,
        "phase": "over" if g.is_over else g.phase,
        "hand": [str(c) for c in sorted_cards(g.hands[seat])],
        "hand_sizes": [len(h) for h in g.hands],
        "stock_size": len(g.stock),
        "discard_top": str(g.discard[-1]) if g.discard else None,
        "discard_size": len(g.discard),
        "melds": [[str(c) for c in m.cards] for m in g.table],
        "meld_info": [
            {
                "number": i + 1,
                "owner": m.owner,
                "kind": m.kind,
                "stands_for": [str(m.meaning(k)) for k in range(len(m.cards))],
            }
            for i, m in enumerate(g.table)
        ],
        "down": list(g.down),
        "buys": list(g.buys),
        "buys_left": None if lim is None else [max(0, lim - b) for b in g.buys],
        "stock_reuses": g.stock_reuses,
        "scores": [number(s) for s in g.scores],
        "kitty": g.kitty,
        "log": [dict(ev) for ev in g.log],
        "last_round": g.last_round,
        "is_over": g.is_over,
        "winners": list(g.winners),
        "state_id": g.state_id,
        # this seat's own turn facts
        "taken": str(g.taken) if own_turn and g.taken is not None else None,
        "must_place": [str(c) for c in g.pending] if own_turn else [],
        # public facts every seat at the table saw: the discard pile (bottom to top), the
        # cards seen going into each hand and not since played, and where the turn stands
        "discard_pile": [str(c) for c in g.discard],
        "known": [[str(c) for c in sorted_cards(k)] for k in g.known],
        "turn_state": {
            "turn_index": g.turn_index,
            "down_turn": list(g.down_turn),
            "played_before": list(g.played_before),
            "asked": g.asked,
            "queue": list(g.queue),
            "call_kind": g.call_kind,
            "protected": g.protected,
            "last_taker": g.last_taker,
            "taken": None if g.taken is None else str(g.taken),
            "pending": [str(c) for c in g.pending],
            "melds_this_turn": g.melds_this_turn,
            "played_this_turn": g.played_this_turn,
            "skip_draw": g.skip_draw,
        },
    }
    if g.is_over and g.settlement is not None:
        view["settlement"] = [number(x) for x in g.settlement]
    return view
