/* rummykit browser app: the table's side panel (the log, the chat, the table's players,
   rules and link) — a column on a wide screen, a drawer on a phone — and the table's
   dialogs (a deal's result, settings, the lay-off warning, a choice between ways to lay a
   card off). The panel is built once per table and updated in place, so a message being
   typed in the chat is never disturbed by the game going on. */
"use strict";

RK.Side = (function () {
  const h = RK.h;
  let S = null; // {el, tab, open, chat: [], unread, muted: Set, chatPending, A}

  function stop() { S = null; }

  function create(A) {
    const tid = A.T.id;
    S = { tab: "log", open: false, chat: [], unread: 0, past: [], muted: new Set(RK.store.get("mute." + tid, [])), chatPending: false, A, tid };
    const tabs = ["log", "chat", "table"].map((t) => h("button.tab", { type: "button", role: "tab", id: `tab-${t}`,
      "aria-controls": `pane-${t}`, dataset: { tab: t }, onclick: () => showTab(t) },
    { log: "Log", chat: "Chat", table: "Table" }[t], t === "chat" ? h("span#chat-unread.unread") : null));
    const input = h("input#chat-input", { name: "chat", maxlength: 200, autocomplete: "off", placeholder: "Say something to the table" });
    const form = h("form#chat-form.row", { onsubmit: (ev) => { ev.preventDefault(); sendChat(input); } },
      h("label.sr", { for: "chat-input" }, "Message"), input, h("button", { type: "submit" }, "Send"));
    S.el = h("aside#side.side", { "aria-label": "Log, chat and table" },
      h("div.side-head", null, h("div.tabs", { role: "tablist", "aria-label": "Side panel" }, tabs),
        h("button.tool.side-close", { type: "button", onclick: close, "aria-label": "Close the panel" }, "Close")),
      h("div#pane-log.pane", { role: "tabpanel", "aria-labelledby": "tab-log" }),
      h("div#pane-chat.pane", { role: "tabpanel", "aria-labelledby": "tab-chat" },
        h("ol#chat-list.chat-list", { "aria-label": "Chat messages", tabindex: 0 }),
        h("p#chat-msg.small.error", { role: "alert" }), form, h("div#chat-mutes.small")),
      h("div#pane-table.pane", { role: "tabpanel", "aria-labelledby": "tab-table" }, h("div#table-info"), typeBox(A)));
    showTab("log");
    return S.el;
  }

  function showTab(t) {
    if (!S) return;
    S.tab = t;
    for (const b of S.el.querySelectorAll(".tab")) b.setAttribute("aria-selected", b.dataset.tab === t ? "true" : "false");
    for (const p of S.el.querySelectorAll(".pane")) p.hidden = p.id !== `pane-${t}`;
    if (t === "chat") { S.unread = 0; drawUnread(); }
    if (t === "log") scrollLog(true);
  }

  function isOpen() { return !!(S && S.open); }

  function open(A) {
    if (!S) return;
    S.open = true;
    document.body.classList.add("side-open");
    showTab(S.unread ? "chat" : S.tab);
    const first = S.el.querySelector(`#tab-${S.tab}`);
    if (first) first.focus();
    A.render();
  }

  function close() {
    if (!S) return;
    S.open = false;
    document.body.classList.remove("side-open");
    const b = document.getElementById("open-side");
    if (b) b.focus();
    if (S.A) S.A.render();
  }

  function unreadBadge() {
    return S && S.unread ? h("span.unread.count", { "aria-label": `${S.unread} unread` }, String(S.unread)) : null;
  }

  function drawUnread() {
    const el = document.getElementById("chat-unread");
    if (el) el.textContent = S.unread ? ` (${S.unread})` : "";
  }

  /* ---- updating in place ---- */

  function scrollLog(force) {
    const log = document.getElementById("log");
    if (log && (force || log.dataset.atEnd !== "0")) log.scrollTop = log.scrollHeight;
  }

  function update(A) {
    if (!S || !S.el.isConnected) return;
    S.A = A;
    const m = A.T.msg;
    const v = m && m.view;
    const paneLog = document.getElementById("pane-log");
    if (v) {
      const nm = RK.Board.names(m.seats, v.players);
      const old = document.getElementById("log");
      const atEnd = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 8;
      const log = RK.Board.logPanel(v, nm, undefined, A.T.notes);
      log.dataset.atEnd = atEnd ? "1" : "0";
      log.addEventListener("scroll", () => { log.dataset.atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8 ? "1" : "0"; });
      paneLog.replaceChildren(...S.past.map((p, i) => h("details.log-past", { open: i === S.past.length - 1 }, h("summary", null, `Deal ${p.round}`),
        h("ol.log", null, p.items.map((t) => h("li", null, t))))), log);
      if (atEnd) log.scrollTop = log.scrollHeight;
      for (const o of paneLog.querySelectorAll(".log-past ol")) o.scrollTop = o.scrollHeight;  // how it ended
    } else paneLog.replaceChildren(h("p.muted.small", null, "Nothing has happened yet."));
    drawTablePane(A);
    drawMutes(A);
    const input = document.getElementById("chat-input");
    const seated = m && m.seat !== null && m.seat !== undefined;
    if (input) {
      input.disabled = !seated || !A.T.online;
      input.placeholder = seated ? "Say something to the table" : "Only players at the table can write";
    }
  }

  function drawTablePane(A) {
    const m = A.T.msg;
    const pane = document.getElementById("table-info");
    const typed = document.getElementById("typebox");
    if (typed) typed.hidden = !(m && m.seat !== null && m.seat !== undefined && m.status === "playing");
    if (!pane || !m) return;
    const url = `${location.origin}/t/${A.T.id}`;
    const rules = (m.table && m.table.house_rules) || [];
    const kids = [];
    if (m.view) {
      const nm = RK.Board.names(m.seats, m.view.players);
      kids.push(h("h2", null, "Players"), h("ol.seat-list", null, (m.seats || []).map((s, i) => h("li", null,
        h("strong", null, nm[i]), ` · ${RK.Board.presence(s, A.T.online)} · score ${m.view.scores[i]}`))));
    }
    kids.push(h("h2", null, "House rules"), rules.length ? h("ul", null, rules.map((r) => h("li", null, r)))
      : h("p.small.muted", null, "None: the ruleset as written."));
    kids.push(h("h2", null, "Invite"), h("p.small", null, "Anyone with this link can take a free seat or watch:"), inviteRow(url));
    if (m.view && m.view.last_round) {
      kids.push(h("p", null, h("button.tool", { type: "button", dataset: { fk: "last-result" }, onclick: () => resultDialog(A, false) },
        m.status === "over" ? "The final result" : `The result of deal ${m.view.last_round.round}`)));
    }
    if (m.status === "over") kids.push(h("p", null, h("a", { href: `/t/${A.T.id}?replay=0` }, "Replay this game step by step")));
    pane.replaceChildren(...kids);
  }

  function inviteRow(url) {
    return h("div.row.invite", null, h("input.invite-url", { readonly: true, value: url, "aria-label": "Invite link", onfocus: (e) => e.target.select() }),
      h("button.tool", { type: "button", onclick: async (ev) => {
        const b = ev.currentTarget;
        try { await navigator.clipboard.writeText(url); b.textContent = "Copied"; }
        catch (e) { const i = b.parentNode.querySelector("input"); i.select(); b.textContent = "Press Ctrl+C"; }
      } }, "Copy link"));
  }

  /* A move typed in rummykit's notation, for those who like to type. */
  function typeBox(A) {
    const input = h("input#typed", { name: "action", autocomplete: "off", spellcheck: "false",
      placeholder: "e.g. meld 7C 7D JK=7 / 3H 4H JK=5H 6H", "aria-describedby": "typed-help" });
    return h("div#typebox", null, h("h2", null, "Type a move"),
      h("form.row", { onsubmit: (ev) => { ev.preventDefault(); const t = input.value.trim(); if (t) { S.A.send(t); input.value = ""; } } },
        h("label.sr", { for: "typed" }, "Move"), input, h("button", { type: "submit" }, "Send")),
      h("p#typed-help.small.muted", null, "In rummykit's notation (TS is the ten of spades). For example: draw, take, "
        + "meld 7C 7D 7S, layoff 9H 3, swap 5H 2, discard 7H, and where the rules have them: buy, pass, shanghai 9H, rummy 7H."));
  }

  /* An earlier deal's log, kept while the page is open (the server's view has this deal's). */
  function keepLog(round, log, nm) {
    if (!S || S.past.some((p) => p.round === round)) return;
    S.past.push({ round, items: log.map((e) => RK.Board.cardsInText(RK.Board.named(e.text, nm))) });
  }

  /* ---- the chat ---- */

  function sendChat(input) {
    const text = input.value.trim();
    const msg = document.getElementById("chat-msg");
    msg.textContent = "";
    if (!text) return;
    if (!S.A.sendMsg({ type: "chat", text })) { msg.textContent = "Not connected: the message was not sent."; return; }
    S.chatPending = true;
    input.value = "";
  }

  function chat(m) {
    if (!S) return;
    const list = document.getElementById("chat-list");
    const msgs = m.type === "chat_log" ? m.messages || [] : [m];
    if (m.type === "chat_log") { S.chat = []; list.replaceChildren(); }
    const me = S.A.T.msg ? S.A.T.msg.seat : null;
    for (const c of msgs) {
      if (S.chat.some((x) => x.id === c.id)) continue;
      S.chat.push(c);
      if (c.seat === me) S.chatPending = false;
      list.append(chatLine(c));
      if (m.type === "chat" && c.seat !== me && !S.muted.has(c.seat) && !(S.tab === "chat" && (S.open || wide()))) {
        S.unread += 1;
      }
    }
    while (S.chat.length > 100) { S.chat.shift(); list.firstChild.remove(); }
    list.scrollTop = list.scrollHeight;
    drawUnread();
    const b = document.getElementById("open-side");
    if (b) b.replaceChildren("Log & chat", unreadBadge() || "");
  }

  function chatLine(c) {
    // the text goes in as text, never as markup
    return h("li" + (S.muted.has(c.seat) ? ".muted-msg" : ""), { dataset: { seat: c.seat }, hidden: S.muted.has(c.seat) || null },
      h("strong", null, c.name || `Seat ${RK.seatNo(c.seat)}`), ": ", c.text);
  }

  function drawMutes(A) {
    const box = document.getElementById("chat-mutes");
    const m = A.T.msg;
    if (!box || !m || !m.view) return;
    const nm = RK.Board.names(m.seats, m.view.players);
    const people = (m.seats || []).map((s, i) => [s, i]).filter(([s, i]) => s.kind === "human" && i !== m.seat && !RK.isFree(s));
    if (!people.length) { box.replaceChildren(); return; }
    box.replaceChildren("Mute: ", ...people.map(([, i]) => h("button.tool", { type: "button", "aria-pressed": S.muted.has(i) ? "true" : "false",
      onclick: () => toggleMute(i) }, `${S.muted.has(i) ? "Unmute" : "Mute"} ${nm[i]}`)));
  }

  function toggleMute(seat) {
    if (S.muted.has(seat)) S.muted.delete(seat); else S.muted.add(seat);
    RK.store.set("mute." + S.tid, [...S.muted]);
    for (const li of document.querySelectorAll("#chat-list li")) li.hidden = S.muted.has(+li.dataset.seat);
    drawMutes(S.A);
  }

  /* A refusal of a chat message: said under the chat box. */
  function chatError(m) {
    if (!S || !S.chatPending || S.A.T.pending) return false;
    S.chatPending = false;
    const el = document.getElementById("chat-msg");
    if (el) el.textContent = m.message || "The message was not sent.";
    return true;
  }

  function wide() { return window.matchMedia("(min-width: 960px)").matches; }

  /* ---- dialogs ---- */

  function dialog(id, label, kids, onClose) {
    const old = document.getElementById(id);
    if (old) old.remove();
    const d = h(`dialog#${id}.tbl-dialog`, { "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, label), ...kids);
    d.addEventListener("close", () => { d.remove(); if (onClose) onClose(); });
    document.body.append(d);
    d.showModal();
    return d;
  }

  function closeResult() { const d = document.getElementById("result-dlg"); if (d) d.close(); }

  /* The last deal's result (and, at the end, the standings), with what comes next. */
  function resultDialog(A, fresh) {
    const m = A.T.msg;
    const v = m && m.view;
    if (!v || !v.last_round) return;
    const r = v.last_round;
    const nm = RK.Board.names(m.seats, v.players);
    const over = m.status === "over" || v.is_over;
    const seated = m.seat !== null && m.seat !== undefined;
    const kids = [h("p", null, RK.Board.named(r.reason, nm)), RK.Board.resultTable(r, nm)];
    // what a point is differs between the families: said under every deal's result
    const hw = m.table ? m.table.high_wins : undefined;
    if (hw !== undefined) kids.push(h("p#scoring-note.small.muted", null, hw
      ? "The winner of a deal scores the cards left in the others' hands: the highest total wins."
      : "Points are the cards left in a hand when someone goes out: the lowest total wins."));
    const btns = [];
    if (over) {
      kids.push(h("h3", null, "Final standings"), RK.Board.standings(v, nm, m.table && m.table.high_wins));
      const next = m.table && m.table.rematch;
      if (next) btns.push(h("a.button.primary", { href: `/t/${next}` }, "Go to the new table"));
      else if (seated) btns.push(h("button#rematch.primary", { type: "button", onclick: () => rematch(A) }, "Play again with the same people"));
      btns.push(h("a.button", { href: `/t/${A.T.id}?replay=0` }, "Replay the game"));
      if (seated) btns.push(h("a.button", { href: `/t/${A.T.id}/review?seat=${m.seat}` }, "Review my game"));
      btns.push(h("button", { type: "button", onclick: () => closeResult() }, "Close"));
    } else {
      const p = m.pause;
      if (p && fresh) kids.push(h("p#next-deal-at.small", null, "The next deal starts in ", h("span.countdown", { dataset: { deadline: p.until } },
        `${RK.secondsLeft(p.until, A.T.offset)} s`), " or when everyone is ready."));
      btns.push(h("button#next-deal.primary", { type: "button", onclick: () => A.ready() }, fresh ? "Next deal" : "Close"));
      if (seated) btns.push(h("a.button", { href: `/t/${A.T.id}/review?seat=${m.seat}`, target: "_blank", rel: "noopener" }, "Review my deals so far"));
    }
    kids.push(h("div.btnrow", null, btns));
    const d = dialog("result-dlg", over ? "The game is over" : `Deal ${r.round} result`, kids, () => { if (!over && fresh) A.sendMsg({ type: "ready" }); });
    const first = d.querySelector("button.primary, a.button.primary");
    if (first) first.focus();
  }

  async function rematch(A) {
    const T = A.T;
    try {
      const r = await RK.api("POST", `/api/tables/${T.id}/rematch`, { token: T.me.token });
      const j = await RK.api("POST", `/api/tables/${r.id}/join`, { name: T.me.name || RK.store.get("name", "Player"), seat: T.me.seat });
      RK.keepSeat(r.id, j.seat, j.token, T.me.name);
      closeResult();
      RK.go(`/t/${r.id}`);
    } catch (e) { T.error = e.message; closeResult(); A.render(); }
  }

  function settingsDialog(A) {
    const T = A.T;
    const seated = T.msg && T.msg.seat !== null && T.msg.seat !== undefined;
    const check = (id, label, on, change) => h("div.field.check", null,
      h("input", { id, type: "checkbox", checked: on, onchange: (ev) => change(ev.target.checked) }), h("label", { for: id }, label));
    const kids = [
      check("set-four", "Four-colour cards (♦ blue, ♣ green)", RK.store.get("fourColor", false), (on) => { RK.store.set("fourColor", on); RK.applyLook(); }),
      check("set-sound", "A sound when it is your turn", RK.store.get("sound", false), (on) => { RK.store.set("sound", on); if (on) RK.chime(); }),
      check("set-warn", "Warn me before I discard a card that could be laid off", RK.store.get("warnLayoff", true), (on) => RK.store.set("warnLayoff", on)),
    ];
    if (seated) {
      kids.push(check("set-break", "Show each deal's result before the next deal starts", T.prefs.deal_break !== false,
        (on) => A.setPrefs({ deal_break: on })));
      const radio = (v, label) => h("div.field.check", null, h("input", { id: `set-claims-${v}`, type: "radio", name: "claims", value: v,
        checked: (T.prefs.claims || "fits") === v, onchange: () => A.setPrefs({ claims: v }) }), h("label", { for: `set-claims-${v}` }, label));
      kids.push(h("fieldset", null, h("legend", null, "When someone lets a card go (May I, buy, Shanghai, Rummy), ask me"),
        radio("always", "every time I may take it"), radio("fits", "only when the card fits my hand"), radio("never", "never this game")));
      const on = !!T.msg.autoplay;
      kids.push(h("p", null, h("button.tool", { type: "button", onclick: () => { A.sendMsg({ type: "autoplay", on: !on }); d.close(); } },
        on ? "I'm back: give me my seat" : "Let a bot play for me")));
    }
    kids.push(h("div.btnrow", null, h("button.primary", { type: "button", onclick: () => d.close() }, "Done")));
    const d = dialog("settings-dlg", "Settings", kids, () => A.render());
  }

  function pileDialog(A) {
    const v = A.T.msg && A.T.msg.view;
    if (!v) return;
    const d = dialog("pile-dlg", "The discard pile", [
      h("p.small", null, `${RK.plural(v.discard_size, "card")}, bottom to top:`),
      h("div.pile-list", null, RK.cardsLine(v.discard_pile || [])),
      h("div.btnrow", null, h("button.primary", { type: "button", onclick: () => d.close() }, "Close"))]);
  }

  function warnDialog(A, x, fits, go) {
    const nm = RK.Board.names(A.T.msg.seats, A.T.msg.view.players);
    const where = fits.map((a) => RK.Moves.layoffWords(a, A.T.msg.view, nm)).slice(0, 3).join("; ");
    let again = true;
    const d = dialog("warn-dlg", `${RK.cardShort(x.card)} could be laid off`, [
      h("p", null, `It fits: ${where}. Discard it anyway?`),
      h("div.field.check", null, h("input#warn-off", { type: "checkbox", onchange: (ev) => { again = !ev.target.checked; } }),
        h("label", { for: "warn-off" }, "Don't warn me again")),
      h("div.btnrow", null,
        h("button.primary", { type: "button", onclick: () => { d.close(); RK.store.set("warnLayoff", again); go(); } }, `Discard ${RK.cardShort(x.card)} anyway`),
        h("button", { type: "button", onclick: () => { d.close(); RK.store.set("warnLayoff", again); } }, "Keep it")),
    ]);
  }

  function chooseDialog(A, options, go) {
    const nm = RK.Board.names(A.T.msg.seats, A.T.msg.view.players);
    const d = dialog("choose-dlg", "Which way?", [
      h("div.btnrow.col", null, options.map((a) => h("button", { type: "button", dataset: { action: a }, onclick: () => { d.close(); go(a); } },
        a.startsWith("swap") ? `Swap ${RK.cardShort(a.split(/\s+/)[1])} into meld ${a.split(/\s+/)[2]} for its wild`
          : `Lay off ${RK.Moves.layoffWords(a, A.T.msg.view, nm)}`))),
      h("div.btnrow", null, h("button", { type: "button", onclick: () => d.close() }, "Cancel")),
    ]);
  }

  return { create, stop, update, open, close, isOpen, unreadBadge, chat, chatError, inviteRow,
    resultDialog, closeResult, settingsDialog, warnDialog, chooseDialog, pileDialog, keepLog };
})();
