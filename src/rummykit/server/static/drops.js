/* rummykit browser app: where the player's cards may go, by a drag or by a tap. A drag
   (drag.js) carries a card of the hand, a card of a meld being built, the stock or the
   discard pile; a place says what it is in its data-drop. A tap on a place with cards
   selected does what dropping them there would. Every drop that is a move sends an action
   the server listed in "legal" (the rest — a place in the hand, a meld being built — only
   changes this page). ``A`` is the table's api (table.js). */
"use strict";

RK.Drops = function drops(A) {
  const T = () => A.T;

  /* The cards a drag from the hand carries: every selected card when it starts on one. */
  function dragIds(src) {
    const [kind, id] = src.dataset.drag.split(":");
    if (kind !== "hand") return [+id];
    const sel = RK.Hand.selected(A.H).map((x) => x.id);
    return sel.includes(+id) ? sel : [+id];
  }

  /* The lay-offs and swaps of ``card`` onto table meld ``n`` the server lists now. */
  function legalFor(card, n) {
    return (T().msg.legal || []).filter((a) => {
      const w = a.split(/\s+/);
      return (w[0] === "layoff" || w[0] === "swap") && w[1].split("=")[0] === card && +w[2] === n;
    });
  }

  const live = () => T().online && !T().pending;

  /* Card ``x`` onto table meld ``n``: the one way, or a choice (a wild's meaning, a swap);
     on the seat's turn to play, a lay-off that is not listed is sent all the same, so the
     engine's refusal says why ("You may not lay off on the turn you meet the contract"). */
  function onMeld(x, n) {
    const options = legalFor(x.card, n);
    const go = (a) => { A.H.out.add(x.id); A.send(a); };
    if (options.length === 1) go(options[0]);
    else if (options.length) RK.Side.chooseDialog(A, options, go);
    else if ((T().msg.legal || []).some((a) => a.startsWith("discard "))) A.send(`layoff ${x.card} ${n}`);
  }

  function intoGroup(ids, arg) {
    RK.Hand.addToGroup(A.H, ids, arg === "new" ? "new" : +arg);
    A.askCheck();
  }

  function canDrop(src, zone) {
    if (!T() || !T().msg) return false;
    const [kind, id] = src.dataset.drag.split(":");
    const [place, arg] = zone.dataset.drop.split(":");
    const legal = T().msg.legal || [];
    if (kind === "stock") return live() && place === "hand" && legal.includes("draw");
    if (kind === "pile") return live() && place === "hand" && (legal.includes("take") || legal.includes("draw both"));
    if (kind === "group") return place === "hand" || (place === "group" && arg !== undefined);
    if (kind !== "hand") return false;
    const x = RK.Hand.byId(A.H, +id);
    if (!x) return false;
    if (place === "hand") return true;
    if (place === "group") return !!document.getElementById("build");
    if (place === "discard") return live() && dragIds(src).length === 1 && legal.includes(`discard ${x.card}`);
    if (place === "meld") return live() && legalFor(x.card, +arg).length > 0;
    return false;
  }

  /* Where a card dragged over the hand would go: a mark on the side of the card under it. */
  function onHover(src, zone, pt) {
    for (const el of document.querySelectorAll(".ins-before,.ins-after")) el.classList.remove("ins-before", "ins-after");
    if (!zone || !pt || !zone.dataset.drop.startsWith("hand:") || zone.dataset.drop === "hand:end") return;
    const r = zone.getBoundingClientRect();
    zone.classList.add(pt.x < r.left + r.width / 2 ? "ins-before" : "ins-after");
  }

  function onDrop(src, zone, pt) {
    const [kind, id] = src.dataset.drag.split(":");
    const [place, arg] = zone.dataset.drop.split(":");
    const H = A.H;
    if (kind === "stock") A.send("draw");
    else if (kind === "pile") A.send((T().msg.legal || []).includes("take") ? "take" : "draw both");
    else if (place === "hand") {
      const ids = dragIds(src);
      if (kind === "group") RK.Hand.removeFromGroups(H, ids);
      let before = null;
      if (arg !== "end") {
        const r = zone.getBoundingClientRect();
        const target = +arg;
        if (pt.x < r.left + r.width / 2) before = target;
        else {
          const loose = RK.Hand.loose(H);
          const k = loose.findIndex((x) => x.id === target);
          before = k >= 0 && k + 1 < loose.length ? loose[k + 1].id : null;
        }
      }
      for (const i of ids) if (i !== before) RK.Hand.moveCard(H, i, before);
      if (kind === "group") A.askCheck();
    } else if (place === "group") intoGroup(dragIds(src), arg);
    else if (place === "discard") A.cardMove("discard", RK.Hand.byId(H, +id));
    else if (place === "meld") onMeld(RK.Hand.byId(H, +id), +arg);
    A.flushRender();
  }

  /* A tap on a place a card could be dragged to, with cards selected, puts them there. */
  function onTap(ev) {
    if (!T() || !A.H || !T().msg || ev.defaultPrevented) return;
    const zone = ev.target.closest && ev.target.closest("[data-drop]");
    if (!zone || ev.target.closest("button:not(.hc), a, input, summary")) return;
    const sel = RK.Hand.selected(A.H);
    if (!sel.length) return;
    const [place, arg] = zone.dataset.drop.split(":");
    if (place === "group" && document.getElementById("build")) {
      intoGroup(sel.map((x) => x.id), arg);
      A.render();
    } else if (place === "discard" && sel.length === 1 && live() && (T().msg.legal || []).includes(`discard ${sel[0].card}`)) {
      A.cardMove("discard", sel[0]);
    } else if (place === "meld" && sel.length === 1 && live()) onMeld(sel[0], +arg);
  }

  /* A card of the hand released on the discard pile or a meld that would not take it:
     the card goes back, and the page says why.  On the seat's turn the move is sent all
     the same, so the engine's refusal gives the reason in the rules' words ("Draw first:
     ...", "You may not discard AS, the card you took ..."); else the page says whose turn
     it is. */
  function onRefuse(src, zone) {
    const [kind, id] = src.dataset.drag.split(":");
    const [place, arg] = zone.dataset.drop.split(":");
    const x = kind === "hand" ? RK.Hand.byId(A.H, +id) : null;
    if (!x || !T() || !T().msg || (place !== "discard" && place !== "meld")) return;
    const legal = T().msg.legal || [];
    if (!legal.length || !live()) {
      T().error = T().pending ? "Your last move is still on its way." : "It is not your turn.";
      return;
    }
    if (place === "discard" && dragIds(src).length > 1) {
      T().error = "Discard one card at a time: drag a single card, or select only one.";
      return;
    }
    A.send(place === "discard" ? `discard ${x.card}` : `layoff ${x.card} ${+arg}`);
  }

  return { canDrop, onDrop, onHover, onTap, onRefuse, onCancel: () => A.flushRender() };
};
