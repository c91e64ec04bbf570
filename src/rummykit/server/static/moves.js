/* rummykit browser app: the moves a seated player may make now — the move bar under the
   hand and the claim offer beside the discard pile. Every button is one action the server
   listed in "legal" (or the meld the player built), named by its verb first ("Draw …",
   "Take …", "Discard …", "Meld …", "Lay off …", "Swap …", "May I …", "Buy …", "Pass …"). */
"use strict";

RK.Moves = (function () {
  const h = RK.h;
  const SIMPLE = ["draw", "draw both", "take", "cut", "buy", "pass", "shanghai", "rummy"];
  const KEYS = { draw: "d", take: "t", buy: "b", pass: "p", cut: "c" };

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

  /* "a card and N from the stock": what a buy costs this deal. */
  function cost(w, top) {
    const card = RK.cardShort((w && w.card) || top || "");
    const n = w && typeof w.penalty === "number" ? w.penalty : null;
    if (n === null) return card;
    return n ? `${card} and ${RK.plural(n, "card")} from the stock` : `${card}, no penalty card`;
  }

  /* The ruleset's own word for a buy window ("I want it"), where it is not plain "buy". */
  function ownVerb(w) {
    return w && w.verb && w.verb.toLowerCase() !== "buy" && (w.kind === "may_i" || w.kind === "buy") ? w.verb : null;
  }

  function label(a, v, w) {
    const top = v.discard_top ? RK.cardShort(v.discard_top) : "the discard";
    if (a === "draw") return "Draw from the stock";
    if (a === "draw both") return `Take ${top} and draw from the stock`;
    if (a === "take") return `Take ${top}`;
    if (a === "cut") return "Cut the pack";
    if (a === "pass") return !w ? "Pass" : w.kind === "rummy" || w.kind === "shanghai" ? "Pass: don't call" : "Pass: don't take it";
    if (a === "buy") {
      // the ruleset's own word: "May I", "I want it" (Seven Hand); else "Buy"
      const verb = ownVerb(w) ? `${ownVerb(w)}: ` : w && w.kind === "buy" ? "Buy " : "May I: ";
      return verb + cost(w, v.discard_top);
    }
    if (a === "shanghai") return "Call Shanghai";
    if (a === "rummy") return "Call Rummy";
    return a;
  }

  /* A card text with an optional wild meaning ("JK=7H") as words. */
  function tokenWords(tok) {
    const [c, m] = tok.split("=");
    return m ? `${RK.cardShort(c)} as ${RK.meaningShort(m)}` : RK.cardShort(c);
  }

  /* "meld JH JK=QH KH AH" -> "J♥ JK (as Q♥) K♥ A♥": among several cards, a wild card's
     meaning in brackets (a tester read "JK as Q♥ K♥ A♥" as the joker standing for three). */
  function meldWords(text) {
    const word = (tok) => { const [c, m] = tok.split("="); return m ? `${RK.cardShort(c)} (as ${RK.meaningShort(m)})` : RK.cardShort(c); };
    return text.replace(/^meld /, "").split("/").map((g) => g.trim().split(/\s+/).map(word).join(" ")).join(" / ");
  }

  function meldOwner(v, nm, n) {
    const m = (v.meld_info || []).find((x) => x.number === n);
    return m ? `${m.owner === v.seat ? "your" : nm[m.owner] + "'s"} ${m.kind}` : "";
  }

  function layoffWords(a, v, nm) {
    const w = a.split(/\s+/);
    const n = +w[w.length - 1];
    return `${tokenWords(w[1])} on meld ${n} (${meldOwner(v, nm, n)})`;
  }

  /* ---- the move bar ---- */

  function btn(A, text, content, o) {
    const opt = o || {};
    return h("button.act" + (opt.cls ? "." + opt.cls.trim().split(/\s+/).join(".") : ""), { type: "button", disabled: !A.canAct() || opt.disabled || null,
      dataset: { action: text, fk: opt.fk || `act-${text}` }, "aria-keyshortcuts": opt.key || KEYS[text] || null,
      onclick: opt.onclick || (() => A.send(text)), onpointerdown: opt.onpointerdown || null }, content);
  }

  /* The card moves (discard, Rummy, Shanghai) act on the one selected card. */
  function cardMove(A, verb, cards, words, sel, cls) {
    const c = sel.length === 1 && cards.has(sel[0].card) ? sel[0] : null;
    return h("button.act" + (cls ? "." + cls : ""), { type: "button", disabled: !c || !A.canAct() || null,
      dataset: { action: verb, fk: `act-${verb}-card` }, "aria-keyshortcuts": verb === "discard" ? "x" : null,
      onclick: () => { if (c) A.cardMove(verb, c); } },
    c ? `${words} ${RK.cardShort(c.card)}` : `${words} (${why(verb, sel)})`);
  }

  /* Why a card move is not offered for the selection. */
  function why(verb, sel) {
    if (sel.length > 1) return "select only one card";
    if (!sel.length) return "select a card";
    const c = RK.cardShort(sel[0].card);
    return verb === "shanghai" ? `${c} fits no meld on the table` : `not ${c}, this turn`;
  }

  function bar(A, v, legal, nm) {
    const L = sortLegal(legal);
    const sel = RK.Hand.selected(A.H);
    const selCards = new Set(sel.map((x) => x.card));
    const main = [];
    const more = [];
    for (const a of L.simple) main.push(btn(A, a, label(a, v, null), { cls: a === "draw" || a === "take" ? "primary" : "" }));
    if (L.discard.size) main.push(cardMove(A, "discard", L.discard, "Discard", sel, "primary"));
    if (L.shanghaiDiscard.size) main.push(cardMove(A, "shanghai", L.shanghaiDiscard, "Discard calling Shanghai:", sel));
    if (L.rummy.size) main.push(cardMove(A, "rummy", L.rummy, "Call Rummy, shedding", sel));
    // lay-offs and swaps of the selected cards (all of them when nothing is selected, or
    // when none is of a selected card: a card that must be played is offered all the same)
    let lay = sel.length ? L.layoffs.filter((a) => selCards.has(a.split(/\s+/)[1].split("=")[0])) : L.layoffs;
    let swaps = sel.length ? L.swaps.filter((a) => selCards.has(a.split(/\s+/)[1])) : L.swaps;
    const forSel = sel.length && (lay.length || swaps.length);
    if (!forSel) { lay = L.layoffs; swaps = L.swaps; }
    // a phone shows "Lay off 9♣ on meld 1" (the owner's words hidden: the list stays short
    // enough to leave the table in view); the name a screen reader says is whole
    const fitBtn = (a, verb) => {
      const w = a.split(/\s+/);
      const n = +w[w.length - 1];
      const b = btn(A, a, [`${verb} ${tokenWords(w[1])} on meld ${n}`, h("span.owner", null, ` (${meldOwner(v, nm, n)})`)]);
      b.setAttribute("aria-label", `${verb} ${layoffWords(a, v, nm)}`);
      return b;
    };
    const fits = lay.map((a) => fitBtn(a, "Lay off"))
      .concat(swaps.map((a) => { const [, c, n] = a.split(/\s+/); return btn(A, a, `Swap ${RK.cardShort(c)} into meld ${n} for its wild`); }))
      .concat(L.shanghaiLay.map((a) => fitBtn(a, "Shanghai: lay")));
    if (fits.length) more.push(h("div.fits", { role: "group", "aria-label": forSel ? "Where the selected cards fit" : "Cards that fit a meld on the table" }, fits));
    if (L.melds.length && !(A.H && A.H.groups.length)) {
      // the hint's meld, shown and marked (a tester read "Meld 2♣ 2♦ 2♠" with its button folded away)
      const hinted = A.T.showHint && A.T.msg && A.T.msg.hint ? A.T.msg.hint.action : null;
      const shown = L.melds.slice(0, 12);
      if (hinted && L.melds.includes(hinted) && !shown.includes(hinted)) shown.push(hinted);
      more.push(h("details#ways.ways", { open: A.T.waysOpen || shown.includes(hinted) || null, ontoggle: (ev) => { A.T.waysOpen = ev.target.open; } },
        h("summary", null, waysWords(A, v, L.melds.length)),
        h("div.btnrow", null, shown.map((a) => btn(A, a, `Meld ${meldWords(a)}`, { cls: "meld" + (a === hinted ? " hinted" : "") })))));
    }
    for (const a of L.other) more.push(btn(A, a, a));
    const tools = [
      A.T.hints ? h("button.tool", { type: "button", dataset: { fk: "hint" }, "aria-expanded": A.T.showHint ? "true" : "false",
        "aria-keyshortcuts": "h", onclick: A.toggleHint }, "Hint") : null,
    ];
    return h("section#actions", { "aria-label": "Your moves" },
      more.length ? h("div.more", null, more) : null,
      h("div.bar", null, main, h("span.spacer"), tools));
  }

  /* ---- a claim offer (May I / buy, Shanghai, Rummy), beside the discard pile ---- */

  function claimBox(A, v, legal, w, nm) {
    const what = (ownVerb(w) && `${ownVerb(w)}?`) || { may_i: "May I?", buy: "Buy?", shanghai: "Shanghai?", rummy: "Rummy?" }[w.kind] || w.kind;
    const card = (w.card || v.discard_top);
    const head = w.kind === "shanghai" || w.kind === "rummy" ? `${nm[v.turn]} discarded ${RK.cardShort(card)}`
      : `${nm[v.turn]} let ${RK.cardShort(card)} go`;
    const key = `${w.state_id}|${card}`;
    const fresh = A.offerFresh(key);
    let body;
    if (w.answered) body = h("p.small", null, "Your answer is in. The rules decide who gets the card.");
    else if (legal.length) {
      const L = sortLegal(legal);
      const guard = (text) => ({ onpointerdown: () => A.offerPressed(key), onclick: (ev) => A.offerClick(ev, key, text) });
      const opts = (a) => Object.assign({ cls: "claim-btn" + (a === "pass" ? "" : " primary"), fk: `claim-${a}` }, guard(a));
      // each answer names the offer it answers, and is inert for a moment (and shows it)
      const answer = (a, words) => {
        const b = btn(A, a, words, opts(a));
        b.dataset.offer = key;
        if (fresh) b.setAttribute("aria-disabled", "true");
        return b;
      };
      const kids = L.simple.map((a) => answer(a, label(a, v, w)));
      for (const a of L.shanghaiLay) kids.push(answer(a, `Shanghai: lay ${layoffWords(a, v, nm)}`));
      // a call against the clock: with three cards or fewer to shed, one tap each in the
      // hand's order (no selecting first); else the card selected in the hand
      if (L.rummy.size && L.rummy.size <= 3) {
        const hand = v.hand || [];
        for (const c of [...L.rummy].sort((x, y) => hand.indexOf(x) - hand.indexOf(y))) {
          kids.push(answer(`rummy ${c}`, `Call Rummy, shedding ${RK.cardShort(c)}`));
        }
      } else if (L.rummy.size) kids.push(cardMove(A, "rummy", L.rummy, "Call Rummy, shedding", RK.Hand.selected(A.H)));
      body = h("div.claim-btns", null, kids);
    } else body = h("p.small.muted", null, A.T.msg.seat !== null ? "You are not asked this time." : "The players are answering.");
    // the hint answers the offer too, where the table gives hints (no need to open it)
    const hint = A.T.hints && legal.length && !w.answered && A.T.msg.hint ? h("p#claim-hint.small.claim-hint", null,
      h("strong", null, "Hint: "), adviceWords(A.T.msg.hint.action, v, nm, w),
      A.T.msg.hint.why ? ` — ${hintWhy(A.T.msg.hint.why, A.T.msg.hint.action, nm)}` : "") : null;
    const prefs = A.T.msg.seat !== null && A.T.msg.seat !== undefined ? h("label.small.claim-never", null,
      h("input#never-ask", { type: "checkbox", checked: A.T.prefs.claims === "never",
        onchange: (ev) => A.setPrefs({ claims: ev.target.checked ? "never" : "fits" }) }),
      " Don't ask me again this game") : null;
    return h("div#claim.claim" + (fresh ? ".fresh" : ""), { role: "region", "aria-label": `${what} offer` },
      h("p.claim-head", null, h("strong", null, what), " ", head, " ",
        A.T.msg.deadline ? h("span#countdown.countdown", { dataset: { deadline: A.T.msg.deadline } }, `${RK.secondsLeft(A.T.msg.deadline, A.T.offset)} s`) : null),
      body, hint, prefs);
  }

  /* "discard 7H" -> "discarded 7♥": what a bot did for the player. */
  function pastWords(a) {
    const w = a.split(/\s+/);
    const c = w[1] ? tokenWords(w[1]) : "";
    return ({ draw: "drew from the stock", take: "took the discard", discard: `discarded ${c}`, pass: "passed",
      buy: "bought the discard", meld: `melded ${meldWords(a)}`, layoff: `laid off ${c}`, swap: `swapped ${c}`,
      cut: "cut the pack", shanghai: "called Shanghai", rummy: "called Rummy" })[w[0]] || a;
  }

  /* "discard 7H" -> "Discard 7♥": a move as advice. */
  function adviceWords(a, v, nm, win) {
    // a buy in the words of its button: "May I", the ruleset's own ("I want it"), or "Buy it"
    const buy = ownVerb(win) ? `Say "${ownVerb(win)}"` : win && win.kind === "may_i" ? "Say May I" : "Buy it";
    const w = a.split(/\s+/);
    const c = w[1] ? tokenWords(w[1]) : "";
    return ({ draw: "Draw from the stock", take: `Take ${v.discard_top ? RK.cardShort(v.discard_top) : "the discard"}`,
      discard: `Discard ${c}`, pass: "Pass", buy, meld: `Meld ${meldWords(a)}`, cut: "Cut the pack",
      layoff: w[0] === "layoff" ? `Lay off ${layoffWords(a, v, nm)}` : "", swap: `Swap ${c} into meld ${w[2]}`,
      shanghai: w.length === 2 ? `Discard ${c} calling Shanghai` : "Call Shanghai", rummy: `Call Rummy, shedding ${c}` })[w[0]] || a;
  }

  /* The heading over the listed melds: a contract not yet met is laid one meld at a time
     (its melds are steps, not alternatives); otherwise the ways to lay a meld down. */
  function waysWords(A, v, n) {
    const t = A.T.msg && A.T.msg.table;
    const seat = v.seat;
    if (t && t.contracts && seat !== null && seat !== undefined && v.down && !v.down[seat]) {
      return `Lay your contract down one meld at a time (${n} listed)`;
    }
    return n === 1 ? "A way to lay down" : `Ways to lay down (${n})`;
  }

  /* The hint's reason as people read it: players by name (the engine's "Seat 1" counts
     from 0, the table from 1), cards as 10♠, and without a first clause that only says the
     move again ("Discard KS: it goes ..." under "Hint: Discard K♠"). */
  function hintWhy(why, action, nm) {
    let s = String(why);
    const verb = (String(action).split(/\s+/)[0] || "").toLowerCase();
    const m = /^([^:.]{1,60}):\s+/.exec(s);
    // the sentence's own "Discard QS: ..." or "Call Shanghai: ..." repeats the advice before it
    const said = { shanghai: ["call", "discard"], rummy: ["call"], layoff: ["lay"] }[verb] || [verb];
    if (verb && m && said.includes(m[1].split(/\s+/)[0].toLowerCase())) {
      s = s.slice(m[0].length);
      s = s.charAt(0).toUpperCase() + s.slice(1);
    }
    return RK.Board.cardsInText(RK.Board.named(s, nm || []));
  }

  /* The hint: the move as advice, its reason, and what the hand is working toward (the
     contract's best partial melds in the hand; pairs of a set count). */
  function hintBox(hint, v, nm) {
    const text = typeof hint === "string" ? hint : hint.action;
    const working = Array.isArray(hint.working) ? hint.working : [];
    return h("section#hint.hint", { "aria-label": "Hint", role: "status" }, h("strong", null, "Hint: "), adviceWords(text, v, nm),
      hint.why ? h("span", null, ` — ${hintWhy(hint.why, text, nm)}`) : null,
      working.length ? h("div#working.small", null, h("strong", null, hint.short === 0 ? "Ready to lay down: " : "Working toward it: "),
        working.map((w) => `${(w.cards || []).map(RK.cardShort).join(" ")} (${w.toward}${w.short ? `, ${w.short} short` : ""})`)
          .join(" · ")) : null);
  }

  return { sortLegal, label, bar, claimBox, meldWords, layoffWords, tokenWords, pastWords, hintBox };
})();
