/* rummykit browser app: the lobby (open tables, a form to create one) and the stats page. */
"use strict";

RK.Lobby = (function () {
  const h = RK.h;
  let rulesets = [];
  let timer = null;

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  async function show(main) {
    const list = h("div#tables", null, h("p", null, "Loading tables…"));
    const formBox = h("div#create-box", null, h("p", null, "Loading rulesets…"));
    main.replaceChildren(h("div.lobby", null,
      h("section#open-panel.panel", { "aria-labelledby": "open-h" }, h("h1#open-h", null, "Tables"), list),
      h("section#new-panel.panel", { "aria-labelledby": "new-h" }, h("h2#new-h", null, "New table"), formBox),
      statsForm(),
    ));
    refresh(list);
    timer = setInterval(() => refresh(list), 4000);
    try {
      rulesets = (await RK.api("GET", "/api/rulesets")).rulesets;
      formBox.replaceChildren(createForm());
    } catch (e) {
      formBox.replaceChildren(h("p.error", { role: "alert" }, "Could not load the rulesets: " + e.message));
    }
  }

  async function refresh(list) {
    let data;
    try { data = await RK.api("GET", "/api/tables"); } catch (e) {
      list.replaceChildren(h("p.error", null, "Could not load the tables: " + e.message));
      return;
    }
    const tables = data.tables || [];
    const free = (t) => (t.free_seats !== undefined ? t.free_seats : t.seats.filter(RK.isFree).length);
    const open = tables.filter((t) => t.status === "waiting" && free(t) > 0);
    const playing = tables.filter((t) => !open.includes(t));
    list.replaceChildren(
      h("h2#open-list-h", null, "Open tables: a seat is free"),
      open.length ? h("ul.tables#open-list", { "aria-labelledby": "open-list-h" }, open.map((t) => tableCard(t, free(t))))
        : h("p.muted", null, "No table has a free seat now: create one, and send its link to the others."),
      h("h2#playing-list-h", null, "Being played"),
      playing.length ? h("ul.tables#playing-list", { "aria-labelledby": "playing-list-h" }, playing.map((t) => tableCard(t, free(t))))
        : h("p.muted", null, "No game is being played."));
  }

  function tableCard(t, free) {
    const humans = t.seats.filter((s) => s.kind === "human");
    const taken = humans.length - free;
    const mine = RK.seatOf(t.id);
    const url = `/t/${t.id}`;
    const who = t.seats.map((s, i) => `${RK.seatNo(i)}: ${RK.isFree(s) ? "free" : s.name || RK.seatLabel(s)}`);
    const label = mine ? "Back to my seat" : free > 0 && t.status === "waiting" ? "Join" : "Watch";
    return h("li.table-card", { dataset: { table: t.id } },
      h("div.tname", null, t.name || t.ruleset),
      h("div.small", null, `${t.ruleset} · ${t.players} players · `,
        humans.length === 1 ? (taken ? "1 person seated" : "a seat for 1 person") : humans.length ? `${taken} of ${humans.length} people seated` : "bots only",
        t.status === "playing" ? " · playing" : ""),
      h("div.who", null, "Seats: " + who.join(", ")),
      t.settings && t.settings.deal_chosen ? h("div.small.seeded", null, "Chosen seed: its chooser can know every card") : null,
      h("div.btnrow", null, h("a.button" + (label === "Join" ? ".primary" : ""), { href: url, "aria-label": `${label}: ${t.name || t.ruleset}` }, label),
        copyButton(location.origin + url)));
  }

  function copyButton(url) {
    return h("button.small", {
      type: "button",
      title: url,
      onclick: async (ev) => {
        try { await navigator.clipboard.writeText(url); ev.target.textContent = "Link copied"; }
        catch (e) { window.prompt("Invite link:", url); }
      },
    }, "Copy invite link");
  }

  /* ---- the create form ---- */
  function createForm() {
    const f = h("form#create", { novalidate: true });
    const name = h("input#c-name", { name: "name", autocomplete: "nickname", maxlength: 40, required: true,
      value: RK.store.get("name", "") });
    const source = h("select#c-source", { name: "source" },
      h("option", { value: "ruleset" }, "one of rummykit's rulesets"), h("option", { value: "file" }, "a house-rules file (TOML)"));
    const rs = h("select#c-ruleset", { name: "ruleset" },
      rulesets.map((r) => h("option", { value: r.id, selected: r.id === "contract" }, `${r.name} (${r.id})`)));
    const file = h("input#c-file", { type: "file", accept: ".toml,text/plain", name: "rules" });
    const players = h("select#c-players", { name: "players" });
    const seats = h("fieldset#c-seats", null);
    const opts = h("fieldset#c-options", null);
    const timerOn = h("input#c-timer-on", { type: "checkbox" });
    const timerSec = h("input#c-timer", { type: "number", min: 5, max: 600, value: 60, disabled: true });
    const hints = h("input#c-hints", { type: "checkbox", checked: true });
    const seed = h("input#c-seed", { type: "number", min: 0, placeholder: "random" });
    // empty: the server's own pace (rummykit serve --bot-delay)
    const botDelay = h("input#c-bot-delay", { type: "number", min: 0, max: 10, step: 0.1, value: "", placeholder: "server's" });
    const claimSec = h("input#c-claim", { type: "number", min: 1, max: 60, value: 5 });
    const graceSec = h("input#c-grace", { type: "number", min: 0, max: 3600, value: 30 });
    const msg = h("p#c-msg.error", { role: "alert" });

    const current = () => rulesets.find((r) => r.id === rs.value) || rulesets[0];
    const fileMode = () => source.value === "file";

    function fillPlayers() {
      const [lo, hi] = fileMode() ? [2, 8] : current().players;
      const was = +players.value || 4;
      players.replaceChildren(...range(lo, hi).map((n) => h("option", { value: n, selected: n === Math.min(Math.max(was, lo), hi) }, String(n))));
      fillSeats();
    }
    function fillSeats() {
      const n = +players.value;
      const old = [...seats.querySelectorAll("select")].map((s) => s.value);
      const rows = range(0, n - 1).map((i) => {
        const sel = h("select", { id: `c-seat-${i}`, name: `seat${i}` },
          [["human", "a person"], ["bot:easy", "easy bot"], ["bot:medium", "medium bot"], ["bot:hard", "hard bot"]]
            .map(([v, t]) => h("option", { value: v, selected: (old[i] || (i === 0 ? "human" : "bot:medium")) === v }, t)));
        return h("div.field", null, h("label", { for: `c-seat-${i}` }, i === 0 ? "Seat 1 (you)" : `Seat ${RK.seatNo(i)}`), sel);
      });
      seats.replaceChildren(h("legend", null, "Seats"), ...rows);
    }
    function fillOptions() {
      if (fileMode()) {
        opts.replaceChildren(h("legend", null, "House rules"),
          h("p.muted.small", null, "The file sets the rules; the table shows how they differ from the ruleset they extend."));
        return;
      }
      const r = current();
      const fields = (r.options || []).map(optionField);
      const diff = h("div#c-diff.small", { role: "status" });
      const showDiff = () => {
        const changed = readOptions(opts, r);
        const keys = Object.keys(changed);
        for (const el of opts.querySelectorAll(".field[data-opt]")) el.classList.toggle("opt-changed", keys.includes(el.dataset.opt));
        diff.replaceChildren(keys.length ? h("p", null, h("strong", null, "This table differs from the written rules: "),
          keys.map((k) => optSays(r.options.find((o) => o.key === k), changed[k])).join(" ")) : h("p.muted", null, `Played as ${r.name} is written.`));
      };
      opts.replaceChildren(h("legend", null, `House rules of ${r.name}`), diff,
        fields.length ? h("details#c-options-more", null,
          h("summary", null, `Change a rule (${fields.length} house rules)`),
          h("div.optlist", { onchange: showDiff, oninput: showDiff }, fields)) : h("p.muted.small", null, "This ruleset has no options."));
      showDiff();
    }
    function showSource() {
      rs.closest(".field").hidden = fileMode();
      file.closest(".field").hidden = !fileMode();
      fillPlayers();
      fillOptions();
    }
    source.addEventListener("change", showSource);
    rs.addEventListener("change", () => { fillPlayers(); fillOptions(); });
    players.addEventListener("change", fillSeats);
    timerOn.addEventListener("change", () => { timerSec.disabled = !timerOn.checked; });

    f.append(
      field("Your name", name),
      field("Rules from", source),
      field("Ruleset", rs),
      field("House-rules file (TOML)", file),
      field("Players", players),
      seats,
      opts,
      h("fieldset", null, h("legend", null, "Table"),
        h("div.field.check", null, timerOn, h("label", { for: "c-timer-on" }, "Turn timer")),
        field("Seconds per turn", timerSec),
        h("div.field.check", null, hints, h("label", { for: "c-hints" }, "Hints"))),
      h("details#c-more", null, h("summary", null, "More settings"),
        field("Seed", seed), field("Bot delay (seconds)", botDelay),
        field("Claim countdown (seconds)", claimSec), field("Grace before a bot stands in (seconds)", graceSec)),
      msg,
      h("button#c-submit.primary", { type: "submit" }, "Create table"),
    );
    showSource();

    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      const who = name.value.trim();
      const seatKinds = [...seats.querySelectorAll("select")].map((s) => s.value);
      if (seatKinds.includes("human") && !who) {
        msg.textContent = "Give your name: it is shown at the table.";
        name.focus();
        return;
      }
      const body = {
        seats: seatKinds,
        players: seatKinds.length,
        options: fileMode() ? {} : readOptions(opts, current()),
        bot_delay: num(botDelay.value, undefined),
        claim_seconds: num(claimSec.value, 5),
        grace_seconds: num(graceSec.value, 30),
        turn_seconds: timerOn.checked ? num(timerSec.value, 60) : null,
        hints: hints.checked,
      };
      if (seed.value !== "") body.seed = Math.trunc(+seed.value);
      if (fileMode()) {
        if (!file.files.length) { msg.textContent = "Choose a house-rules file."; return; }
        body.rules = await file.files[0].text();
      } else {
        body.ruleset = rs.value;
      }
      const btn = f.querySelector("#c-submit");
      btn.disabled = true;
      try {
        const made = await RK.api("POST", "/api/tables", body);
        RK.store.set("name", who);
        const first = seatKinds.indexOf("human");
        if (first >= 0) {
          const j = await RK.api("POST", `/api/tables/${made.id}/join`, { name: who, seat: first });
          RK.keepSeat(made.id, j.seat, j.token, who);
        }
        RK.go(`/t/${made.id}`);
      } catch (e) {
        msg.textContent = e.message;
        btn.disabled = false;
      }
    });
    return f;
  }

  function optionField(o) {
    const id = `o-${o.key}`;
    let input;
    const helpId = `${id}-help`;
    const help = o.help ? h("div.help.muted.small", { id: helpId }, o.help) : null;
    if (o.type === "bool") {
      input = h("input", { id, type: "checkbox", dataset: { key: o.key, type: o.type }, checked: !!o.default, "aria-describedby": help ? helpId : null });
      return h("div.field.check", { dataset: { opt: o.key } }, input, h("label", { for: id }, optLabel(o)), help);
    }
    if (o.type === "choice") {
      input = h("select", { id, dataset: { key: o.key, type: o.type }, "aria-describedby": help ? helpId : null },
        (o.choices || []).map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default },
          choiceWords(o, c) + (c === o.default ? " (as written)" : ""))));
    } else {
      input = h("input", { id, type: "number", dataset: { key: o.key, type: o.type }, "aria-describedby": help ? helpId : null,
        value: o.default === null || o.default === undefined ? "" : o.default,
        min: o.min, max: o.max, placeholder: o.default === null ? "none" : null });
    }
    return h("div.field", { dataset: { opt: o.key } }, h("label", { for: id }, optLabel(o)), input, help);
  }

  function optLabel(o) { return o.label || o.key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()); }
  function choiceWords(o, c) {
    if (o.choice_labels && o.choice_labels[String(c)] !== undefined) return o.choice_labels[String(c)];
    return c === null ? "none" : String(c).replace(/_/g, " ");
  }
  /* One changed option as a sentence: "Aces: low only." */
  function optSays(o, v) {
    if (!o) return "";
    if (o.sentences && o.sentences[String(v)]) return o.sentences[String(v)];
    const what = o.type === "bool" ? (v ? "yes" : "no") : o.type === "choice" ? choiceWords(o, v) : v === null ? "none" : String(v);
    return `${optLabel(o)}: ${what}.`;
  }

  /* Only the options changed from the ruleset's default are sent. */
  function readOptions(box, r) {
    const out = {};
    for (const o of r.options || []) {
      const el = box.querySelector(`[data-key="${CSS.escape(o.key)}"]`);
      if (!el) continue;
      let v;
      if (o.type === "bool") v = el.checked;
      else if (o.type === "choice") v = JSON.parse(el.value);
      else v = el.value === "" ? null : Number(el.value);
      if (JSON.stringify(v) !== JSON.stringify(o.default)) out[o.key] = v;
    }
    return out;
  }

  function field(label, input) {
    if (!input.id) input.id = "f-" + Math.random().toString(36).slice(2);
    return h("div.field", null, h("label", { for: input.id }, label), input);
  }
  function range(a, b) { const r = []; for (let i = a; i <= b; i++) r.push(i); return r; }
  function num(v, d) { return v === "" || isNaN(+v) ? d : +v; }

  /* ---- stats ---- */
  function statsForm(value) {
    const input = h("input#s-name", { name: "stats", value: value || RK.store.get("name", ""), autocomplete: "nickname", required: true });
    return h("section#stats-panel.panel", { "aria-labelledby": "stats-h" }, h("h2#stats-h", null, "Player stats"),
      h("form#stats-form", { action: "/", method: "get", onsubmit: (ev) => {
        ev.preventDefault();
        if (input.value.trim()) RK.go("/stats/" + encodeURIComponent(input.value.trim()));
      } }, h("div.field", null, h("label", { for: "s-name" }, "Name"), input), h("button", { type: "submit" }, "Show")));
  }

  async function showStats(main, name) {
    const out = h("div#stats", { "aria-live": "polite" });
    main.replaceChildren(statsForm(name), h("section.panel", null, h("h1", null, name ? `Stats of ${name}` : "Stats"), out));
    if (!name) { out.append(h("p.muted", null, "Give a player's name.")); return; }
    try {
      const s = await RK.api("GET", `/api/stats/${encodeURIComponent(name)}`);
      if (!s.rulesets.length) { out.append(h("p.muted", null, `${name} has not finished a game on this server.`)); return; }
      out.append(h("table.list#stats-table", null,
        h("thead", null, h("tr", null, ["Ruleset", "Games", "Wins", "Mean score"].map((t) => h("th", null, t)))),
        h("tbody", null, s.rulesets.map((r) => h("tr", null, h("td", null, r.ruleset), h("td", null, r.games),
          h("td", null, r.wins), h("td", null, r.mean_score === null ? "-" : Number(r.mean_score).toFixed(1)))))));
    } catch (e) {
      out.append(h("p.error", { role: "alert" }, e.message));
    }
  }

  return { show, stop, showStats };
})();
