"""Tables and the Hub: one engine Game per table, its seats and connections.

A :class:`Table` is the I/O shell of one game: its connections and the state messages it
sends them, the clients' messages it takes, and the commits of each change to storage.  It
hands the rest to its parts, one module each: the claim window (windows.py: ``ClaimWindows``
opens the engine's out-of-turn windows to every seat at once, takes the answers, feeds them
to the engine in its order and settles the position), the clock (clock.py: ``TurnClock``,
the turn's timed task, the turn timer, the grace period of an absent player) and the bots
(bots.py: ``BotDriver``, bot moves, stand-ins, hints); its seats and connections are
data of seats.py (``Seat``, ``Conn``).  The :class:`Hub` holds every table of
the process and gathers the changes of one turn of the event loop into one transaction.

A table talks to the engine only through ``rk.new_game``/``rk.replay``, ``view(seat)``,
``view(None)``, ``legal_actions()``, ``apply()``, ``record()``, ``current_player``,
``is_over`` and, for claim windows, ``claim_window()`` and ``claim_view(seat)``.  Every
change runs synchronously on the event loop (no await in the middle): apply, commit to
storage, then a state message to every connection.  Timed things — a bot's move after
``bot_delay``, the claim window's countdown, the turn timer, the grace period of an absent
player — are asyncio tasks that re-check the position before they act.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import Callable
from typing import Any

from ..engine.actions import format_action, parse_action
from ..engine.game import Game, IllegalActionError, fresh_seed, new_game, replay
from ..engine.scoring import number
from ..rules.registry import Variant
from .bots import BOT_LEVELS, STAND_IN, BotDriver
from .clock import TurnClock
from .extras import DEAL_BREAK_SECONDS, TYPES, Bad, Extras
from .observe import Observer
from .seats import MAX_BEHIND, OVERFLOW, Conn, Seat, token_hash
from .storage import Change, LeaseLost, Storage, StoredTable
from .windows import WINDOW_PHASES, ClaimWindows, Window
from .wire import Refused, encode, with_log_from

__all__ = ["BOT_LEVELS", "MAX_BEHIND", "OVERFLOW", "STAND_IN", "WINDOW_PHASES", "Conn", "Hub", "Refused",
           "Seat", "Table", "Window", "token_hash"]

log = logging.getLogger("rummykit.server")


def new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Table:
    """One game served: the I/O shell around its engine Game and its parts (see above)."""

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
        self.rematch: str | None = None
        self.windows = ClaimWindows(self)  # the open claim window, its answers, settling
        self.clock = TurnClock(self)  # the turn's timed task, its deadline, grace periods
        self.bots = BotDriver(self)  # bot moves, stand-ins and hints
        self.extras = Extras(self)  # chat, preferences, the deal break, stand-in summaries

    @property
    def window(self) -> Window | None:
        """The open claim window, or None."""
        return self.windows.open

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

    def _legal_for(self, seat: int | None) -> list[str]:
        if seat is None or self.status != "playing" or self.seats[seat].player is not None:
            return []
        if self.window is not None:
            return self.windows.legal_for(seat)
        g = self.game
        if g.phase in WINDOW_PHASES or g.current_player != seat:
            return []
        return [format_action(a) for a in g.legal_actions()]

    def deadline(self) -> float | None:
        if self.window is not None:
            return self.window.deadline
        return self.clock.deadline

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
        if seat is not None and self.settings.get("hints") and msg["legal"]:
            msg["hint"] = self.bots.hint(seat, msg["view"], offered=self.window is not None)
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
               "house_rules": self.extras.house_rules(), "high_wins": self.game.spec.high_wins,
               "contracts": bool(self.game.spec.contracts)}
        if "rules" in self.settings.get("setup_rules", {}):
            out["rules"] = self.settings["setup_rules"]["rules"]
        return out

    # -- sending ----------------------------------------------------------------------------

    def broadcast(self) -> None:
        conns = list(self.conns)
        views = self.game.views({c.seat for c in conns})
        texts: dict[tuple[int | None, int | None, int | None], str] = {}
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
                    texts: dict[tuple[int | None, int | None, int | None], str] | None = None,
                    shared: dict[str, Any] | None = None) -> str:
        """The state message for connection ``c`` as JSON text; ``texts`` caches the texts
        of one broadcast by (seat, where the log starts)."""
        start, ended = (None, None) if c.log is None else c.log.advance(view)
        key = (c.seat, start, ended)
        if texts is not None and key in texts:
            return texts[key]
        msg = self.state_message(c.seat, view, shared)
        if start is not None:
            last = self.game.last_deal_log
            end = None if ended is None or ended > len(last) else list(last[ended:])
            msg = with_log_from(msg, start, end)
        text = encode(msg)
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
        self.windows.settle()
        if gather and self.hub.gather(self):
            return
        self._commit()
        self._told()

    def _told(self) -> None:
        """The change is stored: schedule (it sets the turn's deadline), then tell everyone."""
        self.clock.schedule()
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
            self.clock.cancel_grace(conn.seat)
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
            self.clock.start_grace(conn.seat)
            self.state_id += 1
            self._changed(gather=True)

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
        same = name.strip().casefold()
        if any(s.name.strip().casefold() == same for i, s in enumerate(self.seats) if i != seat and s.name):
            raise Refused("conflict", f"{name.strip()} is already at this table: choose another name, "
                                      "so that the log and the chat can tell you apart")
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
        self.clock.start_absent_graces()

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
            self.windows.answer(seat, action)
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

    # -- claim windows (windows.py) -------------------------------------------------------------

    def pass_for_prefs(self, seat: int) -> bool:
        """A person's claim preference answers "pass" to the open offer (``ClaimWindows``)."""
        return self.windows.pass_for_prefs(seat)

    def _send_to(self, seat: int) -> None:
        self.send_state(*[c for c in self.conns if c.seat == seat])

    def stop(self) -> None:
        self.clock.stop()
        self.windows.stop()
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
            t.windows.settle()
        t._commit()
        if t.status == "playing":
            t.clock.schedule()

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
                t.windows.open_window(restored=st.claims[w], state_id=w)
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
