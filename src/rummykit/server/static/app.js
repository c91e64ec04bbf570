/* rummykit browser app: the router. "/" is the lobby, "/?stats=NAME" a player's stats,
   "/t/ID" a table (add "?replay=STEP" to replay a finished one). */
"use strict";

(function () {
  const main = document.getElementById("main");

  function stopAll() {
    RK.Lobby.stop();
    RK.Table.stop();
    RK.Replay.stop();
  }

  function route() {
    stopAll();
    const params = new URLSearchParams(location.search);
    const m = /^\/t\/([\w-]+)\/?$/.exec(location.pathname);
    const st = /^\/stats\/([^/]*)\/?$/.exec(location.pathname);
    if (st) params.set("stats", decodeURIComponent(st[1]));
    document.getElementById("conn").textContent = "";
    if (m) {
      RK.Table.show(main, m[1], params);
    } else if (params.has("stats")) {
      document.title = "rummykit: stats";
      RK.Lobby.showStats(main, params.get("stats").trim());
    } else {
      document.title = "rummykit: lobby";
      RK.Lobby.show(main);
    }
  }

  RK.go = function go(path) {
    history.pushState(null, "", path);
    route();
    main.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  };

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
