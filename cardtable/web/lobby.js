// The lobby: pick a game, its options and who sits where; create the table; share the links.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") n.className = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) n.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) n.append(kid.nodeType ? kid : String(kid));
  return n;
};

let catalog = null;
let current = null;   // the chosen game's catalog entry
let seats = [];       // [{kind, agent}]

function optionFields(game) {
  // Simple options only (enums, booleans, integers); "players" comes from the seats and
  // file-valued options (custom decks) stay with the command line.
  const props = (game.options && game.options.properties) || {};
  const out = [];
  for (const [name, p] of Object.entries(props)) {
    if (name === "players") continue;
    let type = p.type, values = p.enum, nullable = false;
    if (p.anyOf) {
      const nonNull = p.anyOf.filter((a) => a.type !== "null");
      nullable = nonNull.length < p.anyOf.length;
      if (nonNull.length === 1) { type = nonNull[0].type; values = nonNull[0].enum; }
      else continue;
    }
    if (p.const !== undefined) continue;
    if (!values && !["boolean", "integer", "number"].includes(type)) continue;
    out.push({ name, type, values, nullable, def: p.default, title: p.description || name });
  }
  return out;
}

function renderOptions() {
  const box = $("#options");
  box.replaceChildren();
  for (const f of optionFields(current)) {
    let input;
    if (f.values) {
      input = el("select", { name: f.name }, f.values.map((v) => el("option", { value: v, selected: v === f.def }, v)));
    } else if (f.type === "boolean") {
      input = el("input", { type: "checkbox", name: f.name, checked: !!f.def });
    } else {
      input = el("input", { type: "number", name: f.name, value: f.def ?? "", placeholder: f.nullable ? "default" : "", style: "width:7em" });
    }
    input.dataset.kind = f.values ? "enum" : f.type;
    box.append(el("div", { class: "row" }, el("label", { title: f.title }, f.name.replace(/_/g, " ")), input));
  }
  box.append(el("div", { class: "row" }, el("label", { title: "the same seed and moves give the same game" }, "seed"),
    el("input", { id: "seed", type: "number", min: 0, placeholder: "random", style: "width:9em" })));
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const k = input.dataset.kind;
    if (k === "boolean") out[input.name] = input.checked;
    else if (k === "integer" || k === "number") { if (input.value !== "") out[input.name] = Number(input.value); }
    else out[input.name] = input.value;
  }
  return out;
}

function renderSeats() {
  const box = $("#seats");
  box.replaceChildren();
  seats.forEach((s, i) => {
    const kind = el("select", { "data-seat": i, class: "seat-kind", onchange: (e) => { s.kind = e.target.value; renderSeats(); } },
      el("option", { value: "person", selected: s.kind === "person" }, "person"),
      el("option", { value: "bot", selected: s.kind === "bot" }, "bot"));
    const agent = el("select", { class: "seat-agent", disabled: s.kind !== "bot", onchange: (e) => { s.agent = e.target.value; } },
      catalog.bots.map((b) => el("option", { value: b, selected: b === s.agent }, b)));
    box.append(el("div", { class: "seat-row" }, el("span", { class: "n" }, `seat ${i}`), kind, s.kind === "bot" ? agent : el("span", { class: "conn" }, i === 0 ? "you" : "a friend (share the link)")));
  });
  $("#add-seat").disabled = seats.length >= current.max_players;
  $("#remove-seat").disabled = seats.length <= current.min_players;
}

function pickGame(g) {
  current = g;
  document.querySelectorAll(".game-pick").forEach((b) => b.classList.toggle("on", b.dataset.game === g.name));
  const n = Math.max(g.min_players, Math.min(g.max_players, 2));
  const bot = catalog.difficulties[0] || catalog.bots[0];
  seats = Array.from({ length: n }, (_, i) => (i === 0 ? { kind: "person", agent: bot } : { kind: "bot", agent: bot }));
  $("#summary").textContent = g.summary || "";
  renderOptions();
  renderSeats();
  $("#links").classList.add("hidden");
}

async function create() {
  const err = $("#create-error");
  err.classList.add("hidden");
  const body = { game: current.name, options: readOptions(), seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", agent: s.agent } : { kind: "person" })) };
  const seed = $("#seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { err.textContent = data.message || "the table could not be created"; err.classList.remove("hidden"); return; }
  const box = $("#links");
  box.replaceChildren(el("h2", {}, "Table ready"));
  const abs = (p) => new URL(p, location.href).href;
  for (const s of data.seats) {
    if (!s.token) continue;
    box.append(el("div", { class: "link" },
      el("button", { class: "primary", "data-join": s.seat, onclick: () => { location.href = s.link; } }, `Sit at seat ${s.seat}`),
      el("code", {}, abs(s.link)),
      el("button", { class: "ghost", onclick: () => navigator.clipboard && navigator.clipboard.writeText(abs(s.link)) }, "copy")));
  }
  box.append(el("div", { class: "link" }, el("a", { href: data.spectate }, "watch as a spectator"), el("code", {}, abs(data.spectate))));
  box.append(el("p", { class: "conn" }, "Each link holds that seat's secret token: send it only to the person who sits there."));
  box.classList.remove("hidden");
  loadTables();
}

async function loadTables() {
  const r = await fetch("/api/tables");
  const data = await r.json();
  const ul = $("#tables");
  ul.replaceChildren();
  if (!data.tables.length) ul.append(el("li", { class: "conn" }, "no tables yet"));
  for (const t of data.tables) {
    const who = t.seats.map((s) => (s.kind === "bot" ? s.agent : "person")).join(", ");
    ul.append(el("li", {}, el("span", {}, el("b", {}, t.game), ` · ${who}`),
      el("span", {}, el("a", { href: `/t/${t.id}` }, t.finished ? "replay" : "watch"))));
  }
}

async function main() {
  const r = await fetch("/api/games");
  catalog = await r.json();
  const box = $("#games");
  for (const g of catalog.games) {
    box.append(el("button", { class: "game-pick", "data-game": g.name, type: "button", onclick: () => pickGame(g) },
      el("b", {}, g.title), el("small", {}, `${g.min_players}–${g.max_players} players`)));
  }
  $("#add-seat").onclick = () => { seats.push({ kind: "bot", agent: catalog.difficulties[0] || catalog.bots[0] }); renderSeats(); };
  $("#remove-seat").onclick = () => { seats.pop(); renderSeats(); };
  $("#create-btn").onclick = create;
  if (catalog.games.length) pickGame(catalog.games[0]);
  loadTables();
}

main();
