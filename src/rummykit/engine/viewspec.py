"""The view declared once: every public fact of one seat's view, with its Python type, how
it is read from the :class:`~.state.Setup` and :class:`~.state.State`, its JSON form, who
may see it and how long it lives.

Plain data, read by the generator (``python -m rummykit.engine.viewgen``), which writes from
it the marked regions of ``seen.py`` (``ViewFields.__init__``, ``turn_values``,
``seen_view``, ``seat_dict``, ``view_dict``) and of ``view.py`` (``FIELDS``, ``SEAT_KEYS``,
``as_view``); ``tests/test_view_declared_once.py`` fails while a region is not what the
generator writes now, and holds the turn machine's resets (``flow.start_round``,
``flow.reset_turn``) to the lifetimes declared here.  A new public fact is one
:class:`Fact` here (a turn fact one :class:`TurnFact`), then the generator.

Expressions are Python source, written into the generated code as they stand:

- ``read``: the value, in ``seen_view`` (compiled), from ``setup``, ``st``, ``seat`` and
  the locals of :data:`PRELUDE` (each written only where an expression uses it);
- ``json``: its JSON form, ``{x}`` standing for the View's value;
- ``parse``: the View's value again from the JSON form, ``{x}`` standing for the dict's
  value, ``view`` for the whole dict (``as_view``).
"""

from __future__ import annotations

from dataclasses import dataclass

# who may see a fact
PUBLIC = "public"  # every seat and a spectator alike
SEAT = "seat"  # says who looks (differs from seat to seat; nothing hidden)
OWN = "own"  # the seat's own: a spectator gets ``hidden`` (another seat's view shows its own)
OWN_TURN = "own_turn"  # the seat's own, and only on its own turn (drawing or playing): else ``hidden``
WHO = (PUBLIC, SEAT, OWN, OWN_TURN)

# how long the State fields a fact is read from live
SETUP = "setup"  # the whole match, from the frozen Setup (or the seat looking)
MATCH = "match"  # State fields the deals carry over
DEAL = "deal"  # State fields set afresh by flow.start_round
TURN = "turn"  # State fields set afresh by flow.reset_turn (start_round calls it)
LIVES = (SETUP, MATCH, DEAL, TURN)


@dataclass(frozen=True, slots=True)
class Fact:
    """One public fact: a field of the View and the key of the JSON dict of the same name."""

    name: str  # the View's attribute, the constructor's argument and the JSON key
    type: str  # the constructor argument's annotation
    read: str  # the value seen_view gives (the seat's own facts: as the seat itself sees it)
    life: str  # SETUP, MATCH, DEAL or TURN (see ``state``)
    state: tuple[str, ...] = ()  # the State fields it is read from
    json: str = "{x}"
    parse: str = "{x}"
    who: str = PUBLIC
    hidden: str = "None"  # OWN / OWN_TURN: the value when the seat may not see it
    default: str | None = None  # the constructor argument's default
    optional: bool = False  # in the dict only when not None
    note: str = ""  # a comment beside the field in ViewFields.__init__
    store: str = ""  # ViewFields.__init__'s own lines for it (default: a Final attribute)


@dataclass(frozen=True, slots=True)
class Derived:
    """A key of the JSON dict read from the View's other fields (no field of its own)."""

    name: str
    json: str  # from the View ``v``


@dataclass(frozen=True, slots=True)
class TurnFact:
    """One key of the view's ``turn_state``: where the turn stands, as every seat at the
    table saw it (public).  ``state.TURN_STATE`` is made from these; the determinizer
    restores the State from them."""

    key: str  # the key in turn_state
    field: str  # the State field
    kind: str  # "plain" (ints, bools, None and lists of them), "card" (a Card or None), "cards"
    life: str  # DEAL or TURN
    many: bool = False  # a list in the State (a tuple in the View, a list in JSON)


# locals seen_view (and seat_dict) may read, in the order they are written
PRELUDE: tuple[tuple[str, str], ...] = (
    ("sp", "setup.spec"),
    ("lim", "buy_cap(setup, st)"),
    ("mine", "own_turn(st, seat)"),
    ("asked", "st.asked"),
    ("hands", "st.hands"),
    ("over", "st.is_over"),
    ("settlement", "st.settlement"),
)

_CARDS_JSON = "[TEXT[c] for c in {x}]"
_CARDS_PARSE = "tuple(parse_cards({x}))"

# the View's fields, in order (its constructor's arguments: view.FIELDS)
FACTS: tuple[Fact, ...] = (
    Fact("ruleset", "str", "sp.id", SETUP),
    Fact("name", "str", "sp.name", SETUP),
    Fact("seat", "int | None", "seat", SETUP, who=SEAT),
    Fact("players", "int", "setup.n", SETUP),
    Fact("round", "int", "st.round_no", MATCH, ("round_no",)),
    Fact("deals", "int | None", "setup.deals", SETUP),
    Fact("dealer", "int", "st.dealer", MATCH, ("dealer",)),
    Fact("contract", "str", "contract_text(setup, st)", MATCH, ("round_no",)),
    Fact("current_player", "int", "asked if asked is not None else st.current", DEAL, ("asked", "current")),
    Fact("turn", "int", "st.current", DEAL, ("current",)),
    Fact("phase", "Phase", "Phase.OVER if over else st.phase", DEAL, ("phase",),
         json="str({x})", parse="Phase({x})"),
    Fact("hand", "tuple[Card, ...]", "sorted_hand(hands[seat])", DEAL, ("hands",), _CARDS_JSON, _CARDS_PARSE,
         who=OWN, hidden="()", note="the seat's own hand, sorted (empty for a spectator)"),
    Fact("hand_sizes", "tuple[int, ...]", "tuple([len(h) for h in hands])", DEAL, ("hands",),
         json="list({x})", parse="tuple({x})"),
    Fact("stock_size", "int", "len(st.stock)", DEAL, ("stock",)),
    Fact("discard_pile", "tuple[Card, ...]", "tuple(st.discard)", DEAL, ("discard",),
         _CARDS_JSON, _CARDS_PARSE, note="bottom to top"),
    Fact("melds", "tuple[MeldView, ...]", "meld_views(st)", DEAL, ("table",),
         json="[[TEXT[c] for c in m.cards] for m in {x}]",
         parse='tuple([_meld_from(c, i) for c, i in zip({x}, view["meld_info"], strict=True)])'),
    Fact("down", "tuple[bool, ...]", "tuple(st.down)", DEAL, ("down",), "list({x})", "tuple({x})"),
    Fact("buys", "tuple[int, ...]", "tuple(st.buys)", DEAL, ("buys",), "list({x})", "tuple({x})"),
    Fact("buys_left", "tuple[int, ...] | None",
         "None if lim is None else tuple([max(0, lim - b) for b in st.buys])", DEAL, ("buys",),
         "None if {x} is None else list({x})", "None if {x} is None else tuple({x})"),
    Fact("stock_reuses", "int", "st.stock_reuses", DEAL, ("stock_reuses",)),
    Fact("scores", "tuple[Fraction, ...]", "tuple(st.scores)", MATCH, ("scores",),
         "[number(s) for s in {x}]", "tuple([Fraction(s) for s in {x}])"),
    Fact("kitty", "int", "st.kitty", MATCH, ("kitty",)),
    Fact("log", "Sequence[Event]", "st.log", DEAL, ("log",), json="list({x})",  # read-only events, shared
         parse="tuple([e if isinstance(e, Event) else Event(e) for e in {x}])",
         store="# the log: a tuple, or the game's own list and how many of its events this view\n"
               "# holds (the engine only appends to a deal's list): copied into a tuple when read\n"
               "self._log_from = log\n"
               "self._log_length = len(log) if log_length < 0 else log_length\n"
               "self._log: tuple[Event, ...] | None = log if type(log) is tuple else None"),
    Fact("last_round", "Mapping[str, Any] | None", "st.last_round", MATCH, ("last_round",)),
    Fact("is_over", "bool", "over", MATCH, ("is_over",)),
    Fact("winners", "tuple[int, ...]", "tuple(st.winners)", MATCH, ("winners",), "list({x})", "tuple({x})"),
    Fact("state_id", "int", "st.state_id", MATCH, ("state_id",)),
    Fact("taken", "Card | None", "st.taken", TURN, ("taken",), "None if {x} is None else TEXT[{x}]",
         "None if {x} is None else parse_card({x})", who=OWN_TURN,
         note="on the seat's own turn: the card it took from the discard pile"),
    Fact("must_place", "tuple[Card, ...]", "tuple(st.pending)", TURN, ("pending",), _CARDS_JSON, _CARDS_PARSE,
         who=OWN_TURN, hidden="()", note="on its own turn: swapped wilds it must still place"),
    # (the known cards: sorted tuples, shared: flow.know)
    Fact("known", "tuple[tuple[Card, ...], ...]", "tuple(st.known)", DEAL, ("known",),
         "[[TEXT[c] for c in k] for k in {x}]", "tuple([tuple(parse_cards(k)) for k in {x}])",
         note="cards seen going into each hand, not since played"),
    Fact("turn_state", "Mapping[str, Any] | tuple[Any, ...]", "turn_values(st)", DEAL, (),
         "_json_turn({x})", "_turn_from({x})",
         store="# state.TURN_STATE, typed (cards as Card): its values in order (seen_view gives\n"
               "# them so), made a read-only mapping when first read\n"
               "if isinstance(turn_state, tuple):\n"
               "    self._turn: tuple[Any, ...] = turn_state\n"
               "    self._turn_map: Mapping[str, Any] | None = None\n"
               "else:\n"
               "    self._turn = tuple([turn_state[k] for k in TURN_KEYS])\n"
               "    self._turn_map = turn_state"),
    Fact("settlement", "tuple[Fraction, ...] | None",
         "None if not over or settlement is None else tuple(settlement)", MATCH, ("settlement",),
         "[number(s) for s in {x}]",
         "None if {x} is None else tuple([Fraction(s) for s in {x}])", default="None", optional=True),
)

# the constructor's arguments after the facts: (name, annotation, default, what seen_view gives)
EXTRA_ARGS: tuple[tuple[str, str, str, str], ...] = (
    ("log_length", "int", "-1", "len(st.log)"),
)

# the JSON dict of the public API (g.view(seat)): its keys in order, a fact's name or a key
# derived from the View (an optional fact comes last, and only when it is not None)
JSON_KEYS: tuple[str | Derived, ...] = (
    "ruleset", "name", "seat", "players", "round", "deals", "dealer", "contract", "current_player", "turn",
    "phase", "hand", "hand_sizes", "stock_size",
    Derived("discard_top", "TEXT[v.discard_pile[-1]] if v.discard_pile else None"),
    Derived("discard_size", "len(v.discard_pile)"),
    "melds",
    Derived("meld_info", "[\n"
                         '    {"number": m.number, "owner": m.owner, "kind": m.kind, '
                         '"stands_for": list(m.stands_for())}\n'
                         "    for m in v.melds\n"
                         "]"),
    "down", "buys", "buys_left", "stock_reuses", "scores", "kitty", "log", "last_round", "is_over", "winners",
    "state_id", "taken", "must_place", "discard_pile", "known", "turn_state", "settlement",
)

# turn_state's keys, in order (state.TURN_STATE)
TURN_FACTS: tuple[TurnFact, ...] = (
    TurnFact("turn_index", "turn_index", "plain", DEAL),
    TurnFact("discarded_by", "discard_by", "plain", DEAL, many=True),
    TurnFact("down_turn", "down_turn", "plain", DEAL, many=True),
    TurnFact("played_before", "played_before", "plain", DEAL, many=True),
    TurnFact("asked", "asked", "plain", DEAL),
    TurnFact("queue", "queue", "plain", DEAL, many=True),
    TurnFact("call_kind", "call_kind", "plain", DEAL),
    TurnFact("protected", "protected", "plain", DEAL),
    TurnFact("last_taker", "last_taker", "plain", DEAL),
    TurnFact("taken", "taken", "card", TURN),
    TurnFact("pending", "pending", "cards", TURN, many=True),
    TurnFact("melds_this_turn", "melds_this_turn", "plain", TURN),
    TurnFact("played_this_turn", "played_this_turn", "plain", TURN),
    TurnFact("skip_draw", "skip_draw", "plain", TURN),
)


def state_lives() -> dict[str, str]:
    """Each State field the view reads, and how long it lives (MATCH, DEAL or TURN).
    ValueError if two facts read one field and say it lives differently."""
    out: dict[str, str] = {}
    pairs = [(name, f.life, f.name) for f in FACTS for name in f.state]
    pairs += [(t.field, t.life, f"turn_state[{t.key!r}]") for t in TURN_FACTS]
    for name, life, by in pairs:
        if out.setdefault(name, life) != life:
            raise ValueError(f"State.{name}: {by} says it lives a {life}, another fact a {out[name]}")
    return out
