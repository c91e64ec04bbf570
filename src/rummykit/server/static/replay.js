/* rummykit browser app: a finished game replayed step by step. Each step is asked of the
   server (GET /api/tables/{id}/replay/{step}): the engine's public view at that step, with
   every hand shown since the game is over. Keys: arrows step, Home and End jump. */
"use strict";

RK.Replay = (function () {
  const h = RK.h;
  let R = null;

  function stop() {
    if (!R) return;
    document.removeEventListener("keydown", onKey);
    R = null;
  }

  function show(main, id, info, step) {
    stop();
    R = { main, id, info, step, data: null, error: "", asked: 0 };
    document.title = `rummykit: replay of ${id}`;
    document.getElementById("conn").textContent = "Replay";
    document.addEventListener("keydown", onKey);
    load(step);
  }

  async function load(step) {
    const r = R;
    const ask = ++r.asked;
    try {
      const d = await RK.api("GET", `/api/tables/${r.id}/replay/${step}`);
      if (R !== r || ask !== r.asked) return; // a later step was asked for meanwhile
      r.data = d;
      r.step = d.step;
      r.error = "";
      history.replaceState(null, "", `/t/${r.id}?replay=${d.step}`);
    } catch (e) {
      if (R !== r) return;
      r.error = e.message;
    }
    render();
  }

  function render() {
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const d = R.data;
    if (!d) {
      R.main.replaceChildren(h("section.panel", null, h("p.error", { role: "alert" }, R.error || "Loading…"), h("a", { href: `/t/${R.id}` }, "Back to the table")));
      return;
    }
    const v = d.view;
    const last = d.steps;
    // who sat where, without today's connection flags: they are not part of the game
    const seats = (d.seats || R.info.seats).map((s) => ({ kind: s.kind, name: s.name, taken: true, connected: true, replay: true }));
    const nm = RK.Board.names(seats, v.players);
    const btn = (fk, text, to, key, label) => h("button", { type: "button", dataset: { fk }, disabled: to < 0 || to > last || to === R.step || null,
      "aria-keyshortcuts": key, "aria-label": label, onclick: () => load(to) }, text);
    const ctrl = h("div#replay-controls.btnrow", null,
      btn("r-first", "«", 0, "Home", "First step"), btn("r-prev", "‹ Back", R.step - 1, "ArrowLeft", "Back one step"),
      h("span#replay-step", { "aria-live": "polite" }, `Step ${R.step} of ${last}`),
      btn("r-next", "Next ›", R.step + 1, "ArrowRight", "Next step"), btn("r-last", "»", last, "End", "Last step"));
    const said = d.action ? h("p#replay-action", null, d.seat !== null && d.seat !== undefined ? `${nm[d.seat]}: ` : "", h("code", null, d.action))
      : h("p#replay-action.muted", null, "The deal before the first move.");
    const head = h("section#status.panel", { "aria-labelledby": "status-h" },
      h("h1#status-h", null, `Replay: ${v.name} · deal ${v.round}${v.deals ? ` of ${v.deals}` : ""}`),
      h("p.small", null, RK.Board.contractWords(v)), ctrl, said,
      R.error ? h("p.error", { role: "alert" }, R.error) : null);
    const hands = d.hands ? h("section#hands.panel", { "aria-labelledby": "hands-h" }, h("h2#hands-h", null, "Every hand"),
      h("ul.hands", null, d.hands.map((cards, i) => h("li", { dataset: { seat: i } }, h("strong", null, nm[i]), " ", RK.cardsLine(cards))))) : null;
    const board = h("div.felt.replay-felt", null, RK.Board.piles(v, {}), RK.Board.melds(v, nm, {}));
    const parts = [head, RK.Board.seatsStrip(v, seats, nm, {}), board, hands];
    if (v.last_round) parts.push(h("section#result.panel", { "aria-labelledby": "result-h" },
      h("h2#result-h", null, `Deal ${v.last_round.round} result`), h("p.small", null, RK.Board.named(v.last_round.reason, nm)),
      RK.Board.resultTable(v.last_round, nm)));
    parts.push(h("section#replay-log.panel", { "aria-labelledby": "rlog-h" }, h("h2#rlog-h", null, "Log"), RK.Board.logPanel(v, nm)),
      h("p", null, h("a", { href: `/t/${R.id}` }, "Back to the table")));
    R.main.replaceChildren(h("div.replay", null, parts));
    const log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
    RK.restoreFocus(R.main, focus, "#replay-controls button:not([disabled])");
  }

  function onKey(ev) {
    if (!R || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag)) return;
    const last = R.data ? R.data.steps : 0;
    const to = { ArrowLeft: R.step - 1, ArrowRight: R.step + 1, Home: 0, End: last }[ev.key];
    if (to !== undefined && to >= 0 && to <= last) { ev.preventDefault(); load(to); }
  }

  return { show, stop };
})();
