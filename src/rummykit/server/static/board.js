/* rummykit browser app: drawing what a view shows — the players around the table, the
   stock and the discard pile, the melds grouped by owner, the log, a deal's result, the
   final standings. Read-only: the live table and the replay both use it. Everything
   drawn comes from the view the server sent. */
"use strict";

RK.Board = (function () {
  const h = RK.h;

  /* Display names per seat: the seat's name, else "Bot 2" / "Seat 2" (counted from 1). */
  function names(seats, n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const s = (seats || [])[i] || {};
      out.push((!RK.isFree(s) && s.name) || ((s.kind || "").startsWith("bot") ? `Bot ${RK.seatNo(i)}` : `Seat ${RK.seatNo(i)}`));
    }
    return out;
  }

  /* The log's "Seat 2 discarded KS" with names; the engine counts seats from 0. */
  function named(text, nm) {
    return String(text).replace(/\bSeat (\d+)\b/g, (m, n) => (nm[+n] !== undefined ? nm[+n] : m));
  }

  /* "Ann discarded TS" -> "Ann discarded 10♠": card notation in a sentence, as people read it. */
  function cardsInText(text) {
    return String(text).replace(/\b([A2-9TJQK][CDHS]|JK)\b/g, (c) => RK.cardShort(c))
      .replace(/\bset of Ts\b/g, "set of 10s").replace(/\b1 cards\b/g, "1 card");
  }

  function isWildAt(kind, card, sf) {
    if (RK.isJoker(card)) return true;
    return kind === "run" ? card !== sf : card[0] !== sf;
  }

  function contractWords(v) {
    if (!v.contract || v.contract === "no contract") return "No contract: meld any sets and runs.";
    return `Contract: ${v.contract}`;
  }

  /* The line saying whose turn it is and what they are doing. */
  /* ``legal``: the seat's legal moves, which say what its turn holds in these rules (Ten
     Card melds before the draw and only discards after it). */
  function turnWords(v, nm, me, window, status, legal, pause) {
    if (v.is_over || v.phase === "over") return "The game is over.";
    if (status === "waiting") return "Waiting for players to sit down.";
    // between deals the bots wait (``pause`` given only when a bot is to play: a person may
    // play at once, which ends the break)
    if (pause && v.current_player !== me) return `Deal ${pause.round} is over: deal ${pause.round + 1} starts soon.`;
    const top = v.discard_top ? RK.cardShort(v.discard_top) : null;
    if (window) {
      const what = { may_i: "May I", buy: "buying", shanghai: "Shanghai", rummy: "Rummy" }[window.kind] || window.kind;
      const did = window.kind === "shanghai" || window.kind === "rummy" ? "discarded" : "passed on";
      return `${nm[v.turn]} ${did} ${top || "the discard"}: waiting for ${what} answers.`;
    }
    const cp = v.current_player;
    const you = cp === me;
    if (v.phase === "may_i") return you ? `May I? ${top} is offered to you.` : `${nm[cp]} is asked about ${top}.`;
    if (v.phase === "call") return you ? `You may call on ${top}.` : `${nm[cp]} may call on ${top}.`;
    if (v.phase === "cut") return you ? "Your turn: cut the pack." : `${nm[cp]} cuts the pack.`;
    const moves = legal || [];
    // what the legal moves allow, in words: "meld", "lay off", or both
    const kinds = [moves.some((a) => /^meld /.test(a)) ? "meld" : null,
      moves.some((a) => /^(layoff|swap) /.test(a)) ? "lay off" : null].filter(Boolean);
    const melds = kinds.join(" and ");
    if (v.phase === "draw") {
      const draw = `draw from the stock${top ? ` or take ${top}` : ""}`;
      return you ? (melds ? `Your turn: ${melds} now if you want, then ${draw}.` : `Your turn: ${draw}.`) : `${nm[cp]} is drawing.`;
    }
    if (v.phase === "play") {
      if (!you) return `${nm[cp]} is playing.`;
      const discard = moves.some((a) => /^(discard|shanghai|rummy) /.test(a));
      if (melds && discard) return `Your turn: ${kinds.join(", ")}, then discard.`;
      if (discard) return "Your turn: discard.";
      // part of the contract laid this turn: the rest must follow before anything else
      const begun = !(v.down || [])[me] && (v.meld_info || []).some((m) => m.owner === me);
      if (kinds.length === 1 && kinds[0] === "meld" && begun) return "Your turn: lay down the rest of your contract.";
      if (melds) return `Your turn: ${melds}.`;
      return "Your turn.";
    }
    return `${nm[cp]}'s turn.`;
  }

  /* A seat's presence, in words: the connection lost, every person is "unknown". */
  function presence(s, online) {
    if (!s || !s.kind) return "";
    if (s.replay) return s.kind.startsWith("bot") ? RK.seatLabel(s) : "person";
    if (online === false) return "unknown"; // the connection is lost: nobody's presence is known
    if (s.kind.startsWith("bot")) return RK.seatLabel(s);
    if (RK.isFree(s)) return "free seat";
    if (s.autoplay) return "a bot stands in";
    return s.connected ? "online" : "away";
  }

  /* The players: a chip each with name, cards held (as backs), score, down, dealer,
     presence, cards seen going into the hand. ``skip``: a seat not to show (yours). */
  function seatsStrip(v, seats, nm, opts) {
    const o = opts || {};
    const contracts = v.contract && v.contract !== "no contract";
    const items = [];
    for (let i = 0; i < v.players; i++) {
      if (i === o.skip) continue;
      const s = (seats || [])[i] || {};
      const asked = o.window ? o.window.seats.includes(i) && !(o.window.answered_seats || []).includes(i) : false;
      const active = o.status === "waiting" ? false : o.window ? asked : !v.is_over && i === v.current_player;
      const known = (v.known || [])[i] || [];
      const pres = presence(s, o.online);
      const n = v.hand_sizes[i];
      const backs = h("span.backs", { "aria-hidden": "true" },
        Array.from({ length: Math.min(n, 5) }, () => RK.h("span.minib", null, RK.Cards.back())));
      items.push(h("li.seat" + (active ? ".active" : "") + (i === o.me ? ".me" : ""), { dataset: { seat: i } },
        h("div.seat-top", null,
          h("span.dot." + pres.replace(/\s+/g, "-"), { "aria-hidden": "true" }),
          h("strong.seat-name", null, nm[i] + (i === o.me ? " (you)" : ""))),
        h("div.seat-mid", null, backs, h("span.count", null, RK.plural(n, "card")),
          i === v.dealer ? h("span.tag.dealer", { title: "dealer" }, "dealer") : null,
          contracts && v.down[i] ? h("span.tag.down", null, "down") : null,
          active ? h("span.tag.act", null, o.window ? "asked" : "to play") : null,
          h("span.score", null, `· score ${v.scores[i]}`),
          v.buys_left ? h("span.buys", null, `· ${RK.plural(v.buys_left[i], "buy")} left`) : null),
        s.kind === "human" || o.online === false ? h("div.seat-pres.small", null, pres) : h("span.sr", null, pres),
        known.length && i !== o.me ? h("div.holds.small", null, "holds ", RK.cardsLine(known)) : null));
    }
    return h("section#seats", { "aria-label": "Players" }, h("ul.seats", null, items));
  }

  /* The stock and the discard pile. ``o.stock`` / ``o.pile``: extra attributes making a
     pile clickable or draggable (the live table adds them when the move is legal). */
  function piles(v, o) {
    const opt = o || {};
    const top = v.discard_top;
    const pile = v.discard_pile || [];
    const stockBacks = Math.min(3, Math.ceil(v.stock_size / 15));
    const stock = h("div#stock.pile.stock", Object.assign({ dataset: { drop: "stock" } }, opt.stock || {}),
      h("div.pile-cards", null, v.stock_size ? Array.from({ length: Math.max(1, stockBacks) }, () => h("span.pc.back", null, RK.Cards.back()))
        : h("span.pc.empty", null, "")),
      h("div.pile-label", null, `Stock · ${v.stock_size}`));
    const under = pile.length > 1 ? pile[pile.length - 2] : null;
    const discard = h("div#discard.pile.discard", Object.assign({ dataset: { drop: "discard" } }, opt.pile || {}),
      h("div.pile-cards", null,
        under ? RK.Cards.card(under, { cls: "under", nolabel: true }) : null,
        top ? RK.Cards.card(top, { cls: "pile-top" + (opt.newTop ? " anim-drop" : "") }) : h("span.pc.empty", null, "")),
      h("div.pile-label", null, top ? `Discards · ${v.discard_size}` : "Discards: none"));
    // under the discard pile, beside it: an offer takes the rest of the row (on a phone the
    // link beside it once left the offer a column 92 px wide)
    const whole = pile.length > 1 && opt.onWhole ? h("button#pile-all.tool.linkish", { type: "button", onclick: opt.onWhole,
      "aria-label": "See the whole pile", dataset: { fk: "pile-all" } }, "See all") : null;
    return h("section#center", { "aria-label": "Stock and discard pile" },
      h("div.piles", null, stock, whole ? h("div.pile-col", null, discard, whole) : discard, opt.claim || null));
  }

  /* One meld on the table: its number, its cards (each wild with what it stands for). */
  function meld(v, i, o) {
    const m = v.meld_info[i];
    const cards = v.melds[i];
    const faces = cards.map((c, k) => RK.Cards.card(c, { meaning: isWildAt(m.kind, c, m.stands_for[k]) ? m.stands_for[k] : null }));
    return h("li.meld" + ((o.fresh || new Set()).has(m.number) ? ".anim-pop" : ""),
      { dataset: { meld: m.number, drop: o.drop ? `meld:${m.number}` : null },
        "aria-label": `Meld ${m.number}, ${m.kind}: ${cards.map((c, k) => RK.cardName(c, isWildAt(m.kind, c, m.stands_for[k]) ? m.stands_for[k] : null)).join(", ")}` },
      h("span.meld-no", { "aria-hidden": "true" }, String(m.number)),
      h("span.pcrow.meld-cards", { "aria-hidden": "true" }, faces));
  }

  /* The melds on the table, grouped by the player who laid them. */
  function melds(v, nm, o) {
    const opt = o || {};
    const info = v.meld_info || [];
    const owners = [];
    for (let i = 0; i < info.length; i++) if (!owners.includes(info[i].owner)) owners.push(info[i].owner);
    const groups = owners.map((p) => h("div.owner", { dataset: { owner: p } },
      h("h3.owner-name", null, p === opt.me ? "Your melds" : nm[p]),
      h("ol.melds", null, info.map((m, i) => (m.owner === p ? meld(v, i, opt) : null)))));
    return h("section#melds", { "aria-labelledby": "melds-h" },
      h("h2#melds-h.sr", null, "Melds on the table"),
      opt.build || null,
      groups.length ? groups : h("p.muted.small.nomelds", null, "No melds on the table yet."));
  }

  /* The deal's log; ``notes``: what only this seat knows of an entry (by its place in the
     log), said after it. */
  function logPanel(v, nm, limit, notes) {
    const log = v.log || [];
    const events = log.slice(-(limit || 120));
    const first = log.length - events.length;
    const items = events.map((e, i) => {
      const note = notes && notes.get(first + i);
      return h("li" + (e.verb === "round_end" ? ".strong" : ""), null, cardsInText(named(e.text, nm)),
        note ? h("span.private", null, ` (${cardsInText(named(note, nm))})`) : null);
    });
    return h("ol#log.log", { tabindex: 0, "aria-label": "Log of this deal" }, items);
  }

  /* A deal's result: every hand shown, with the points it cost. */
  function resultTable(r, nm) {
    const rows = r.points.map((p, i) => h("tr", { dataset: { seat: i } },
      h("th", { scope: "row" }, nm[i], r.winner === i ? [" ", h("span.tag.act", null, r.rummy ? "went rummy" : "went out")] : null),
      h("td", null, r.hands[i] ? RK.cardsLine(r.hands[i].split(" ")) : "none",
        // where the winner scores the other hands (the basic family), what each hand was worth
        r.hands[i] && r.hand_values && r.hand_values[i] !== p ? h("span.small.hand-value", null, ` worth ${r.hand_values[i]}`) : null),
      h("td.num", null, String(p)), h("td.num", null, String(r.scores[i]))));
    return h("div.scroll", null, h("table.list.result", null,
      h("thead", null, h("tr", null, h("th", null, "Player"), h("th", null, "Cards left"), h("th.num", null, "Points"), h("th.num", null, "Total"))),
      h("tbody", null, rows)));
  }

  /* Final standings, best first: low scores first unless the highest total wins (the
     table's "high_wins"; from a server before it, read off the winners' scores). */
  function standings(v, nm, highWins) {
    const n = v.players;
    const idx = [...Array(n).keys()];
    const val = (x) => { const [a, b] = String(x).split("/"); return b ? +a / +b : +a; };
    const w = v.winners || [];
    const high = typeof highWins === "boolean" ? highWins
      : w.length && idx.some((i) => !w.includes(i) && val(v.scores[i]) < val(v.scores[w[0]]));
    idx.sort((a, b) => (high ? val(v.scores[b]) - val(v.scores[a]) : val(v.scores[a]) - val(v.scores[b])));
    return h("ol#standings.standings", null, idx.map((i) => h("li", { dataset: { seat: i } }, h("strong", null, nm[i]), `: ${v.scores[i]}`,
      w.includes(i) ? h("span.tag.act", null, "winner") : null,
      v.settlement ? h("span.muted.small", null, ` (settles ${v.settlement[i]})`) : null)));
  }

  /* "More melds below": the melds scroll inside the felt, and say so when some are hidden. */
  function markMore() {
    const el = document.getElementById("melds");
    if (!el) return;
    const mark = () => {
      const hidden = el.scrollHeight - el.scrollTop - el.clientHeight > 8;
      let tag = el.querySelector(".more-below");
      if (hidden && !tag) el.append(tag = h("span.more-below", { "aria-hidden": "true" }, "▼ more melds below"));
      if (!hidden && tag) tag.remove();
    };
    el.addEventListener("scroll", mark, { passive: true });
    mark();
  }

  return { markMore, names, named, cardsInText, turnWords, contractWords, presence, seatsStrip, piles, melds, logPanel, resultTable, standings, isWildAt };
})();
