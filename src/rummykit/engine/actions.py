"""Actions: frozen records with one terse text form each.

Text forms (cards in the card notation; a wild card may carry its meaning after ``=``,
a face in a run, a rank in a set; melds are separated by ``/``; meld numbers are the
1-based numbers the view shows)::

    draw                      draw the top card of the stock
    draw both                 (no legal discard) take the top discard and the top stock card
    take                      take the top card of the discard pile
    meld 7C 7D JK=7 / 3H 4H JK=5H 6H
    layoff 9H 3               lay 9H off on meld 3
    layoff JK=9H 3            a wild card with the card it stands for
    swap 5H 2                 put 5H into meld 2 in place of the wild card standing for it
    discard 7H
    buy / pass                answer to a May I (buy, I want it) offer
    shanghai 9H               discard 9H calling Shanghai (protects it: nobody may take it)
    shanghai 9H 3             call Shanghai on the discard 9H: lay it off on meld 3
    rummy 7H                  call Rummy on the discard and shed 7H on the pile
    cut                       cut the pack (Liverpool)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CARDS, RANKS, Card, parse_card
from ..melds import Rank


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why, for a player."""


MeldItems = tuple[tuple[Card, Card | Rank | None], ...]

__all__ = [
    "Action",
    "IllegalActionError",
    "Buy",
    "CallRummy",
    "CallShanghai",
    "Cut",
    "Discard",
    "Draw",
    "LayOff",
    "Meld",
    "Pass",
    "Swap",
    "Take",
    "format_action",
    "parse_action",
]


def _item_text(c: Card, m: Card | Rank | None) -> str:
    return str(c) if m is None else f"{c}={m}"


def _parse_item(tok: str) -> tuple[Card, Card | Rank | None]:
    if "=" not in tok:
        return parse_card(tok), None
    left, right = tok.split("=", 1)
    c = parse_card(left)
    r = right.strip().upper()
    if r == "10":
        r = "T"
    if len(r) == 1 and r in RANKS:
        return c, Rank(RANKS.index(r) + 1)
    m = parse_card(right)
    if m.is_joker:
        raise ValueError(f"bad meaning in {tok!r}: a wild card stands for a real card or rank")
    return c, m


@dataclass(frozen=True, slots=True)
class Draw:
    both: bool = False

    def text(self) -> str:
        return "draw both" if self.both else "draw"


@dataclass(frozen=True, slots=True)
class Take:
    def text(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Meld:
    melds: tuple[MeldItems, ...]

    def text(self) -> str:
        return "meld " + " / ".join(" ".join(_item_text(c, m) for c, m in g) for g in self.melds)

    def cards(self) -> list[Card]:
        return [c for g in self.melds for c, _ in g]


@dataclass(frozen=True, slots=True)
class LayOff:
    card: Card
    meld: int  # 0-based index into the table's melds
    meaning: Card | Rank | None = None

    def text(self) -> str:
        return f"layoff {_item_text(self.card, self.meaning)} {self.meld + 1}"


@dataclass(frozen=True, slots=True)
class Swap:
    card: Card
    meld: int

    def text(self) -> str:
        return f"swap {self.card} {self.meld + 1}"


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card

    def text(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Buy:
    def text(self) -> str:
        return "buy"


@dataclass(frozen=True, slots=True)
class Pass:
    def text(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class CallShanghai:
    """The discarder's protecting call (``discard`` is the card discarded), or another
    player's taking call (``layoff`` puts the discard on a meld)."""

    discard: Card | None = None
    layoff: LayOff | None = None

    def text(self) -> str:
        if self.layoff is not None:
            return "shanghai " + self.layoff.text().removeprefix("layoff ")
        return "shanghai" if self.discard is None else f"shanghai {self.discard}"


@dataclass(frozen=True, slots=True)
class CallRummy:
    """A Rummy call on the discard; the caller sheds ``card`` onto the pile."""

    card: Card | None = None

    def text(self) -> str:
        return "rummy" if self.card is None else f"rummy {self.card}"


@dataclass(frozen=True, slots=True)
class Cut:
    def text(self) -> str:
        return "cut"


Action = Draw | Take | Meld | LayOff | Swap | Discard | Buy | Pass | CallShanghai | CallRummy | Cut

_SIMPLE: dict[str, Action] = {
    "draw": Draw(),
    "take": Take(),
    "buy": Buy(),
    "pass": Pass(),
    "cut": Cut(),
}
# one Discard per card face, shared (actions are frozen): listing a hand's discards builds none
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in CARDS)
VERBS = ("draw", "take", "meld", "layoff", "swap", "discard", "buy", "pass", "shanghai", "rummy", "cut")


def format_action(action: Action) -> str:
    """The text form of ``action``."""
    return action.text()


def _meld_no(tok: str, text: str) -> int:
    if not tok.isdigit() or int(tok) < 1:
        raise ValueError(f"bad action {text!r}: {tok!r} is not a meld number (1, 2, ...)")
    return int(tok) - 1


def _layoff(args: list[str], text: str) -> LayOff:
    if len(args) != 2:
        raise ValueError(f"bad action {text!r}: write layoff CARD MELD-NUMBER, e.g. layoff 9H 3")
    c, m = _parse_item(args[0])
    return LayOff(c, _meld_no(args[1], text), m)


def parse_action(text: str) -> Action:
    """Parse the text form of an action; ValueError says what is wrong."""
    words = text.strip().split()
    if not words:
        raise ValueError("empty action: start with a verb, e.g. draw, take, meld, discard")
    verb, args = words[0].lower(), words[1:]
    if verb == "may" and [a.lower() for a in args] == ["i"]:
        return Buy()
    if verb not in VERBS:
        raise ValueError(f"unknown verb {words[0]!r} in {text!r}; verbs are {', '.join(VERBS)}")
    try:
        if verb == "draw" and args and [a.lower() for a in args] == ["both"]:
            return Draw(both=True)
        if verb in _SIMPLE:
            if args:
                raise ValueError(f"bad action {text!r}: {verb!r} takes nothing after it")
            return _SIMPLE[verb]
        if verb == "discard":
            if len(args) != 1:
                raise ValueError(f"bad action {text!r}: write discard CARD, e.g. discard 7H")
            return DISCARDS[parse_card(args[0])]
        if verb == "layoff":
            return _layoff(args, text)
        if verb == "swap":
            if len(args) != 2:
                raise ValueError(f"bad action {text!r}: write swap CARD MELD-NUMBER, e.g. swap 5H 2")
            return Swap(parse_card(args[0]), _meld_no(args[1], text))
        if verb == "shanghai":
            if len(args) == 1:
                return CallShanghai(discard=parse_card(args[0]))
            return CallShanghai(layoff=_layoff(args, text)) if args else CallShanghai()
        if verb == "rummy":
            if len(args) > 1:
                raise ValueError(f"bad action {text!r}: write rummy CARD, the card you shed")
            return CallRummy(parse_card(args[0]) if args else None)
        # meld
        groups = " ".join(args).split("/")
        melds = []
        for g in groups:
            toks = g.split()
            if not toks:
                raise ValueError(f"bad action {text!r}: an empty meld between '/' separators")
            melds.append(tuple(_parse_item(t) for t in toks))
        if not melds:
            raise ValueError(f"bad action {text!r}: meld what? e.g. meld 7C 7D 7S")
        return Meld(tuple(melds))
    except ValueError as e:
        if str(e).startswith("bad"):
            raise
        raise ValueError(f"bad action {text!r}: {e}") from None

