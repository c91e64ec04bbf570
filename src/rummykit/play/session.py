"""A game being played by a person against bots, saved action by action.

The session owns the game; the person and the screens see it only through
``view(human)`` and ``legal_actions()``.  Bots are rebuilt for every decision with a
seed drawn from the game's seed, their seat and the position (``state_id``), so a
resumed game goes on exactly as the uninterrupted one would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import parse_card
from ..engine.actions import Action, Buy
from ..engine.game import Game, IllegalActionError, fresh_seed, new_game, replay
from ..engine.record import make_record
from ..players import make_player
from ..rules.registry import Variant
from ..store import SavedGame, Store

HUMAN = "human"
CLAIMS = ("fits", "always", "never")  # which May I / buy offers are put to the person (Session.claims)


class Session:
    """Use :meth:`start` for a new game, :meth:`resume` for a saved one."""

    def __init__(self, store: Store, game_id: int, game: Game, seats: Sequence[str], human: int, name: str,
                 prefs: dict[str, Any] | None = None):
        self.store = store
        self.prefs: dict[str, Any] = dict(prefs or {})  # the player's choices for this game, kept
        self.id = game_id
        self.game = game
        self.seats = list(seats)
        self.human = human
        self.name = name

    # -- set-up ----------------------------------------------------------------------------

    @classmethod
    def start(cls, store: Store, variant: Variant, players: int, bots: Sequence[str], seed: int | None = None,
              name: str = "You", options: dict[str, Any] | None = None) -> Session:
        """A new game: the person at seat 0, ``bots`` (levels) at the others."""
        if len(bots) != players - 1:
            raise ValueError(f"{players} players need {players - 1} bots, not {len(bots)}")
        for b in bots:
            make_player(b)  # a bad level is refused before anything is saved
        if seed is None:
            seed = fresh_seed()
        g = new_game(variant, players=players, seed=seed, options=options)
        setup = make_record(g)
        del setup["actions"]
        seats = [HUMAN, *bots]
        gid = store.new_game(setup, seats, 0, name)
        return cls(store, gid, g, seats, 0, name)

    @classmethod
    def resume(cls, store: Store, saved: SavedGame) -> Session:
        g = replay(saved.record())
        return cls(store, saved.id, g, saved.seats, saved.human, saved.name, saved.prefs)

    # -- offers out of turn ------------------------------------------------------------------

    @property
    def claims(self) -> str:
        """Which May I / buy offers are put to the person: "fits" (the default: only a card
        that fits the hand, :func:`~rummykit.players.fits.card_fits`, as in the browser),
        "always", or "never"; kept with the game (an older save's "never_may_i" too)."""
        kept = self.prefs.get("claims")
        return kept if kept in CLAIMS else "never" if self.prefs.get("never_may_i") else "fits"

    def set_claims(self, claims: str) -> None:
        if claims not in CLAIMS:
            raise ValueError(f"claims must be one of {', '.join(CLAIMS)}, not {claims!r}")
        self.set_pref("claims", claims)

    def at_offer(self) -> bool:
        """Whether the person is asked a May I / buy now."""
        return self.human_to_act and self.game.phase == "may_i" and any(
            isinstance(a, Buy) for a in self.legal_actions())

    def offer_goes_by(self, claims: str | None = None) -> bool:
        """Whether the May I / buy offer now before the person passes without asking them
        (``claims``: the mode, default :attr:`claims`): every one when offers are off, one
        whose card does not fit the hand by default, none when every one is asked."""
        mode = claims or self.claims
        if mode == "always" or not self.at_offer():
            return False
        if mode == "never":
            return True
        from ..players.fits import card_fits

        v = self.view()
        top = v["discard_top"]
        return top is not None and not card_fits(v, parse_card(top), self.game.variant)

    # -- play ------------------------------------------------------------------------------

    def set_pref(self, key: str, value: Any) -> None:
        """Remember a choice of the player's for this game (saved at once: ``resume`` keeps it)."""
        self.prefs[key] = value
        self.store.set_prefs(self.id, self.prefs)

    def resume_command(self) -> str:
        """The command that goes on with this game, as it works from here (the program's
        path when ``rummykit`` is not on PATH; ``--db`` when the file is not the default)."""
        from ..invoked import command

        return command("resume", self.id, db=self.store.path)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def human_to_act(self) -> bool:
        return not self.game.is_over and self.game.current_player == self.human

    def view(self) -> dict[str, Any]:
        return self.game.view(self.human)

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions()

    def seat_name(self, seat: int) -> str:
        return self.name if seat == self.human else f"Seat {seat} ({self.seats[seat]})"

    def play(self, action: Action | str) -> None:
        """The person's action; IllegalActionError (nothing changes) if it is not legal."""
        if not self.human_to_act:
            raise IllegalActionError("It is not your turn")
        self._apply(self.human, action)

    def bot_step(self) -> Action:
        """One decision of the bot to act."""
        seat, state, action = self.bot_choice()
        self.bot_play(seat, state, action)
        return action

    def bot_choice(self) -> tuple[int, int, Action]:
        """What the bot to act chooses: (its seat, the position it saw, the action).  It
        only reads the game, so it may run on another thread while the table is drawn."""
        g = self.game
        seat = g.current_player
        if seat == self.human or g.is_over:
            raise RuntimeError("no bot is to act")
        bot = make_player(self.seats[seat], seed=self._bot_seed(seat), variant=g.variant)
        return seat, g.state_id, bot.choose(g.view(seat), g.legal_actions())

    def bot_play(self, seat: int, state: int, action: Action) -> None:
        """Play a choice from :meth:`bot_choice`, if the game is still where the bot saw it."""
        if self.game.state_id != state or self.game.current_player != seat:
            raise RuntimeError("the game moved on while the bot was thinking")
        self._apply(seat, action)

    def _bot_seed(self, seat: int) -> int:
        return (self.game.seed * 1_000_003 + seat * 7919 + self.game.state_id) % (2**63)

    def _apply(self, seat: int, action: Action | str) -> None:
        g = self.game
        rounds = len(g.history)
        g.apply(action)  # raises on an illegal action, before anything is stored
        text = g.actions[-1]
        points = None
        if len(g.history) > rounds:
            r = g.history[-1]
            points = (r["round"], r["points"])
        final = None
        if g.is_over:
            final = ([str(s) for s in g.scores], self.human in g.winners)
        self.store.add_action(self.id, len(g.actions) - 1, seat, text, points, final)

    def hint(self) -> tuple[Action, str]:
        """The hint: the medium bot's suggestion and its sentence, for the person's view."""
        from ..players.heuristic import HeuristicPlayer

        return HeuristicPlayer(self._bot_seed(self.human), self.game.variant).explain(
            self.view(), self.legal_actions())

    def progress(self) -> dict[str, Any]:
        """The contract and what the hand has toward it, from the hint's evaluation."""
        from ..players.heuristic import HeuristicPlayer

        return HeuristicPlayer(self._bot_seed(self.human), self.game.variant).progress(self.view())
