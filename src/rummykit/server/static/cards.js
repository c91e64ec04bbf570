/* rummykit browser app: playing cards drawn as vector graphics (SVG), made in the page —
   no image files. A face has a large index (rank over suit) in its top-left corner, the
   part that shows when cards overlap in a hand or a meld, and a large suit (or court
   letter) in the middle. Suits are drawn as shapes, not font glyphs, so ♠ and ♣ differ at
   any size; colours come from CSS variables (--c-S, --c-H, --c-D, --c-C), which the
   four-colour option changes. */
"use strict";

RK.Cards = (function () {
  const NS = "http://www.w3.org/2000/svg";

  /* Suit shapes in a 100x100 box. */
  const SUIT_PATH = {
    H: "M50 90C22 68 5 51 5 31 5 16 16 6 29 6c9 0 17 5 21 14 4-9 12-14 21-14 13 0 24 10 24 25 0 20-17 37-45 59z",
    D: "M50 3 89 50 50 97 11 50z",
    S: "M50 4C39 24 7 39 7 62c0 14 10 23 23 23 8 0 14-4 17-9-1 9-5 15-13 20h32c-8-5-12-11-13-20 3 5 9 9 17 9 13 0 23-9 23-23C93 39 61 24 50 4z",
    // clubs: three leaves and a stem, separate shapes (overlaps stay filled)
    C: ["M31 29a19 19 0 1 0 38 0a19 19 0 1 0-38 0", "M8 59a19 19 0 1 0 38 0a19 19 0 1 0-38 0",
      "M54 59a19 19 0 1 0 38 0a19 19 0 1 0-38 0", "M40 36h20v28H40z", "M46 60c-1 15-5 25-14 33h36c-9-8-13-18-14-33z"],
  };
  const CROWN = "M8 78 4 28l26 22L50 14l20 36 26-22-4 50z";
  const STAR = "M50 4 61 37h35L68 57l11 34-29-21-29 21 11-34L4 37h35z";

  RK.RANK_SHOWN = { T: "10" };
  RK.SUIT_COLOR_NAME = { C: "black", S: "black", H: "red", D: "red" };

  function el(tag, attrs, kids) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    for (const k of kids || []) e.append(k);
    return e;
  }

  function shape(d, x, y, size, cls) {
    const transform = `translate(${x} ${y}) scale(${size / 100})`;
    if (Array.isArray(d)) return el("g", { class: cls, transform }, d.map((p) => el("path", { d: p })));
    return el("path", { d, class: cls, transform });
  }

  function text(x, y, size, content, cls, anchor) {
    const t = el("text", { x, y, "font-size": size, class: cls, "text-anchor": anchor || "start" });
    t.textContent = content;
    return t;
  }

  /* The shown rank: "10" for a ten, else the letter or digit. */
  RK.rankShown = (c) => RK.RANK_SHOWN[c[0]] || c[0];

  /* The card as a person says it, short: "10♥", "K♠", "JK". */
  RK.cardShort = (c) => (RK.isJoker(c) ? "JK" : RK.rankShown(c) + RK.SYMBOL[c[1]]);

  /* An accessible name that begins with the card: "10♥ ten of hearts", "JK joker". */
  RK.cardName = function cardName(c, meaning) {
    const base = `${RK.cardShort(c)} ${RK.cardWords(c)}`;
    return meaning ? `${base} as ${meaningShort(meaning)}` : base;
  };

  function meaningShort(m) {
    if (!m) return "";
    if (m.length === 1) return RK.rankShown(m + "X");  // a set's wild stands for a rank
    return RK.cardShort(m);
  }
  RK.meaningShort = meaningShort;

  /* The face of card ``c`` (text form: "7H", "TC", "JK") as an <svg>; decorative
     (aria-hidden): the control around it carries the name. */
  function face(c) {
    const joker = RK.isJoker(c);
    const suit = joker ? null : c[1];
    const cls = joker ? "pc-face joker" : `pc-face s-${suit}`;
    const kids = [el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4.5, class: "pc-bg" })];
    if (joker) {
      kids.push(shape(STAR, 3, 3, 11, "pc-ink"), text(25, 58, 8.5, "JOKER", "pc-ink pc-word", "middle"),
        shape(STAR, 11, 20, 28, "pc-ink"));
    } else {
      const r = RK.rankShown(c);
      const court = "JQK".includes(c[0]);
      kids.push(text(r.length > 1 ? 1.6 : 3.2, 14, 13.5, r, "pc-ink pc-rank" + (r.length > 1 ? " pc-ten" : "")),
        shape(SUIT_PATH[suit], 3.4, 17, 10, "pc-ink"));
      if (court) {
        // a court card: its suit on a framed panel (the rank is the corner's letter, the only
        // text on a card, so a card's visible text is always within its name)
        kids.push(el("rect", { x: 15, y: 18, width: 31, height: 47, rx: 2.5, class: "pc-court" }),
          shape(CROWN, 19.5, 21, 22, "pc-crown"), shape(SUIT_PATH[suit], 18.5, 34, 24, "pc-ink"));
      } else {
        kids.push(shape(SUIT_PATH[suit], 15, 27, 28, "pc-ink"));
      }
    }
    return el("svg", { viewBox: "0 0 50 70", class: cls, "aria-hidden": "true", focusable: "false" }, kids);
  }

  /* A card back (the stock, other players' hands). */
  function back() {
    return el("svg", { viewBox: "0 0 50 70", class: "pc-back", "aria-hidden": "true", focusable: "false" }, [
      el("rect", { x: 0.5, y: 0.5, width: 49, height: 69, rx: 4.5, class: "pc-backbg" }),
      el("rect", { x: 4, y: 4, width: 42, height: 62, rx: 3, class: "pc-backframe" }),
      shape(SUIT_PATH.S, 15, 22, 20, "pc-backmark"),
    ]);
  }

  /* A card as an element for drawing (not a control): the face, the wild meaning as a tag
     on it, and a text alternative for screen readers. ``opts``: {meaning, cls, tag}. */
  function card(c, opts) {
    const o = opts || {};
    const wrap = RK.h((o.tag || "span") + ".pc" + (o.cls ? "." + o.cls.split(" ").join(".") : ""),
      { dataset: { card: c }, title: RK.cardWords(c) + (o.meaning ? ` as ${meaningShort(o.meaning)}` : "") });
    wrap.append(face(c));
    if (o.meaning) wrap.append(RK.h("span.pc-wild", { "aria-hidden": "true" }, "=" + meaningShort(o.meaning)));
    if (!o.nolabel) wrap.append(RK.h("span.sr", null, RK.cardName(c, o.meaning)));
    return wrap;
  }

  /* Cards in a row, overlapping, with a text alternative. */
  function row(cards, cls) {
    return RK.h("span.pcrow" + (cls ? "." + cls : ""), null, cards.map((c) => card(c)));
  }

  return { face, back, card, row };
})();
