"""The card table in the terminal (Textual).

Your hand is drawn as cards in suit colours: click a card (or move with ←/→ and press
space) to select it; ``[``/``]`` move the card under the cursor, ``o`` sorts by suit or
by rank.  ``g`` puts the selected cards aside as one meld of a multi-meld contract, ``m``
lays down the melds put aside plus the selection, ``l`` lays the selected card off (then
the meld's number), ``w`` swaps it for a wild card on the table, ``x`` discards it.
``d`` draws from the stock, ``t`` takes the discard.  Every legal action is also listed
on the right: click it or select it with the keyboard.  When the discard is offered to
you (May I, buy) or you may call Shanghai or Rummy, you are asked there and then, with
what it costs.  ``h`` shows the hint, ``?`` the rules, ``q`` stops — the game is saved
after every action and ``rummykit resume`` goes on with it.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Header, Input, Label, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from ..cards import parse_card, sort_key
from ..engine.actions import Action, Buy, CallRummy, CallShanghai, Pass
from ..engine.game import IllegalActionError
from ..rules.registry import Variant
from .session import Session
from .words import action_words, contract_progress, plural, prompt_line, round_table, standings

SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CARD_W = 6  # five columns of card and one of space


def card_face(c: str) -> tuple[str, str]:
    """The label and colour of a card: "10♥" in red, "JK" in magenta."""
    if c == "JK":
        return "JK", "magenta"
    rank = "10" if c[0] == "T" else c[0]
    return rank + SUIT[c[1]], "red" if c[1] in "DH" else "white"


def cards_text(cards: list[str]) -> Text:
    t = Text()
    for i, c in enumerate(cards):
        label, colour = card_face(c)
        t.append(label, style=f"bold {colour}")
        if i < len(cards) - 1:
            t.append(" ")
    return t


class HandView(Static):
    """The hand, one box per card; a click selects the card under the mouse."""

    def __init__(self, app_: RummyApp, **kw: Any):
        super().__init__(**kw)
        self.owner = app_

    def on_click(self, event: events.Click) -> None:
        i = event.x // CARD_W
        if 0 <= i < len(self.owner.order):
            self.owner.cursor = i
            self.owner.toggle(i)


class Question(ModalScreen[str]):
    """A question with buttons; dismissed with the chosen button's id."""

    DEFAULT_CSS = """
    Question { align: center middle; }
    #box { width: 80; height: auto; max-height: 90%; border: thick $accent; padding: 1 2;
           background: $surface; }
    #text { height: auto; max-height: 30; }
    #text Label { width: 100%; }
    #buttons { height: auto; margin-top: 1; }
    """

    def __init__(self, text: str, choices: list[tuple[str, str]]):
        super().__init__()
        self.text = text
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            with VerticalScroll(id="text"):
                yield Label(self.text, markup=False)
            with Horizontal(id="buttons"):
                for key, label in self.choices:
                    yield Button(label, id=key, variant="primary" if key == self.choices[0][0] else "default")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")


class AskNumber(ModalScreen[int | None]):
    DEFAULT_CSS = """
    AskNumber { align: center middle; }
    #box { width: 60; height: auto; border: thick $accent; padding: 1 2; background: $surface; }
    """

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Label(self.text)
            yield Input(placeholder="meld number, then Enter (Esc: cancel)", id="number")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        v = event.value.strip()
        self.dismiss(int(v) if v.isdigit() else None)

    def key_escape(self) -> None:
        self.dismiss(None)


class RummyApp(App[None]):
    TITLE = "rummykit"
    CSS = """
    #top { height: auto; }
    #players { width: 1fr; height: auto; }
    #piles { width: 34; height: auto; border: round $primary; padding: 0 1; }
    #middle { height: 1fr; }
    #table { width: 1fr; border: round $primary; padding: 0 1; }
    #side { width: 52; }
    #actions { height: 1fr; border: round $secondary; }
    #log { height: 10; border: round $secondary; }
    #contract { height: auto; padding: 0 1; }
    #groups { height: auto; padding: 0 1; color: $warning; }
    #hand { height: 4; padding: 0 0; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    """
    BINDINGS = [
        Binding("d", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("x", "discard", "Discard"),
        Binding("m", "meld", "Meld"),
        Binding("g", "group", "Group"),
        Binding("l", "layoff", "Lay off"),
        Binding("w", "swap", "Swap"),
        Binding("space", "select", "Select", show=False),
        Binding("left", "cursor(-1)", "←", show=False),
        Binding("right", "cursor(1)", "→", show=False),
        Binding("[", "move(-1)", "Move left", show=False),
        Binding("]", "move(1)", "Move right", show=False),
        Binding("o", "sort", "Sort"),
        Binding("h", "hint", "Hint"),
        Binding("question_mark", "rules", "Rules"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, variant: Variant, speed: float = 0.6):
        super().__init__()
        self.s = session
        self.variant = variant
        self.speed = speed
        self.order: list[str] = []
        self.selected: set[int] = set()
        self.groups: list[list[str]] = []
        self.cursor = 0
        self.sort_by_suit = True
        self.rounds_seen = len(session.game.history)
        self.log_mark = (-1, 0)
        self.waiting = False  # a question or a round's result is on screen
        self.thinking = False  # a bot is choosing on a worker thread
        self.messages: list[str] = []

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="top"):
            yield Static(id="players")
            yield Static(id="piles")
        with Horizontal(id="middle"):
            with VerticalScroll(id="table"):
                yield Static(id="melds")
            with Vertical(id="side"):
                yield OptionList(id="actions")
                yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="contract")
        yield Static(id="groups")
        yield HandView(self, id="hand")
        yield Static(id="prompt")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"{self.variant.spec.name} - game {self.s.id}"
        self.refresh_all()
        self.after_change()

    # -- drawing -----------------------------------------------------------------------

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
        self.title = f"{v['name']} - deal {v['round']}{deals}{need}"
        self.query_one("#players", Static).update(self.players_table(v))
        top = v["discard_top"]
        piles = Text("Discard: ")
        piles.append_text(cards_text([top]) if top else Text("empty"))
        piles.append(f"  ({v['discard_size']})\nStock: {plural(v['stock_size'], 'card')}")
        self.query_one("#piles", Static).update(piles)
        self.query_one("#melds", Static).update(self.melds_text(v))
        self.query_one("#contract", Static).update(contract_progress(self.s))
        groups = "  ".join("[" + " ".join(g) + "]" for g in self.groups)
        self.query_one("#groups", Static).update(f"Melds put aside: {groups}" if groups else "")
        self.query_one("#hand", HandView).update(self.hand_text())
        status = self.messages[-1] if self.messages else ""
        if self.s.is_over:
            turn = "The game is over."
        elif self.s.human_to_act:
            turn = prompt_line(self.s, v)
        else:
            turn = f"{self.s.seat_name(v['current_player'])} is thinking..."
        self.query_one("#prompt", Static).update(turn + (f"\n{status}" if status else ""))
        opts = self.query_one("#actions", OptionList)
        opts.clear_options()
        if self.s.human_to_act:
            opts.add_options([Option(f"{i}. {action_words(a, self.s)}", id=str(i - 1))
                              for i, a in enumerate(self.s.legal_actions(), 1)])
        self.write_log(v)

    def players_table(self, v: dict[str, Any]) -> Table:
        t = Table(expand=True, box=None, padding=(0, 1))
        for col in ("player", "cards", "score", "buys left", "down", "seen holding"):
            t.add_column(col)
        for seat in range(v["players"]):
            name = self.s.seat_name(seat) + (" *" if seat == v["dealer"] else "")
            style = "bold reverse" if seat == v["current_player"] and not v["is_over"] else ""
            seen = " ".join(v["known"][seat]) if seat != self.s.human else ""
            t.add_row(Text(name, style=style), str(v["hand_sizes"][seat]), str(v["scores"][seat]),
                      "-" if v["buys_left"] is None else str(v["buys_left"][seat]),
                      "yes" if v["down"][seat] else "", seen)
        return t

    def melds_text(self, v: dict[str, Any]) -> Text:
        t = Text()
        if not v["melds"]:
            return Text("No melds on the table yet.")
        by_owner: dict[int, list[int]] = {}
        for i, info in enumerate(v["meld_info"]):
            by_owner.setdefault(info["owner"], []).append(i)
        for owner, idx in by_owner.items():
            t.append(self.s.seat_name(owner) + "\n", style="bold underline")
            for i in idx:
                t.append(f"  {i + 1:>2}. ")
                t.append_text(cards_text(v["melds"][i]))
                t.append(f"  ({v['meld_info'][i]['kind']})\n")
        return t

    def hand_text(self) -> Text:
        rows = [Text(), Text(), Text()]
        for i, c in enumerate(self.order):
            label, colour = card_face(c)
            sel = i in self.selected
            border = "bold yellow" if sel else ("bold cyan" if i == self.cursor else "grey50")
            rows[0].append("┌───┐" if not sel else "╔═══╗", style=border)
            rows[1].append("│" if not sel else "║", style=border)
            rows[1].append(f"{label:<3}", style=f"bold {colour}" + (" reverse" if sel else ""))
            rows[1].append("│" if not sel else "║", style=border)
            rows[2].append("└───┘" if not sel else "╚═══╝", style=border)
            for r in rows:
                r.append(" ")
        out = Text()
        for r in rows:
            out.append_text(r)
            out.append("\n")
        return out

    def write_log(self, v: dict[str, Any]) -> None:
        log = self.query_one("#log", RichLog)
        rnd, n = self.log_mark
        events_ = v["log"][n:] if v["round"] == rnd else v["log"]
        for ev in events_:
            log.write(ev["text"].replace(f"Seat {self.s.human}", self.s.name))
        self.log_mark = (v["round"], len(v["log"]))

    # -- the flow of play --------------------------------------------------------------

    def after_change(self) -> None:
        """After any action: show a finished round, ask a question, or let a bot play."""
        g = self.s.game
        if len(g.history) > self.rounds_seen:
            result = g.history[self.rounds_seen]
            self.rounds_seen += 1
            self.waiting = True
            text = result["reason"].capitalize() + ".\n" + round_table(self.s, result)
            self.push_screen(Question(text, [("ok", "Next")]), lambda _r: self._resume_flow())
            return
        if self.s.is_over:
            self.waiting = True
            self.push_screen(Question(standings(self.s), [("ok", "Close")]), lambda _r: self.exit())
            return
        if self.s.human_to_act:
            self.ask_if_window()
            return
        self.set_timer(max(self.speed, 0.01), self.bot_turn)

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

    def ask_if_window(self) -> None:
        v = self.s.view()
        acts = self.s.legal_actions()
        if v["phase"] == "may_i" and any(isinstance(a, Buy) for a in acts):
            b = self.s.game.spec.buying
            self._ask(prompt_line(self.s, v), [("buy", f"{b.verb if b else 'Buy'}: take {v['discard_top']}"),
                                               ("pass", "Pass")])
        elif v["phase"] == "call":
            calls = [(a.text(), action_words(a, self.s).split("  [")[0])
                     for a in acts if isinstance(a, (CallShanghai, CallRummy))]
            self._ask(prompt_line(self.s, v), [*calls[:4], ("pass", "Pass")])

    def _ask(self, text: str, choices: list[tuple[str, str]]) -> None:
        self.waiting = True

        def answer(choice: str | None) -> None:
            self.waiting = False
            self.act(Pass() if choice in (None, "pass") else choice or "pass")

        self.push_screen(Question(text, choices), answer)

    def act(self, action: Action | str) -> bool:
        """Play the person's action; an illegal one shows the engine's sentence and
        changes nothing."""
        try:
            self.s.play(action)
        except IllegalActionError as e:
            self.messages.append(f"Not allowed: {e}")
            self.notify(str(e), title="Not allowed", severity="error")
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
        c = self._need_one("discard")
        if c and self.act(f"discard {c}"):
            self.selected = set()
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

        self.push_screen(AskNumber(f"{verb.capitalize()} {c}: on which meld?"), got)

    def action_layoff(self) -> None:
        self._with_meld_number("lay off", lambda c, n: f"layoff {c} {n}")

    def action_swap(self) -> None:
        self._with_meld_number("swap", lambda c, n: f"swap {c} {n}")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        acts = self.s.legal_actions()
        i = int(event.option.id or 0)
        if self.s.human_to_act and 0 <= i < len(acts):
            self.act(acts[i])

    def action_hint(self) -> None:
        if not self.s.human_to_act:
            return
        action, why = self.s.hint()
        self.messages.append(f"Hint: {action.text()}. {why}")
        self.notify(why, title=f"Hint: {action.text()}", timeout=8)
        self.refresh_all()

    def action_rules(self) -> None:
        from ..cli.describe import describe_rules

        self.push_screen(Question(describe_rules(self.variant), [("ok", "Close")]))

    def action_quit_game(self) -> None:
        self.exit(message="The game is saved: `rummykit resume` goes on from here.")
