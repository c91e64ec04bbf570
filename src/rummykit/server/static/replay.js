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
      R.main.replaceChildren(h("p.error", { role: "alert" }, R.error || "Loading…"), h("a", { href: `/t/${R.id}` }, "Back to the table"));
      return;
    }
    const v = d.view;
    const last = d.steps;
    // who sat where, without today's connection flags: they are not part of the game
    const seats = (d.seats || R.info.seats).map((s) => ({ kind: s.kind, name: s.name, taken: true, connected: true, replay: true }));
    const nm = RK.Board.names(seats, v.players, null);
    const btn = (fk, text, to, key) => h("button", { type: "button", dataset: { fk }, disabled: to < 0 || to > last || to === R.step || null,
      "aria-keyshortcuts": key, onclick: () => load(to) }, text);
    const ctrl = h("div#replay-controls.btnrow", null,
      btn("r-first", "« First", 0, "Home"), btn("r-prev", "‹ Back", R.step - 1, "ArrowLeft"),
      h("span#replay-step", { "aria-live": "polite" }, `Step ${R.step} of ${last}`),
      btn("r-next", "Next ›", R.step + 1, "ArrowRight"), btn("r-last", "Last »", last, "End"));
    const said = d.action ? h("p#replay-action", null, d.seat !== null && d.seat !== undefined ? `${nm[d.seat]}: ` : "", h("code", null, d.action))
      : h("p#replay-action.muted", null, "The deal before the first move.");
    const parts = [RK.Board.header(v, nm, null, null, [h("p.muted", null, "Replay of a finished game"), ctrl, said])];
    if (R.error) parts.push(h("p.error", { role: "alert" }, R.error));
    const col = [h("div.boardrow", null, RK.Board.pilePanel(v), RK.Board.meldsPanel(v, nm))];
    if (d.hands) {
      col.push(h("section#hands.panel", { "aria-labelledby": "hands-h" }, h("h2#hands-h", null, "Every hand"),
        h("ul.seats", null, d.hands.map((cards, i) => h("li", { dataset: { seat: i } }, h("strong", null, nm[i]), " ", RK.cardsLine(cards))))));
    }
    if (v.last_round) col.push(RK.Board.resultPanel(v.last_round, nm, true));
    const side = [RK.Board.seatsPanel(v, seats, nm, null), RK.Board.logPanel(v, nm)];
    parts.push(h("div.cols", null, h("div.colmain", null, col), h("div.colside", null, side)),
      h("p", null, h("a", { href: `/t/${R.id}` }, "Back to the table")));
    R.main.replaceChildren(...parts);
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
