/* rummykit browser app: the router. "/" is the lobby, "/stats/NAME" a player's stats,
   "/t/ID" a table (add "?replay=STEP" to replay a finished one), "/t/ID/review?seat=S" the
   review of a finished game for one seat; anything else is the
   friendly "no such page". Also the page-wide bits: the tab's title and icon, the sound,
   the look (four-colour cards). */
"use strict";

(function () {
  const main = document.getElementById("main");
  const h = RK.h;

  function stopAll() {
    RK.Lobby.stop();
    RK.Table.stop();
    RK.Replay.stop();
    RK.Review.stop();
  }

  RK.notFound = function notFound(el, why) {
    document.title = "rummykit: not found";
    el.replaceChildren(h("section#not-found.panel.narrow", { "aria-labelledby": "nf-h" },
      h("h1#nf-h", null, "Nothing here"),
      h("p", null, why || "There is no page at this address."),
      h("p", null, h("a.button.primary", { href: "/" }, "Go to the lobby"))));
  };

  function route() {
    stopAll();
    const params = new URLSearchParams(location.search);
    const m = /^\/t\/([\w-]+)\/?$/.exec(location.pathname);
    const rv = /^\/t\/([\w-]+)\/review\/?$/.exec(location.pathname);
    const st = /^\/stats\/([^/]*)\/?$/.exec(location.pathname);
    document.getElementById("conn").textContent = "";
    if (m) {
      RK.Table.show(main, m[1], params);
    } else if (rv) {
      RK.Review.show(main, rv[1], params);
    } else if (st || (location.pathname === "/" && params.has("stats"))) {
      document.title = "rummykit: stats";
      RK.Lobby.showStats(main, (st ? decodeURIComponent(st[1]) : params.get("stats")).trim());
    } else if (location.pathname === "/" || location.pathname === "") {
      document.title = "rummykit: lobby";
      RK.Lobby.show(main);
    } else {
      RK.notFound(main);
    }
  }

  RK.go = function go(path) {
    history.pushState(null, "", path);
    route();
    main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  };

  /* The tab's title, and its icon: a plain felt-green card, or an orange dot on it when
     the player is wanted (``wanted``: the title then; null: ``plain`` is the title). */
  const icon = document.getElementById("favicon");
  const ICON = (dot) => "data:image/svg+xml," + encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="2" width="22" height="28" rx="4" fill="#1f6b4a"/>`
    + (dot ? `<circle cx="22" cy="9" r="8" fill="#ff8c00" stroke="#fff" stroke-width="2"/>` : "") + "</svg>");
  RK.attention = function attention(wanted, plain) {
    if (wanted) document.title = `● ${wanted}`;
    else if (plain) document.title = plain;
    if (icon) icon.href = ICON(!!wanted);
  };
  RK.attention(null);

  /* A short two-note chime (Web Audio: no sound file to load). */
  let audio = null;
  RK.chime = function chime() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const t = audio.currentTime;
      [660, 880].forEach((f, i) => {
        const o = audio.createOscillator();
        const g = audio.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t + i * 0.12);
        g.gain.exponentialRampToValueAtTime(0.15, t + i * 0.12 + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.25);
        o.connect(g).connect(audio.destination);
        o.start(t + i * 0.12);
        o.stop(t + i * 0.12 + 0.3);
      });
    } catch (e) { /* no audio here */ }
  };

  RK.applyLook = function applyLook() {
    document.body.classList.toggle("four-color", !!RK.store.get("fourColor", false));
  };
  RK.applyLook();

  /* Links inside the app change the page without a reload. */
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a[href]");
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || a.target) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
    ev.preventDefault();
    RK.go(url.pathname + url.search);
  });

  window.addEventListener("popstate", route);
  route();
})();
