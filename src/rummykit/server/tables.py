"""Tables and the Hub: one engine Game per table, its seats, connections, claims and bots.

A table talks to the engine only through ``rk.new_game``/``rk.replay``, ``view(seat)``,
``view(None)``, ``legal_actions()``, ``apply()``, ``record()``, ``current_player``,
``is_over`` and, for claim windows, ``claim_window()`` and ``claim_view(seat)``.  Every
change runs synchronously on the event loop (no await in the middle): apply, commit to
storage, then a state message to every connection.  Timed things — a bot's move after
``bot_delay``, the claim window's countdown, the turn timer, the grace period of an absent
player — are asyncio tasks that re-check the position before they act.

Claim windows: when the engine asks seats one at a time whether they want a discard (May I
/ buy, Shanghai, Rummy), every seat in its queue is asked at once; the answers are stored
and fed to the engine in its own order when the window closes, so the engine's priority
decides, never the fastest click.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, format_action, parse_action
from ..engine.game import Game, IllegalActionError, fresh_seed, new_game, replay
from ..engine.scoring import number
from ..players import make_player
from ..rules.registry import Variant
from .extras import DEAL_BREAK_SECONDS, TYPES, Bad, Extras
from .observe import Observer
from .storage import Change, LeaseLost, Storage, StoredTable
from .wire import LogCursor, encode, with_log_from

log = logging.getLogger("rummykit.server")

WINDOW_PHASES = ("may_i", "call")
BOT_LEVELS = ("easy", "medium", "hard")
STAND_IN = "medium"  # the bot that plays an absent player's seat


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


@dataclass
class Seat:
    kind: str  # "human" or "bot:<level>"
    name: str
    token_hash: str | None = None
    connections: int = 0
    autoplay: str | None = None  # None, "away" (grace period over) or "asked" (by its player)
    grace: asyncio.Task[None] | None = None

    @property
    def bot(self) -> str | None:
        return self.kind[4:] if self.kind.startswith("bot:") else None

    @property
    def player(self) -> str | None:
        """The bot level playing this seat now, or None when a person plays it."""
        if self.bot:
            return self.bot
        return STAND_IN if self.autoplay else None

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name,
                "connected": self.bot is not None or self.connections > 0,
                "taken": self.bot is not None or self.token_hash is not None,
                "autoplay": self.autoplay is not None}


@dataclass
class Window:
    """An open claim window: the engine's queue, asked at once."""

    kind: str  # may_i | buy | shanghai | rummy
    state_id: int  # the table's state_id when it opened; answers carry it
    seats: list[int]  # the engine's queue, in its priority order
    legal: dict[int, list[str]]  # what each seat may answer (seats ahead assumed to pass)
    deadline: float
    answers: dict[int, str] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # something changed: look again
    card: str | None = None  # the card offered (the discard in question)
    penalty: int = 0  # the stock cards a buyer takes besides it (0 for a call)

    def complete(self) -> bool:
        return all(s in self.answers for s in self.seats)

    def public(self, seat: int | None) -> dict[str, Any]:
        return {"kind": self.kind, "state_id": self.state_id, "seats": list(self.seats),
                "answered": seat in self.answers if seat is not None else False,
                "answered_seats": sorted(self.answers), "card": self.card, "penalty": self.penalty}


OVERFLOW = "\x00overflow"  # the writer closes a connection that fell this far behind (code 1013)
MAX_BEHIND = 200


@dataclass(eq=False)
class Conn:
    """One websocket connection: its seat (None: a spectator) and its outgoing queue."""

    seat: int | None
    out: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    behind: bool = False
    log: LogCursor | None = None  # a delta-log connection (?log=delta): what of the log it has
    greeted: bool = False  # it has had its first state message and the chat's log

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a message; a client that does not read is cut off (it reconnects and gets
        the whole state again) rather than let its queue grow without end."""
        if self.behind:
            return
        if self.out.qsize() >= MAX_BEHIND:
            self.behind = True
            self.out.put_nowait(OVERFLOW)
            return
        self.out.put_nowait(msg if isinstance(msg, str) else encode(msg))


class Refused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Table:
    def __init__(self, hub: Hub, tid: str, name: str, variant: Variant, game: Game,
                 settings: dict[str, Any], seats: list[Seat], status: str, state_id: int,
                 created: float, saved: int):
        self.hub = hub
        self.id = tid
        self.name = name
        self.variant = variant
        self.game = game
        self.settings = settings
        self.seats = seats
        self.status = status
        self.state_id = state_id
        self.created = created
        self.saved = saved  # engine actions already in the database
        self.moves: list[tuple[int, str]] = []  # applied, not yet stored: (seat, text)
        self.claims: list[tuple[int, int, str]] = []  # answers not yet stored: (window, seat, text)
        self.seat_changes: list[tuple[int, dict[str, Any]]] = []  # not yet stored
        self.stored_state = state_id
        self.conns: set[Conn] = set()
        self.window: Window | None = None
        self.turn_task: asyncio.Task[None] | None = None
        self.turn_key: tuple[Any, ...] | None = None
        self.turn_deadline: float | None = None
        # a person's turn timer: ((round, turn, seat), its deadline, the time left while a
        # claim window stops it, else None)
        self.turn_clock: tuple[tuple[int, int, int], float, float | None] | None = None
        self.rematch: str | None = None
        self.extras = Extras(self)  # chat, preferences, the deal break, stand-in summaries

    @property
    def storage(self) -> Storage:
        return self.hub.storage

    # -- facts ------------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        s = self.settings
        out = {"id": self.id, "ruleset": self.variant.id, "name": self.name, "players": self.game.n,
               "status": self.status, "created": self.created,
               "seats": [x.public() for x in self.seats]}
        settings = {k: s[k] for k in ("bot_delay", "claim_seconds", "grace_seconds", "turn_seconds",
                                      "hints", "options", "seats")}
        settings["deal_chosen"] = bool(s.get("deal_chosen"))
        settings["deal_break_seconds"] = s.get("deal_break_seconds", DEAL_BREAK_SECONDS)
        out["settings"] = settings
        out["free_seats"] = sum(1 for x in self.seats if x.kind == "human" and x.token_hash is None)
        return out

    def summary(self) -> dict[str, Any]:
        g = self.game
        out = self.info()
        out["scores"] = [number(x) for x in g.scores]
        out["round"] = g.round_no
        out["rematch"] = self.rematch
        out["house_rules"] = self.extras.house_rules()
        if self.status == "over":
            out["record"] = g.record()
            out["winners"] = list(g.winners)
        return out

    def seat_for_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        return None

    def _bot_seed(self, seat: int) -> int:
        g = self.game
        return (g.seed * 1_000_003 + seat * 7919 + len(g.actions)) % (2**63)

    def _legal_for(self, seat: int | None) -> list[str]:
        if seat is None or self.status != "playing" or self.seats[seat].player is not None:
            return []
        w = self.window
        if w is not None:
            return [] if seat in w.answers or seat not in w.legal else list(w.legal[seat])
        g = self.game
        if g.phase in WINDOW_PHASES or g.current_player != seat:
            return []
        return [format_action(a) for a in g.legal_actions()]

    def deadline(self) -> float | None:
        if self.window is not None:
            return self.window.deadline
        return self.turn_deadline

    def state_message(self, seat: int | None, view: dict[str, Any] | None = None,
                      shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message to ``seat`` (``view``: its view, when the caller has it;
        ``shared``: the parts that are the same for every seat, see ``_shared``)."""
        g = self.game
        if shared is None:
            shared = self._shared()
        msg: dict[str, Any] = {
            "type": "state", "state_id": self.state_id, "status": self.status, "seat": seat,
            "view": g.view(seat) if view is None else view, "legal": self._legal_for(seat),
            "deadline": shared["deadline"],
            "window": None if self.window is None else self.window.public(seat),
            "seats": shared["seats"],
            "autoplay": seat is not None and self.seats[seat].autoplay is not None,
            "table": shared["table"],
            **self.extras.fields(seat),
        }
        if (seat is not None and self.settings.get("hints") and msg["legal"] and self.window is None):
            msg["hint"] = self._hint(seat, msg["view"])
        return msg

    def _shared(self) -> dict[str, Any]:
        """What a state message tells every seat alike (built once per broadcast)."""
        return {"deadline": self.deadline(), "seats": [s.public() for s in self.seats],
                "table": self.table_facts()}

    def table_facts(self) -> dict[str, Any]:
        out = {"id": self.id, "ruleset": self.variant.id, "name": self.name, "players": self.game.n,
               "rematch": self.rematch, "hints": bool(self.settings.get("hints")),
               "claim_seconds": self.settings["claim_seconds"],
               "turn_seconds": self.settings["turn_seconds"], "options": self.settings.get("options") or {},
               "deal_chosen": bool(self.settings.get("deal_chosen")),
               "house_rules": self.extras.house_rules(), "high_wins": self.game.spec.high_wins}
        if "rules" in self.settings.get("setup_rules", {}):
            out["rules"] = self.settings["setup_rules"]["rules"]
        return out

    def _hint(self, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
        """The hint for ``seat``: the medium bot's suggestion for its view, its sentence,
        and what the hand has toward the contract ("working toward it"), all from the one
        hand evaluation the terminal's hint reads."""
        from ..players.heuristic import HeuristicPlayer

        try:
            bot = HeuristicPlayer(self._bot_seed(seat), self.game.variant)
            a, why = bot.explain(view, self.game.legal_actions())
            progress = bot.progress(view)
        except Exception:  # a hint is a nicety; never let it break the table
            log.exception("table %s: a hint failed", self.id)
            return None
        return {"action": format_action(a), "why": why, "progress": progress["text"],
                "working": progress["melds"], "short": progress["short"]}

    # -- sending ----------------------------------------------------------------------------

    def broadcast(self) -> None:
        conns = list(self.conns)
        views = self.game.views({c.seat for c in conns})
        texts: dict[tuple[int | None, int | None], str] = {}
        shared = self._shared()
        for c in conns:
            c.send(self._state_text(c, views[c.seat], texts, shared))
            if not c.greeted:
                self._greet(c)

    def send_state(self, *conns: Conn) -> None:
        """The current state to some of the table's connections."""
        if self.hub.ungather(self):  # a change waits for this loop turn's commit: store it and
            self._commit()           # tell everyone now (these connections too): never show a
            self._told()             # change before it is stored, never send one state twice
            return
        for c in conns:
            c.send(self._state_text(c, self.game.view(c.seat)))
            if not c.greeted:
                self._greet(c)

    def _greet(self, c: Conn) -> None:
        """Right after a connection's first state message: the chat's last messages."""
        c.greeted = True
        c.send(self.extras.chat_log())

    def _state_text(self, c: Conn, view: dict[str, Any],
                    texts: dict[tuple[int | None, int | None], str] | None = None,
                    shared: dict[str, Any] | None = None) -> str:
        """The state message for connection ``c`` as JSON text; ``texts`` caches the texts
        of one broadcast by (seat, where the log starts)."""
        start = None if c.log is None else c.log.advance(view)
        key = (c.seat, start)
        if texts is not None and key in texts:
            return texts[key]
        msg = self.state_message(c.seat, view, shared)
        text = encode(msg if start is None else with_log_from(msg, start))
        if texts is not None:
            texts[key] = text
        return text

    def _change(self) -> Change | None:
        """What changed since the last save (engine actions, answers, seats, the state_id)."""
        if self.state_id == self.stored_state and not (self.moves or self.claims or self.seat_changes):
            return None
        g = self.game
        final = None
        if self.status == "over":
            final = ([str(number(x)) for x in g.scores], list(g.winners))
        return Change(self.id, self.state_id, self.status, self.moves, self.saved, self.claims,
                      self.seat_changes, final)

    def _stored(self, ch: Change) -> None:
        """``ch`` is in the database now."""
        self.saved += len(ch.moves)
        self.moves, self.claims, self.seat_changes = [], [], []
        self.stored_state = ch.state_id
        self.hub.observe.stored(self, ch)

    def _commit(self) -> None:
        """Store what changed in one transaction, before anyone hears of it."""
        ch = self._change()
        if ch is not None:
            self.storage.save(ch.tid, ch.state_id, status=ch.status, moves=ch.moves, first_seq=ch.first_seq,
                              claims=ch.claims, seats=ch.seats, final=ch.final)
            self._stored(ch)

    def _changed(self, gather: bool = False) -> None:
        """After any change: settle the engine, commit, tell everyone, schedule timers.
        ``gather``: the commit may wait for the end of this turn of the event loop, to go
        in one transaction with the other tables' changes of the same turn (Hub.gather);
        nobody hears of the change before it is stored either way."""
        self._settle()
        if gather and self.hub.gather(self):
            return
        self._commit()
        self._told()

    def _told(self) -> None:
        """The change is stored: schedule (it sets the turn's deadline), then tell everyone."""
        self._schedule()
        self.broadcast()
        self.hub.observe.told(self)

    def rematch_made(self, rid: str) -> None:
        """The rematch's table is ``rid``: everyone hears of it under a new state_id (a
        state_id never stands for two states)."""
        self.rematch = rid
        self.state_id += 1
        self._changed()
        self.hub.observe.rematch(self, rid)

    # -- connections ------------------------------------------------------------------------

    def connect(self, conn: Conn) -> None:
        self.conns.add(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connections += 1
        self.hub.observe.connected(self, conn)
        if conn.seat is not None:
            s = self.seats[conn.seat]
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
            if s.connections == 1:
                if s.autoplay == "away":
                    s.autoplay = None
                    self._autoplay_changed(conn.seat)
                self.state_id += 1
                self._changed(gather=True)  # a server's restart brings everyone back at once
                return
        self.send_state(conn)

    def disconnect(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connections -= 1
        self.hub.observe.disconnected(self, conn)
        if conn.seat is None:
            return
        s = self.seats[conn.seat]
        if s.connections == 0:
            self._start_grace(conn.seat)
            self.state_id += 1
            self._changed(gather=True)

    def _start_grace(self, seat: int) -> None:
        s = self.seats[seat]
        if s.bot or s.autoplay or self.status != "playing":
            return
        if s.grace is not None:
            s.grace.cancel()
        s.grace = asyncio.get_running_loop().create_task(self._grace(seat))

    async def _grace(self, seat: int) -> None:
        await asyncio.sleep(float(self.settings["grace_seconds"]))
        s = self.seats[seat]
        s.grace = None
        if s.connections == 0 and s.autoplay is None and self.status != "over":
            s.autoplay = "away"
            self.state_id += 1
            self._autoplay_changed(seat)
            self._changed()

    def _autoplay_changed(self, seat: int) -> None:
        """The seat's stand-in, to be stored: whether a bot plays it, and why (``Seat.autoplay``)."""
        why = self.seats[seat].autoplay
        self.seat_changes.append((seat, {"autoplay": why is not None, "autoplay_why": why}))

    # -- joining ----------------------------------------------------------------------------

    def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """A person takes a human seat; (seat, token).  Refused (409) when none is free."""
        free = [i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is None]
        if seat is not None:
            if not 0 <= seat < len(self.seats):
                raise Refused("bad_request", f"seat must be 0-{len(self.seats) - 1}, not {seat}")
            if self.seats[seat].kind != "human":
                raise Refused("conflict", f"seat {seat} is a bot's seat")
            if seat not in free:
                raise Refused("conflict", f"seat {seat} is taken")
        elif not free:
            raise Refused("conflict", "no human seat is free at this table")
        else:
            seat = free[0]
        token = secrets.token_urlsafe(24)
        s = self.seats[seat]
        s.token_hash = token_hash(token)
        s.name = name
        started = len(free) == 1 and self.status == "waiting"
        if started:
            self.status = "playing"
        self.state_id += 1
        self.seat_changes.append((seat, {"name": name, "token_hash": s.token_hash}))
        self._changed()
        if started:
            self.start_absent_graces()
        return seat, token

    def start_absent_graces(self) -> None:
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.token_hash is not None and s.connections == 0:
                self._start_grace(i)

    # -- messages from a client -------------------------------------------------------------

    def handle(self, conn: Conn, data: Any) -> None:
        """One message from a client; a refusal answers that client alone and changes nothing."""
        try:
            self._handle(conn, data)
        except (Refused, Bad) as r:
            conn.send({"type": "error", "code": r.code, "message": r.message})

    def _handle(self, conn: Conn, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise Refused("bad_request", 'a message is a JSON object with a "type"')
        kind = data["type"]
        if kind == "ping":
            conn.send({"type": "pong"})
            return
        if kind == "autoplay":
            self._autoplay(conn, data)
            return
        if kind in TYPES:  # chat, preferences, ready, a meld check, ... (extras.py)
            answer = self.extras.handle(conn.seat, kind, data)
            if answer is not None:
                conn.send(answer)
            return
        if kind != "act":
            raise Refused("bad_request", f"unknown message type {kind!r} (act, ping, autoplay, "
                          + ", ".join(TYPES) + ")")
        sid, text = data.get("state_id"), data.get("action")
        if not isinstance(sid, int) or isinstance(sid, bool):
            raise Refused("bad_request", '"state_id" must be the integer of the state you act on')
        if not isinstance(text, str):
            raise Refused("bad_request", '"action" must be an action in text form, e.g. "discard 7H"')
        try:
            action = parse_action(text)
        except ValueError as e:
            raise Refused("bad_request", str(e)) from None
        w = self.window
        seat = conn.seat
        in_window = w is not None and seat is not None and seat in w.seats
        if in_window:
            assert w is not None
            if not w.state_id <= sid <= self.state_id:
                raise Refused("stale", f"state {sid} is not this offer's ({w.state_id}); "
                              "act on the newest state")
        elif sid != self.state_id:
            what = "is old" if sid < self.state_id else "is one the table has not reached"
            raise Refused("stale", f"state {sid} {what}; the table is at state {self.state_id}")
        if seat is None:
            raise Refused("not_your_turn", "a spectator cannot act")
        if self.status != "playing":
            raise Refused("not_your_turn", "the game is over" if self.status == "over"
                          else "the game has not started: seats are still free")
        if self.seats[seat].player is not None:
            raise Refused("not_your_turn", "a bot is playing your seat; take it back first (autoplay off)")
        if w is not None:
            if not in_window:
                raise Refused("not_your_turn", "you are not asked now: others are answering an offer")
            self._answer(seat, action)
            self.extras.own_move(seat)
            return
        g = self.game
        if g.current_player != seat:
            raise Refused("not_your_turn", f"it is {self.seats[g.current_player].name}'s turn")
        try:
            g.apply(action)
        except IllegalActionError as e:
            raise Refused("illegal", str(e)) from None
        self.moves.append((seat, g.actions[-1]))
        self.extras.own_move(seat)
        self.state_id += 1
        self._changed(gather=True)

    def _autoplay(self, conn: Conn, data: dict[str, Any]) -> None:
        on = data.get("on")
        if not isinstance(on, bool):
            raise Refused("bad_request", '"on" must be true or false')
        if conn.seat is None:
            raise Refused("not_your_turn", "a spectator has no seat to hand over")
        s = self.seats[conn.seat]
        if s.bot is not None:
            raise Refused("not_your_turn", "this is a bot's seat")
        want = "asked" if on else None
        if (s.autoplay is not None) == on:
            self.send_state(conn)
            return
        s.autoplay = want
        self.state_id += 1
        self._autoplay_changed(conn.seat)
        self._changed()

    # -- claim windows ----------------------------------------------------------------------

    def _answer(self, seat: int, action: Action) -> None:
        w = self.window
        assert w is not None
        text = format_action(action)
        if seat in w.answers:
            if w.answers[seat] == text:  # a repeated click does nothing more
                self._send_to(seat)
                return
            raise Refused("illegal", f"you have already answered this offer ({w.answers[seat]})")
        if text not in w.legal.get(seat, []):
            raise Refused("illegal", f"{text!r} is not an answer to this offer; answer one of: "
                          + ", ".join(w.legal.get(seat, [])))
        self._record_answer(seat, text)

    def _record_answer(self, seat: int, text: str) -> None:
        w = self.window
        assert w is not None
        self._note_answer(w, seat, text)
        self.state_id += 1
        self._changed(gather=True)

    def _note_answer(self, w: Window, seat: int, text: str) -> None:
        w.answers[seat] = text
        self.claims.append((w.state_id, seat, text))

    def pass_for_prefs(self, seat: int) -> bool:
        """A person's claim preference (extras.py) answers "pass" for the seat to the open
        offer, if it says so and the seat has not answered; whether it did."""
        w = self.window
        if (w is None or seat in w.answers or "pass" not in w.legal.get(seat, [])
                or self.seats[seat].player is not None or not self.extras.passes(seat, w.kind)):
            return False
        self._record_answer(seat, "pass")
        return True

    def _send_to(self, seat: int) -> None:
        self.send_state(*[c for c in self.conns if c.seat == seat])

    def _open_window(self, restored: dict[int, str] | None = None, state_id: int | None = None) -> None:
        """Open the engine's window (``Game.claim_window``): every seat in its queue is
        offered at once what the engine would offer it when those ahead of it pass."""
        g = self.game
        cw = g.claim_window()
        assert cw is not None
        queue = list(cw.seats)
        legal = {seat: [format_action(a) for a in cw.offer(seat)] for seat in queue}
        if state_id is None:
            self.state_id += 1
            state_id = self.state_id
        kind = cw.kind
        w = self.window = Window(kind=kind, state_id=state_id, seats=queue, legal=legal,
                                 deadline=time.time() + float(self.settings["claim_seconds"]),
                                 answers=dict(restored or {}),
                                 card=None if cw.card is None else str(cw.card), penalty=cw.penalty)
        if restored is None:  # a person who asked not to be asked (claim preferences) passes at once
            for seat in queue:
                if (self.seats[seat].player is None and "pass" in legal[seat]
                        and self.extras.passes(seat, kind)):
                    self._note_answer(w, seat, "pass")

    def _window_key(self) -> tuple[Any, ...]:
        g = self.game
        return (g.round_no, g.turn_index, g.phase, len(g.discard), len(g.stock), tuple(g.buys))

    def _close_window(self) -> None:
        """Feed the answers to the engine in its own order: while it is still in this
        window, the seat it asks gets its answer if that is legal now, else a pass."""
        w = self.window
        assert w is not None
        g = self.game
        key = self._window_key()
        while g.phase in WINDOW_PHASES and self._window_key() == key and not g.is_over:
            seat = g.current_player
            text = w.answers.get(seat, "pass")
            try:
                g.apply(text)
            except IllegalActionError:
                g.apply("pass")
            self.moves.append((seat, g.actions[-1]))
        if w.task is not None and w.task is not asyncio.current_task():
            w.task.cancel()
        self.window = None
        self.state_id += 1

    def _settle(self) -> None:
        """Open and close windows and end the game as the engine's position asks."""
        g = self.game
        for _ in range(10_000):
            if self.status != "playing":
                return
            if g.is_over:
                self.status = "over"
                self.window = None
                self.state_id += 1
                for s in self.seats:
                    if s.grace is not None:
                        s.grace.cancel()
                        s.grace = None
                self.hub.retire_later(self)
                return
            if g.phase not in WINDOW_PHASES:
                self.window = None
                return
            if self.window is None:
                self._open_window()
            assert self.window is not None
            if self.window.complete():  # the countdown's end is the window task's
                self._close_window()
                continue
            return

    # -- timed things -----------------------------------------------------------------------

    def _schedule(self) -> None:
        """Make sure the right timed task runs: the window's bots and countdown, or the
        move of the bot to act, or the turn timer."""
        if self.status != "playing":
            self._cancel_turn()
            return
        w = self.window
        if w is not None:
            self._cancel_turn()
            clock = self.turn_clock
            if clock is not None and clock[2] is None:  # a window within a turn stops its clock
                self.turn_clock = (clock[0], clock[1], max(0.0, clock[1] - time.time()))
            if w.task is None:
                w.task = asyncio.get_running_loop().create_task(self._run_window(w))
            else:
                w.wake.set()  # a seat may have been handed to a bot meanwhile
            return
        if self.extras.paused():  # the break between deals: no bot moves, no turn timer
            self._cancel_turn()
            return
        g = self.game
        seat = g.current_player
        level = self.seats[seat].player
        ts = self.settings.get("turn_seconds")
        key = (len(g.actions), seat, level)
        if key == self.turn_key and self.turn_task is not None and not self.turn_task.done():
            return
        self._cancel_turn()
        self.turn_key = key
        if level is not None:
            self.turn_clock = None  # (a person who takes the seat back gets a fresh clock)
            self.turn_task = asyncio.get_running_loop().create_task(
                self._bot_turn(key, level, float(self.settings["bot_delay"])))
        elif ts:
            # one deadline for the person's whole turn: a move does not put it off, and once
            # it has passed the stand-in plays each move left in the turn at once
            now = time.time()
            turn = (g.round_no, g.turn_index, seat)
            clock = self.turn_clock
            if clock is None or clock[0] != turn:
                clock = (turn, now + float(ts), None)
            elif clock[2] is not None:  # back from a claim window: the time it had left
                clock = (turn, now + clock[2], None)
            self.turn_clock = clock
            self.turn_deadline = clock[1]
            self.turn_task = asyncio.get_running_loop().create_task(
                self._bot_turn(key, STAND_IN, max(0.0, clock[1] - now)))

    def _cancel_turn(self) -> None:
        if self.turn_task is not None and self.turn_task is not asyncio.current_task():
            self.turn_task.cancel()
        self.turn_task = None
        self.turn_key = None
        self.turn_deadline = None

    async def _choose(self, level: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        bot = make_player(level, seed=self._bot_seed(seat), variant=self.game.variant)  # house rules too
        if level == "hard":
            return await asyncio.get_running_loop().run_in_executor(None, bot.choose, view, legal)
        return bot.choose(view, legal)

    async def _bot_turn(self, key: tuple[Any, ...], level: str, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            g = self.game
            seat = key[1]
            action = await self._choose(level, seat, g.view(seat), g.legal_actions())
            if self.turn_key != key or len(g.actions) != key[0] or self.window is not None:
                return
            if self.seats[seat].player != key[2]:  # its person came back in this turn of the loop
                return  # (the change is gathered: the schedule that cancels this task comes at its end)
            self.turn_task = None
            self.turn_key = None
            self.turn_deadline = None
            try:
                g.apply(action)
            except IllegalActionError:  # a bot's mistake must not stop the table
                log.exception("table %s: the %s bot chose an illegal action", self.id, level)
                g.apply(g.legal_actions()[0])
            self.moves.append((seat, g.actions[-1]))
            s = self.seats[seat]
            if s.bot is None:  # a person's seat: the grace period's or the timer's stand-in
                self.extras.stood_in(seat, s.autoplay or "timer", g.actions[-1])
            self.state_id += 1
            self._changed(gather=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot's turn failed", self.id)

    async def _run_window(self, w: Window) -> None:
        """Bots (and seats a bot plays) answer at once; at the countdown's end the window closes."""
        try:
            while self.window is w:
                w.wake.clear()
                for seat in w.seats:
                    level = self.seats[seat].player
                    if level is None or seat in w.answers or seat not in w.legal:
                        continue
                    legal = [parse_action(t) for t in w.legal[seat]]
                    view = self.game.claim_view(seat)
                    action = await self._choose(level, seat, view, legal)
                    if self.window is not w:
                        return
                    s = self.seats[seat]
                    if seat not in w.answers and s.player is not None:
                        if s.bot is None and s.autoplay is not None:  # a person's seat, stood in for
                            self.extras.stood_in(seat, s.autoplay, format_action(action))
                        self._record_answer(seat, format_action(action))
                    if self.window is not w:
                        return
                left = w.deadline - time.time()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(w.wake.wait(), left)
                except TimeoutError:
                    break
            if self.window is w:
                w.task = None
                self._close_window()
                self._changed(gather=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a claim window failed", self.id)

    def stop(self) -> None:
        self._cancel_turn()
        if self.window is not None and self.window.task is not None:
            self.window.task.cancel()
        for s in self.seats:
            if s.grace is not None:
                s.grace.cancel()
        for c in list(self.conns):
            c.out.put_nowait(None)


class Hub:
    """Every table of this server process; unfinished ones come back from storage at start-up."""

    def __init__(self, storage: Storage, observe: Observer | None = None):
        self.storage = storage
        self.observe = observe if observe is not None else Observer()  # the log and the metrics
        self.observe.hub = self
        self.tables: dict[str, Table] = {}
        self._gathered: dict[str, Table] = {}  # changed this turn of the loop, not stored yet

    # -- group commit ------------------------------------------------------------------------

    def gather(self, t: Table) -> bool:
        """Take ``t``'s change into this loop turn's transaction (stored, then told, by
        ``flush`` once the loop has run what is ready); False without a running loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if not self._gathered:
            loop.call_soon(self.flush)
        self._gathered[t.id] = t
        return True

    def ungather(self, t: Table) -> bool:
        """Take ``t`` out of this loop turn's commit; whether it was in it."""
        return self._gathered.pop(t.id, None) is not None

    def flush(self) -> None:
        """Store the gathered changes in one transaction, then tell each table's clients.  A
        table whose lease is lost is dropped (the cluster closes its sockets); if the
        transaction fails, each table is tried alone, and a table that still cannot be stored
        is dropped from memory with its sockets closed: nobody was told of its change, the
        clients reconnect and it is rebuilt from what is stored."""
        tables = [t for t in self._gathered.values() if self.tables.get(t.id) is t]
        self._gathered = {}
        changes = {t.id: ch for t in tables if (ch := t._change()) is not None}
        try:
            lost = self.storage.save_many(list(changes.values()))
        except Exception:
            log.exception("storing %d tables' changes at once failed; trying each alone", len(changes))
            lost = set()
            for t in tables:
                try:
                    t._commit()
                except LeaseLost:
                    lost.add(t.id)
                except Exception:
                    log.exception("table %s: its change could not be stored; dropped from memory", t.id)
                    self.forget(t)
                    self.observe.dropped(t, "its change could not be stored")
                    lost.add(t.id)
            changes = {}
        for t in tables:
            if t.id in lost:
                continue
            ch = changes.get(t.id)
            if ch is not None:
                t._stored(ch)
            t._told()

    def forget(self, t: Table) -> None:
        """Drop a table from memory and close its sockets (code 1013: the clients reconnect
        and get the table as storage holds it)."""
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        conns = list(t.conns)
        t.conns.clear()
        t.stop()
        for c in conns:
            c.out.put_nowait(OVERFLOW)

    def restore(self) -> None:
        for st in self.storage.unfinished():
            try:
                t = self._rebuild(st)
            except Exception:
                log.exception("table %s could not be rebuilt; left as it is", st.id)
                continue
            self.tables[t.id] = t

    def start(self) -> None:
        """After the event loop runs: restart timers of the restored tables."""
        for t in self.tables.values():
            self.resume(t)

    def resume(self, t: Table) -> None:
        """A table rebuilt from storage goes on.  Coming back is a change of its own (nobody
        is connected now, a window's countdown starts again), so it gets a new state_id,
        stored before anyone hears of it: a state_id is never reused for another state."""
        if t.status == "over":
            return
        t.state_id += 1
        if t.status == "playing":
            t.start_absent_graces()
            t._settle()
        t._commit()
        if t.status == "playing":
            t._schedule()

    def _rebuild(self, st: StoredTable) -> Table:
        rec = dict(st.setup)
        rec["actions"] = st.actions
        g = replay(rec)
        # why a bot plays a seat: "away" (the grace period ran out: coming back takes it back)
        # or "asked" (its player handed it over); a table stored before the reason was kept
        # (migration 0003) counts as handed over
        seats = [Seat(kind=s.kind, name=s.name, token_hash=s.token_hash,
                      autoplay=(s.autoplay_why or "asked") if s.autoplay else None) for s in st.seats]
        t = Table(self, st.id, st.name, g.base_variant, g, st.settings, seats, st.status, st.state_id,
                  st.created, len(st.actions))
        t.rematch = st.rematch
        if st.status == "playing" and g.phase in WINDOW_PHASES and st.claims:
            w = max(st.claims)
            if w >= st.last_action_state:  # answers to the window still open
                t._open_window(restored=st.claims[w], state_id=w)
        return t

    def get(self, tid: str) -> Table | None:
        t = self.tables.get(tid)
        if t is None:
            st = self.storage.load(tid)
            if st is not None:
                t = self._rebuild(st)
                self.tables[tid] = t
                if t.status == "over":
                    # back from storage (a restart, or retired from memory): its seats'
                    # presence is not what it was, so it is another state with a state_id of
                    # its own, stored before anyone hears of it (unfinished tables come back
                    # through ``resume``)
                    t.state_id += 1
                    t._commit()
        return t

    RETIRE_SECONDS = 900.0

    def retire_later(self, t: Table) -> None:
        """Drop a finished table from memory a while after its end (it is reloaded from
        storage if asked for again)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(self.RETIRE_SECONDS, self._retire, t.id)

    def _retire(self, tid: str) -> None:
        t = self.tables.get(tid)
        if t is None or t.status != "over":
            return
        if t.conns:
            self.retire_later(t)
            return
        t.stop()
        del self.tables[tid]

    def listing(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if t.status != "over"]

    def create(self, *, variant: Variant, setup_rules: dict[str, Any] | None, players: int,
               seats: list[str], options: dict[str, Any], seed: int | None, settings: dict[str, Any],
               names: dict[int, str], name: str | None,
               on_created: Callable[[Table], None] | None = None) -> Table:
        """A new table; ValueError says what is wrong (nothing is stored then)."""
        # a seed the creator chose lets whoever knows it know every card: the table says so
        deal_chosen = seed is not None
        if seed is None:
            seed = fresh_seed()
        g = new_game(variant, players=players, seed=seed, options=options or None)
        setup = g.record()
        del setup["actions"]
        tid = new_id()
        while tid in self.tables or self.storage.load(tid) is not None:
            tid = new_id()
        seat_objs = []
        for i, kind in enumerate(seats):
            if kind == "human":
                nm = ""
            else:
                # seats counted from 1, as people count
                nm = names.get(i) or f"{kind[4:].capitalize()} bot {i + 1}"
            seat_objs.append(Seat(kind=kind, name=nm))
        all_bots = all(s.bot for s in seat_objs)
        status = "playing" if all_bots else "waiting"
        settings = dict(settings, options=options, seats=list(seats), seed=seed, deal_chosen=deal_chosen,
                        setup_rules={"rules": setup["rules"]} if "rules" in setup else {})
        name = name or variant.name
        created = self.storage.create_table(tid, variant.id, name, setup, settings, status,
                                            [(s.kind, s.name) for s in seat_objs])
        t = Table(self, tid, name, g.base_variant, g, settings, seat_objs, status, 0, created, 0)
        self.tables[tid] = t
        self.observe.table_created(t)
        if status == "playing":
            t.state_id += 1
            t._changed()
        return t

    def stop(self) -> None:
        for t in self.tables.values():
            t.stop()
