"""``rummykit play --plain``: the game line by line, for screen readers, scripts and ssh.

It prints the table in words and the numbered legal actions, and reads a number or an
action in text form (``draw``, ``meld 7H 7S 7D``, ``discard KC``...).  ``h`` asks for a
hint, ``?`` shows the rules, ``q`` stops (the game is already saved).  A May I / buy is put
to the person only when the card fits their hand unless they ask for every one (``a``) or
none (``n``), as in the full-screen game.
"""

from __future__ import annotations

import time
from typing import IO

from ..engine.game import IllegalActionError
from ..rules.registry import Variant
from .session import Session
from .words import action_words, describe_view, drawn_note, for_person, round_table, standings

HELP = ("Type the number of an action, or the action itself (for example: draw, take, "
        "meld 7H 7S 7D, layoff 9C 2, discard KC). h: a hint. ?: the rules. "
        "a: be offered every discard (May I, buy), not only the ones that fit your hand. "
        "n: never be offered one. q: stop (the game is saved).")


class PlainUI:
    def __init__(self, session: Session, variant: Variant, inp: IO[str], out: IO[str], speed: float = 0.0):
        self.s = session
        self.variant = variant
        self.inp = inp
        self.out = out
        self.speed = speed
        self.seen = self._log_mark()

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _log_mark(self) -> tuple[int, int]:
        """Where the log stands now (deal, entries); the hand seen with it is kept too, to
        tell what a Shanghai call drew from it (:func:`drawn_note`)."""
        v = self.s.view()
        self.hand_seen = list(v["hand"])
        return (v["round"], len(v["log"]))

    def _new_events(self) -> list[str]:
        """The log's new entries, each as its text (with what only the person knows of it)."""
        v = self.s.view()
        rnd, n = self.seen
        events = v["log"][n:] if v["round"] == rnd else v["log"]
        before = self.hand_seen
        self.seen = self._log_mark()
        out = []
        for ev in events:
            note = drawn_note(ev, self.s.human, before, v["hand"]) if v["round"] == rnd else None
            out.append(ev["text"] + (f" ({note})" if note else ""))
        return out

    def _report(self, rounds_before: int) -> None:
        """Say what happened since the person last looked: each event, and a round's end."""
        g = self.s.game
        if len(g.history) > rounds_before:
            rnd, n = self.seen
            if len(g.history) == rounds_before + 1:  # the moves that ended it (the result follows)
                ended = g.log if g.is_over and g.round_no == rnd else (
                    g.last_deal_log if g.round_no == rnd + 1 else ())
                for last in ended[n:]:
                    if last["verb"] != "round_end":
                        self.say("  " + for_person(self.s, last["text"]))
            for r in g.history[rounds_before:]:
                self.say(for_person(self.s, r["reason"].capitalize()) + ".")
                self.say(round_table(self.s, r))
            self.seen = self._log_mark()
            return
        for text in self._new_events():
            self.say("  " + for_person(self.s, text))

    def run(self) -> str:
        """Play until the game ends or the person stops; returns "over", "quit" or "eof"."""
        self.say(f"Game {self.s.id}: {self.variant.spec.name}, {self.s.game.n} players. {HELP}")
        shown = None
        while not self.s.is_over:
            if not self.s.human_to_act:
                before = len(self.s.game.history)
                self.s.bot_step()
                self._report(before)
                if self.speed:
                    time.sleep(self.speed)
                continue
            if self.s.offer_goes_by():
                self._pass_by_itself()
                continue
            state = self.s.game.state_id
            if shown != state:
                self.say(describe_view(self.s))
                self._list_actions()
                shown = state
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say(f"\nInput ended. The game is saved: `{self.s.resume_command()}` goes on from here.")
                return "eof"
            if not self._answer(line.strip()):
                self.say(f"Stopped. The game is saved: `{self.s.resume_command()}` goes on from here.")
                return "quit"
        self.say(standings(self.s))
        return "over"

    def _pass_by_itself(self) -> None:
        top = self.s.view()["discard_top"]
        before = len(self.s.game.history)
        self.s.play("pass")
        why = ("offers are off (n: offer them again)" if self.s.claims == "never"
               else "it does not fit your hand (a: be offered every card)")
        self.say(f"  You passed on {top}: {why}.")
        self._report(before)

    def _list_actions(self) -> None:
        for i, a in enumerate(self.s.legal_actions(), 1):
            self.say(f"  {i}. {action_words(a, self.s)}")

    def _answer(self, text: str) -> bool:
        """Handle one line; False when the person stops."""
        if text in ("q", "quit", "exit"):
            return False
        if text == "":
            self._list_actions()
            return True
        if text in ("h", "hint"):
            action, why = self.s.hint()
            self.say(f"Hint: {action.text()}. {why}")
            return True
        if text in ("?", "rules"):
            from ..rules.describe import describe_rules

            self.say(describe_rules(self.variant))
            return True
        if text in ("a", "n"):
            mode = {"a": "always", "n": "never"}[text]
            self.s.set_claims("fits" if self.s.claims == mode else mode)
            self.say({"always": "Every discard will be offered (a: only the ones that fit your hand).",
                      "never": "No discard will be offered (n: the ones that fit your hand again).",
                      "fits": "Only the discards that fit your hand will be offered."}[self.s.claims])
            return True
        if text in ("help", "-h", "--help"):
            self.say(HELP)
            return True
        acts = self.s.legal_actions()
        before = len(self.s.game.history)
        try:
            if text.isdigit():
                k = int(text)
                if not 1 <= k <= len(acts):
                    self.say(f"There is no action {k}: choose 1-{len(acts)}.")
                    return True
                self.s.play(acts[k - 1])
            else:
                self.s.play(text)
        except IllegalActionError as e:
            self.say(f"Not allowed: {e}. Nothing changed.")
            return True
        self._report(before)
        return True
