/* rummykit browser app: the player's own hand — the order the player put it in (kept in
   this browser for the seat, across turns and reloads), the selected cards, the melds
   being built from it (the meld areas), and the cards drawn as controls.

   Two copies of one card (two-deck games) are two instances with ids of their own, so
   selecting, grouping or discarding one never touches its twin. */
"use strict";

RK.Hand = (function () {
  const h = RK.h;
  let nextId = 1;

  const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours
  function sortKey(c, by) {
    if (RK.isJoker(c)) return 1000;
    const r = RK.RANKS.indexOf(c[0]);
    const s = SUIT_ORDER[c[1]];
    return by === "rank" ? r * 4 + s : s * 16 + r;
  }

  function countOf(cards) { const n = {}; for (const c of cards) n[c] = (n[c] || 0) + 1; return n; }

  /* A new hand model for a seat at a table: {cards: [{id, card}], mode, round, sel: Set,
     groups: [[id]], out: Set (ids on their way out with a move just sent)}. */
  function model(storeKey) {
    return { storeKey, cards: [], mode: RK.store.get("sortmode", "suit"), round: null, sel: new Set(), groups: [],
      out: new Set(), fresh: new Set() };
  }

  function sortCards(H) {
    if (H.mode === "custom") return;
    H.cards.sort((a, b) => sortKey(a.card, H.mode) - sortKey(b.card, H.mode));
  }

  function save(H) {
    RK.store.set(H.storeKey, { round: H.round, mode: H.mode, cards: H.cards.map((x) => x.card) });
  }

  /* Bring the model in line with the hand the server sent; ``first``: the page's first
     state (no animation of cards "arriving"). */
  function sync(H, hand, round, first) {
    H.fresh = new Set();
    if (H.round !== round) {
      // a new deal, or the page just loaded: the order kept for this deal, if any
      const kept = RK.store.get(H.storeKey, null);
      const left = countOf(hand);
      H.cards = [];
      if (kept && kept.round === round && Array.isArray(kept.cards)) {
        H.mode = kept.mode || H.mode;
        for (const c of kept.cards) if (left[c] > 0) { left[c] -= 1; H.cards.push({ id: nextId++, card: c }); }
      } else if (H.mode === "custom") {
        H.mode = RK.store.get("sortmode", "suit");
      }
      for (const c of hand) if (left[c] > 0) { left[c] -= 1; H.cards.push({ id: nextId++, card: c }); }
      if (H.round !== null && !first) for (const x of H.cards) H.fresh.add(x.id);
      H.round = round;
      H.sel.clear();
      H.groups = [];
      H.out.clear();
      sortCards(H);
      save(H);
      return;
    }
    const want = countOf(hand);
    const have = countOf(H.cards.map((x) => x.card));
    const drop = new Set();
    for (const c of Object.keys(have)) {
      let extra = have[c] - (want[c] || 0);
      if (extra <= 0) continue;
      const mine = H.cards.filter((x) => x.card === c);
      for (const x of mine) if (extra > 0 && H.out.has(x.id)) { drop.add(x.id); extra -= 1; }
      for (let k = mine.length - 1; k >= 0 && extra > 0; k--) if (!drop.has(mine[k].id)) { drop.add(mine[k].id); extra -= 1; }
    }
    H.cards = H.cards.filter((x) => !drop.has(x.id));
    for (const c of Object.keys(want)) {
      for (let k = have[c] || 0; k < want[c]; k++) {
        const x = { id: nextId++, card: c };
        H.cards.push(x);
        if (!first) H.fresh.add(x.id);
      }
    }
    H.out.clear();
    for (const id of drop) H.sel.delete(id);
    H.groups = H.groups.map((g) => g.filter((id) => !drop.has(id))).filter((g) => g.length);
    if (H.fresh.size || drop.size) H.breaks = null;
    if (H.fresh.size) sortCards(H);
    save(H);
  }

  function byId(H, id) { return H.cards.find((x) => x.id === id) || null; }
  function grouped(H) { return new Set(H.groups.flat()); }
  /* The cards in the hand row: not in a meld being built. */
  function loose(H) { const g = grouped(H); return H.cards.filter((x) => !g.has(x.id)); }
  function selected(H) { return loose(H).filter((x) => H.sel.has(x.id)); }

  function setMode(H, mode) {
    H.mode = mode;
    H.breaks = null;
    if (mode !== "custom") RK.store.set("sortmode", mode);
    sortCards(H);
    save(H);
  }

  /* Move card ``id`` to sit before card ``beforeId`` (null: at the end). */
  function moveCard(H, id, beforeId) {
    const x = byId(H, id);
    if (!x || id === beforeId) return;
    H.cards = H.cards.filter((y) => y.id !== id);
    const at = beforeId === null ? H.cards.length : H.cards.findIndex((y) => y.id === beforeId);
    H.cards.splice(at < 0 ? H.cards.length : at, 0, x);
    H.mode = "custom";
    H.breaks = null;
    save(H);
  }

  /* Put the hand in the order of ``groups`` (card texts), the rest after, as "Arrange" asks. */
  function arrange(H, groups, rest) {
    const pool = H.cards.slice();
    const out = [];
    const take = (c) => { const k = pool.findIndex((x) => x.card === c); if (k >= 0) out.push(pool.splice(k, 1)[0]); };
    for (const g of groups) for (const c of g) take(c);
    for (const c of rest || []) take(c);
    H.cards = out.concat(pool);
    H.mode = "custom";
    H.breaks = new Set();
    let n = 0;
    for (const g of groups) { n += g.length; if (n < H.cards.length) H.breaks.add(H.cards[n - 1].id); }
    save(H);
  }

  /* ---- the meld areas ---- */

  function addToGroup(H, ids, k) {
    for (const g of H.groups) for (const id of ids) { const i = g.indexOf(id); if (i >= 0) g.splice(i, 1); }
    if (k === "new" || k >= H.groups.length) H.groups.push(ids.slice());
    else H.groups[k].push(...ids);
    H.groups = H.groups.filter((g) => g.length);
    for (const id of ids) H.sel.delete(id);
  }

  function removeFromGroups(H, ids) {
    H.groups = H.groups.map((g) => g.filter((id) => !ids.includes(id))).filter((g) => g.length);
  }

  /* A group's cards in table order for sending (runs read low to high). */
  function groupCards(H, g) {
    return g.map((id) => byId(H, id)).filter(Boolean).map((x) => x.card);
  }

  /* ---- drawing ---- */

  /* Card controls: a button each, named by the card ("10♥ ten of hearts"), pressed when
     selected; draggable (data-drag), a drop place for reordering (data-drop). */
  function cardButton(x, o) {
    const on = o.sel.has(x.id);
    const cls = "button.pc.hc" + (on ? ".sel" : "") + (o.must.has(x.card) ? ".must" : "") + (x.card === o.taken ? ".taken" : "")
      + (o.fresh.has(x.id) ? ".anim-in" : "") + (o.breaks && o.breaks.has(x.id) ? ".brk" : "");
    const notes = [];
    if (o.must.has(x.card)) notes.push("must be played this turn");
    if (x.card === o.taken) notes.push("taken this turn");
    const b = h(cls, { type: "button", "aria-pressed": on ? "true" : "false",
      "aria-label": RK.cardName(x.card) + (notes.length ? `, ${notes.join(", ")}` : ""),
      dataset: { card: x.card, id: x.id, fk: `card-${x.id}`, drag: `hand:${x.id}`, drop: `hand:${x.id}` },
      onclick: () => o.onToggle(x.id), onkeydown: (ev) => o.onKey(ev, x.id) }, RK.Cards.face(x.card));
    return b;
  }

  function panel(H, v, o) {
    const cards = loose(H);
    const must = new Set(v.must_place || []);
    const buttons = cards.map((x) => cardButton(x, { sel: H.sel, must, taken: v.taken, fresh: H.fresh, breaks: H.breaks,
      onToggle: o.onToggle, onKey: o.onKey }));
    const sortBtn = (by, label) => h("button.tool", { type: "button", "aria-pressed": H.mode === by ? "true" : "false",
      "aria-label": `Sort by ${by}`, dataset: { fk: `sort-${by}` }, onclick: () => o.onSort(by) }, label);
    const row = h("div#cards.hand-row", { role: "group", "aria-label": `Your hand, ${RK.plural(H.cards.length, "card")}: Space selects a card, arrows move, Shift+arrows move it in the hand`,
      dataset: { drop: "hand:end" }, style: `--n:${Math.max(cards.length, 1)}` }, buttons);
    const tools = h("div.hand-tools", null,
      h("h2#hand-h.hand-title", null, o.title),
      h("span.spacer"),
      sortBtn("suit", "Suit"), sortBtn("rank", "Rank"),
      o.canArrange ? h("button.tool", { type: "button", dataset: { fk: "arrange" }, onclick: o.onArrange,
        title: "Order the hand by the best way toward this deal's contract" }, "Arrange") : null);
    return h("section#hand", { "aria-labelledby": "hand-h" }, tools,
      H.said && H.breaks ? h("p.arrange-said", { role: "status" }, H.said) : null, row,
      must.size ? h("p.small.must-note", null, `You must play ${[...must].map(RK.cardShort).join(" ")} this turn.`) : null);
  }

  /* The meld areas: each group being built, with the server's word on it. */
  function buildArea(H, o) {
    const chk = o.check || null;
    const sel = selected(H);
    const groups = H.groups.map((g, k) => {
      const res = chk && chk.groups && chk.groups[k];
      const cards = g.map((id) => byId(H, id)).filter(Boolean);
      const state = !res ? "" : res.ok ? ".ok" : ".bad";
      return h("li.build-group" + state, { dataset: { drop: `group:${k}` }, "aria-label": `Meld ${k + 1} being built` },
        h("span.pcrow.build-cards", null, cards.map((x) => h("button.pc.bc", { type: "button", "aria-label": `${RK.cardName(x.card)}: back to the hand`,
          dataset: { drag: `group:${x.id}`, fk: `bc-${x.id}` }, onclick: () => o.onUngroup([x.id]) }, RK.Cards.face(x.card)))),
        h("span.build-say.small", { role: "status" }, res ? (res.ok ? "✓ " : "✗ ") + RK.Board.cardsInText(res.text) : "…"),
        sel.length ? h("button.tool", { type: "button", dataset: { fk: `add-${k}` }, onclick: () => o.onGroup(k) },
          `Add ${sel.map((x) => RK.cardShort(x.card)).join(" ")} to meld ${k + 1}`) : null,
        h("button.tool.x", { type: "button", "aria-label": `Take meld ${k + 1} apart`, dataset: { fk: `ungroup-${k}` },
          onclick: () => o.onUngroup(g.slice()) }, "×"));
    });
    const add = h("li.build-group.new", { dataset: { drop: "group:new" } },
      h("button.tool", { type: "button", disabled: !sel.length || null, dataset: { fk: "group" }, "aria-keyshortcuts": "g",
        onclick: () => o.onGroup("new") },
      sel.length ? `New meld from ${sel.map((x) => RK.cardShort(x.card)).join(" ")}` : "New meld: select cards, or drag them here"));
    const c = chk && chk.contract;
    const b = o.built;
    return h("div#build", { "aria-label": "Melds you are building" },
      h("ol.build-groups", null, groups, add),
      c || b ? h("div.build-meld", null,
        c ? h("p#contract-progress.small" + (c.ok ? ".ok" : ""), { role: "status" }, RK.Board.cardsInText(c.text)) : null,
        b ? h("button.act" + (b.ok ? ".primary" : ""), { type: "button", disabled: !b.ok || !o.canAct || null, "aria-keyshortcuts": "m",
          dataset: { fk: "meld-built", action: b.text }, onclick: o.onMeld }, `Meld ${b.words}`) : null) : null);
  }

  /* Lay the cards of the hand out in the room there is: overlapping in one row, or in
     more rows where a card would show less than a finger's width. */
  function fit() {
    const row = document.getElementById("cards");
    if (!row) return;
    if (sizes && !row.dataset.watched) { row.dataset.watched = "1"; sizes.observe(row); }
    const n = row.children.length;
    if (!n) return;
    const cw = row.children[0].getBoundingClientRect().width || 56;
    const wide = row.clientWidth;
    const minStep = 44; // a touch target
    const perRow = Math.max(1, Math.min(n, 1 + Math.floor((wide - cw) / minStep)));
    const rows = Math.ceil(n / perRow);
    const per = Math.ceil(n / rows);
    // one row with room to spare: side by side; else overlapping, the corners showing
    // the groups "Arrange" made are set apart by a little space (when there is room)
    const kids = [...row.children];
    const breaks = kids.map((el) => el.classList.contains("brk"));
    const gap = rows === 1 ? Math.min(12, Math.max(0, (wide - cw - (per - 1) * 30) / Math.max(1, breaks.filter(Boolean).length))) : 0;
    const nGaps = breaks.slice(0, -1).filter(Boolean).length;
    const step = per > 1 ? Math.min(rows === 1 ? cw + 6 : cw * 0.8, (wide - cw - nGaps * gap) / (per - 1)) : cw;
    const used = cw + (per - 1) * step + nGaps * gap;
    row.style.setProperty("--step", `${step}px`);
    row.style.setProperty("--left", `${Math.max(0, (wide - used) / 2)}px`);
    row.style.setProperty("--rows", rows);
    row.style.setProperty("--per", per);
    let extra = 0;
    kids.forEach((el, k) => {
      if (k % per === 0) extra = 0;
      el.style.setProperty("--col", k % per);
      el.style.setProperty("--row", Math.floor(k / per));
      el.style.setProperty("--gap", `${extra}px`);
      if (breaks[k]) extra += gap;
    });
  }
  // laid out again whenever the hand's room changes (a rotation, a panel, fonts arriving)
  const sizes = typeof ResizeObserver === "function" ? new ResizeObserver(() => fit()) : null;
  window.addEventListener("resize", () => fit());

  return { fit, model, sync, setMode, moveCard, arrange, addToGroup, removeFromGroups, groupCards, loose, selected, byId,
    panel, buildArea, countOf };
})();
