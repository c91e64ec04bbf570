"""The card table in the terminal (Textual).

Your hand is drawn as cards in suit colours: click a card (or move with ←/→ and press
space) to select it; ``[``/``]`` move the card under the cursor, ``o`` sorts by suit or
by rank, ``c`` shows cards as symbols (10♣) or letters (TC).  ``d`` draws, ``t`` takes
the discard, ``x`` picks the selected card (or the one under the cursor) to discard and
Enter discards it.  ``g`` puts the selected cards aside as one meld of a multi-meld
contract, ``m`` lays down the melds put aside plus the selection, ``l`` lays the
selected card off (then the meld's number), ``w`` swaps it for a wild card on the table.
Every legal move is listed on the right: ↑/↓ and Enter (or a click) play one.

When a discard is offered to you (May I, buy) or you may call Shanghai or Rummy, the
offer shows in place, with what it costs: ``m`` takes it, Enter or Esc passes (the
default), ``n`` stops May I offers for the rest of the game.  Esc closes every dialog.
``h`` hints, ``?`` shows the keys and the rules, ``q`` stops — the game is saved after
every action and ``rummykit resume`` goes on with it.

Everything that comes from the game (cards, moves, names, rules text) is drawn as
plain text, never read as markup.

Why one module of this size (about 840 lines, over the package's ~700): it is one Textual
``App`` — Textual's own idiom, each key an ``action_*`` method of the app, reading the one
selection, cursor and pending meld the app holds — with three small widgets beside it.
What is not the screen lives elsewhere: the game loop and saving in :mod:`.session`, the
words in :mod:`.words`.
"""

from __future__ import annotations

import re
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from ..cards import parse_card, sort_key
from ..engine.actions import Action, Buy, CallRummy, CallShanghai, Discard, Pass
from ..engine.game import IllegalActionError
from ..rules.registry import Variant
from .session import CLAIMS, Session
from .words import (
    action_words,
    contract_progress,
    drawn_note,
    for_person,
    plural,
    prompt_line,
    round_table,
    standings,
)

SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CARD_W = 6  # a boxed card: five columns and one of space
SMALL_W = 4  # a card on one line: three columns and one of space
CARD_TOKEN = re.compile(r"(?<![\w])(?:(10|[A2-9TJQK])([CDHS])|JK)(?![\w])")

KEYS = """Keys
  ←/→ space   move along your hand, select a card (or click it)
  [ ]  o      move the card under the cursor; sort by suit or rank
  c           cards as symbols (10♣) or letters (TC)
  d  t        draw from the stock; take the discard
  x  Enter    pick the selected card (or the one under the cursor) to discard; Enter discards it
  g  m        put the selected cards aside as one meld; meld (the melds put aside and the selection)
  l  w        lay the selected card off; swap it for a wild card on the table (then the meld's number)
  ↑/↓ Enter   the list of legal moves: play the highlighted move
  PgUp PgDn   scroll the melds on the table
  When a discard is offered (May I, buy) or you may call Shanghai or Rummy:
  m           take it (May I / buy / call);  Enter or Esc: pass (the default)
  n           never offer May I again this game (n again: offer it)
  a           offer every discard (a again: only the cards that fit your hand, the default)
  h  ?  q     a hint; this help; stop (the game is saved: resume goes on with it)
  Esc         closes any dialog, passes an offer, drops a pending discard or the selection
"""


def card_face(c: str, symbols: bool = True) -> tuple[str, str]:
    """The label and colour of a card: "10♥" (or "TH") in red, "JK" in magenta."""
    if c == "JK":
        return "JK", "magenta"
    label = ("10" if c[0] == "T" else c[0]) + SUIT[c[1]] if symbols else c
    return label, "red" if c[1] in "DH" else "white"


def in_notation(text: str, symbols: bool) -> str:
    """``text`` with every card written in one notation: "10♣" or "TC"."""
    def one(m: re.Match[str]) -> str:
        if m.group(0) == "JK":
            return "JK"
        rank = m.group(1)
        if symbols:
            return ("10" if rank in ("T", "10") else rank) + SUIT[m.group(2)]
        return ("T" if rank == "10" else rank) + m.group(2)

    return CARD_TOKEN.sub(one, text)


def cards_text(cards: list[str], symbols: bool = True) -> Text:
    t = Text()
    for i, c in enumerate(cards):
        label, colour = card_face(c, symbols)
        t.append(label, style=f"bold {colour}")
        if i < len(cards) - 1:
            t.append(" ")
    return t


class HandView(Static):
    """The hand, one box per card (one line per card when the row is too narrow); a
    click selects the card under the mouse."""

    def __init__(self, app_: RummyApp, **kw: Any):
        super().__init__(**kw)
        self.owner = app_
        self.spots: list[tuple[int, int, int, int]] = []  # (row, first column, last column, card)

    def on_click(self, event: events.Click) -> None:
        for row, x0, x1, i in self.spots:
            if x0 <= event.x < x1 and (row < 0 or row == event.y):
                self.owner.cursor = i
                self.owner.toggle(i)
                return


class Question(ModalScreen[str]):
    """A dialog with buttons; Enter presses the first, Esc closes it (as the first)."""

    BINDINGS = [Binding("escape", "close", "Close"), Binding("q", "close", "Close", show=False)]
    DEFAULT_CSS = """
    Question { align: center middle; }
    #box { width: 100; max-width: 100%; height: auto; max-height: 100%; border: thick $accent;
           padding: 0 1; background: $surface; }
    #text { height: auto; max-height: 70vh; }
    #text Label { width: 100%; }
    #buttons { height: auto; }
    #buttons Button { margin-right: 2; }
    """

    def __init__(self, text: str, choices: list[tuple[str, str]], help_key: str = ""):
        super().__init__()
        self.text = text
        self.choices = choices
        self.help_key = help_key

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            with VerticalScroll(id="text"):
                yield Label(Text(self.text), markup=False)
            with Horizontal(id="buttons"):
                for key, label in self.choices:
                    yield Button(Text(label), id=key,
                                 variant="primary" if key == self.choices[0][0] else "default")
            yield Label(Text("Enter or Esc: " + self.choices[0][1]
                             + (" · ↑/↓ PgUp/PgDn: scroll" if len(self.text.splitlines()) > 12 else "")))

    def on_mount(self) -> None:
        self.query_one(f"#{self.choices[0][0]}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        scroll = self.query_one("#text", VerticalScroll)
        moves = {"up": scroll.scroll_up, "down": scroll.scroll_down, "pageup": scroll.scroll_page_up,
                 "pagedown": scroll.scroll_page_down}
        if event.key in moves:
            moves[event.key]()
            event.stop()
        elif self.help_key and event.key == self.help_key:
            self.dismiss(self.choices[0][0])
            event.stop()

    def action_close(self) -> None:
        self.dismiss(self.choices[0][0])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")


class AskNumber(ModalScreen[int | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    AskNumber { align: center middle; }
    #box { width: 60; max-width: 100%; height: auto; border: thick $accent; padding: 0 1;
           background: $surface; }
    """

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Label(Text(self.text), markup=False)
            yield Input(placeholder="meld number, then Enter (Esc: cancel)", id="number")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        v = event.value.strip()
        self.dismiss(int(v) if v.isdigit() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RummyApp(App[None]):
    TITLE = "rummykit"
    CSS = """
    Screen { layout: vertical; }
    #title { height: auto; max-height: 2; background: $primary-background; text-style: bold;
             padding: 0 1; }
    #players { height: auto; padding: 0 1; }
    #piles { height: auto; padding: 0 1; }
    #middle { height: 1fr; }
    #left { width: 1fr; }
    #table { height: 1fr; padding: 0 1; }
    #log { height: 3; padding: 0 1; color: $text-muted; scrollbar-size-vertical: 0; }
    #actions { width: 40; height: 1fr; border: round $secondary; border-title-color: $text;
               padding: 0 0; }
    #actions:focus { border: round $accent; }
    #contract { height: auto; max-height: 2; padding: 0 1; }
    #groups { height: auto; padding: 0 1; color: $warning; }
    #hand { height: 3; }
    #prompt { height: auto; min-height: 2; max-height: 4; padding: 0 1; text-style: bold; }
    #prompt.offer { background: $warning 30%; }
    Screen.-large #table { border: round $primary; }
    Screen.-large #log { height: 10; border: round $secondary; }
    Screen.-large #actions { width: 56; }
    Screen.-large #hand { height: 4; padding-top: 1; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("escape", "offer_pass", "Pass"),
        Binding("escape", "escape", "Cancel"),
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("x", "discard", "Discard"),
        Binding("m", "offer_take", "May I"),
        Binding("m", "meld", "Meld"),
        Binding("n", "never_may_i", "Never May I"),
        Binding("a", "ask_always", "Ask always", show=False),
        Binding("g", "group", "Group"),
        Binding("l", "layoff", "Lay off"),
        Binding("w", "swap", "Swap", show=False),
        Binding("space", "select", "Select", show=False),
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("[", "move(-1)", "Move left", show=False),
        Binding("]", "move(1)", "Move right", show=False),
        Binding("o", "sort", "Sort", show=False),
        Binding("c", "notation", "Cards", show=False),
        Binding("pageup", "table(-1)", "Table up", show=False),
        Binding("pagedown", "table(1)", "Table down", show=False),
        Binding("h", "hint", "Hint"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, variant: Variant, speed: float = 0.6, symbols: bool = True,
                 never_may_i: bool | None = None, claims: str | None = None):
        super().__init__()
        self.s = session
        self.variant = variant
        self.speed = speed
        self.symbols = symbols
        # which May I / buy offers are put to the person: "fits" (only a card that fits the
        # hand: the others are passed by themselves, as the browser does), "always", or
        # "never" (n); kept with the game, so a resumed game remembers it (an older save's
        # "never_may_i" too)
        kept = session.claims
        if claims is not None and claims not in CLAIMS:
            raise ValueError(f"claims must be one of {', '.join(CLAIMS)}, not {claims!r}")
        self.claims: str = claims or ("never" if never_may_i else "fits" if never_may_i is not None else kept)
        self.order: list[str] = []
        self.selected: set[int] = set()
        self.groups: list[list[str]] = []
        self.cursor = 0
        self.sort_by_suit = True
        self.rounds_seen = len(session.game.history)
        self.log_mark = (-1, 0)
        self.hand_mark: list[str] = []
        self.waiting = False  # a deal's result is on screen
        self.thinking = False  # a bot is choosing on a worker thread
        self.messages: list[str] = []
        self.listed: tuple[int, bool] | None = None  # (state_id, symbols) of the moves listed
        self.pending: Discard | None = None  # a discard picked with x, waiting for Enter

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="players")
        yield Static(id="piles")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                with VerticalScroll(id="table", can_focus=False):
                    yield Static(id="melds")
                yield RichLog(id="log", wrap=True, markup=False, min_width=10, auto_scroll=True)
            yield OptionList(id="actions")
        yield Static(id="contract")
        yield Static(id="groups")
        yield HandView(self, id="hand")
        yield Static(id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#actions", OptionList).border_title = "Moves: ↑/↓ Enter"
        self.query_one("#table").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        self.fit(self.size.width, self.size.height)
        self.refresh_all()
        self.query_one("#actions", OptionList).focus()
        self.after_change()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Borders, a longer log and boxed cards when there is room (at least 110x34)."""
        large = width >= 110 and height >= 34
        self.default_screen.set_class(large, "-large")
        if self.order:
            self.call_after_refresh(self.refresh_all)  # cards and melds packed for the new width

    # -- what the footer shows ---------------------------------------------------------

    def offer(self) -> str | None:
        """"may_i" or "call" while the person is asked out of turn, else None."""
        if not self.s.human_to_act:
            return None
        phase = self.s.view()["phase"]
        acts = self.s.legal_actions()
        if phase == "may_i" and any(isinstance(a, Buy) for a in acts):
            return "may_i"
        if phase == "call" and any(isinstance(a, (CallShanghai, CallRummy)) for a in acts):
            return "call"
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        offer = self.offer()
        if action in ("never_may_i", "ask_always"):  # at an offer, and at any time in a game with May I
            return offer == "may_i" or self.s.game.spec.buying is not None
        if action == "offer_take":
            return offer is not None
        if action == "offer_pass":
            return offer is not None
        if action == "escape":
            return self.pending is not None or bool(self.selected)
        if action in ("meld", "group", "layoff", "swap", "discard", "draw", "take"):
            if offer is not None or not self.s.human_to_act:
                return False
            phase = self.s.view()["phase"]
            return phase == ("draw" if action in ("draw", "take") else "play")
        return True

    # -- drawing -----------------------------------------------------------------------

    def cards(self, text: str) -> str:
        """Game text in this screen's card notation."""
        return in_notation(text, self.symbols)

    def sync_hand(self, hand: list[str]) -> None:
        """Keep the person's arrangement; new cards go to their sorted place.  Cards put
        aside for a meld (``g``) stay out of the hand row while they still are in the hand."""
        left = list(hand)
        for group in self.groups:
            for c in group:
                if c in left:
                    left.remove(c)
        kept = []
        for c in self.order:
            if c in left:
                left.remove(c)
                kept.append(c)
        chosen = {self.order[i] for i in self.selected if i < len(self.order)}
        for c in left:
            key = self._key(c)
            pos = next((i for i, o in enumerate(kept) if self._key(o) > key), len(kept))
            kept.insert(pos, c)
        self.order = kept
        self.selected = {i for i, c in enumerate(kept) if c in chosen}
        self.cursor = min(self.cursor, max(0, len(kept) - 1))

    def _key(self, c: str) -> tuple[int, int]:
        k = sort_key(parse_card(c))
        return k if self.sort_by_suit else (k[1], k[0])

    def refresh_all(self) -> None:
        v = self.s.view()
        self.sync_hand(v["hand"])
        deals = f" of {v['deals']}" if v["deals"] else ""
        need = f": {v['contract']}" if v["contract"] else ""
        self.query_one("#title", Static).update(
            Text(f"{v['name']} · deal {v['round']}{deals}{need} · game {self.s.id}"))
        self.query_one("#players", Static).update(self.players_table(v))
        piles = Text("Discard pile: ")
        top = v["discard_top"]
        piles.append_text(cards_text([top], self.symbols) if top else Text("empty"))
        piles.append(f" ({plural(v['discard_size'], 'card')}) · Stock: {plural(v['stock_size'], 'card')}"
                     " · ▶ to play · D dealer")
        self.query_one("#piles", Static).update(piles)
        self.query_one("#melds", Static).update(self.melds_text(v))
        self.query_one("#contract", Static).update(Text(self.cards(contract_progress(self.s))))
        groups = "  ".join("(" + " ".join(g) + ")" for g in self.groups)
        self.query_one("#groups", Static).update(
            Text(self.cards(f"Melds put aside: {groups} — m lays them down with the selection"))
            if groups else Text(""))
        self.query_one("#groups").display = bool(groups)
        self.query_one("#hand", HandView).update(self.hand_text())
        self.write_log(v)
        self.list_moves(v)
        self.show_prompt(v)
        self.refresh_bindings()

    def show_prompt(self, v: dict[str, Any]) -> None:
        status = self.messages[-1] if self.messages else ""
        offer = self.offer()
        prompt = self.query_one("#prompt", Static)
        prompt.set_class(offer is not None, "offer")
        if self.s.is_over:
            turn = "The game is over."
        elif offer == "may_i":
            turn = (prompt_line(self.s, v) + "  m: May I · Enter/Esc: pass · n: never offer May I")
            b = self.s.game.spec.buying
            if b is not None and b.verb != "May I":
                turn = turn.replace("m: May I", f"m: {b.verb}")
        elif offer == "call":
            turn = prompt_line(self.s, v) + "  m: call · Enter/Esc: pass"
        elif self.pending is not None:
            turn = f"Discard {self.pending.card}? Enter: discard it · Esc: keep it"
        elif self.s.human_to_act:
            turn = prompt_line(self.s, v)
        else:
            turn = f"{self.s.seat_name(v['current_player'])} is thinking..."
        prompt.update(Text(self.cards(turn + (f"\n{status}" if status else ""))))

    def list_moves(self, v: dict[str, Any]) -> None:
        """The legal moves, rebuilt only when the position (or the notation) changes."""
        opts = self.query_one("#actions", OptionList)
        key = (v["state_id"], self.symbols)
        if self.listed != key:
            self.listed = key
            highlight = opts.highlighted
            opts.clear_options()
            if self.s.human_to_act:
                opts.add_options([Option(Text(self.cards(f"{i}. {action_words(a, self.s)}")), id=str(i - 1))
                                  for i, a in enumerate(self.s.legal_actions(), 1)])
                highlight = self.default_move()
            else:
                opts.add_option(Option(Text("(waiting for the other players)"), id="wait", disabled=True))
                highlight = None
            opts.highlighted = highlight
        if self.pending is not None and self.s.human_to_act:
            acts = self.s.legal_actions()
            if self.pending in acts:
                opts.highlighted = acts.index(self.pending)
                opts.scroll_to_highlight()

    def default_move(self) -> int | None:
        """Enter's move: pass on an offer, draw at the start of a turn, nothing otherwise."""
        acts = self.s.legal_actions()
        if self.offer() is not None and Pass() in acts:
            return acts.index(Pass())
        phase = self.s.view()["phase"]
        if phase == "draw":
            for i, a in enumerate(acts):
                if a.text() == "draw":
                    return i
        return None

    def players_table(self, v: dict[str, Any]) -> Table:
        t = Table(expand=True, box=None, padding=(0, 1), show_edge=False)
        buys = v["buys_left"] is not None
        contracts = bool(self.s.game.spec.contracts)
        t.add_column("", width=1, no_wrap=True)
        t.add_column("player", ratio=2)
        t.add_column("cards", justify="right", no_wrap=True)
        t.add_column("score", justify="right", no_wrap=True)
        if buys:
            t.add_column("buys left", justify="right", no_wrap=True)
        if contracts:
            t.add_column("down", no_wrap=True)
        t.add_column("seen holding", ratio=3)
        for seat in range(v["players"]):
            now = seat == v["current_player"] and not v["is_over"]
            name = Text(self.s.seat_name(seat), style="bold reverse" if now else "")
            if seat == v["dealer"]:
                name.append(" D", style="bold cyan")
            seen = cards_text(v["known"][seat], self.symbols) if seat != self.s.human else Text("")
            row: list[Any] = [Text("▶" if now else ""), name, str(v["hand_sizes"][seat]),
                              str(v["scores"][seat])]
            if buys:
                row.append(str(v["buys_left"][seat]))
            if contracts:
                row.append("yes" if v["down"][seat] else "")
            row.append(seen)
            t.add_row(*row)
        return t

    def melds_text(self, v: dict[str, Any]) -> Text:
        """The melds by owner, packed into lines without splitting a meld across two."""
        if not v["melds"]:
            return Text("No melds on the table yet.")
        width = max(20, self.query_one("#melds", Static).size.width or 38)
        large = self.default_screen.has_class("-large")  # room to say "(run)" and "(set)"
        by_owner: dict[int, list[int]] = {}
        for i, info in enumerate(v["meld_info"]):
            by_owner.setdefault(info["owner"], []).append(i)
        t = Text(no_wrap=False)
        for owner, idx in by_owner.items():
            if len(t):
                t.append("\n")
            t.append(self.s.seat_name(owner) + ":", style="bold underline")
            used = len(self.s.seat_name(owner)) + 1
            for i in idx:
                piece = Text(f"{i + 1}. ")
                piece.append_text(cards_text(v["melds"][i], self.symbols))
                if large:
                    piece.append(f" ({v['meld_info'][i]['kind']})")
                if used + 2 + len(piece) > width and used > 2:
                    t.append("\n")
                    used = 0
                t.append("  ")
                t.append_text(piece)
                used += 2 + len(piece)
        return t

    def hand_text(self) -> Text:
        hand = self.query_one("#hand", HandView)
        width = max(20, (hand.size.width or self.size.width) - 1)
        if len(self.order) * CARD_W <= width:
            return self._boxes(hand)
        return self._one_line(hand, width)

    def _style(self, i: int) -> tuple[bool, str]:
        sel = i in self.selected
        return sel, "bold yellow" if sel else ("bold cyan" if i == self.cursor else "grey50")

    def _boxes(self, hand: HandView) -> Text:
        rows = [Text(), Text(), Text()]
        hand.spots = []
        for i, c in enumerate(self.order):
            label, colour = card_face(c, self.symbols)
            sel, border = self._style(i)
            hand.spots.append((-1, i * CARD_W, i * CARD_W + CARD_W - 1, i))
            rows[0].append("┌───┐" if not sel else "╔═══╗", style=border)
            rows[1].append("│" if not sel else "║", style=border)
            rows[1].append(f"{label:<3}", style=f"bold {colour}" + (" reverse" if sel else ""))
            rows[1].append("│" if not sel else "║", style=border)
            rows[2].append("└───┘" if not sel else "╚═══╝", style=border)
            for r in rows:
                r.append(" ")
        out = Text(no_wrap=True)
        for r in rows:
            out.append_text(r)
            out.append("\n")
        out.rstrip()
        return out

    def _one_line(self, hand: HandView, width: int) -> Text:
        """Many cards: one short line per card, as many lines as needed (at most three)."""
        per_line = max(1, width // SMALL_W)
        out = Text(no_wrap=True)
        hand.spots = []
        for i, c in enumerate(self.order):
            row, col = divmod(i, per_line)
            if col == 0 and i:
                out.append("\n")
            label, colour = card_face(c, self.symbols)
            sel, _ = self._style(i)
            style = (f"bold {colour}" + (" reverse" if sel else "")
                     + (" underline" if i == self.cursor else ""))
            out.append(f"{label:>3}", style=style)
            out.append(" ")
            hand.spots.append((row, col * SMALL_W, col * SMALL_W + SMALL_W, i))
        return out

    def write_log(self, v: dict[str, Any]) -> None:
        log = self.query_one("#log", RichLog)
        rnd, n = self.log_mark
        if v["round"] == rnd:
            events_ = v["log"][n:]
        else:  # a new deal: first the last moves of the one before (the move that ended it)
            ended = list(self.s.game.last_deal_log)[n:] if v["round"] == rnd + 1 else []
            events_ = ended + list(v["log"])
        before = self.hand_mark if v["round"] == rnd else None
        for ev in events_:
            note = drawn_note(ev, self.s.human, before, v["hand"]) if before is not None else None
            log.write(Text(self.cards(for_person(self.s, ev["text"] + (f" ({note})" if note else "")))))
        self.log_mark = (v["round"], len(v["log"]))
        self.hand_mark = list(v["hand"])

    # -- the flow of play --------------------------------------------------------------

    def after_change(self) -> None:
        """After any action: show a finished deal, pass an offer switched off, or let a bot play."""
        g = self.s.game
        if len(g.history) > self.rounds_seen:
            result = g.history[self.rounds_seen]
            self.rounds_seen += 1
            self.waiting = True
            reason = for_person(self.s, result["reason"].capitalize())
            text = self.cards(reason + ".\n" + round_table(self.s, result))
            self.push_screen(Question(text, [("ok", "Next deal")]), lambda _r: self._resume_flow())
            return
        if self.s.is_over:
            self.waiting = True
            self.push_screen(Question(self.cards(standings(self.s)), [("ok", "Close")]),
                             lambda _r: self.exit())
            return
        if self.s.human_to_act:
            if self.passes_offer():
                self.set_timer(max(self.speed, 0.01), self._auto_pass)
            return
        self.set_timer(max(self.speed, 0.01), self.bot_turn)

    def _auto_pass(self) -> None:
        if self.waiting or not self.passes_offer():
            return
        top = self.s.view()["discard_top"]
        if self.act(Pass()):
            if self.never_may_i:
                self.messages.append(f"You passed on {top}: May I offers are off (n turns them back on).")
            else:
                self.messages.append(f"You passed on {top}: it does not fit your hand "
                                     "(a: be offered every card).")
            self.show_prompt(self.s.view())

    @property
    def never_may_i(self) -> bool:
        return self.claims == "never"

    def passes_offer(self) -> bool:
        """Whether the May I / buy offer now before the person is passed without asking:
        every one when offers are off (n), one whose card does not fit the hand by default."""
        return self.s.offer_goes_by(self.claims)

    def _resume_flow(self) -> None:
        self.waiting = False
        self.refresh_all()
        self.after_change()

    def bot_turn(self) -> None:
        """Let the bot to act think on a worker thread (a hard bot may take a second; the
        table stays live meanwhile), then play its choice here."""
        if self.waiting or self.s.is_over or self.s.human_to_act or self.thinking:
            return
        self.thinking = True

        def think() -> None:
            choice = self.s.bot_choice()
            self.call_from_thread(self._bot_chose, *choice)

        self.run_worker(think, thread=True, exit_on_error=True, group="bots")

    def _bot_chose(self, seat: int, state: int, action: Action) -> None:
        self.thinking = False
        self.s.bot_play(seat, state, action)
        self.refresh_all()
        self.after_change()

    def act(self, action: Action | str) -> bool:
        """Play the person's action; an illegal one shows the engine's sentence and
        changes nothing."""
        self.pending = None
        try:
            self.s.play(action)
        except IllegalActionError as e:
            self.messages.append(f"Not allowed: {e}")
            self.notify(self.cards(str(e)), title="Not allowed", severity="error", markup=False)
            self.refresh_all()
            return False
        self.messages.append("")
        self.refresh_all()
        self.after_change()
        return True

    # -- selection ---------------------------------------------------------------------

    def toggle(self, i: int) -> None:
        self.selected ^= {i}
        self.query_one("#hand", HandView).update(self.hand_text())

    def chosen(self) -> list[str]:
        return [self.order[i] for i in sorted(self.selected)]

    def action_select(self) -> None:
        if self.order:
            self.toggle(self.cursor)

    def action_cursor(self, step: int) -> None:
        if self.order:
            self.cursor = (self.cursor + step) % len(self.order)
            self.query_one("#hand", HandView).update(self.hand_text())

    def action_move(self, step: int) -> None:
        i, j = self.cursor, self.cursor + step
        if 0 <= j < len(self.order):
            o = self.order
            o[i], o[j] = o[j], o[i]
            self.selected = {j if k == i else i if k == j else k for k in self.selected}
            self.cursor = j
            self.query_one("#hand", HandView).update(self.hand_text())

    def action_sort(self) -> None:
        chosen = self.chosen()
        self.sort_by_suit = not self.sort_by_suit
        self.order.sort(key=self._key)
        left = list(chosen)
        self.selected = set()
        for i, c in enumerate(self.order):
            if c in left:
                left.remove(c)
                self.selected.add(i)
        self.messages.append("Sorted by " + ("suit" if self.sort_by_suit else "rank") + ".")
        self.refresh_all()

    def action_table(self, step: int) -> None:
        """PageUp/PageDown scroll the melds on the table when they do not all fit."""
        table = self.query_one("#table", VerticalScroll)
        table.scroll_page_down() if step > 0 else table.scroll_page_up()

    def action_notation(self) -> None:
        self.symbols = not self.symbols
        self.messages.append("Cards as " + ("symbols (10♣)." if self.symbols else "letters (TC)."))
        self.log_mark = (-1, 0)
        self.query_one("#log", RichLog).clear()
        self.refresh_all()

    # -- actions from keys -------------------------------------------------------------

    def _need_one(self, what: str) -> str | None:
        cards = self.chosen()
        if len(cards) != 1:
            self.messages.append(f"Select exactly one card to {what}.")
            self.refresh_all()
            return None
        return cards[0]

    def action_draw(self) -> None:
        self.act("draw")

    def action_take(self) -> None:
        self.act("take")

    def action_discard(self) -> None:
        """Pick the card to discard (the selected one, or the one under the cursor): its
        move is highlighted and Enter plays it."""
        cards = self.chosen() or ([self.order[self.cursor]] if self.order else [])
        if len(cards) != 1:
            self.messages.append("Select one card to discard (or put the cursor on it), then x.")
            self.refresh_all()
            return
        acts = self.s.legal_actions()
        want = Discard(parse_card(cards[0]))
        if want not in acts:
            self.act(want)  # says why not, changes nothing
            return
        if self.pending == want:  # x twice: discard
            self.act(want)
            return
        self.pending = want
        self.query_one("#actions", OptionList).focus()
        self.refresh_all()

    def action_offer_pass(self) -> None:
        self.act(Pass())

    def action_escape(self) -> None:
        """Drop a pending discard; else clear the selection."""
        if self.pending is not None:
            self.pending = None
            self.query_one("#actions", OptionList).highlighted = None
            self.messages.append("Kept it.")
            self.refresh_all()
        elif self.selected:
            self.selected = set()
            self.refresh_all()

    def action_offer_take(self) -> None:
        """m during an offer: buy (May I), or make the call; with several calls to choose
        from, the first is highlighted in the list of moves."""
        acts = self.s.legal_actions()
        takes = [a for a in acts if isinstance(a, (Buy, CallShanghai, CallRummy))]
        if len(takes) == 1:
            self.act(takes[0])
        elif takes:
            opts = self.query_one("#actions", OptionList)
            opts.highlighted = acts.index(takes[0])
            opts.focus()
            self.messages.append("Several calls are possible: choose one in the list (↑/↓, Enter).")
            self.show_prompt(self.s.view())

    def action_ask_always(self) -> None:
        self.claims = "fits" if self.claims == "always" else "always"
        self.s.set_claims(self.claims)
        self.messages.append("Every discard will be offered (a: only the cards that fit your hand)."
                             if self.claims == "always" else
                             "Only the discards that fit your hand will be offered (a: every one).")
        if self.passes_offer():  # the card now before the person does not fit: it goes by
            self._auto_pass()
            return
        self.refresh_all()

    def action_never_may_i(self) -> None:
        self.claims = "fits" if self.never_may_i else "never"
        self.s.set_claims(self.claims)
        if self.never_may_i:
            self.messages.append("May I will not be offered again this game (n offers it again).")
            if self.offer() == "may_i":
                self.act(Pass())
                return
        else:
            self.messages.append("May I offers are back on, for the cards that fit your hand (a: every one).")
        self.refresh_all()

    def action_group(self) -> None:
        cards = self.chosen()
        if not cards:
            self.messages.append("Select the cards of one meld, then press g.")
        else:
            self.groups.append(cards)
            for c in cards:
                self.order.remove(c)
            self.selected = set()
        self.refresh_all()

    def action_meld(self) -> None:
        groups = [*self.groups, self.chosen()] if self.selected else list(self.groups)
        if not groups:
            self.messages.append("Select the cards to meld (g puts one meld aside for the next).")
            self.refresh_all()
            return
        text = "meld " + " / ".join(" ".join(g) for g in groups)
        put_aside = self.groups
        self.groups = []
        self.order += [c for g in put_aside for c in g]
        if self.act(text):
            self.selected = set()
        self.refresh_all()

    def _with_meld_number(self, verb: str, make: Any) -> None:
        c = self._need_one(verb)
        if not c:
            return

        def got(n: int | None) -> None:
            if n is not None:
                if self.act(make(c, n)):
                    self.selected = set()
                    self.refresh_all()

        self.push_screen(AskNumber(self.cards(f"{verb.capitalize()} {c}: on which meld?")), got)

    def action_layoff(self) -> None:
        self._with_meld_number("lay off", lambda c, n: f"layoff {c} {n}")

    def action_swap(self) -> None:
        self._with_meld_number("swap", lambda c, n: f"swap {c} {n}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        acts = self.s.legal_actions()
        if not (event.option.id or "").isdigit():
            return
        i = int(event.option.id or 0)
        if self.s.human_to_act and 0 <= i < len(acts):
            a = acts[i]
            if self.act(a) and isinstance(a, Discard):
                self.selected = set()
                self.refresh_all()

    def action_hint(self) -> None:
        if not self.s.human_to_act:
            return
        action, why = self.s.hint()
        self.messages.append(self.cards(f"Hint: {action.text()}. {why}"))
        self.notify(self.cards(why), title=self.cards(f"Hint: {action.text()}"), timeout=8, markup=False)
        self.refresh_all()

    def action_help(self) -> None:
        from ..rules.describe import describe_rules

        self.push_screen(Question(KEYS + "\n" + describe_rules(self.variant), [("ok", "Close")],
                                  help_key="question_mark"))

    def action_quit_game(self) -> None:
        self.exit(message=f"The game is saved: `{self.s.resume_command()}` goes on from here.")
