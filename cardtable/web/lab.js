// The designers' lab (lab.html): pick a game, edit a card in a form made from the game's card
// schema (checked as you type by the game's own loader, on the server), simulate the variant
// against the base on the same seeds, read the difference. The page works out no rule: every
// card text, message and figure comes from the server (cardtable/server/lab.py).
"use strict";

const $ = (id) => document.getElementById(id);
// A game's cards are one or more tables (a list of `[[noun]]` tables is one, named ""; IUNU has
// its citizens and its Afterlife cards): `variant` holds every card's data, `tableOf` its table.
const lab = { token: sessionStorage.getItem("lab-token"), games: [], game: null, base: [], variant: [], tableOf: [],
  tables: [], at: 0, run: null, poll: null, checkTimer: null, checkSeq: 0, loadSeq: 0 };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function api(method, path, body) {
  const init = { method, headers: { authorization: `Bearer ${lab.token || ""}` } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({ message: `the server answered ${r.status}` }));
  if (r.status === 403 && data.error === "lab_login") { showLogin(data.message); throw new Error(data.message); }
  if (!r.ok) throw new Error(data.message || `the server answered ${r.status}`);
  return data;
}

function showLogin(message) {
  lab.token = null;
  sessionStorage.removeItem("lab-token");
  $("login").classList.remove("hidden");
  for (const id of ["setup", "cards-panel", "editor", "simulate", "results"]) $(id).classList.add("hidden");
  if (message) { $("login-error").textContent = message; $("login-error").classList.remove("hidden"); }
}

async function login(ev) {
  ev.preventDefault();
  try {
    const r = await fetch("/api/lab/login", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: $("password").value }) });
    const data = await r.json();
    if (!r.ok) throw new Error(data.message);
    lab.token = data.token;
    sessionStorage.setItem("lab-token", data.token);
    $("login-error").classList.add("hidden");
    await start();
  } catch (e) {
    $("login-error").textContent = e.message;
    $("login-error").classList.remove("hidden");
  }
}

async function start() {
  const data = await api("GET", "/api/lab/games");
  $("login").classList.add("hidden");
  for (const id of ["setup", "cards-panel", "editor", "simulate"]) $(id).classList.remove("hidden");
  lab.games = data.games;
  lab.maxGames = data.max_games;
  $("games").max = data.max_games;
  $("game").replaceChildren(...data.games.map((g) => el("option", { value: g.name }, g.title)));
  $("agent").replaceChildren(...data.agents.map((a) => el("option", { value: a }, `${a} in every seat`)));
  $("run-state").textContent = `Games run ${data.backend === "ray" ? "on the Ray cluster" : "in the server's worker processes"}; `
    + `at most ${data.max_games} a side and ${Math.round(data.max_seconds)} s a run.`;
  await pickGame();
}

function optionInput(name, prop) {
  const choices = prop.enum || (prop.anyOf || []).flatMap((p) => p.enum || []);
  const kinds = new Set([prop.type, ...(prop.anyOf || []).map((p) => p.type)]);
  const id = `opt-${name}`;
  let input;
  if (choices.length) {
    input = el("select", { id, name }, el("option", { value: "" }, "(default)"), ...choices.map((c) => el("option", { value: c }, c)));
  } else if (kinds.has("boolean")) {
    input = el("input", { id, name, type: "checkbox" });
    input.checked = prop.default === true;
  } else if (kinds.has("integer")) {
    input = el("input", { id, name, type: "number", placeholder: prop.default ?? "", min: prop.minimum, max: prop.maximum });
  } else {
    return null;  // lists and tables are not options the lab edits
  }
  input.dataset.kind = choices.length ? "choice" : kinds.has("boolean") ? "bool" : "int";
  input.addEventListener("change", loadCards);
  return el("div", { class: "row", title: prop.description || "" }, el("label", { for: id }, name.replaceAll("_", " ")), input);
}

function options() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    if (input.dataset.kind === "bool") {
      const game = lab.games.find((g) => g.name === lab.game);
      if (input.checked !== (game.options[input.name].default === true)) out[input.name] = input.checked;
    } else if (input.value !== "") {
      out[input.name] = input.dataset.kind === "int" ? Number(input.value) : input.value;
    }
  }
  return out;
}

async function pickGame() {
  lab.game = $("game").value;
  const game = lab.games.find((g) => g.name === lab.game);
  $("options").replaceChildren(...Object.entries(game.options).map(([k, p]) => optionInput(k, p)).filter(Boolean));
  $("save-name").placeholder = `my-${game.noun}s`;
  await loadCards();
}

async function loadCards() {
  const seq = ++lab.loadSeq;
  document.body.dataset.cards = "loading";
  try {
    const data = await api("POST", "/api/lab/cards", { game: lab.game, options: options() });
    if (seq !== lab.loadSeq) return;  // another game or other options were picked meanwhile
    lab.base = data.cards;
    lab.variant = data.cards.map((c) => structuredClone(c.data));
    lab.tableOf = data.cards.map((c) => c.table);
    lab.tables = data.tables;
    lab.texts = Object.fromEntries(data.cards.map((c) => [c.name, c.text]));
    lab.at = 0;
    $("impact-from").textContent = data.impact_from
      ? `Impact: win-rate points per copy dealt (per copy drawn, when played) from the last run's base, ${data.impact_from}.`
      : "Impact: no run of this game yet; simulate once to see each card's impact.";
    $("run-error").classList.add("hidden");
    renderCards();
    renderForm();
    check();
    document.body.dataset.cards = lab.game;
  } catch (e) {
    $("run-error").textContent = e.message;
    $("run-error").classList.remove("hidden");
  }
}

function points(x) { return x === null || x === undefined ? "n/a" : `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`; }
function interval(r) { return `[${points(r.low)}, ${points(r.high)}]`; }

function impactText(card) {
  const parts = [];
  for (const m of ["dealt", "drawn", "played"]) {
    const i = card.impact[m];
    if (i) parts.push(`${m} ${points(i.estimate)} ${interval(i)}`);
  }
  return parts.join("; ") || "—";
}

function edited(i) {
  return i >= lab.base.length || JSON.stringify(lab.variant[i]) !== JSON.stringify(lab.base[i].data);
}

// the cards as the server takes them: the one list, or each table's list by its name
function payload() {
  if (lab.tables.length === 1 && lab.tables[0].name === "") return lab.variant;
  return Object.fromEntries(lab.tables.map((t) => [t.name, lab.variant.filter((_, i) => lab.tableOf[i] === t.name)]));
}

function tableAt(i) { return lab.tables.find((t) => t.name === lab.tableOf[i]); }

function renderCards() {
  const row = (data, i) => {
    const base = lab.base[i];
    const name = data.name;
    return el("tr", { class: `${i === lab.at ? "on" : ""} ${edited(i) ? "edited" : ""}`, "data-card": name },
      el("td", {}, name), el("td", {}, base ? base.kind : "new"),
      el("td", {}, lab.texts[name] || (base ? base.text : "")),
      el("td", { class: "data" }, el("code", {}, JSON.stringify(data))),
      el("td", { class: "impact" }, base && base.data.name === name ? impactText(base) : "—"),
      el("td", {}, el("button", { type: "button", class: "ghost", onclick: () => { lab.at = i; renderCards(); renderForm(); } }, "Edit")));
  };
  const head = () => el("tr", {}, ...["card", "kind", "text", "data", "impact (points, 95%)", ""].map(
    (h, k) => el("th", { class: k === 3 ? "data" : "" }, h)));
  // a list per table, each under its name when there are several
  $("cards").replaceChildren(...lab.tables.map((t) => {
    const rows = lab.variant.map((data, i) => (lab.tableOf[i] === t.name ? row(data, i) : null)).filter(Boolean);
    const grid = el("table", { "data-table": t.name }, el("thead", {}, head()), el("tbody", {}, rows));
    return t.name ? el("div", {}, el("h3", {}, `${t.name} (${rows.length})`), grid) : grid;
  }));
  const changed = lab.variant.map((c, i) => (edited(i) ? c.name : null)).filter(Boolean);
  $("card-count").textContent = `${lab.variant.length} in the game's card file`;
  $("changes").textContent = changed.length ? `The variant changes: ${changed.join(", ")}.` : "No card changed yet: the variant is the base.";
  $("run").textContent = `Simulate ${$("games").value} games`;
}

function fieldValue(f, v) {
  if (v === undefined || v === null) return "";
  if (f.kind === "names") return v.join(", ");
  if (f.kind === "json") return JSON.stringify(v);
  return String(v);
}

// a field applies to a card unless it says `when` (a union's member: IUNU's Afterlife `vp` is for
// the effects that take one), and then only when the card's own value of that field is one of them
function applies(f, card) { return !f.when || f.when.values.includes(card[f.when.field]); }

function renderForm() {
  const card = lab.variant[lab.at];
  $("editing").textContent = card.name;
  $("add-refused").classList.add("hidden");
  const form = tableAt(lab.at).form;
  const fields = form.filter((f) => applies(f, card)).map((f) => {
    const id = `field-${f.name}`;
    let input;
    if (f.kind === "choice") {
      input = el("select", { id, name: f.name }, el("option", { value: "" }, f.required ? "(choose)" : "(none)"),
        ...f.choices.map((c) => el("option", { value: c }, c)));
    } else if (f.kind === "json") {
      input = el("textarea", { id, name: f.name, rows: 2, spellcheck: "false" });
    } else {
      input = el("input", { id, name: f.name, type: f.kind === "number" ? "number" : "text",
        placeholder: f.kind === "names" ? (f.choices.length ? `of ${f.choices.join(", ")}; separated by commas` : "names, separated by commas") : "" });
    }
    input.value = fieldValue(f, card[f.name]);
    input.addEventListener("input", () => edit(f, input));
    return el("div", { class: "field" }, el("label", { for: id }, f.name.replaceAll("_", " ")), input);
  });
  $("card-form").replaceChildren(...fields);
}

function edit(f, input) {
  const card = lab.variant[lab.at];
  const raw = input.value.trim();
  if (raw === "") delete card[f.name];
  else if (f.kind === "number") card[f.name] = /^-?\d+$/.test(raw) ? Number(raw) : raw;  // the loader says what is wrong
  else if (f.kind === "names") card[f.name] = raw.split(",").map((s) => s.trim()).filter(Boolean);
  else if (f.kind === "json") {
    try { card[f.name] = JSON.parse(raw); } catch (e) { return say(false, `field '${f.name}': not valid JSON yet (${e.message})`); }
  } else card[f.name] = raw;
  $("editing").textContent = card.name;
  const form = tableAt(lab.at).form;
  if (form.some((g) => g.when && g.when.field === f.name)) {
    // another choice of member: its fields and no other (the loader refuses a field not its own)
    for (const g of form) if (!applies(g, card)) delete card[g.name];
    renderForm();
    $(`field-${f.name}`).focus();
  }
  renderCards();
  clearTimeout(lab.checkTimer);
  lab.checkTimer = setTimeout(check, 150);
}

function say(ok, message) {
  const box = $("check");
  box.className = `check ${ok ? "good" : "bad"}`;
  box.textContent = message;
  $("run").disabled = !ok || (lab.run !== null);
  document.body.dataset.check = ok ? "ok" : "bad";
}

async function check() {
  const seq = ++lab.checkSeq;
  try {
    const r = await api("POST", "/api/lab/check", { game: lab.game, options: options(), cards: payload() });
    if (seq !== lab.checkSeq) return;  // a newer edit is being checked
    if (!r.ok) return say(false, r.message);
    lab.texts = r.texts;
    renderCards();
    const name = lab.variant[lab.at].name;
    say(true, `The cards load. ${name}: ${r.texts[name] || ""}`);
  } catch (e) {
    if (seq === lab.checkSeq) say(false, e.message);
  }
}

function addCard() {
  const table = tableAt(lab.at);
  if (table.fixed) {  // the server's reason (the game's declaration), shown as is
    $("add-refused").textContent = `No ${table.noun} is added: ${table.fixed}.`;
    $("add-refused").classList.remove("hidden");
    return;
  }
  const copy = structuredClone(lab.variant[lab.at]);
  let n = 2;
  while (lab.variant.some((c) => c.name === `${copy.name} ${n}`)) n++;
  copy.name = `${copy.name} ${n}`;
  lab.variant.push(copy);
  lab.tableOf.push(lab.tableOf[lab.at]);
  lab.at = lab.variant.length - 1;
  renderCards();
  renderForm();
  check();
}

function revertCard() {
  if (lab.at < lab.base.length) lab.variant[lab.at] = structuredClone(lab.base[lab.at].data);
  else { lab.variant.splice(lab.at, 1); lab.tableOf.splice(lab.at, 1); lab.at = 0; }
  renderCards();
  renderForm();
  check();
}

async function simulate() {
  $("run-error").classList.add("hidden");
  try {
    const games = Number($("games").value), seed = Number($("seed").value);
    const r = await api("POST", "/api/lab/runs", { game: lab.game, options: options(), agents: [$("agent").value],
      cards: payload(), games, seed });
    lab.run = r.name;
    document.body.dataset.run = "running";
    $("run").disabled = true;
    $("stop").disabled = false;
    $("progress").max = r.total;
    $("progress").value = 0;
    lab.poll = setInterval(poll, 400);
  } catch (e) {
    $("run-error").textContent = e.message;
    $("run-error").classList.remove("hidden");
  }
}

async function poll() {
  let s;
  try { s = await api("GET", `/api/lab/runs/${lab.run}`); } catch (e) { return; }
  if (s.done !== null) $("progress").value = s.done;
  $("run-state").textContent = s.state === "running" ? `${s.name}: ${s.done} of ${s.total} games (variant and base)`
    : `${s.name}: ${s.state}${s.reason ? ` (${s.reason})` : ""}`;
  if (s.state === "running") return;
  clearInterval(lab.poll);
  lab.run = null;
  $("stop").disabled = true;
  $("run").disabled = false;
  if (s.state === "failed") {
    $("run-error").textContent = s.error;
    $("run-error").classList.remove("hidden");
  }
  if (s.comparison) showResults(s);
  document.body.dataset.run = s.state;
}

function table(title, rows, columns, legend = "") {
  // the runs' own figures are "more": a phone shows the label, the difference and its interval
  const more = (c) => (["variant", "base", "p"].includes(c[0]) ? " more" : "");
  const head = el("tr", {}, ...columns.map((c) => el("th", { class: more(c) }, c[0])));
  const body = rows.map((r) => el("tr", { class: r.clear ? "clear" : "", "data-row": r.card || r.figure || r.agent_a || r.seat },
    ...columns.map((c) => el("td", { class: (c[2] ? "num" : "") + more(c) }, c[1](r)))));
  const grid = el("table", { class: "results-table" }, el("thead", {}, head), el("tbody", {}, body));
  return el("div", { class: "results-wrap" }, el("h3", {}, title), grid, ...(legend ? [el("p", { class: "legend" }, legend)] : []));
}

function pValue(x) { return x === null ? "n/a" : x.toPrecision(2); }
function rate(x) { return x === null ? "n/a" : `${(100 * x).toFixed(1)}%`; }
function num(x) { return x === null ? "n/a" : x.toFixed(1); }
function signed(x) { return x === null ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}`; }

function showResults(s) {
  const c = s.comparison;
  lab.lastRun = s.name;
  $("results").classList.remove("hidden");
  $("headline").replaceChildren(...c.headline.map((h) => el("li", {}, h)), ...c.notes.map((n) => el("li", { class: "conn" }, n)));
  const diff = [["variant − base", (r) => points(r.diff), true], ["95% interval", (r) => interval(r), true]];
  const length = (r) => r.figure.includes("length");
  const parts = [
    // the difference first: on a phone it is what shows without scrolling the table
    table("Win rate per agent", c.agents, [["agent", (r) => r.agent_a], ...diff, ["variant", (r) => rate(r.rate_a), true], ["base", (r) => rate(r.rate_b), true]]),
    table("Win rate per seat", c.seats, [["seat", (r) => r.seat], ...diff, ["variant", (r) => rate(r.rate_a), true], ["base", (r) => rate(r.rate_b), true]]),
    table("Seat advantage, game length, turn limit", c.overall, [["figure", (r) => r.figure],
      ["variant − base", (r) => (length(r) ? signed(r.diff) : points(r.diff)), true],
      ["95% interval", (r) => (length(r) ? `[${signed(r.low)}, ${signed(r.high)}]` : interval(r)), true],
      ["variant", (r) => (length(r) ? num(r.a) : rate(r.a)), true], ["base", (r) => (length(r) ? num(r.b) : rate(r.b)), true]]),
    table(`Card impact: the largest of ${c.cards_compared} changes (${c.cards_clear} clear beyond chance across all)`, c.cards, [
      ["card", (r) => r.card], ["measure", (r) => r.measure], ...diff, ["clear", (r) => (r.clear ? "yes" : ""), false],
      ["p_all", (r) => pValue(r.p_all), true], ["p", (r) => pValue(r.p), true],
      ["variant", (r) => points(r.a), true], ["base", (r) => points(r.b), true]],
    // the server's own reading (cardtable/sim/compare.py): the page only says what the columns mean
    `p: this measure's own p-value (Student's t), as if it were the only one compared. p_all: its p-value across all ${c.cards_family} card `
      + "measures of the two runs, from a permutation test (variant and base played the same seeds: each seed's two games swapped "
      + "at random, the largest |t| over the measures, step-down); \"clear\" is p_all below 0.05, so two runs of one job flag a "
      + "card at most 5% of the time."),
  ];
  $("tables").replaceChildren(...parts);
  $("plots").replaceChildren(...c.plots.map((p) => el("img", { alt: p.title, src: p.src })));
  $("report-cmd").textContent = s.report;
}

async function save() {
  try {
    const r = await api("POST", `/api/lab/runs/${lab.lastRun}/save`, { file: $("save-name").value.trim() });
    $("saved").textContent = `Saved ${r.saved}. Simulate it from a terminal: ${r.command}`;
  } catch (e) {
    $("saved").textContent = e.message;
  }
}

$("login-form").addEventListener("submit", login);
$("game").addEventListener("change", pickGame);
$("add-card").addEventListener("click", addCard);
$("revert-card").addEventListener("click", revertCard);
$("run").addEventListener("click", simulate);
$("stop").addEventListener("click", () => api("POST", `/api/lab/runs/${lab.run}/stop`, {}).catch(() => {}));
$("games").addEventListener("input", () => { $("run").textContent = `Simulate ${$("games").value} games`; });
$("save").addEventListener("click", save);
if (lab.token) start().catch(() => showLogin()); else showLogin();
