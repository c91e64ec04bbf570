/* rummykit browser app: drawing what a view shows (seats, the discard pile, the melds,
   the log, a deal's result, the final standings). Read-only: the table page and the
   replay both use it. Everything drawn comes from the view the server sent. */
"use strict";

RK.Board = (function () {
  const h = RK.h;

  /* Display names per seat: the seat's name, else "Bot 2" / "Seat 2". */
  function names(seats, n, me) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const s = (seats || [])[i] || {};
      let nm = (!RK.isFree(s) && s.name) || ((s.kind || "").startsWith("bot") ? `Bot ${i}` : `Seat ${i}`);
      out.push(nm);
    }
    return out;
  }

  function isWildAt(kind, card, sf) {
    if (RK.isJoker(card)) return true;
    return kind === "run" ? card !== sf : card[0] !== sf;
  }

  function contractWords(v) {
    if (!v.contract || v.contract === "no contract") return "No contract: meld any sets and runs.";
    return `Contract this deal: ${v.contract}.`;
  }

  /* The line saying whose turn it is and what they are doing. */
  function turnWords(v, nm, me, window, status) {
    if (v.is_over || v.phase === "over") return "The game is over.";
    if (status === "waiting") return "Waiting for players to sit down.";
    const top = v.discard_top;
    const turn = v.turn;
    if (window) {
      const what = { may_i: "May I", buy: "buying", shanghai: "Shanghai", rummy: "Rummy" }[window.kind] || window.kind;
      const did = window.kind === "shanghai" || window.kind === "rummy" ? "discarded" : "passed on";
      return `${nm[turn]} ${did} ${top || "the discard"}: waiting for ${what} answers.`;
    }
    const cp = v.current_player;
    const you = cp === me;
    if (v.phase === "may_i") return you ? `May I? ${top} is offered to you.` : `${nm[cp]} is asked about ${top}.`;
    if (v.phase === "call") return you ? `You may call on ${top}.` : `${nm[cp]} may call on ${top}.`;
    if (v.phase === "cut") return you ? "Your turn: cut the pack." : `${nm[cp]} cuts the pack.`;
    if (v.phase === "draw") {
      return you ? `Your turn: draw from the stock${top ? ` or take ${top}` : ""}.` : `${nm[cp]}'s turn: drawing.`;
    }
    if (v.phase === "play") return you ? "Your turn: meld, lay off, or discard." : `${nm[cp]}'s turn: playing.`;
    return `${nm[cp]}'s turn.`;
  }

  function header(v, nm, me, window, extra, status) {
    const deals = v.deals ? ` of ${v.deals}` : "";
    return h("section#status.panel", { "aria-labelledby": "status-h" },
      h("h1#status-h", null, `${v.name} — deal ${v.round}${deals}`),
      h("p#contract", null, contractWords(v)),
      h("p#turn.turn", { "aria-live": "polite" }, turnWords(v, nm, me, window, status)),
      extra || null);
  }

  function seatsPanel(v, seats, nm, me, window, status) {
    const contracts = v.contract && v.contract !== "no contract";
    const rows = [];
    for (let i = 0; i < v.players; i++) {
      const s = (seats || [])[i] || {};
      const bits = [RK.plural(v.hand_sizes[i], "card"), `score ${v.scores[i]}`];
      if (v.buys_left) bits.push(`${v.buys_left[i]} buys left`);
      if (contracts && v.down[i]) bits.push("down");
      const known = (v.known || [])[i] || [];
      const flags = [];
      if (i === v.dealer) flags.push("dealer");
      if (s.kind && s.kind.startsWith("bot")) flags.push(RK.seatLabel(s));
      if (s.kind === "human" && !s.replay) flags.push(RK.isFree(s) ? "free seat" : (s.connected ? "online" : "away"));
      if (s.autoplay) flags.push("a bot is standing in");
      const asked = window ? window.seats.includes(i) && !(window.answered_seats || []).includes(i) : false;
      const active = status === "waiting" ? false : window ? asked : !v.is_over && i === v.current_player;
      rows.push(h("li.seat" + (active ? ".active" : "") + (i === me ? ".me" : ""), { dataset: { seat: i } },
        h("span.dot" + (s.kind === "human" && !s.connected ? ".off" : ""), { "aria-hidden": "true" }),
        h("strong", null, nm[i] + (i === me ? " (you)" : "")), active ? h("span.badge", null, window ? "asked" : "to act") : null,
        h("span.muted.small", null, ` ${flags.join(", ")}`),
        h("div.seatline", null, bits.join(" · ")),
        known.length && i !== me ? h("div.small", null, "holds ", RK.cardsLine(known)) : null));
    }
    return h("section#seats.panel", { "aria-labelledby": "seats-h" }, h("h2#seats-h", null, "Players"), h("ul.seats", null, rows));
  }

  function pilePanel(v, extra) {
    const top = v.discard_top;
    const pile = v.discard_pile || [];
    return h("section#pile.panel", { "aria-labelledby": "pile-h" },
      h("h2#pile-h", null, "Discard pile"),
      h("div.pilerow", null,
        h("div#discard-top.bigcard", null, top ? RK.cardFace(top) : h("span.muted", null, "empty")),
        h("div", null,
          h("div", null, `${RK.plural(v.discard_size, "card")} in the pile`),
          h("div#stock", null, `Stock: ${RK.plural(v.stock_size, "card")}`),
          pile.length > 1 ? h("details.small", null, h("summary", null, "Whole pile (bottom to top)"), RK.cardsLine(pile)) : null)),
      extra || null);
  }

  function meldsPanel(v, nm) {
    const info = v.meld_info || [];
    const list = info.map((m, i) => {
      const cards = v.melds[i];
      const faces = cards.map((c, k) => RK.cardFace(c, isWildAt(m.kind, c, m.stands_for[k]) ? m.stands_for[k] : null));
      return h("li.meld", { dataset: { meld: m.number } },
        h("span.num", null, `${m.number}.`), " ",
        h("span.cards", null, faces),
        h("span.muted.small", null, ` ${m.kind}, ${nm[m.owner]}`));
    });
    return h("section#melds.panel", { "aria-labelledby": "melds-h" },
      h("h2#melds-h", null, "Melds on the table"),
      list.length ? h("ol.melds", null, list) : h("p.muted", null, "No melds yet."));
  }

  function logPanel(v, nm, limit) {
    const events = (v.log || []).slice(-(limit || 80));
    const items = events.map((e) => h("li" + (e.verb === "round_end" ? ".strong" : ""), null, RK.named(e.text, nm)));
    const ol = h("ol#log.log", { "aria-live": "polite", "aria-relevant": "additions", tabindex: 0, "aria-label": "Log" }, items);
    return h("section#logbox.panel", { "aria-labelledby": "log-h" }, h("h2#log-h", null, "Log"), ol);
  }

  /* A deal's result: every hand shown, with the points it cost. */
  function resultPanel(r, nm, open) {
    const rows = r.points.map((p, i) => h("tr", { dataset: { seat: i } },
      h("th", { scope: "row" }, nm[i], r.winner === i ? h("span.badge", null, r.rummy ? "went rummy" : "went out") : null),
      h("td", null, r.hands[i] ? RK.cardsLine(r.hands[i].split(" ")) : "—"),
      h("td.num", null, String(p)), h("td.num", null, String(r.scores[i]))));
    return h("section#result.panel", { "aria-labelledby": "result-h" },
      h("details", { open: !!open },
        h("summary", null, h("h2#result-h.inline", null, `Deal ${r.round} result`), " ", h("span.muted.small", null, RK.named(r.reason, nm))),
        h("div.scroll", null, h("table.list", null,
          h("thead", null, h("tr", null, h("th", null, "Player"), h("th", null, "Hand"), h("th", null, "Points"), h("th", null, "Total"))),
          h("tbody", null, rows)))));
  }

  /* Final standings, best first: low scores first unless the winners have the most. */
  function standings(v, nm, extra) {
    const n = v.players;
    const idx = [...Array(n).keys()];
    const val = (x) => { const [a, b] = String(x).split("/"); return b ? +a / +b : +a; };
    const w = v.winners || [];
    const high = w.length && idx.some((i) => !w.includes(i) && val(v.scores[i]) < val(v.scores[w[0]]));
    idx.sort((a, b) => (high ? val(v.scores[b]) - val(v.scores[a]) : val(v.scores[a]) - val(v.scores[b])));
    return h("section#standings.panel", { "aria-labelledby": "stand-h" },
      h("h2#stand-h", null, "Final standings"),
      h("ol.standings", null, idx.map((i) => h("li", { dataset: { seat: i } }, h("strong", null, nm[i]), `: ${v.scores[i]}`,
        w.includes(i) ? h("span.badge", null, "winner") : null,
        v.settlement ? h("span.muted.small", null, ` (settles ${v.settlement[i]})`) : null))),
      extra || null);
  }

  return { names, header, seatsPanel, pilePanel, meldsPanel, logPanel, resultPanel, standings, isWildAt };
})();
