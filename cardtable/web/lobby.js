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
let seats = [];       // [{kind: person|open|bot, agent, name}]

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
  box.append(el("div", { id: "deck-builder" }));
}

// The deck builder, for a game whose options take a deck per seat (Ivion): a starter, or a hero
// built here (classes, specialization, traits), checked by the server: its 45 cards, or the rule
// the deck breaks. The table is then created with that deck.
let builder = null;   // GET /api/games/{game}/decks
let decks = [];       // per seat: {starter: name} or {hero: table, ok: bool}

async function loadBuilder(g) {
  builder = null;
  decks = [];
  const props = (g.options && g.options.properties) || {};
  if (!props.decks) return;
  const r = await fetch(`/api/games/${encodeURIComponent(g.name)}/decks`);
  if (!r.ok || current !== g) return;
  builder = await r.json();
  decks = [0, 1].map((i) => ({ starter: builder.starters[i % builder.starters.length] }));
  renderBuilder();
}

function heroTable(i) {
  const v = (k) => { const n = document.querySelector(`[data-hero='${i}'][data-part='${k}']`); return n ? n.value : ""; };
  return { name: v("name").trim() || `Hero ${i + 1}`, mode: "herocrafting", classes: [v("class1"), v("class2")],
    specialization: v("spec"), traits: [v("trait1"), v("trait2")] };
}

async function checkDeck(i) {
  const hero = heroTable(i);
  const out = document.getElementById(`deck-result-${i}`);
  const r = await fetch(`/api/games/${encodeURIComponent(current.name)}/decks`, { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(hero) });
  const data = await r.json();
  decks[i] = { hero, ok: !!data.ok };
  if (!r.ok || !data.ok) {
    out.replaceChildren(el("div", { class: "error-box deck-rule", "data-deck-rule": i }, data.rule || data.message || "the deck was refused"));
    return;
  }
  const byArch = {};
  for (const c of data.cards) (byArch[c.archetype] = byArch[c.archetype] || []).push(c);
  // the cost curve as bars, the colours as chips, then the server's words (the terminal prints the same)
  const most = Math.max(...data.curve.map((c) => c.count));
  const curve = el("div", { class: "deck-curve", "data-deck-curve": i }, data.curve.map((c) => el("div", { class: "bar",
    title: `${c.count} cards cost ${c.actions} action${c.actions === 1 ? "" : "s"}` },
  el("span", { class: "fill", style: `height:${Math.round((40 * c.count) / most)}px` }), el("small", {}, `${c.actions}: ${c.count}`))));
  // each archetype's colours as pips of the table's palette (gold, red, blue, green)
  const colours = el("div", { class: "chips", "data-deck-colours": i }, data.colours.map((c) => el("span", {
    class: "chip deck-colour", style: `border-left-color:${paint(c.colours[0])}` }, pips(c.colours), `${c.archetype} · ${c.colours.join("/")} × ${c.count}`)));
  out.replaceChildren(el("div", { class: "conn", "data-deck-ok": i }, `${data.hero}: ${data.size} cards, ${data.hp} HP; feats ${data.feats.join(", ")}`),
    el("div", { class: "deck-shape" }, curve, colours),
    el("div", { class: "deck-words", "data-deck-words": i }, data.lines.map((l) => el("div", {}, l))),
    el("div", { class: "deck-list", "data-deck-list": i }, Object.entries(byArch).map(([arch, cards]) => el("div", {},
      el("b", {}, `${arch} (${cards.reduce((n, c) => n + c.count, 0)})`), ": ",
      cards.map((c) => `${c.count}× ${c.name}`).join(", ")))));
}

// A colour of the content drawn with the palette's shade of it (--gold, --red, --blue, --green),
// and any colour the content adds as the colour of that name.
const paint = (colour) => `var(--${colour}, ${colour})`;
const pips = (colours) => colours.map((c) => el("span", { class: "pip", "data-pip": c, title: c, style: `background:${paint(c)}` }));

// How a class, specialization, trait or starter hero plays, from the content (its description),
// under the choice it explains; refreshed when the choice changes.
function about(part, name) {
  const find = (list) => list.find((x) => x.name === name) || null;
  let head = "", desc = "", more = "";
  if (part === "class1" || part === "class2") {
    const c = find(builder.classes);
    if (c) { head = [...pips([c.colour]), `${c.name} · ${c.colour}`]; desc = c.description; }
  } else if (part === "spec") {
    const c = find(builder.specializations);
    if (c) { head = [...pips(c.colours), `${c.name} · ${c.colours.join("/")} · ultimate ${c.ultimate}`]; desc = c.description; more = c.ultimate_description; }
  } else if (part === "trait1" || part === "trait2") {
    const t = find(builder.traits);
    if (t) { head = [...pips(t.pips), `${t.name} · pips ${t.pips.join(" ")}`]; desc = t.description; more = t.text; }
  } else if (part === "starter") {
    const h = find(builder.heroes);
    if (h) return el("div", { class: "deck-about", "data-hero-line": name }, `${h.name}: ${h.line}`);
  }
  return el("div", { class: "deck-about", "data-about": part },
    head, desc ? ": " : "", el("span", { "data-description": part }, desc), more ? el("span", { class: "more" }, ` — ${more}`) : null);
}

function renderBuilder() {
  const box = document.getElementById("deck-builder");
  if (!box) return;
  if (!builder) { box.replaceChildren(); return; }
  const opts = (list, sel) => list.map((x) => el("option", { value: x, selected: x === sel }, x));
  const rows = [el("h3", {}, "Decks")];
  decks.forEach((d, i) => {
    const choose = el("select", { "data-deck-seat": i, onchange: (e) => {
      decks[i] = e.target.value === "" ? { hero: null, ok: false } : { starter: e.target.value };
      renderBuilder();
    } }, opts(builder.starters, d.starter), el("option", { value: "", selected: !d.starter }, "build a hero…"));
    rows.push(el("div", { class: "row" }, el("label", {}, `seat ${i + 1} deck`), choose));
    if (d.starter) { rows.push(el("div", { "data-starter-about": i }, about("starter", d.starter))); return; }
    const h = d.hero || { name: "", classes: [builder.classes[0].name, builder.classes[1].name],
      specialization: builder.specializations[0].name, traits: [builder.traits[0].name, builder.traits[1].name] };
    const abouts = {};
    const part = (k, list, sel) => {
      abouts[k] = el("div", { "data-about-of": `${i}-${k}` }, about(k, sel));
      return el("select", { "data-hero": i, "data-part": k, onchange: (e) => {
        decks[i] = { hero: heroTable(i), ok: false };
        abouts[k].replaceChildren(about(k, e.target.value));
      } }, opts(list, sel));
    };
    const classes = builder.classes.map((c) => c.name);
    const traits = builder.traits.map((t) => t.name);
    rows.push(el("div", { class: "deck-build", "data-build": i },
      el("div", { class: "row" }, el("label", {}, "name"), el("input", { "data-hero": i, "data-part": "name", maxlength: 40, value: h.name, placeholder: `Hero ${i + 1}` })),
      el("div", { class: "row" }, el("label", {}, "classes"), part("class1", classes, h.classes[0]), part("class2", classes, h.classes[1])),
      abouts.class1, abouts.class2,
      el("div", { class: "row" }, el("label", {}, "specialization"), part("spec", builder.specializations.map((c) => c.name), h.specialization)),
      abouts.spec,
      el("div", { class: "row" }, el("label", {}, "traits"), part("trait1", traits, h.traits[0]), part("trait2", traits, h.traits[1])),
      abouts.trait1, abouts.trait2,
      el("div", { class: "row" }, el("button", { type: "button", "data-check-deck": i, onclick: () => checkDeck(i) }, "See the deck")),
      el("div", { id: `deck-result-${i}` })));
  });
  box.replaceChildren(...rows);
}

function readDecks() {
  if (!builder) return null;
  return decks.map((d, i) => (d.starter ? d.starter : heroTable(i)));
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#options [name]")) {
    const k = input.dataset.kind;
    if (k === "boolean") out[input.name] = input.checked;
    else if (k === "integer" || k === "number") { if (input.value !== "") out[input.name] = Number(input.value); }
    else out[input.name] = input.value;
  }
  const chosen = readDecks();
  if (chosen) out.decks = chosen;
  return out;
}

// A level with its rating from this game's published ladder (`cardtable ladder --publish`), when there is one;
// a level the game's ladder has not rated yet says so, rather than look like the strongest by its place.
function levelLabel(b) {
  const ratings = current && current.ratings ? current.ratings : {};
  const r = ratings[b];
  if (r) return `${b} (Elo ${r.elo >= 0 ? "+" : ""}${r.elo})`;
  const isLevel = (catalog.difficulties || []).includes(b);
  return isLevel && Object.keys(ratings).length ? `${b} (not yet rated)` : b;
}

function renderSeats() {
  const box = $("#seats");
  box.replaceChildren();
  seats.forEach((s, i) => {
    const kind = el("select", { "data-seat": i, class: "seat-kind", onchange: (e) => { s.kind = e.target.value; renderSeats(); } },
      el("option", { value: "person", selected: s.kind === "person" }, i === 0 ? "you" : "a friend (a link)"),
      el("option", { value: "open", selected: s.kind === "open" }, "open (anyone, from the lobby)"),
      el("option", { value: "bot", selected: s.kind === "bot" }, "bot"));
    const agent = el("select", { class: "seat-agent", disabled: s.kind !== "bot", onchange: (e) => { s.agent = e.target.value; } },
      catalog.bots.map((b) => el("option", { value: b, selected: b === s.agent }, levelLabel(b))));
    const name = el("input", { class: "seat-name", "data-seat-name": i, maxlength: 24, value: s.name || "",
      placeholder: i === 0 ? "your name" : "their name (optional)", oninput: (e) => { s.name = e.target.value; } });
    const what = s.kind === "bot" ? agent : s.kind === "person" ? name : el("span", { class: "conn" }, "listed in the lobby; the first to join sits here");
    box.append(el("div", { class: "seat-row" }, el("span", { class: "n" }, `seat ${i + 1}`), kind, what));
  });
  // what the levels' ratings were measured on (a JUNO level rated in single rounds, for one playing a match)
  if (current.rated_on && seats.some((s) => s.kind === "bot")) box.append(el("p", { id: "rated-on", class: "conn" }, current.rated_on));
  $("#add-seat").disabled = seats.length >= current.max_players;
  $("#remove-seat").disabled = seats.length <= current.min_players;
}

function pickGame(g) {
  current = g;
  document.querySelectorAll(".game-pick").forEach((b) => b.classList.toggle("on", b.dataset.game === g.name));
  const n = Math.max(g.min_players, Math.min(g.max_players, 2));
  // the same default level as the terminal (cardtable play --bots medium)
  const bot = catalog.difficulties.includes("medium") ? "medium" : (catalog.difficulties[0] || catalog.bots[0]);
  const you = seats.length && seats[0].name ? seats[0].name : "";
  seats = Array.from({ length: n }, (_, i) => (i === 0 ? { kind: "person", agent: bot, name: you } : { kind: "bot", agent: bot }));
  $("#summary").textContent = g.summary || "";
  renderOptions();
  renderSeats();
  loadBuilder(g);
  $("#links").classList.add("hidden");
}

async function create() {
  const err = $("#create-error");
  err.classList.add("hidden");
  const body = { game: current.name, options: readOptions(), seats: seats.map((s) => {
    if (s.kind === "bot") return { kind: "bot", agent: s.agent };
    if (s.kind === "open") return { kind: "open" };
    const name = (s.name || "").trim();
    return name ? { kind: "person", name } : { kind: "person" };
  }) };
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
      el("button", { class: "primary", "data-join": s.seat, onclick: () => { location.href = s.link; } }, `Sit as ${s.name}`),
      el("code", {}, abs(s.link)),
      el("button", { class: "ghost", onclick: () => navigator.clipboard && navigator.clipboard.writeText(abs(s.link)) }, "copy")));
  }
  box.append(el("div", { class: "link" }, el("a", { href: data.spectate }, "watch as a spectator"), el("code", {}, abs(data.spectate))));
  box.append(el("p", { class: "conn" }, "Each link holds that seat's secret token: send it only to the person who sits there."));
  box.classList.remove("hidden");
  loadTables();
}

function age(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  const d = Math.round(s / 86400);
  return `${d} day${d === 1 ? "" : "s"} ago`;
}

// Join an open seat: a name, then the seat's own link (its secret token, kept by this browser).
function joinForm(t, seat, li) {
  const old = li.querySelector(".join-form");
  if (old) old.remove();
  const input = el("input", { class: "join-name", maxlength: 24, placeholder: "your name", required: true });
  const err = el("span", { class: "error-box hidden" });
  const sit = async () => {
    const r = await fetch(`/api/tables/${encodeURIComponent(t.id)}/join`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ seat, name: input.value }) });
    const data = await r.json();
    if (!r.ok) { err.textContent = data.message || "the seat could not be taken"; err.classList.remove("hidden"); if (r.status === 409) loadTables(); return; }
    location.href = data.link;
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") sit(); });
  const form = el("div", { class: "join-form" }, el("span", {}, `Seat ${seat + 1} of this ${t.title} table:`), input,
    el("button", { class: "primary", "data-sit": seat, onclick: sit }, "Sit here"), err);
  li.append(form);
  input.focus();
}

async function loadTables() {
  const r = await fetch("/api/tables");
  const data = await r.json();
  const ul = $("#tables");
  if (ul.querySelector(".join-form input:focus")) return;  // someone is typing a name: keep the list still
  ul.replaceChildren();
  if (!data.tables.length) ul.append(el("li", { class: "conn" }, "no tables yet"));
  const now = data.now || Date.now() / 1000;
  for (const t of data.tables) {
    const open = t.seats.filter((s) => s.open).length;
    const taken = t.seats.length - open;
    // A table with an open seat waits for a player (whoever's turn it is); an idle table says since when.
    const status = t.finished ? "finished" : open ? `waiting for ${open === 1 ? "a player" : `${open} players`}`
      : t.turn ? `${t.turn} to play` : "in play";
    const moves = t.moves ? `${t.moves} move${t.moves === 1 ? "" : "s"}, last move ${age(now - (t.last_move ?? t.created))}`
      : `no move yet, created ${age(now - t.created)}`;
    const li = el("li", { "data-table": t.id });
    const chips = el("div", { class: "seatchips" }, t.seats.map((s, i) => s.open
      ? el("button", { class: "seatchip open", "data-open-seat": i, onclick: () => joinForm(t, i, li) }, `seat ${i + 1}: open — join`)
      : el("span", { class: "seatchip" }, s.kind === "bot" ? `${s.name} (bot, ${s.agent})` : s.name)));
    li.append(el("div", { style: "flex:1" },
      el("div", {}, el("b", {}, t.title || t.game), el("span", { class: "status" },
        ` · ${status} · ${taken} seated, ${open} open · ${moves}`)),
      chips),
    el("span", {}, el("a", { href: `/t/${t.id}?spectate${t.finished ? "&replay=0" : ""}`, "data-watch": t.id }, t.finished ? "replay" : "watch")));
    ul.append(li);
  }
}

async function main() {
  const r = await fetch("/api/games");
  catalog = await r.json();
  const box = $("#games");
  for (const g of catalog.games) {
    box.append(el("button", { class: "game-pick", "data-game": g.name, type: "button", onclick: () => pickGame(g) },
      el("b", {}, g.title), el("small", {}, g.player_count)));
  }
  $("#add-seat").onclick = () => { seats.push({ kind: "bot", agent: catalog.difficulties.includes("medium") ? "medium" : (catalog.difficulties[0] || catalog.bots[0]) }); renderSeats(); };
  $("#remove-seat").onclick = () => { seats.pop(); renderSeats(); };
  $("#create-btn").onclick = create;
  if (catalog.games.length) pickGame(catalog.games[0]);
  loadTables();
  setInterval(loadTables, 5000);
}

main();
