"""The table in words, shared by the plain mode and the Textual app.  Everything here
is read from the person's view (and the legal actions): nothing hidden."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..cards import format_cards
from ..engine.actions import (
    Action,
    Buy,
    CallRummy,
    CallShanghai,
    Discard,
    Draw,
    LayOff,
    Meld,
    Pass,
    Swap,
    Take,
)

if TYPE_CHECKING:
    from .session import Session


def for_person(s: Session, text: str) -> str:
    """The engine's text with the person's seat called by their name ("Seat 0" -> "You")."""
    return re.sub(rf"\bSeat {s.human}\b(?! \()", lambda _m: s.name, text)


def drawn_note(ev: dict[str, Any], seat: int, before: list[str], after: list[str]) -> str | None:
    """What only ``seat`` knows of a Shanghai call between it and another player: the
    card the discarder drew from the caller's hand, face down (the log, everyone's, does
    not name it).  Read from the seat's hand ``before`` and ``after`` the call; None for any
    other event, or when the hand changed by more than the call."""
    if ev.get("verb") != "shanghai" or "discarder" not in ev or ev["discarder"] == ev["seat"]:
        return None

    def less(a: list[str], b: list[str]) -> list[str]:
        rest = list(a)
        for c in b:
            if c in rest:
                rest.remove(c)
        return rest

    if ev["discarder"] == seat:
        got = less(after, before)
        return f"you drew {got[0]} from Seat {ev['seat']}'s hand" if len(got) == 1 else None
    if ev["seat"] == seat:
        lost = less(before, after)
        return f"Seat {ev['discarder']} drew your {lost[0]}" if len(lost) == 1 else None
    return None


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def contract_progress(s: Session) -> str:
    """The contract this deal, and what in the hand already goes toward it: the hint's own
    evaluation (:meth:`Session.progress`), the same the browser gets with its hint."""
    return s.progress()["text"]


def seat_line(s: Session, seat: int, view: dict[str, Any]) -> str:
    bits = [plural(view["hand_sizes"][seat], "card"), f"score {view['scores'][seat]}"]
    if view["buys_left"] is not None:
        bits.append(f"{view['buys_left'][seat]} buys left")
    if view["down"][seat] and s.game.spec.contracts:
        bits.append("down")
    if view["known"][seat] and seat != s.human:
        bits.append("holds " + " ".join(view["known"][seat]))
    mark = " (dealer)" if seat == view["dealer"] else ""
    return f"{s.seat_name(seat)}{mark}: " + ", ".join(bits)


def describe_view(s: Session) -> str:
    v = s.view()
    deals = f" of {v['deals']}" if v["deals"] else ""
    lines = [f"--- {v['name']}, deal {v['round']}{deals}" + (f": {v['contract']}" if v["contract"] else "")]
    for seat in range(v["players"]):
        lines.append("  " + seat_line(s, seat, v))
    if v["melds"]:
        lines.append("Table:")
        for info, cards in zip(v["meld_info"], v["melds"], strict=True):
            who = s.seat_name(info["owner"])
            lines.append(f"  {info['number']}. {' '.join(cards)} ({info['kind']}, {who})")
    else:
        lines.append("Table: no melds yet.")
    pile = (f"{v['discard_top']} on top, {plural(v['discard_size'], 'card')}" if v["discard_top"]
            else "empty")
    lines.append(f"Discard pile: {pile}. Stock: {plural(v['stock_size'], 'card')}.")
    lines.append(f"Your hand ({len(v['hand'])}): {' '.join(v['hand'])}")
    lines.append(contract_progress(s))
    if v["must_place"]:
        lines.append(f"You must play {' '.join(v['must_place'])} this turn.")
    lines.append(prompt_line(s, v))
    return "\n".join(lines)


def prompt_line(s: Session, v: dict[str, Any]) -> str:
    phase = v["phase"]
    top = v["discard_top"]
    if phase == "may_i":
        sp = s.game.spec
        b = sp.buying
        extra = sp.buy_penalty(v["round"])
        cost = f" and {extra} card{'s' if extra != 1 else ''} from the stock as a penalty" if extra else ""
        verb = b.verb if b else "May I"
        return f"{s.seat_name(v['turn'])} passed on {top}. {verb}? Buying gives you {top}{cost}."
    if phase == "call":
        by = s.seat_name(v["turn"])
        if v["turn_state"]["call_kind"] == "shanghai":
            return (f"{by} discarded {top}, which fits a meld on the table. Call Shanghai? You lay it "
                    f"off, and {by} draws a card at random from your hand.")
        return (f"{by} discarded {top}, which fits a meld on the table. Call Rummy? You shed one card "
                "of your choice onto the pile.")
    if phase == "cut":
        return "Cut the pack."
    if phase == "draw":
        line = "Your turn: draw from the stock" + (f" or take {top}." if top else ".")
        if any(isinstance(a, Meld) for a in s.legal_actions()):
            line += (" Or meld before drawing." if s.game.spec.meld_before_draw
                     else " Or go down now, pat: your hand as it is makes the contract.")
        return line
    return "Your turn: meld, lay off, or discard."


def action_words(a: Action, s: Session) -> str:
    v = s.view()
    if isinstance(a, Take):
        return f"take {v['discard_top']} from the discard pile  [take]"
    if isinstance(a, Draw):
        return ("take the discard and draw from the stock  [draw both]" if a.both
                else "draw from the stock  [draw]")
    if isinstance(a, Buy):
        b = s.game.spec.buying
        return f"{b.verb if b else 'buy'}: take {v['discard_top']}  [buy]"
    if isinstance(a, Pass):
        return "pass  [pass]"
    if isinstance(a, Discard):
        return f"discard {a.card}  [{a.text()}]"
    if isinstance(a, Meld):
        groups = " / ".join(format_cards(c for c, _ in g) for g in a.melds)
        return f"meld {groups}  [{a.text()}]"
    if isinstance(a, LayOff):
        return f"lay off {a.card} on meld {a.meld + 1}  [{a.text()}]"
    if isinstance(a, Swap):
        return f"put {a.card} in meld {a.meld + 1} and take its wild card  [{a.text()}]"
    if isinstance(a, CallShanghai):
        if a.layoff is not None:
            return f"call Shanghai: lay {a.layoff.card} off on meld {a.layoff.meld + 1}  [{a.text()}]"
        return f"discard {a.discard} calling Shanghai (protected)  [{a.text()}]"
    if isinstance(a, CallRummy):
        return f"call Rummy and discard {a.card}  [{a.text()}]"
    return a.text()


def round_table(s: Session, r: dict[str, Any]) -> str:
    lines = [f"Deal {r['round']} result:"]
    for seat in range(len(r["points"])):
        won = " (went out)" if r["winner"] == seat else ""
        points, total = plural(r["points"][seat], "point"), r["scores"][seat]
        lines.append(f"  {s.seat_name(seat)}{won}: {r['hands'][seat] or '-'} -> {points}, total {total}")
    return "\n".join(lines)


def standings(s: Session) -> str:
    v = s.view()
    low = not s.game.spec.high_wins
    order = sorted(range(v["players"]), key=lambda k: (float(parse_num(v["scores"][k])) * (1 if low else -1)))
    lines = ["Game over. Final standings:"]
    for place, seat in enumerate(order, 1):
        mark = "  winner" if seat in v["winners"] else ""
        lines.append(f"  {place}. {s.seat_name(seat)}: {v['scores'][seat]}{mark}")
    if "settlement" in v:
        pay = [f"{s.seat_name(k)} {x:+}" if isinstance(x, int) else f"{s.seat_name(k)} {x}"
               for k, x in enumerate(v["settlement"])]
        lines.append("Settlement: " + ", ".join(pay))
    return "\n".join(lines)


def parse_num(x: int | str) -> float:
    if isinstance(x, int):
        return float(x)
    a, _, b = str(x).partition("/")
    return int(a) / int(b) if b else float(a)



def replay_table(s: Session) -> str:
    """The whole table of a finished game being replayed: every hand (the game is over,
    so nothing is hidden any more: each seat's own view gives its hand), the melds, the
    discard pile and the stock."""
    g = s.game
    views = [g.view(seat) for seat in range(g.n)]
    v = views[0]
    width = max(len(s.seat_name(seat)) for seat in range(g.n))
    lines = []
    for seat, sv in enumerate(views):
        mark = " (dealer)" if seat == v["dealer"] else ""
        down = ", down" if v["down"][seat] and g.spec.contracts else ""
        lines.append(f"  {s.seat_name(seat):<{width}} {plural(len(sv['hand']), 'card')}{down}{mark}: "
                     f"{' '.join(sv['hand']) or '-'}")
    if v["melds"]:
        melds = [f"{i}. {' '.join(m)}" for i, m in enumerate(v["melds"], 1)]
        lines.append("  Table: " + "   ".join(melds))
    pile = v["discard_pile"]
    shown = " ".join(pile[-12:])
    more = "... " if len(pile) > 12 else ""
    lines.append(f"  Discard pile ({plural(len(pile), 'card')}, top last): {more}{shown or 'empty'}"
                 f"   Stock: {plural(v['stock_size'], 'card')}")
    return "\n".join(lines)
