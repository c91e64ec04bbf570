/* rummykit browser app: one table. It keeps a websocket to the server, draws every state
   message it gets (the server's word is the only truth: nothing is guessed or applied
   ahead), and sends the actions the player picks. The seat's token stays in this browser
   (localStorage), so a reload or a lost connection comes back to the same seat. */
"use strict";

RK.Table = (function () {
  const h = RK.h;
  let T = null; // the table on screen

  function stop() {
    if (!T) return;
    T.stopped = true;
    clearTimeout(T.retry);
    clearInterval(T.tick);
    clearInterval(T.ping);
    if (T.ws) { try { T.ws.close(1000); } catch (e) { /* closed already */ } }
    document.removeEventListener("keydown", onKey);
    T = null;
  }

  async function show(main, id, params) {
    stop();
    T = { id, main, me: RK.seatOf(id), ws: null, msg: null, info: null, sel: [], groups: [],
      sortBy: RK.store.get("sort", "suit"), error: "", attempt: 0, pending: false, notice: "",
      resultOpen: false, seenRound: undefined, offset: 0, stopped: false };
    document.title = `rummykit: table ${id}`;
    document.addEventListener("keydown", onKey);
    T.tick = setInterval(tickCountdowns, 250);
    main.replaceChildren(h("p", null, "Loading the table…"));
    try {
      T.info = await RK.api("GET", `/api/tables/${id}`);
    } catch (e) {
      main.replaceChildren(h("section.panel", null, h("h1", null, "No such table"),
        h("p.error", { role: "alert" }, e.message), h("p", null, h("a", { href: "/" }, "Back to the lobby"))));
      return;
    }
    if (params.has("replay") && T.info.status === "over") {
      const info = T.info;
      stop();
      RK.Replay.show(main, id, info, +params.get("replay") || 0);
      return;
    }
    connect();
  }

  /* ---------------------------------------------------------------- connection */

  function connect() {
    const t = T;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // log=delta: each state message carries only the log entries new to this connection
    // (from index log_from on); the entries before come from the messages already received
    const q = (t.me && t.me.token ? `?token=${encodeURIComponent(t.me.token)}&` : "?") + "log=delta";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${t.id}${q}`);
    let log = [];
    t.ws = ws;
    conn(t.attempt ? "Reconnecting…" : "Connecting…");
    ws.onopen = () => {
      if (t.ws !== ws) return;
      t.attempt = 0;
      conn(t.me ? "Connected" : "Watching");
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
    };
    ws.onclose = (ev) => {
      if (t.ws !== ws || t.stopped) return;
      clearInterval(t.ping);
      t.pending = false;
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
        t.main.replaceChildren(h("section.panel", null, h("h1", null, "No such table"),
          h("p", null, h("a", { href: "/" }, "Back to the lobby"))));
        t.stopped = true;
        return;
      }
      // exponential backoff with jitter, 0.5 s doubling to 10 s (each wait 75-125 % of that),
      // so the players of a restarted server do not all come back in the same instant
      const delay = Math.min(10000, 500 * 2 ** t.attempt) * (0.75 + Math.random() * 0.5);
      t.attempt += 1;
      conn(`Connection lost: reconnecting in ${Math.ceil(delay / 1000)} s…`);
      t.retry = setTimeout(() => { if (!t.stopped) connect(); }, delay);
    };
  }

  function conn(text) { document.getElementById("conn").textContent = text; }

  window.addEventListener("online", () => {
    if (T && !T.stopped && T.ws && T.ws.readyState > 1) { clearTimeout(T.retry); connect(); }
  });

  function onState(m) {
    const old = T.msg;
    document.body.dataset.stateId = m.state_id; // for tests and scripts: the state on screen
    document.body.dataset.status = m.status;
    document.body.dataset.window = m.window ? m.window.state_id : "";
    document.body.dataset.pending = "";
    T.msg = m;
    T.pending = false;
    if (typeof m.now === "number") T.offset = m.now - Date.now() / 1000;
    if (m.seat !== null && m.seat !== undefined && T.me && T.me.seat !== m.seat) T.me.seat = m.seat;
    const v = m.view;
    if (v) {
      remapSelection(old && old.view ? displayed(old.view) : null, displayed(v));
      const r = v.last_round;
      const rn = r ? r.round : null;
      if (T.seenRound === undefined) T.resultOpen = !!(r && (v.is_over || m.status === "over"));
      else if (rn !== T.seenRound) T.resultOpen = true;
      T.seenRound = rn;
    }
    render();
  }

  function onError(m) {
    T.pending = false;
    document.body.dataset.errors = String(+(document.body.dataset.errors || 0) + 1);
    document.body.dataset.pending = "";
    // a stale refusal only means the table moved on first: say so in words; the fresh
    // state is on its way (or here already)
    T.error = m.code === "stale" ? "Too late: the table moved on before your move arrived, so nothing was done."
      : m.message || m.code || "refused";
    render();
    const el = document.getElementById("error");
    if (el) el.scrollIntoView({ block: "nearest" });
  }

  function send(action) {
    const m = T.msg;
    if (!m || !T.ws || T.ws.readyState !== 1) {
      T.error = "Not connected to the table: the move was not sent.";
      render();
      return;
    }
    const w = m.window;
    const sid = w && !w.answered ? w.state_id : m.state_id;
    T.error = "";
    T.pending = true;
    document.body.dataset.pending = "1";
    T.ws.send(JSON.stringify({ type: "act", state_id: sid, action }));
    render();
  }

  /* ---------------------------------------------------------------- the hand */

  function displayed(v) { return v && v.hand ? RK.sortCards(v.hand, T.sortBy) : []; }

  /* Keep the selected (and grouped) cards selected when the hand changes. */
  function remapSelection(before, after) {
    const pool = countOf(after);
    T.groups = T.groups.filter((g) => g.every((c) => (pool[c] || 0) > 0) && g.every((c) => { pool[c] -= 1; return true; }));
    const picked = before ? T.sel.map((i) => before[i]).filter(Boolean) : [];
    const want = countOf(picked);
    const grouped = countOf(T.groups.flat());
    T.sel = [];
    after.forEach((c, i) => {
      if ((grouped[c] || 0) > 0) { grouped[c] -= 1; return; }
      if ((want[c] || 0) > 0) { want[c] -= 1; T.sel.push(i); }
    });
  }

  function countOf(cards) { const n = {}; for (const c of cards) n[c] = (n[c] || 0) + 1; return n; }

  function groupedMask(hand) {
    const left = countOf(T.groups.flat());
    return hand.map((c) => { if ((left[c] || 0) > 0) { left[c] -= 1; return true; } return false; });
  }

  function selectedCards() {
    const hand = displayed(T.msg.view);
    return T.sel.slice().sort((a, b) => a - b).map((i) => hand[i]);
  }

  function toggle(i) {
    const k = T.sel.indexOf(i);
    if (k >= 0) T.sel.splice(k, 1); else T.sel.push(i);
    render();
  }

  function handPanel(v, legal) {
    const hand = displayed(v);
    const grouped = groupedMask(hand);
    const discards = new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.split(" ")[1]));
    const must = new Set(v.must_place || []);
    const cards = hand.map((c, i) => {
      const on = T.sel.includes(i);
      const cls = "button.card" + (on ? ".sel" : "") + (grouped[i] ? ".grouped" : "") + (must.has(c) ? ".must" : "")
        + (c === v.taken ? ".taken" : "");
      return h(cls, { type: "button", "aria-pressed": on ? "true" : "false", disabled: grouped[i] || null,
        dataset: { card: c, i, fk: `card-${i}`, discard: discards.has(c) ? "1" : null },
        "aria-label": `${c}, ${RK.cardWords(c)}${grouped[i] ? ", in a meld group" : ""}${must.has(c) ? ", must be played this turn" : ""}`,
        onclick: () => toggle(i), onkeydown: (ev) => handKey(ev, i, hand.length) }, RK.cardFace(c));
    });
    const sortBtn = (by, label) => h("button.small", { type: "button", "aria-pressed": T.sortBy === by ? "true" : "false",
      dataset: { fk: `sort-${by}` }, onclick: () => setSort(by) }, label);
    const sel = selectedCards();
    return h("section#hand.panel", { "aria-labelledby": "hand-h" },
      h("div.row", null, h("h2#hand-h", null, `Your hand (${hand.length})`),
        h("span.spacer"), sortBtn("suit", "Sort by suit"), sortBtn("rank", "Sort by rank")),
      h("div#cards.hand", { role: "group", "aria-label": "Your hand: Space selects a card, arrows move" }, cards),
      h("p#selected.small.muted", { "aria-live": "polite" },
        sel.length ? `Selected: ${sel.join(" ")}` : "Click cards (or Tab to them and press Space) to select them."),
      v.must_place && v.must_place.length ? h("p.small", null, `You must play ${v.must_place.join(" ")} this turn.`) : null);
  }

  function handKey(ev, i, n) {
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
    let to = null;
    if (step) to = (i + step + n) % n;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = n - 1;
    if (to === null) return;
    ev.preventDefault();
    const el = T.main.querySelector(`[data-fk="card-${to}"]`);
    if (el) el.focus();
  }

  function setSort(by) {
    const before = displayed(T.msg.view);
    T.sortBy = by;
    RK.store.set("sort", by);
    remapSelection(before, displayed(T.msg.view));
    render();
  }

  /* ---------------------------------------------------------------- actions */

  function label(a, v, w) {
    const top = v.discard_top;
    if (a === "draw") return "Draw from the stock";
    if (a === "draw both") return `Take ${top} and draw from the stock`;
    if (a === "take") return `Take ${top}`;
    if (a === "cut") return "Cut the pack";
    if (a === "pass") return w ? "No, pass" : "Pass";
    if (a === "buy") return (w && w.kind === "buy" ? "Buy " : "May I? Buy ") + (top || "the discard");
    if (a === "shanghai") return "Call Shanghai";
    if (a === "rummy") return "Call Rummy";
    return a;
  }

  const SIMPLE = ["draw", "draw both", "take", "cut", "buy", "pass", "shanghai", "rummy"];
  const KEYS = { draw: "d", take: "t", buy: "b", pass: "p", cut: "c" };

  function actBtn(text, content, extra) {
    return h("button.act", Object.assign({ type: "button", disabled: T.pending || null,
      dataset: { action: text, fk: `act-${text}` }, onclick: () => send(text),
      "aria-keyshortcuts": KEYS[text] || null }, extra || {}), content);
  }

  /* A meld as cards, each wild followed by what it stands for ("JK=7"). */
  function meldContent(text) {
    return text.replace(/^meld /, "").split("/").map((g, k) => h("span.group", null, k ? " / " : "",
      g.trim().split(/\s+/).map((tok) => { const [c, m] = tok.split("="); return RK.cardFace(c, m); })));
  }

  /* The card-taking actions (discard 7H, rummy 7H, shanghai 7H) act on the selected card. */
  function cardAction(verb, cards, labelText) {
    const sel = selectedCards();
    const c = sel.length === 1 && cards.has(sel[0]) ? sel[0] : null;
    return h("button.act" + (verb === "discard" ? ".primary" : ""), { type: "button",
      disabled: !c || T.pending || null, dataset: { action: verb, fk: `act-${verb}-card` },
      "aria-keyshortcuts": verb === "discard" ? "x" : null,
      onclick: () => { if (c) send(`${verb} ${c}`); } },
      c ? `${labelText} ${c}` : `${labelText} (select one card)`);
  }

  function sortLegal(legal) {
    const out = { simple: [], discard: new Set(), shanghaiDiscard: new Set(), rummy: new Set(), melds: [], layoffs: [],
      shanghaiLay: [], swaps: [], other: [] };
    for (const a of legal) {
      const w = a.split(/\s+/);
      if (SIMPLE.includes(a)) out.simple.push(a);
      else if (w[0] === "discard") out.discard.add(w[1]);
      else if (w[0] === "rummy") out.rummy.add(w[1]);
      else if (w[0] === "shanghai" && w.length === 2) out.shanghaiDiscard.add(w[1]);
      else if (w[0] === "shanghai") out.shanghaiLay.push(a);
      else if (w[0] === "meld") out.melds.push(a);
      else if (w[0] === "layoff") out.layoffs.push(a);
      else if (w[0] === "swap") out.swaps.push(a);
      else out.other.push(a);
    }
    return out;
  }

  function layoffWords(a) {
    const w = a.split(/\s+/);
    const n = w[w.length - 1];
    const [c, m] = w[1].split("=");
    return [RK.cardFace(c, m), ` on meld ${n}`];
  }

  function actionsPanel(v, legal, w, tail) {
    const L = sortLegal(legal);
    const sel = new Set(selectedCards());
    const kids = [];
    if (L.simple.length) kids.push(h("div.btnrow", null, L.simple.map((a) => actBtn(a, label(a, v, w)))));
    if (L.melds.length) {
      kids.push(h("h3", null, "Lay down"), h("div.btnrow", null, L.melds.map((a) => actBtn(a, meldContent(a), { class: "act meld" }))));
    }
    // the composer: after the draw, or before it where melds come first (ten-card, a pat deal)
    const myPlay = v.current_player === T.msg.seat && !w && (v.phase === "play" || L.melds.length > 0);
    if (myPlay) kids.push(composer(L));
    const lay = sel.size ? L.layoffs.filter((a) => sel.has(a.split(/\s+/)[1].split("=")[0])) : L.layoffs;
    if (L.layoffs.length) {
      kids.push(h("h3", null, "Lay off", sel.size ? " (selected cards)" : ""),
        lay.length ? h("div.btnrow", null, lay.map((a) => actBtn(a, layoffWords(a)))) : h("p.small.muted", null, "None of the selected cards fits a meld."));
    }
    if (L.shanghaiLay.length) {
      kids.push(h("h3", null, "Call Shanghai"), h("div.btnrow", null, L.shanghaiLay.map((a) => actBtn(a, ["Shanghai: lay ", ...layoffWords(a)]))));
    }
    if (L.swaps.length) {
      kids.push(h("h3", null, "Swap for a wild"), h("div.btnrow", null, L.swaps.map((a) => {
        const [, c, n] = a.split(/\s+/);
        return actBtn(a, ["Put ", RK.cardFace(c), ` in meld ${n}, take its wild`]);
      })));
    }
    const byCard = [];
    if (L.discard.size) byCard.push(cardAction("discard", L.discard, "Discard"));
    if (L.shanghaiDiscard.size) byCard.push(cardAction("shanghai", L.shanghaiDiscard, "Discard calling Shanghai:"));
    if (L.rummy.size) byCard.push(cardAction("rummy", L.rummy, "Call Rummy, shedding"));
    if (byCard.length) kids.push(h("div.btnrow", null, byCard));
    if (L.other.length) kids.push(h("div.btnrow", null, L.other.map((a) => actBtn(a, a))));
    kids.push(typeBox(), tail);
    return h("section#actions.panel", { "aria-labelledby": "act-h" }, h("h2#act-h", null, "Your move"), kids);
  }

  /* Compose a meld from the selected cards: group by group for a contract of several
     melds. When the groups are one of the arrangements the engine lists, its text (with
     the meaning of each wild) is sent; else the cards as grouped, and the engine says
     what is wrong, if anything. */
  function composer(L) {
    const sel = selectedCards();
    const groups = T.groups.concat(sel.length ? [sel] : []);
    const text = groups.length ? meldText(groups, L.melds) : "";
    const chips = T.groups.map((g, k) => h("span.chip", null, RK.cardsLine(g),
      h("button.small", { type: "button", "aria-label": `Take group ${k + 1} apart`, dataset: { fk: `ungroup-${k}` },
        onclick: () => { T.groups.splice(k, 1); remapSelection(null, displayed(T.msg.view)); render(); } }, "×")));
    return h("div#composer", null,
      h("h3", null, "Meld the selected cards"),
      chips.length ? h("div.chips", null, "Groups: ", chips) : null,
      h("div.btnrow", null,
        h("button", { type: "button", disabled: !sel.length || null, dataset: { fk: "group" }, "aria-keyshortcuts": "g",
          onclick: groupSelected }, "Put selected aside as a group"),
        h("button#meld-selected.act", { type: "button", disabled: !groups.length || T.pending || null,
          dataset: { fk: "meld-selected", action: text }, "aria-keyshortcuts": "m", onclick: () => { if (text) send(text); } },
        groups.length ? ["Meld ", meldContent(text)] : "Meld (select cards)")));
  }

  function groupSelected() {
    const sel = selectedCards();
    if (!sel.length) return;
    T.groups.push(sel);
    T.sel = [];
    render();
  }

  function meldText(groups, legalMelds) {
    const key = (gs) => gs.map((g) => g.slice().sort().join(" ")).sort().join("/");
    const want = key(groups);
    for (const a of legalMelds) {
      const gs = a.replace(/^meld /, "").split("/").map((g) => g.trim().split(/\s+/).map((t) => t.split("=")[0]));
      if (key(gs) === want) return a;
    }
    return "meld " + groups.map((g) => g.join(" ")).join(" / ");
  }

  function typeBox() {
    const input = h("input#typed", { name: "action", autocomplete: "off", spellcheck: "false",
      placeholder: "e.g. meld 7C 7D JK=7 / 3H 4H JK=5H 6H", "aria-describedby": "typed-help" });
    return h("details#typebox", null, h("summary", null, "Type a move"),
      h("form.row", { onsubmit: (ev) => { ev.preventDefault(); const t = input.value.trim(); if (t) { send(t); input.value = ""; } } },
        h("label.sr", { for: "typed" }, "Move"), input, h("button", { type: "submit" }, "Send")),
      h("p#typed-help.small.muted", null, "draw, take, meld 7C 7D 7S, layoff 9H 3, swap 5H 2, discard 7H, buy, pass, shanghai 9H, rummy 7H"));
  }

  /* ---------------------------------------------------------------- claims */

  function claimBox(v, legal, w, nm) {
    const what = { may_i: "May I", buy: "Buy", shanghai: "Shanghai", rummy: "Rummy" }[w.kind] || w.kind;
    const mine = T.msg.seat !== null && T.msg.seat !== undefined;
    let body;
    if (w.answered) body = h("p", null, "Your answer is in. The rules decide who gets the card when everyone has answered or the time is up.");
    else if (legal.length) {
      const L = sortLegal(legal);
      const kids = [h("div.btnrow", null, L.simple.map((a) => actBtn(a, label(a, v, w))))];
      if (L.shanghaiLay.length) kids.push(h("div.btnrow", null, L.shanghaiLay.map((a) => actBtn(a, ["Shanghai: lay ", ...layoffWords(a)]))));
      if (L.rummy.size) kids.push(h("div.btnrow", null, cardAction("rummy", L.rummy, "Call Rummy, shedding")));
      if (L.other.length || L.melds.length || L.layoffs.length) {
        kids.push(h("div.btnrow", null, L.other.concat(L.melds, L.layoffs).map((a) => actBtn(a, a))));
      }
      body = h("div", null, h("p", null, claimQuestion(w, v, nm)), kids);
    } else body = h("p.muted", null, mine ? "You are not asked this time." : "The players are answering.");
    return h("div#claim.claim", { role: "region", "aria-label": `${what} window` },
      h("strong", null, w.kind === "shanghai" || w.kind === "rummy" ? `${what}: ${nm[v.turn]} discarded ${v.discard_top}.`
        : `${what}: ${nm[v.turn]} let ${v.discard_top || "the discard"} go.`), " ",
      T.msg.deadline ? h("span#countdown.countdown", { dataset: { deadline: T.msg.deadline } }, countdownText(T.msg.deadline)) : null,
      body);
  }

  function claimQuestion(w, v, nm) {
    if (w.kind === "shanghai") return `Call Shanghai on ${v.discard_top}? You lay it off; ${nm[v.turn]} draws a card from your hand.`;
    if (w.kind === "rummy") return `Call Rummy on ${v.discard_top}? You shed one card of your choice onto the pile.`;
    return `Do you want ${v.discard_top}? Buying it may cost extra cards from the stock (see the rules). No answer is a pass.`;
  }

  function countdownText(deadline) {
    const left = Math.max(0, Math.ceil(deadline - (Date.now() / 1000 + T.offset)));
    return `${left} s left`;
  }

  function tickCountdowns() {
    if (!T) return;
    for (const el of T.main.querySelectorAll("[data-deadline]")) el.textContent = countdownText(+el.dataset.deadline);
  }

  /* ---------------------------------------------------------------- joining, rematch */

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

  async function rematch() {
    try {
      const r = await RK.api("POST", `/api/tables/${T.id}/rematch`, { token: T.me.token });
      const j = await RK.api("POST", `/api/tables/${r.id}/join`, { name: T.me.name || RK.store.get("name", "Player"), seat: T.me.seat });
      RK.keepSeat(r.id, j.seat, j.token, T.me.name);
      RK.go(`/t/${r.id}`);
    } catch (e) { T.error = e.message; render(); }
  }

  function overBox() {
    const kids = [];
    const next = T.msg && T.msg.table && T.msg.table.rematch;
    if (next) kids.push(h("a.button.primary", { href: `/t/${next}` }, "Go to the rematch table"));
    else if (T.me) kids.push(h("button#rematch.primary", { type: "button", onclick: rematch, dataset: { fk: "rematch" } }, "Rematch"));
    kids.push(" ", h("a.button#replay-link", { href: `/t/${T.id}?replay=0` }, "Replay this game step by step"));
    return h("div.btnrow", null, kids);
  }

  /* ---------------------------------------------------------------- drawing */

  function render() {
    if (!T || T.stopped) return;
    const m = T.msg;
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const logEl = document.getElementById("log");
    const logAtEnd = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 8;
    const parts = [];
    if (T.notice) parts.push(h("p.notice", { role: "status" }, T.notice));
    if (!m) {
      parts.push(h("p", null, "Connecting to the table…"), joinBox());
      T.main.replaceChildren(...parts.filter(Boolean));
      return;
    }
    const v = m.view;
    const seat = m.seat === undefined ? null : m.seat;
    const legal = m.legal || [];
    const w = m.window || null;
    if (!v) {
      parts.push(waitingBox(m), joinBox());
      T.main.replaceChildren(...parts.filter(Boolean));
      return;
    }
    const nm = RK.Board.names(m.seats, v.players, seat);
    const over = m.status === "over" || v.is_over;
    const timer = !w && m.deadline ? h("p.small", null, "Time left for this turn: ",
      h("span.countdown", { dataset: { deadline: m.deadline } }, countdownText(m.deadline))) : null;
    parts.push(RK.Board.header(v, nm, seat, w, [timer, m.status === "waiting" ? waitingBox(m) : null,
      seat === null ? h("p#spectator.muted", null, "You are watching: only what every player sees is shown.") : null,
      m.table && m.table.deal_chosen ? h("p#seeded.small.seeded", null,
        "This table was dealt from a seed its creator chose: whoever knows that seed can know every card.") : null],
    m.status));
    parts.push(joinBox());
    if (over) parts.push(RK.Board.standings(v, nm, overBox()));
    const col = [h("div.boardrow", null, RK.Board.pilePanel(v, w ? claimBox(v, legal, w, nm) : null), RK.Board.meldsPanel(v, nm))];
    if (seat !== null && v.hand) col.push(handPanel(v, legal));
    if (m.hint) col.push(hintBox(m.hint));
    if (T.error) {
      col.push(h("p#error.error", { role: "alert" }, T.error, " ",
        h("button.small", { type: "button", onclick: () => { T.error = ""; render(); } }, "OK")));
    }
    if (seat !== null && !over && !w && legal.length) col.push(actionsPanel(v, legal, w, autoplayBox(m)));
    else if (seat !== null && !over && m.status === "playing") {
      col.push(h("section#actions.panel", null, h("h2", null, "Your move"),
        h("p.muted", null, w ? "A claim window is open (see the discard pile)." : "Waiting for the others."), autoplayBox(m)));
    }
    if (v.last_round) {
      const res = RK.Board.resultPanel(v.last_round, nm, T.resultOpen);
      res.querySelector("details").addEventListener("toggle", (ev) => { T.resultOpen = ev.target.open; });
      col.push(res);
    }
    const side = [RK.Board.seatsPanel(v, m.seats, nm, seat, w, m.status), RK.Board.logPanel(v, nm), inviteBox()];
    parts.push(h("div.cols", null, h("div.colmain", null, col), h("div.colside", null, side)));
    T.main.replaceChildren(...parts.filter(Boolean));
    const log = document.getElementById("log");
    if (log && logAtEnd) log.scrollTop = log.scrollHeight;
    restoreFocus(focus);
  }

  function restoreFocus(fk) { RK.restoreFocus(T.main, fk, "button.act:not([disabled]), button.card:not([disabled])"); }

  function hintBox(hint) {
    const text = typeof hint === "string" ? hint : hint.action;
    return h("p#hint.hint", null, "Hint: ", h("code", null, text), hint.why ? ` (${hint.why})` : "");
  }

  /* Hand the seat to a bot for a while, or take it back ("I'm back"). */
  function autoplayBox(m) {
    const on = !!m.autoplay;
    const send = () => {
      if (T.ws && T.ws.readyState === 1) T.ws.send(JSON.stringify({ type: "autoplay", on: !on }));
    };
    return h("div#autoplay.btnrow.small", null,
      on ? h("span.notice", null, "A bot is playing your seat.") : null,
      h("button" + (on ? ".primary" : ".small"), { type: "button", dataset: { fk: "autoplay" }, onclick: send },
        on ? "I'm back: give me my seat" : "Let a bot play for me"));
  }

  function waitingBox(m) {
    const seats = m.seats || [];
    const humans = seats.filter((s) => s.kind === "human");
    const taken = humans.filter((s) => !RK.isFree(s)).length;
    return h("div#waiting", null, h("p", null, `Waiting for players: ${taken} of ${humans.length} seats taken. ` +
      "The game starts when every seat is taken. Send this table's link to the others:"),
      h("p", null, h("code#waiting-link", null, `${location.origin}/t/${T.id}`)), seatListing(seats));
  }

  function seatListing(seats) {
    return h("ul.small", null, seats.map((s, i) => h("li", null, `Seat ${i}: `, RK.isFree(s) ? "free" : `${s.name || ""} (${RK.seatLabel(s)})`)));
  }

  function inviteBox() {
    const url = `${location.origin}/t/${T.id}`;
    return h("section#invite.panel", { "aria-labelledby": "inv-h" }, h("h2#inv-h", null, "Invite"),
      h("p.small", null, "Anyone with this link can take a free seat or watch:"),
      h("div.row", null, h("input#invite-url", { readonly: true, value: url, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
        h("button.small", { type: "button", onclick: async (ev) => {
          try { await navigator.clipboard.writeText(url); ev.target.textContent = "Copied"; } catch (e) { document.getElementById("invite-url").select(); }
        } }, "Copy")));
  }

  /* ---------------------------------------------------------------- keys */

  function onKey(ev) {
    if (!T || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag)) return;
    if (!T.msg || !T.msg.view) return;
    const click = (sel) => { const el = T.main.querySelector(sel); if (el && !el.disabled) { ev.preventDefault(); el.click(); } };
    const k = ev.key;
    if (k === "Escape") { T.sel = []; render(); return; }
    if (k === "s") { setSort(T.sortBy === "suit" ? "rank" : "suit"); return; }
    const byKey = { d: '[data-action="draw"]', t: '[data-action="take"]', b: '[data-action="buy"]', p: '[data-action="pass"]',
      c: '[data-action="cut"]', x: '[data-action="discard"]', m: "#meld-selected", g: '[data-fk="group"]' }[k];
    if (byKey) click(byKey);
  }

  return { show, stop };
})();
