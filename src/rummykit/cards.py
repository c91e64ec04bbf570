"""Cards, the card notation and packs.

A card face is a small int (0-51 for suit*13 + rank-1, 52 for the joker) wrapped in
:class:`Card`, an immutable ``int`` subclass, so the engine can count faces in flat
arrays while every card still prints as ``7H`` or ``JK``.  Several decks give several
physical cards with one face; the engine keeps hands as multisets of faces, which is
all play can tell apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
JOKER_CODE = 52
NUM_FACES = 53

__all__ = [
    "Card",
    "JOKER",
    "RANKS",
    "SUITS",
    "card",
    "format_cards",
    "make_pack",
    "parse_card",
    "parse_cards",
    "shuffled_pack",
]


class Card(int):
    """One card face. ``Card.rank`` is 1 (ace) .. 13 (king), 0 for a joker;
    ``Card.suit`` is 0..3 for C D H S, -1 for a joker."""

    __slots__ = ()

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: a copied game shares it

    @property
    def rank(self) -> int:
        return 0 if self == JOKER_CODE else int(self) % 13 + 1

    @property
    def suit(self) -> int:
        return -1 if self == JOKER_CODE else int(self) // 13

    @property
    def is_joker(self) -> bool:
        return int(self) == JOKER_CODE

    def __str__(self) -> str:
        return TEXT[int(self)]

    def __repr__(self) -> str:
        if not 0 <= self < NUM_FACES:  # Card(60) can be built (then refused wherever it is used)
            return f"Card({int(self)})"
        return f"Card('{TEXT[int(self)]}')"


def _text(code: int) -> str:
    if code == JOKER_CODE:
        return "JK"
    return RANKS[code % 13] + SUITS[code // 13]


TEXT: tuple[str, ...] = tuple(_text(c) for c in range(NUM_FACES))  # by code: TEXT[c] == str(c)
CARDS: tuple[Card, ...] = tuple(Card(c) for c in range(NUM_FACES))
JOKER = CARDS[JOKER_CODE]
_BY_TEXT = {TEXT[c]: CARDS[c] for c in range(NUM_FACES)}


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1-13) and ``suit`` (0-3)."""
    return CARDS[suit * 13 + rank - 1]


def parse_card(token: str) -> Card:
    """Parse one card: ``7H``, ``10h``, ``T♥``, ``JK`` or ``*``."""
    got = _BY_TEXT.get(token)  # the notation the engine writes: one lookup
    if got is not None:
        return got
    t = token.strip()
    if not t:
        raise ValueError("empty card: expected something like 7H, TD, AS or JK")
    up = t.upper()
    if up in ("JK", "*", "JOKER"):
        return JOKER
    suit_ch = t[-1]
    suit_ch = SUIT_SYMBOLS.get(suit_ch, suit_ch.upper())
    rank_txt = up[:-1]
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANKS or suit_ch not in SUITS:
        raise ValueError(
            f"bad card {token!r}: a card is a rank (A 2-9 T/10 J Q K) and a suit "
            f"(C D H S or ♣ ♦ ♥ ♠), like 7H or TD, or JK for a joker"
        )
    return card(RANKS.index(rank_txt) + 1, SUITS.index(suit_ch))


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas: ``"3H 4H 5H JK"``."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    get = _BY_TEXT.get
    got = [get(t) for t in tokens]  # the notation the engine writes: one lookup each
    if None in got:
        return [parse_card(t) for t in tokens]
    return got  # type: ignore[return-value]


def format_cards(cards: Iterable[int]) -> str:
    """The notation of ``cards``, space separated: ``"3H 4H 5H JK"``."""
    return " ".join(TEXT[int(c)] for c in cards)


def make_pack(decks: int, jokers: int) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in a fixed order."""
    pack = [CARDS[c] for _ in range(decks) for c in range(52)]
    pack.extend([JOKER] * jokers)
    return pack


def shuffled_pack(decks: int, jokers: int, rng: random.Random) -> list[Card]:
    pack = make_pack(decks, jokers)
    rng.shuffle(pack)
    return pack


def sort_key(c: int) -> tuple[int, int]:
    """Sort by suit then rank, jokers last."""
    return (4, 0) if c == JOKER_CODE else (c // 13, c % 13)


def sorted_cards(cards: Sequence[int]) -> list[Card]:
    """Sorted by suit then rank, jokers last: the face codes' own order (see :func:`sort_key`)."""
    return [CARDS[c] for c in sorted(cards)]
