/* rummykit browser app: drag and drop with pointer events, the same for a mouse, a pen and
   a finger. An element with data-drag can be picked up; an element with data-drop takes
   it. The owner (the table page) says what may go where (canDrop) and what a drop does
   (onDrop); this module only moves a picture of the thing under the pointer and lights
   up the place it would land. A press that does not move past a few pixels stays a click.

   Why not a library: the drop targets of a card table (the discard pile, a meld on the
   table, a place in the hand, a meld being built) are not one sortable list, which is what
   the well-known libraries are for; this is about 150 lines, touch included. */
"use strict";

RK.Drag = (function () {
  const SLOP = 7; // px a press may move and still be a click
  let opts = null; // {canDrop(src, zone) -> bool, onDrop(src, zone, point), onHover(src, zone, point)}
  let d = null; // the press or drag under way
  let pressed = 0; // a pointer is down (anywhere): the page is not redrawn under it

  function init(o) { opts = o; }

  function down(ev) {
    if (!opts || d || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    const src = ev.target.closest && ev.target.closest("[data-drag]");
    if (!src || src.getAttribute("aria-disabled") === "true") return;
    d = { src, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, started: false, zone: null, ghost: null };
  }

  function start(ev) {
    d.started = true;
    const r = d.src.getBoundingClientRect();
    d.dx = d.x0 - r.left;
    d.dy = d.y0 - r.top;
    const g = d.src.cloneNode(true);
    g.removeAttribute("id");
    g.classList.add("drag-ghost");
    g.setAttribute("aria-hidden", "true");
    g.style.width = `${r.width}px`;
    g.style.height = `${r.height}px`;
    // the copy is placed by its transform alone: not where the original sat in its row
    // (a hand card's own left and top), nor slid there by the original's transition
    g.style.left = "0px";
    g.style.top = "0px";
    g.style.margin = "0px";
    g.style.transition = "none";
    document.body.append(g);
    d.ghost = g;
    d.src.classList.add("dragging");
    document.body.classList.add("is-dragging");
    if (opts.onStart) opts.onStart(d.src);
    place(ev);
  }

  function place(ev) {
    d.ghost.style.transform = `translate(${ev.clientX - d.dx}px, ${ev.clientY - d.dy}px) rotate(-3deg)`;
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    let zone = under && under.closest ? under.closest("[data-drop]") : null;
    if (zone && !opts.canDrop(d.src, zone)) zone = null;
    if (zone !== d.zone) {
      if (d.zone) d.zone.classList.remove("drop-here");
      if (zone) zone.classList.add("drop-here");
      d.zone = zone;
    }
    if (opts.onHover) opts.onHover(d.src, zone, { x: ev.clientX, y: ev.clientY });
  }

  function move(ev) {
    if (!d || ev.pointerId !== d.id) return;
    if (!d.started) {
      if (Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) < SLOP) return;
      start(ev);
    }
    ev.preventDefault();
    place(ev);
  }

  function finish(ev, cancelled) {
    if (!d || ev.pointerId !== d.id) return;
    const was = d;
    d = null;
    if (!was.started) return; // a click: the element's own handler has it
    was.ghost.remove();
    was.src.classList.remove("dragging");
    document.body.classList.remove("is-dragging");
    if (was.zone) was.zone.classList.remove("drop-here");
    // the click that follows the release of a drag is not a click
    const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
    if (opts.onHover) opts.onHover(was.src, null, null);
    if (!cancelled && was.zone) opts.onDrop(was.src, was.zone, { x: ev.clientX, y: ev.clientY });
    else {
      // released on a place that refused the card: the owner may say why
      const under = cancelled ? null : document.elementFromPoint(ev.clientX, ev.clientY);
      const refused = under && under.closest ? under.closest("[data-drop]") : null;
      if (refused && opts.onRefuse) opts.onRefuse(was.src, refused);
      if (opts.onCancel) opts.onCancel(was.src);
    }
  }

  /* A drag, or a press that may become a click, blocks re-drawing the page (the owner
     asks): a button replaced between the press and the release would lose the click. */
  function busy() { return !!(d && d.started) || pressed > 0; }

  let released = null;
  function release() {
    if (pressed <= 0) return;
    // the click event comes right after the release; let it land first
    setTimeout(() => { pressed = Math.max(0, pressed - 1); if (!pressed && released) released(); }, 0);
  }
  /* ``f`` runs when the last press is released (the owner redraws what it held back). */
  function onRelease(f) { released = f; }

  document.addEventListener("pointerdown", (ev) => { pressed += 1; setTimeout(() => { pressed = 0; }, 4000); }, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  document.addEventListener("pointerdown", down);
  document.addEventListener("pointermove", move, { passive: false });
  document.addEventListener("pointerup", (ev) => finish(ev, false));
  document.addEventListener("pointercancel", (ev) => finish(ev, true));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && d && d.started) finish({ pointerId: d.id }, true);
  });

  function dragging() { return !!(d && d.started); }

  return { init, busy, dragging, onRelease };
})();
