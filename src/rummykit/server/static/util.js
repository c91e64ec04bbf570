/* rummykit browser app: small helpers shared by the lobby, the table and the stats page.
   Vanilla JS, no build step, nothing fetched from outside this server. */
"use strict";

const RK = {};

/* h("div.cls#id", {attr: v, onclick: f}, child, ...) -> an element; strings become text. */
RK.h = function h(tag, attrs, ...kids) {
  const m = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement(m ? m[1] : tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "dataset") {
        for (const [dk, dv] of Object.entries(v)) if (dv !== null && dv !== undefined && dv !== false) el.dataset[dk] = dv;
      }
      else if (k === "value") el.value = v;
      else if (k === "checked") el.checked = !!v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  RK.append(el, kids);
  return el;
};

RK.append = function append(el, kids) {
  for (const k of kids.flat(Infinity)) {
    if (k === null || k === undefined || k === false) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return el;
};

/* JSON over fetch; a non-2xx answer throws an Error carrying the server's "detail". */
RK.api = async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    let msg = data && data.detail !== undefined ? data.detail : `${r.status} ${r.statusText}`;
    if (Array.isArray(msg)) msg = msg.map((d) => d.msg || JSON.stringify(d)).join("; ");
    else if (typeof msg !== "string") msg = JSON.stringify(msg);
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return data;
};

/* ---- storage: a seat's token lives in this browser only, per table ---- */
RK.store = {
  get(key, dflt) {
    try { const v = localStorage.getItem("rk." + key); return v === null ? dflt : JSON.parse(v); }
    catch (e) { return dflt; }
  },
  set(key, v) { try { localStorage.setItem("rk." + key, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  del(key) { try { localStorage.removeItem("rk." + key); } catch (e) { /* private mode */ } },
};
RK.seatOf = (tableId) => RK.store.get("seat." + tableId, null);
RK.keepSeat = (tableId, seat, token, name) => RK.store.set("seat." + tableId, { seat, token, name });
RK.dropSeat = (tableId) => RK.store.del("seat." + tableId);

/* ---- cards: the README's notation (7H, TC, JK) with the suit symbol beside it ---- */
RK.RANKS = "A23456789TJQK";
RK.SUITS = "CDHS";
RK.SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
RK.SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
RK.RANK_NAME = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king" };

RK.isJoker = (c) => c === "JK";
RK.cardWords = function cardWords(c) {
  if (RK.isJoker(c)) return "joker";
  const r = RK.RANK_NAME[c[0]] || c[0];
  return `${r} of ${RK.SUIT_NAME[c[1]]}`;
};

/* A line of cards as drawn (cards.js). */
RK.cardsLine = (cards) => RK.Cards.row(cards);

RK.plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

/* A human seat nobody has taken yet. */
RK.isFree = (s) => s.kind === "human" && (s.taken !== undefined ? !s.taken : !s.name);

RK.seatLabel = function seatLabel(s) {
  if (!s) return "";
  if (s.kind && s.kind.startsWith("bot")) return `${s.kind.split(":")[1] || "medium"} bot`;
  return "person";
};

/* Seats are numbered from 1 for people (the protocol counts from 0). */
RK.seatNo = (i) => i + 1;

/* Seconds left until an epoch time, by the server's clock (offset: server - here). */
RK.secondsLeft = (deadline, offset) => Math.max(0, Math.ceil(deadline - (Date.now() / 1000 + (offset || 0))));

/* After a page is drawn again, focus the element that had it (same data-fk), else the
   first element matching `fallback`: a keyboard user keeps their place. */
RK.restoreFocus = function restoreFocus(root, fk, fallback) {
  if (!fk) return;
  let el = root.querySelector(`[data-fk="${CSS.escape(fk)}"]`);
  if ((!el || el.disabled) && fallback) el = root.querySelector(fallback);
  if (el) el.focus({ preventScroll: true });
};
