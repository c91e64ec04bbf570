/* rummykit browser app: one table. It keeps a websocket to the server, draws every state
   message it gets (the server's word is the only truth: nothing is guessed or applied
   ahead), and sends the moves the player makes — by a click, a key or a drag. The seat's
   token stays in this browser (localStorage), so a reload or a lost connection comes back
   to the same seat, and so does the order the player put the hand in. */
"use strict";

RK.Table = (function () {
  const h = RK.h;
  let T = null; // the table on screen
  const OFFER_INERT_MS = 800; // a claim offer that just appeared cannot be clicked yet

  function stop() {
    if (!T) return;
    T.stopped = true;
    clearTimeout(T.retry);
    clearInterval(T.tick);
    clearInterval(T.ping);
    if (T.ws) { try { T.ws.close(1000); } catch (e) { /* closed already */ } }
    document.removeEventListener("keydown", onKey);
    for (const d of document.querySelectorAll("dialog.tbl-dialog")) d.remove();
    document.body.classList.remove("at-table");
    RK.Side.stop();
    RK.attention(null);
    T = null;
  }

  async function show(main, id, params) {
    stop();
    T = { id, main, me: RK.seatOf(id), ws: null, msg: null, info: null, online: false, attempt: 0, retryAt: 0,
      pending: false, error: "", notice: "", stopped: false, offset: 0, H: null, check: null, checkSeq: 0,
      prefs: RK.store.get("prefs." + id, { claims: "fits", deal_break: true }), hints: false, showHint: false,
      offer: { key: null, at: 0 }, pressKey: null, seenRound: undefined, logSeen: 0, notes: new Map(), wasMyTurn: false,
      queued: false, waysOpen: false };
    document.title = "rummykit: table";
    document.body.classList.add("at-table");
    document.addEventListener("keydown", onKey);
    T.tick = setInterval(tickCountdowns, 250);
    main.replaceChildren(h("p", null, "Loading the table…"));
    try {
      T.info = await RK.api("GET", `/api/tables/${id}`);
    } catch (e) {
      RK.notFound(main, e.status === 404 ? "There is no table at this link. It may have been mistyped, or the table has ended and been cleared." : e.message);
      return;
    }
    if (params.has("replay") && T.info.status === "over") {
      const info = T.info;
      stop();
      RK.Replay.show(main, id, info, +params.get("replay") || 0);
      return;
    }
    main.replaceChildren(h("div#table.tbl", null, h("div#tbl-main.tbl-main"), RK.Side.create(api())),
      h("div#announce.sr", { "aria-live": "polite", "aria-atomic": "false" }));
    T.drops = RK.Drops(api());
    RK.Drag.init(T.drops);
    RK.Drag.onRelease(() => { if (T && T.queued) { T.queued = false; render(); } });
    connect();
  }

  /* What the parts of the page (hand, moves, side panel) may ask of the table. */
  function api() {
    return {
      get T() { return T; }, get H() { return T.H; },
      send, sendMsg, render, flushRender, askCheck, cardMove, builtMeld, setPrefs, toggleHint, ready,
      playBuilt: () => { const b = builtMeld(); if (b && b.ok) playMeld(b.text, T.H.groups.flat()); },
      canAct: () => T.online && !T.pending,
      offerFresh,
      offerPressed: (key) => { T.pressKey = key; },
      offerClick,
    };
  }

  /* ---------------------------------------------------------------- connection */

  function connect() {
    const t = T;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // log=delta: each state message carries only the log entries new to this connection
    const q = (t.me && t.me.token ? `?token=${encodeURIComponent(t.me.token)}&` : "?") + "log=delta";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${t.id}${q}`);
    let log = [];
    t.ws = ws;
    conn(t.attempt ? "Reconnecting…" : "Connecting…");
    ws.onopen = () => {
      if (t.ws !== ws) return;
      const back = t.attempt > 0;
      t.attempt = 0;
      t.online = true;
      conn(t.me ? "Connected" : "Watching");
      if (back) announce("Connected again: back at the table.");
      if (t.me) ws.send(JSON.stringify(Object.assign({ type: "prefs" }, t.prefs)));
      clearInterval(t.ping);
      t.ping = setInterval(() => { if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 20000);
    };
    ws.onmessage = (ev) => {
      if (t.ws !== ws || t.stopped) return;
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === "state" && m.log_from !== undefined) {
        if (m.log_from > log.length) { ws.close(); return; } // a gap: reconnect for the whole log
        log = log.slice(0, m.log_from).concat(m.view.log);
        m.view.log = log;
      }
      if (m.type === "state") onState(m);
      else if (m.type === "error") onError(m);
      else if (m.type === "chat" || m.type === "chat_log") RK.Side.chat(m);
      else if (m.type === "check") onCheck(m);
      else if (m.type === "arrange") onArrange(m);
    };
    ws.onclose = (ev) => {
      if (t.ws !== ws || t.stopped) return;
      clearInterval(t.ping);
      t.pending = false;
      t.online = false;
      if (ev.code === 4403) {
        // the token is not this table's: never carry on as a spectator with it
        RK.dropSeat(t.id);
        t.me = null;
        t.notice = "This browser's seat at this table was not accepted. You can watch, or take a free seat.";
        conn("Not seated");
        t.attempt = 0;
        t.retry = setTimeout(() => { if (!t.stopped) connect(); }, 300);
        render();
        return;
      }
      if (ev.code === 4404) {
        conn("");
        RK.notFound(t.main, "This table is no longer on the server.");
        t.stopped = true;
        return;
      }
      // exponential backoff with jitter, 0.5 s doubling to 10 s (each wait 75-125 % of that),
      // so the players of a restarted server do not all come back in the same instant
      const delay = Math.min(10000, 500 * 2 ** t.attempt) * (0.75 + Math.random() * 0.5);
      t.attempt += 1;
      t.retryAt = Date.now() + delay;
      conn("Connection lost");
      if (t.attempt === 1) announce("Connection to the table lost. Moves are off until it is back.");
      t.retry = setTimeout(() => { if (!t.stopped) connect(); }, delay);
      renderNews();
    };
  }

  function retryNow() {
    if (!T || T.online) return;
    clearTimeout(T.retry);
    connect();
  }

  function conn(text) {
    const el = document.getElementById("conn");
    if (el) el.textContent = text;
  }

  document.addEventListener("click", (ev) => { if (T && T.drops) T.drops.onTap(ev); });

  window.addEventListener("online", () => { if (T && !T.stopped && T.ws && T.ws.readyState > 1) retryNow(); });

  function sendMsg(obj) {
    if (!T || !T.ws || T.ws.readyState !== 1) return false;
    T.ws.send(JSON.stringify(obj));
    return true;
  }

  function send(action) {
    const m = T.msg;
    if (!m || !T.online || !T.ws || T.ws.readyState !== 1) {
      T.error = "Not connected to the table: the move was not sent.";
      render();
      return;
    }
    const w = m.window;
    const sid = w && !w.answered ? w.state_id : m.state_id;
    // a lay-off or a swap plays the selected copy of its card (else the first not yet
    // played): that one leaves the hand and the selection, not its twin
    const words = action.split(/\s+/);
    if ((words[0] === "layoff" || words[0] === "swap") && T.H && words[1]) {
      const c = words[1].split("=")[0];
      const pick = RK.Hand.selected(T.H).find((x) => x.card === c) || T.H.cards.find((x) => x.card === c && !T.H.out.has(x.id));
      if (pick) T.H.out.add(pick.id);
    }
    T.error = "";
    T.pending = true;
    T.showHint = false;
    // a claim may lose to a player ahead: remembered, to say so beside the log's line
    if (action === "buy" && w) T.claimed = { card: w.card || (m.view && m.view.discard_top), verb: w.verb || (w.kind === "buy" ? "buy" : "May I") };
    document.body.dataset.pending = "1";
    T.ws.send(JSON.stringify({ type: "act", state_id: sid, action }));
    render();
  }

  function setPrefs(p) {
    Object.assign(T.prefs, p);
    RK.store.set("prefs." + T.id, T.prefs);
    sendMsg(Object.assign({ type: "prefs" }, T.prefs));
    render();
  }

  /* ---------------------------------------------------------------- messages */

  function onState(m) {
    const old = T.msg;
    document.body.dataset.stateId = m.state_id; // for tests and scripts: the state on screen
    document.body.dataset.status = m.status;
    document.body.dataset.window = m.window ? m.window.state_id : "";
    document.body.dataset.pending = "";
    document.body.dataset.hint = m.hint ? m.hint.action || "" : ""; // (the seat's own hint, for tests)
    T.msg = m;
    T.pending = false;
    T.hints = !!(m.table && m.table.hints);
    if (typeof m.now === "number") T.offset = m.now - Date.now() / 1000;
    if (m.seat !== null && m.seat !== undefined && T.me && T.me.seat !== m.seat) T.me.seat = m.seat;
    const v = m.view;
    if (v && m.seat !== null && m.seat !== undefined && v.hand) {
      if (!T.H) T.H = RK.Hand.model(`hand.${T.id}.${m.seat}`);
      const groupsBefore = JSON.stringify(T.H.groups);
      RK.Hand.sync(T.H, v.hand, v.round, !old);
      if (JSON.stringify(T.H.groups) !== groupsBefore) askCheck();
    }
    if (v) {
      noticeChanges(old && old.view, v, m);
      dealResult(old, m);
    }
    attention(m);
    renderNews();
  }

  function onError(m) {
    document.body.dataset.errors = String(+(document.body.dataset.errors || 0) + 1);
    document.body.dataset.pending = "";
    if (RK.Side.chatError(m)) return;
    T.pending = false;
    // a stale refusal only means the table moved on first: say so in words
    // the engine's sentence with players by name and cards as the table shows them (7♣, not 7C)
    const at = T.msg && T.msg.view;
    const nm = at ? RK.Board.names(T.msg.seats, at.players) : [];
    T.error = m.code === "stale" ? "Too late: the table moved on before your move arrived, so nothing was done."
      : RK.Board.cardsInText(RK.Board.named(m.message || m.code || "refused", nm));
    announce(T.error);
    renderNews();
  }

  /* ---------------------------------------------------------------- what changed */

  function announce(text) {
    const el = document.getElementById("announce");
    if (!el || !text) return;
    el.append(h("p", null, text));
    while (el.childNodes.length > 6) el.firstChild.remove();
  }

  /* New log entries, said to screen readers; the pieces of the page to animate. */
  function noticeChanges(ov, v, m) {
    const nm = RK.Board.names(m.seats, v.players);
    const log = v.log || [];
    const fresh = ov && ov.round === v.round ? log.slice(Math.min(T.logSeen, log.length)) : [];
    if (!ov || ov.round !== v.round) T.notes = new Map();
    privateNotes(ov, v, fresh, log.length - fresh.length);
    T.logSeen = log.length;
    // a new deal: the one before's last events (the move that ended it) come as log_end
    const ended = ov && ov.round !== v.round ? (m.log_end || []) : [];
    const said = ended.concat(fresh.map((e, i) => {
      const note = T.notes.get(log.length - fresh.length + i);
      return note ? { ...e, text: `${e.text} (${note})` } : e;
    }));
    for (const e of said.slice(-3)) announce(RK.Board.cardsInText(RK.Board.named(e.text, nm)));
    if (ov && ov.round !== v.round && ov.log) RK.Side.keepLog(ov.round, ov.log.concat(ended), nm);
    T.newTop = !!(ov && ov.discard_top !== v.discard_top && v.discard_top);
    const before = new Set(((ov && ov.round === v.round && ov.meld_info) || []).map((x) => x.number));
    T.freshMelds = ov ? new Set((v.meld_info || []).map((x) => x.number).filter((n) => !before.has(n))) : new Set();
  }

  /* What only this seat knows of a log entry, kept beside it.  A Shanghai call between this
     seat and another moves a card from the caller's hand to the discarder's, drawn face
     down: the log is everyone's and does not name it, but the two players know it (read
     from the hand's change).  A May I or buy this seat asked for and a player ahead of it
     got: the log names the winner only. */
  function privateNotes(ov, v, fresh, first) {
    if (!ov || v.seat === null || v.seat === undefined) return;
    if (ov.round !== v.round) T.claimed = null;
    // a May I / buy this seat asked for, which a player ahead of it got
    fresh.forEach((e, i) => {
      if (!T.claimed || (e.verb !== "buy" && e.verb !== "take") || e.card !== T.claimed.card) return;
      if (e.seat !== v.seat) T.notes.set(first + i, `your ${T.claimed.verb} lost: Seat ${e.seat} was ahead of you`);
      T.claimed = null;
    });
    const less = (a, b) => { const rest = a.slice(); for (const c of b) { const i = rest.indexOf(c); if (i >= 0) rest.splice(i, 1); } return rest; };
    fresh.forEach((e, i) => {
      if (e.verb !== "shanghai" || e.discarder === undefined || e.discarder === e.seat) return;
      let note = null;
      if (e.discarder === v.seat) {
        const got = less(v.hand, ov.hand);
        if (got.length === 1) note = `you drew ${got[0]} from Seat ${e.seat}'s hand`;
      } else if (e.seat === v.seat) {
        const lost = less(ov.hand, v.hand);
        if (lost.length === 1) note = `Seat ${e.discarder} drew your ${lost[0]}`;
      }
      if (note) T.notes.set(first + i, note);
    });
  }

  /* The tab's title and icon say when it is your turn or you are asked; a sound, if on. */
  function attention(m) {
    const mine = m.seat !== null && m.seat !== undefined;
    const asked = mine && m.window && m.window.seats.includes(m.seat) && !m.window.answered && (m.legal || []).length;
    const turn = mine && !m.window && (m.legal || []).length > 0 && m.status === "playing";
    const name = (m.table && m.table.name) || "table";
    if (asked) RK.attention(`${m.window.kind === "buy" ? "Buy" : m.window.kind === "may_i" ? "May I" : "Call"}? ${RK.cardShort(m.window.card || m.view.discard_top || "")} · ${name}`);
    else if (turn) RK.attention(`Your turn · ${name}`);
    else RK.attention(null, `${name} · rummykit`);
    const now = !!(asked || turn);
    if (now && !T.wasMyTurn) {
      announce(asked ? "You are asked: take the offered card, or pass." : "Your turn.");
      if (RK.store.get("sound", false)) RK.chime();
    }
    T.wasMyTurn = now;
  }

  /* A deal's result, in a dialog, when a deal ends (and the final standings at the end). */
  function dealResult(old, m) {
    const v = m.view;
    const r = v.last_round;
    const rn = r ? r.round : null;
    const over = m.status === "over" || v.is_over;
    if (T.seenRound === undefined) {
      T.seenRound = rn;
      if (over) RK.Side.resultDialog(api(), true);
      return;
    }
    if (rn !== T.seenRound) {
      T.seenRound = rn;
      if (r) RK.Side.resultDialog(api(), true);
    } else if (over && old && old.status !== "over") RK.Side.resultDialog(api(), true);
  }

  function onCheck(m) {
    if (!T.H || m.id !== T.checkSeq) return;
    T.check = m;
    renderNews();
  }

  function askCheck() {
    if (!T.H) return;
    T.checkSeq += 1;
    T.check = null;
    const groups = T.H.groups.map((g) => RK.Hand.groupCards(T.H, g));
    if (groups.length) sendMsg({ type: "check", id: T.checkSeq, groups });
  }

  function onArrange(m) {
    if (!T.H) return;
    RK.Hand.arrange(T.H, m.groups || [], m.rest || []);
    T.H.said = m.text ? RK.Board.cardsInText(m.text) : "";
    announce(T.H.said || "Hand arranged.");
    renderNews();
  }

  /* ---------------------------------------------------------------- moves */

  /* The meld the player built in the meld areas, as an action: the engine's own text for
     it when it lists one (each wild with its meaning), else the groups as they are. */
  function builtMeld() {
    const H = T.H;
    if (!H || !H.groups.length) return null;
    const groups = H.groups.map((g) => RK.Hand.groupCards(H, g));
    const key = (gs) => gs.map((g) => g.slice().sort().join(" ")).sort().join("/");
    const want = key(groups);
    const legal = (T.msg && T.msg.legal) || [];
    let text = null;
    for (const a of legal) {
      if (!a.startsWith("meld ")) continue;
      const gs = a.slice(5).split("/").map((g) => g.trim().split(/\s+/).map((t) => t.split("=")[0]));
      if (key(gs) === want) { text = a; break; }
    }
    const chk = T.check;
    let ok = !!text;
    if (!ok && chk && chk.groups && chk.groups.length === groups.length) {
      ok = chk.groups.every((g) => g.ok) && (!chk.contract || chk.contract.ok);
    }
    if (!myTurn()) ok = false;
    text = text || "meld " + groups.map((g) => g.join(" ")).join(" / ");
    return { text, ok, words: RK.Moves.meldWords(text) };
  }

  function myTurn() {
    const m = T.msg;
    return !!(m && m.seat !== null && m.seat !== undefined && !m.window && (m.legal || []).length && m.status === "playing");
  }

  /* Discard (or call with) a card of the hand; a card that could be laid off first gets a
     question, unless the player turned the warning off. */
  function cardMove(verb, x) {
    const legal = T.msg.legal || [];
    const fits = legal.filter((a) => a.startsWith(`layoff ${x.card} `) || a.startsWith(`layoff ${x.card}=`));
    const go = () => { T.H.out.add(x.id); send(`${verb} ${x.card}`); };
    if (verb === "discard" && fits.length && RK.store.get("warnLayoff", true)) {
      RK.Side.warnDialog(api(), x, fits, go);
      return;
    }
    go();
  }

  function playMeld(text, ids) {
    for (const id of ids) T.H.out.add(id);
    send(text);
  }

  function toggleHint() { T.showHint = !T.showHint; render(); }

  /* Whether the offer ``key`` has only just been shown (it is then inert): the moment it
     is first drawn counts, not the moment it arrived (a press holds the page as it was). */
  function offerFresh(key) {
    if (T.offer.key !== key) {
      T.offer = { key, at: Date.now() };
      setTimeout(() => { if (T && T.offer.key === key) renderNews(); }, OFFER_INERT_MS + 20);
    }
    return Date.now() - T.offer.at < OFFER_INERT_MS;
  }

  function offerClick(ev, key, text) {
    // a click on an offer that is no longer the open one (the page is held as it was while
    // a pointer is down), that began on another offer, or on one that appeared a moment
    // ago, buys nothing
    const pointer = ev.detail > 0;
    const w = T.msg && T.msg.window;
    const open = w ? `${w.state_id}|${w.card || T.msg.view.discard_top}` : null;
    if (key !== open || T.offer.key !== key || Date.now() - T.offer.at < OFFER_INERT_MS || (pointer && T.pressKey !== key)) {
      ev.preventDefault();
      return;
    }
    T.pressKey = null;
    send(text);
  }

  function flushRender() { if (T && T.queued) { T.queued = false; render(); } else if (T) render(); }

  /* ---------------------------------------------------------------- drawing */

  /* Redraw for news from the server: held back while a pointer is down on the page (a
     button replaced between the press and the release would lose the click) or a drag
     is under way, and drawn on the release. */
  function renderNews() {
    if (!T || T.stopped) return;
    if (RK.Drag.busy()) { T.queued = true; return; }
    render();
  }

  /* Redraw now (what the player just did); only a drag under way holds it back. */
  function render() {
    if (!T || T.stopped) return;
    if (RK.Drag.dragging()) { T.queued = true; return; }
    const box = document.getElementById("tbl-main");
    if (!box) return;
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const meldsEl = document.getElementById("melds");
    const meldsScroll = meldsEl ? meldsEl.scrollTop : 0;
    document.body.classList.toggle("offline", !T.online && !!T.msg);
    box.replaceChildren(...draw().filter(Boolean));
    const melds2 = document.getElementById("melds");
    if (melds2) melds2.scrollTop = meldsScroll;
    RK.Side.update(api());
    RK.restoreFocus(box, focus, "button.act:not([disabled]), button.hc");
    RK.Hand.fit();
    // what just arrived moves once, on the drawing that first shows it
    if (T.H) T.H.fresh = new Set();
    T.newTop = false;
    T.freshMelds = new Set();
    RK.Board.markMore();
    // the melds being built just became ready to lay down: bring their button into view
    // (on a phone it sat past the felt's fold, under "more melds below")
    const ready = document.querySelector('#build [data-fk="meld-built"]:not([disabled])');
    if (ready && !T.meldReady && melds2) {
      const more = melds2.querySelector(".more-below");
      const over = ready.getBoundingClientRect().bottom - (more ? more.getBoundingClientRect().top
        : melds2.getBoundingClientRect().bottom);
      if (over > 0) melds2.scrollTop += over + 8;
    }
    T.meldReady = !!ready;
  }

  function draw() {
    const m = T.msg;
    const parts = [banners()];
    if (!m) return parts.concat([h("p.loading", null, "Connecting to the table…"), joinBox()]);
    const v = m.view;
    const seat = m.seat === undefined ? null : m.seat;
    if (!v || m.status === "waiting") return parts.concat([joinBox(), waitingBox(m)]); // a visitor's seat first
    const legal = T.online ? m.legal || [] : [];
    const w = m.window || null;
    const nm = RK.Board.names(m.seats, v.players);
    const over = m.status === "over" || v.is_over;
    const mine = seat !== null;
    const A = api();
    parts.push(head(m, v, nm, seat, w));
    parts.push(RK.Board.seatsStrip(v, m.seats, nm, { me: seat, skip: mine ? seat : null, window: w, status: m.status, online: T.online }));
    const L = RK.Moves.sortLegal(legal);
    const pileOpts = {
      newTop: T.newTop,
      onWhole: () => RK.Side.pileDialog(api()),
      claim: w ? RK.Moves.claimBox(A, v, legal, w, nm) : null,
      stock: legal.includes("draw") ? { class: "pile stock live", dataset: { drop: "stock", drag: "stock" }, onclick: () => send("draw"), title: "Draw from the stock (click or drag to your hand)" } : null,
      pile: legal.includes("take") || legal.includes("draw both") ? { class: "pile discard live", dataset: { drop: "discard", drag: "pile" },
        onclick: () => send(legal.includes("take") ? "take" : "draw both"), title: "Take the top card (click or drag to your hand)" } : null,
    };
    // the meld areas: while the seat may meld now, or is building toward its contract
    const downNow = v.down && v.down[seat] && v.contract !== "no contract";
    const buildable = mine && !over && T.H && (T.H.groups.length
      || (myTurn() && (L.melds.length > 0 || (v.phase === "play" && !downNow))));
    const build = buildable ? RK.Hand.buildArea(T.H, { check: T.check, onGroup: groupSelected, onUngroup: ungroup,
      built: builtMeld(), canAct: T.online && !T.pending, onMeld: api().playBuilt }) : null;
    // the table's melds take a tap or a drop on the seat's own turn to play (one that may not
    // join a meld now is sent all the same: the engine's refusal says why)
    const playing = legal.some((a) => a.startsWith("discard "));
    const layTargets = mine && T.online && !T.pending && (L.layoffs.length || L.swaps.length || playing);
    parts.push(h("div.felt", null, RK.Board.piles(v, pileOpts),
      RK.Board.melds(v, nm, { me: seat, build, drop: layTargets, fresh: T.freshMelds })));
    if (mine && v.hand && T.H) {
      const building = T.H.groups.flat().length;
      const title = `Your hand: ${RK.plural(v.hand.length, "card")}${building ? ` (${building} in the meld areas)` : ""}`
        + ` · score ${v.scores[seat]}${downNow ? " · down" : ""}`;
      parts.push(RK.Hand.panel(T.H, v, { title, onToggle: toggle, onKey: handKey, onSort: sortBy,
        canArrange: !over && T.online, onArrange: () => sendMsg({ type: "arrange" }) }));
    }
    if (mine && !over) {
      if (T.showHint && m.hint && !w) parts.push(RK.Moves.hintBox(m.hint, v, nm));
      if (!w && legal.length) parts.push(RK.Moves.bar(A, v, legal, nm));
      else parts.push(h("section#actions.waiting-bar", { "aria-label": "Your moves" },
        h("div.bar", null, h("span.small.muted", null, !T.online ? "Moves are off until the connection is back."
          : m.autoplay ? "A bot is playing your seat." : w ? "An offer is open beside the discard pile." : "Waiting for the others…"),
        h("span.spacer"), autoplayButton(m))));
    } else if (!mine) {
      parts.push(h("p#spectator.small.muted.spectating", null, "You are watching: you see only what every player sees."), joinBox());
    }
    return parts;
  }

  /* In the break between deals, whether the one to play is a bot (bots wait; a person may
     play at once, which ends the break). */
  function botWaits(m, v) {
    const s = m.pause && (m.seats || [])[v.current_player];
    return !!(s && (s.kind || "").startsWith("bot"));
  }

  function head(m, v, nm, seat, w) {
    const deals = v.deals ? `/${v.deals}` : "";
    const timer = !w && m.deadline ? h("span.timer.small", null, "⏱ ", h("span.countdown", { dataset: { deadline: m.deadline } },
      `${RK.secondsLeft(m.deadline, T.offset)} s`)) : null;
    return h("section#status.tbl-head", { "aria-labelledby": "status-h" },
      h("div.head-row", null,
        h("h1#status-h.tbl-title", null, `${v.name} · deal ${v.round}${deals}`),
        h("span.spacer"),
        h("button.tool#open-side", { type: "button", "aria-controls": "side", "aria-expanded": RK.Side.isOpen() ? "true" : "false",
          dataset: { fk: "open-side" }, onclick: () => RK.Side.open(api()) }, "Log & chat", RK.Side.unreadBadge()),
        h("button.tool.icon", { type: "button", dataset: { fk: "settings" }, "aria-haspopup": "dialog", "aria-label": "Settings",
          title: "Settings", onclick: () => RK.Side.settingsDialog(api()) }, "⚙")),
      h("p#contract.small", null, RK.Board.contractWords(v)),
      h("p#turn.turn", null, RK.Board.turnWords(v, nm, seat, w, m.status, m.legal, botWaits(m, v) ? m.pause : null), " ", timer),
      m.table && m.table.deal_chosen ? h("p#seeded.small.seeded", null,
        "Dealt from a seed its creator chose: whoever knows the seed can know every card.") : null);
  }

  function banners() {
    const m = T.msg;
    const out = [];
    if (T.msg && !T.online) {
      out.push(h("div#conn-lost.banner.bad", { role: "alert" },
        h("strong", null, "Connection lost. "), "Moves are off until the table is back. ",
        h("span#retry-in", { dataset: { retry: T.retryAt } }, retryText()), " ",
        h("button.tool", { type: "button", onclick: retryNow, dataset: { fk: "retry" } }, "Try now")));
    }
    if (T.notice) out.push(h("div.banner", { role: "status" }, T.notice, " ",
      h("button.tool", { type: "button", onclick: () => { T.notice = ""; render(); } }, "OK")));
    if (T.error) {
      out.push(h("div#error.banner.bad", { role: "alert" }, T.error, " ",
        h("button.tool", { type: "button", dataset: { fk: "error-ok" }, onclick: () => { T.error = ""; render(); } }, "OK")));
    }
    if (m && m.stand_in && m.stand_in.moves && m.stand_in.moves.length) {
      const why = { away: "while you were away", asked: "while you let it", timer: "when your time ran out" }[m.stand_in.why] || "for you";
      out.push(h("div#away.banner", { role: "status" },
        h("strong", null, `A bot played for you ${why}: `), m.stand_in.moves.map(RK.Moves.pastWords).join(", ") + ". ",
        h("button.tool", { type: "button", dataset: { fk: "away-ok" }, onclick: () => sendMsg({ type: "stand_in_seen" }) }, "OK")));
    }
    if (m && m.pause && m.view && !m.view.is_over && !document.querySelector("dialog#result-dlg[open]")) {
      out.push(h("div#pause.banner", { role: "status" }, `Deal ${m.pause.round + 1} starts in `,
        h("span.countdown", { dataset: { deadline: m.pause.until } }, `${RK.secondsLeft(m.pause.until, T.offset)} s`),
        (m.pause.waiting || []).length ? ` or when everyone is ready.` : ".", " ",
        (m.pause.waiting || []).includes(m.seat) ? h("button.tool", { type: "button", dataset: { fk: "ready" }, onclick: ready }, "Ready") : null));
    }
    return h("div#banners", null, out);
  }

  function ready() { sendMsg({ type: "ready" }); RK.Side.closeResult(); }

  function retryText() {
    const s = Math.max(0, Math.ceil((T.retryAt - Date.now()) / 1000));
    return T.ws && T.ws.readyState === 0 ? "Reconnecting now…" : `Trying again in ${s} s.`;
  }

  function autoplayButton(m) {
    const on = !!m.autoplay;
    return h("button.tool" + (on ? ".primary" : ""), { type: "button", dataset: { fk: "autoplay" }, disabled: !T.online || null,
      onclick: () => sendMsg({ type: "autoplay", on: !on }) }, on ? "I'm back: give me my seat" : "Let a bot play for me");
  }

  /* ---------------------------------------------------------------- the hand: keys, clicks */

  function toggle(id) {
    const H = T.H;
    if (H.sel.has(id)) H.sel.delete(id); else H.sel.add(id);
    render();
  }

  function sortBy(by) { RK.Hand.setMode(T.H, by); render(); }

  function groupSelected(k) {
    const ids = RK.Hand.selected(T.H).map((x) => x.id);
    if (!ids.length) return;
    RK.Hand.addToGroup(T.H, ids, k);
    askCheck();
    render();
  }

  function ungroup(ids) {
    RK.Hand.removeFromGroups(T.H, ids);
    askCheck();
    render();
  }

  /* Arrows move along the hand; Shift+arrows move the card itself; Home/End jump. */
  function handKey(ev, id) {
    const loose = RK.Hand.loose(T.H);
    const i = loose.findIndex((x) => x.id === id);
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
    if (step && ev.shiftKey) {
      ev.preventDefault();
      const j = i + step;
      if (j < 0 || j >= loose.length) return;
      const before = step < 0 ? loose[j].id : (j + 1 < loose.length ? loose[j + 1].id : null);
      RK.Hand.moveCard(T.H, id, before);
      render();
      const el = T.main.querySelector(`[data-fk="card-${id}"]`);
      if (el) el.focus();
      announce(`${RK.cardShort(loose[i].card)} moved to place ${j + 1} of ${loose.length}.`);
      return;
    }
    let to = null;
    if (step) to = (i + step + loose.length) % loose.length;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = loose.length - 1;
    if (to === null) return;
    ev.preventDefault();
    const el = T.main.querySelector(`[data-fk="card-${loose[to].id}"]`);
    if (el) el.focus();
  }

  /* ---------------------------------------------------------------- waiting, joining */

  function freeSeats() {
    const seats = (T.msg && T.msg.seats) || (T.info && T.info.seats) || [];
    return seats.map((s, i) => [s, i]).filter(([s]) => RK.isFree(s)).map(([, i]) => i);
  }

  function joinBox() {
    const free = freeSeats();
    const status = (T.msg && T.msg.status) || T.info.status;
    if (T.me || !free.length || status !== "waiting") return null;
    const name = h("input#j-name", { name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: RK.store.get("name", "") });
    const msg = h("p#j-msg.error", { role: "alert" });
    return h("section#join.panel", { "aria-labelledby": "join-h" }, h("h2#join-h", null, "Take a seat"),
      h("form#join-form.row", { onsubmit: async (ev) => {
        ev.preventDefault();
        const who = name.value.trim();
        if (!who) { msg.textContent = "Give your name."; return; }
        try {
          const j = await RK.api("POST", `/api/tables/${T.id}/join`, { name: who });
          RK.store.set("name", who);
          RK.keepSeat(T.id, j.seat, j.token, who);
          T.me = { seat: j.seat, token: j.token, name: who };
          T.notice = "";
          T.attempt = 0;
          const old = T.ws;
          T.ws = null;
          if (old) old.close(1000);
          connect();
        } catch (e) { msg.textContent = e.message; }
      } }, h("label", { for: "j-name" }, "Your name"), name, h("button.primary", { type: "submit" }, "Join")), msg);
  }

  function waitingBox(m) {
    const seats = m.seats || (T.info && T.info.seats) || [];
    const humans = seats.filter((s) => s.kind === "human");
    const taken = humans.filter((s) => !RK.isFree(s)).length;
    const url = `${location.origin}/t/${T.id}`;
    const rules = (m.table && m.table.house_rules) || (T.info && T.info.house_rules) || [];
    return h("section#waiting.panel", { "aria-labelledby": "wait-h" },
      h("h1#wait-h", null, (m.table && m.table.name) || "Table"),
      h("p", null, `Waiting for players: ${taken} of ${humans.length} people's seats taken. The game starts when every seat is taken.`),
      // the link is for the people seated to share; a visitor is told to sit down first
      T.me ? h("p", null, "Send this link to the people you want to play with:")
        : h("p", null, "You are invited: take a seat above (your name, then Join). To invite others, send them this link:"),
      RK.Side.inviteRow(url),
      h("h2", null, "Seats"),
      h("ol#seat-list.seat-list", null, seats.map((s, i) => h("li", null, RK.isFree(s) ? h("em", null, "free") : `${s.name || ""} (${RK.seatLabel(s)})`))),
      h("h2", null, "House rules"),
      rules.length ? h("ul#house-rules", null, rules.map((r) => h("li", null, r)))
        : h("p#house-rules.muted", null, "None: the ruleset is played as it is written."));
  }

  /* ---------------------------------------------------------------- keys, timers */

  function onKey(ev) {
    if (!T || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag) || document.querySelector("dialog[open]")) return;
    if (!T.msg || !T.msg.view) return;
    const click = (sel) => { const el = T.main.querySelector(sel); if (el && !el.disabled) { ev.preventDefault(); el.click(); } };
    const k = ev.key;
    if (k === "Escape" && T.H) { T.H.sel.clear(); render(); return; }
    if (k === "s" && T.H) { sortBy(T.H.mode === "suit" ? "rank" : "suit"); return; }
    const byKey = { d: '[data-action="draw"]', t: '[data-action="take"]', b: '[data-action="buy"]', p: '[data-action="pass"]',
      c: '[data-action="cut"]', x: '[data-action="discard"]', m: '[data-fk="meld-built"]', g: '[data-fk="group"]', h: '[data-fk="hint"]' }[k];
    if (byKey) click(byKey);
  }

  function tickCountdowns() {
    if (!T) return;
    for (const el of document.querySelectorAll("[data-deadline]")) el.textContent = `${RK.secondsLeft(+el.dataset.deadline, T.offset)} s`;
    // a deal's result still open once the next deal began: say so, not "starts in 0 s"
    const at = document.getElementById("next-deal-at");
    if (at && T.msg && !T.msg.pause) {
      at.textContent = "The next deal has begun.";
      const b = document.getElementById("next-deal");
      if (b) b.textContent = "Close";
    }
    const r = document.getElementById("retry-in");
    if (r) r.textContent = retryText();
  }

  return { show, stop, playMeld };
})();
