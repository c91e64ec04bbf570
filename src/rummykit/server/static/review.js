/* rummykit browser app: the review of a finished game, for one seat (/t/ID/review?seat=S).
   The server judges each of the seat's decisions on what the seat saw then (GET
   /api/tables/{id}/review?seat=S: 202 with its progress while it works, then the review).
   The page shows the totals (decisions, agreement with the best move, points lost, luck
   apart from choices) and steps through the moments that cost the most, each with the
   board as the seat saw it: buttons, or the arrow keys (Home and End jump). The address is
   a link to share: the game is over, so what the seat saw is no secret now. */
"use strict";

RK.Review = (function () {
  const h = RK.h;
  let R = null;

  function stop() {
    if (!R) return;
    clearTimeout(R.timer);
    document.removeEventListener("keydown", onKey);
    R = null;
  }

  function show(main, id, params) {
    stop();
    const seat = /^\d+$/.test(params.get("seat") || "") ? +params.get("seat") : 0;
    const at = /^\d+$/.test(params.get("m") || "") ? +params.get("m") : 0;
    R = { main, id, seat, at, data: null, error: "", timer: null, progress: null };
    document.title = `rummykit: review of ${id}`;
    document.getElementById("conn").textContent = "Review";
    document.addEventListener("keydown", onKey);
    poll();
  }

  async function poll(retry) {
    const r = R;
    let d = null;
    try {
      // a seated player's own token: while the game goes on, it may review its finished deals
      const mine = RK.seatOf(r.id);
      const tok = mine && mine.seat === r.seat && mine.token ? `&token=${encodeURIComponent(mine.token)}` : "";
      const again = retry === true ? "&retry=1" : "";
      const res = await fetch(`/api/tables/${r.id}/review?seat=${r.seat}${tok}${again}`);
      try { d = await res.json(); } catch (e) { d = null; }
      if (R !== r) return;
      if (res.status === 200) {
        r.data = d;
        r.error = "";
        r.at = Math.min(r.at, Math.max(0, moments().length - 1));
        render();
        return;
      }
      if (res.status === 202) {
        r.progress = d;
        renderProgress();
        r.timer = setTimeout(poll, 700);
        return;
      }
      r.error = (d && d.detail) || `${res.status} ${res.statusText}`;
      r.failed = res.status === 500 && d && d.status === "failed"; // the review itself failed: offer to try again
      if (res.status === 503) r.timer = setTimeout(poll, 5000); // busy: ask again
    } catch (e) {
      if (R !== r) return;
      r.error = "The server cannot be reached; trying again.";
      r.timer = setTimeout(poll, 3000);
    }
    renderError();
  }

  /* ---- while the server works ---- */

  function renderProgress() {
    const p = R.progress || {};
    const nm = RK.Board.names(p.seats, (p.seats || []).length);
    const who = nm[R.seat] || `Seat ${RK.seatNo(R.seat)}`;
    const total = p.total || 0;
    const said = p.status === "queued" && p.ahead ? `Waiting: ${RK.plural(p.ahead, "other review")} first.`
      : total ? `${p.done} of ${RK.plural(total, "decision")} judged.` : "Reading the game…";
    const bar = h("progress#rv-bar", { max: total || 1, "aria-label": "Review progress",
      "aria-valuetext": said });
    if (total) bar.value = p.done; else bar.removeAttribute("value");
    R.main.replaceChildren(h("div.review", null, h("section#rv-working.panel", { "aria-labelledby": "rv-wh", "aria-busy": "true" },
      h("h1#rv-wh", null, `Reviewing ${who}'s game`),
      h("p.small", null, `Each of ${who}'s decisions is judged on what ${who} could see then: the cards nobody could see are dealt `
        + "many ways, and every move worth comparing is played out from there."),
      bar, h("p#rv-said", { "aria-live": "polite" }, said), backLinks())));
  }

  function renderError() {
    const again = R.failed ? h("p.btnrow", null, h("button.primary", { type: "button", onclick: () => {
      R.failed = false; R.error = ""; R.progress = null; renderProgress(); poll(true);
    } }, "Try again")) : null;
    R.main.replaceChildren(h("section.panel", null, h("h1", null, "Review"), h("p.error", { role: "alert" }, R.error),
      again, backLinks()));
  }

  function backLinks() {
    return h("p.btnrow", null, h("a", { href: `/t/${R.id}` }, "Back to the table"),
      h("a", { href: `/t/${R.id}?replay=0` }, "Replay the game"));
  }

  /* ---- the review ---- */

  function moments() {
    const rv = R.data && R.data.review;
    if (!rv) return [];
    const out = [];
    for (const d of rv.deals) for (const i of d.moments) out.push(Object.assign({ contract: d.contract }, d.decisions[i]));
    return out;
  }

  /* A move or a sentence as people read it: 7♦ for 7D, players' names for "Seat 2". */
  function words(text, nm) {
    return RK.Board.cardsInText(RK.Board.named(text, nm));
  }

  /* A move in the notation, said with the card it is about: "take" is "take 7♥". */
  function say(text, v, nm) {
    const top = v && v.discard_top;
    const said = { take: top ? `take ${top}` : "take", draw: "draw from the stock", buy: top ? `buy ${top}` : "buy",
      pass: top && v.phase === "may_i" ? `pass on ${top}` : "pass" }[text];
    return words(said || text, nm);
  }

  const PHASE = { draw: "Draw, or take the discard?", play: "Meld, lay off or discard?", may_i: "Take the card offered?",
    call: "Call, or pass?" };

  function num(x, sign) {
    if (x === null || x === undefined) return "–";
    const s = (Math.round(x * 10) / 10).toFixed(1);
    return sign && x > 0 ? `+${s}` : s.replace("-", "−");
  }

  function pct(x) { return x === null || x === undefined ? "–" : `${Math.round(100 * x)}%`; }

  function render() {
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.fk : null;
    const d = R.data;
    const rv = d.review;
    const seats = (d.seats || []).map((s) => ({ kind: s.kind, name: s.name, taken: true, connected: true, replay: true }));
    const nm = RK.Board.names(seats, rv.players);
    const who = nm[R.seat];
    document.title = `rummykit: ${who}'s game reviewed`;
    const ms = moments();
    const parts = [head(rv, nm, who), totals(rv)];
    if (ms.length) parts.push(momentPanel(rv, ms, seats, nm, who), momentList(ms, nm));
    else parts.push(h("section#rv-moment.panel", null, h("h2", null, "The moments that cost the most"),
      h("p", null, "No decision cost points that the evaluation could tell apart: every move was as good as the best it found.")));
    R.main.replaceChildren(h("div.review.replay", null, parts));
    history.replaceState(null, "", `/t/${R.id}/review?seat=${R.seat}${ms.length ? `&m=${R.at}` : ""}`);
    RK.restoreFocus(R.main, focus, "#rv-controls button:not([disabled])");
  }

  function head(rv, nm, who) {
    const s = rv.settings;
    const ahead = s.horizon === null ? "to the deal's end" : `${s.horizon} rounds of the table ahead`;
    const others = nm.map((n, i) => (i === R.seat ? null : h("a", { href: `/t/${R.id}/review?seat=${i}` }, `${n}'s review`)));
    return h("section#rv-head.panel", { "aria-labelledby": "rv-h" },
      h("h1#rv-h", null, `${who}'s game, reviewed · ${rv.name}`),
      // in a player's words (a tester found "32 deals of the cards you could not see" jargon)
      h("p.small", null, `Each decision ${who} made is judged on what ${who} could see then, and nothing more: the `
        + `computer guessed the hidden cards ${s.samples} times and, for each sensible move, played the deal on `
        + `(${ahead}) with every guess, so that the moves meet the same luck. Points are ${who}'s against the other `
        + `players' average: + is good.`),
      rv.over ? null : h("p.small", null, "The game is not over: your finished deals are reviewed (only you can see "
        + "this page until the game ends)."),
      h("div.btnrow", null, h("a", { href: `/t/${R.id}` }, "Back to the table"), h("a", { href: `/t/${R.id}?replay=0` }, "Replay the game"),
        h("button.tool", { type: "button", dataset: { fk: "rv-share" }, onclick: share }, "Copy link to this review")),
      rv.over ? h("p.small", null, "Other seats: ", others.filter(Boolean).map((a, i) => [i ? " · " : "", a])) : null,
      h("p#rv-shared.small.muted", { "aria-live": "polite" }));
  }

  async function share() {
    const url = location.href;
    const said = document.getElementById("rv-shared");
    try { await navigator.clipboard.writeText(url); said.textContent = "The link is copied: anyone with it sees this review."; }
    catch (e) { said.textContent = `The link: ${url}`; }
  }

  function totals(rv) {
    const row = (name, t, strong) => h("tr" + (strong ? ".strong" : ""), null, h("th", { scope: "row" }, name),
      h("td.num", null, String(t.reviewed)), h("td.num", null, pct(t.agreement)), h("td.num", null, num(t.points_lost)),
      h("td.num", null, num(t.result, true)), h("td.num", null, num(t.cards, true)), h("td.num", null, num(t.choices, true)));
    const rows = rv.deals.map((d) => row(`Deal ${d.deal}`, d.totals));
    if (rv.deals.length > 1) rows.push(row("Game", rv.totals, true));
    return h("section#rv-totals.panel", { "aria-labelledby": "rv-th" },
      h("h2#rv-th", null, "Decisions, and what decided each deal"),
      h("div.scroll", null, h("table.list", null,
        h("thead", null, h("tr", null, ["", "Decisions", "Best move", "Lost", "Result", "Cards", "Choices"]
          .map((c, i) => h("th" + (i ? ".num" : ""), { scope: "col" }, c)))),
        h("tbody", null, rows))),
      h("p.small.muted", null, "Best move: the decisions where the move made was as good as the best the evaluation "
        + "found. Lost: expected points given up against the best move, decision by decision (a chance missed at every "
        + "turn counts at every turn). Result = cards + choices: the choices are each move's expected points against "
        + "par (the medium bot's move there), added up; the cards, what the cards and the other players decided."));
  }

  function momentPanel(rv, ms, seats, nm, who) {
    const m = ms[R.at];
    const v = m.view;
    const last = ms.length - 1;
    const btn = (fk, text, to, key, label) => h("button", { type: "button", dataset: { fk }, disabled: to < 0 || to > last || to === R.at || null,
      "aria-keyshortcuts": key, "aria-label": label, onclick: () => go(to) }, text);
    const ctrl = h("div#rv-controls.btnrow", null,
      btn("rv-first", "«", 0, "Home", "First moment"), btn("rv-prev", "‹ Back", R.at - 1, "ArrowLeft", "Back one moment"),
      h("span#rv-step", { "aria-live": "polite" }, `Moment ${R.at + 1} of ${ms.length}`),
      btn("rv-next", "Next ›", R.at + 1, "ArrowRight", "Next moment"), btn("rv-last", "»", last, "End", "Last moment"));
    const better = m.out_move || m.best;
    // how sure: a figure from a few dozen guessed deals is an estimate (a tester asked)
    const sure = typeof m.se === "number" && m.se > 0 ? `, give or take ${num(m.se)}` : "";
    const cost = m.out_move && !m.lost ? "going out this turn" : `about ${num(m.lost)} points against the table${sure}`;
    const verdict = h("dl.rv-verdict", null,
      h("dt", null, `${who} played`), h("dd.rv-made", null, say(m.taken, v, nm)),
      h("dt", null, "Better"), h("dd.rv-better", null, say(better, v, nm)),
      h("dt", null, "It cost"), h("dd", null, cost));
    const choices = h("details#rv-choices", null, h("summary", null, "How each move did"),
      h("div.scroll", null, h("table.list", null,
        h("thead", null, h("tr", null, h("th", { scope: "col" }, "Move"), h("th.num", { scope: "col" }, "Expected points"),
          h("th.num", { scope: "col" }, "Went out this turn"), h("th.num", { scope: "col" }, "Picked up by another player"))),
        h("tbody", null, m.choices.map((c) => h("tr" + (c.action === m.taken ? ".rv-mine" : ""), null,
          h("th", { scope: "row" }, say(c.action, v, nm), c.action === m.taken ? " (played)" : ""),
          h("td.num", null, c.ev === null ? "not played out" : num(c.ev, true)),
          h("td.num", null, c.out === null ? "–" : pct(c.out)), h("td.num", null, c.fed === null ? "–" : pct(c.fed))))))),
      h("p.small.muted", null, words(m.evidence, nm)));
    const hand = h("section#rv-hand.panel", { "aria-label": `${who}'s hand` }, h("h3", null, `${who}'s hand`), RK.cardsLine(v.hand),
      v.taken ? h("p.small", null, "Taken from the pile this turn: ", RK.cardShort(v.taken)) : null);
    mark(hand, m.taken, "rv-made-card");
    if (better !== m.taken) mark(hand, better, "rv-better-card");
    const board = h("div.felt.replay-felt", null, RK.Board.piles(v, {}), RK.Board.melds(v, nm, {}));
    return h("section#rv-moment.panel", { "aria-labelledby": "rv-mh" },
      h("h2#rv-mh", null, `Deal ${m.deal}, turn ${m.turn}: ${PHASE[m.phase] || m.phase}`),
      h("p.small", null, RK.Board.contractWords(v)), ctrl, verdict,
      h("p#rv-why", null, words(m.why, nm)), choices,
      h("h3", null, `The table as ${who} saw it`), RK.Board.seatsStrip(v, seats, nm, {}), board, hand);
  }

  /* Mark the card a discard (or a lay-off, a swap) names in the drawn hand. */
  function mark(el, move, cls) {
    const c = /^(?:discard|layoff|swap|shanghai|rummy) ([A2-9TJQK][CDHS]|JK)\b/.exec(move || "");
    if (!c) return;
    const card = el.querySelector(`.pc[data-card="${c[1]}"]:not(.rv-made-card):not(.rv-better-card)`);
    if (card) card.classList.add(cls);
  }

  function momentList(ms, nm) {
    return h("section#rv-list.panel", { "aria-labelledby": "rv-lh" }, h("h2#rv-lh", null, "Every moment"),
      h("ol.rv-moments", null, ms.map((m, i) => h("li", null, h("button.tool", { type: "button", dataset: { fk: `rv-m${i}` },
        "aria-current": i === R.at ? "step" : null, onclick: () => go(i) },
        `Deal ${m.deal}, turn ${m.turn}: ${say(m.taken, m.view, nm)}`, m.out_move ? " (could have gone out)" : ` (−${num(m.lost)})`)))));
  }

  function go(to) {
    if (!R || !R.data) return;
    const last = moments().length - 1;
    if (to < 0 || to > last || to === R.at) return;
    R.at = to;
    render();
  }

  function onKey(ev) {
    if (!R || !R.data || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea", "summary"].includes(tag)) return;
    const to = { ArrowLeft: R.at - 1, ArrowRight: R.at + 1, Home: 0, End: moments().length - 1 }[ev.key];
    if (to !== undefined && to >= 0 && to <= moments().length - 1) { ev.preventDefault(); go(to); }
  }

  return { show, stop };
})();
