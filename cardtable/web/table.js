// The table page: one websocket, the game's view, the legal moves, the log, the end and replays.
// Views live in /static/views/ and register themselves in CT.views; the server puts the table's game
// view (its spec's web_view) in the page, and a game without one is drawn by the generic view.
"use strict";

(() => {
  const CT = window.CT;
  const { el, $ } = CT;
  const tableId = decodeURIComponent(location.pathname.split("/").pop());
  const params = new URLSearchParams(location.search);
  const storeKey = `cardtable:token:${tableId}`;
  let token = params.get("token");
  if (token) { try { localStorage.setItem(storeKey, token); } catch (e) { /* private mode */ } }
  else if (params.get("spectate") === null) { try { token = localStorage.getItem(storeKey); } catch (e) { token = null; } }
  if (params.has("token")) {
    // The seat's secret leaves the address bar (history, screenshots, a shared address) once read.
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }

  let ws = null, msg = null, logLines = [], retry = 0, closedForGood = false, replayStep = null, replayMsg = null, toastTimer = null;
  // The coach's review of this seat's game (GET /review): its verdicts by move number, once asked for.
  let review = null;

  function toast(text, kind = "error") {
    const t = $("#toast");
    t.textContent = text;
    t.className = `toast ${kind === "info" ? "info" : ""}`;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 5000);
  }

  // Every seat by the name its player chose (cardtable.ui.names on the server gives the same names
  // to the log, the moves and the refusals); yours is marked "you" where it is shown.
  function seatName(i) {
    const m = replayStep !== null && replayMsg ? replayMsg : msg;
    if (!m || i === null || i === undefined) return "";
    const s = m.seats[i];
    return s ? s.name : `Player ${Number(i) + 1}`;
  }

  function act(action) {
    if (!ws || ws.readyState !== 1 || !msg) { toast("not connected: reconnecting…"); return; }
    ws.send(JSON.stringify({ type: "act", action, version: msg.version, token }));
  }

  // A click on something that is not a legal move: the server answers with why (not your turn, the
  // rule that forbids it); a spectator or a finished game is told here.
  function attempt(action) {
    if (!msg) return;
    if (replayStep !== null) { toast("this is a replay: use the controls below to move through it", "info"); return; }
    if (msg.seat === null) { toast("you are watching: spectators cannot play (join an open seat from the lobby)", "info"); return; }
    if (msg.over) { toast("the game is over", "info"); return; }
    act(action);
  }

  const api = { act, attempt, seatName, toast, isMe: (i) => msg && i === msg.seat };
  CT.api = api;

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}${q}`);
    ws.onopen = () => { retry = 0; setConn("connected", false); };
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (closedForGood || e.code === 4404 || e.code === 4403) { setConn("disconnected", true); return; }
      setConn("reconnecting…", true);
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  function setConn(text, bad) { const c = $("#conn"); c.textContent = text; c.classList.toggle("bad", bad); }

  function onMessage(m) {
    if (m.type === "state") {
      // log_reset: a spectator that fell far behind gets the newest lines only
      if (m.log_from === 0 || m.log_reset) logLines = m.log.slice(); else logLines.push(...m.log);
      msg = m;
      if (replayStep === null) render(m);
    } else if (m.type === "named") {
      toast(`you are ${m.name} at this table`, "info");
    } else if (m.type === "error") {
      toast(m.message);
      if (m.code === "unknown_table" || m.code === "bad_token") {
        closedForGood = true;
        $("#view").replaceChildren(el("div", { class: "panel error-box" }, m.message, " ", el("a", { href: "/" }, "back to the lobby")));
      }
    } else if (m.type === "rematch") {
      // The rematch keeps this seat's token: remembered for the new table, not put in its address.
      let remembered = false;
      if (token) { try { localStorage.setItem(`cardtable:token:${m.table}`, token); remembered = true; } catch (e) { /* private mode */ } }
      location.href = `/t/${m.table}` + (token && !remembered ? `?token=${encodeURIComponent(token)}` : "");
    }
  }

  function statusText(m) {
    if (m.over) return "Game over";
    const cp = m.current_player;
    if (cp === null || cp === undefined) return "";
    if (cp === m.seat) return "Your move";
    const s = m.seats[cp];
    return s && s.kind === "bot" ? `${seatName(cp)} is thinking…` : `${seatName(cp)} to decide…`;
  }

  // Cards move briefly from where they were to where they go (matched by the card they show), unless
  // the player asked for reduced motion.
  const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  function positions(box) {
    const out = new Map();
    for (const n of box.querySelectorAll("[data-card]")) {
      const key = n.dataset.card;
      if (!out.has(key)) out.set(key, []);
      out.get(key).push(n.getBoundingClientRect());
    }
    return out;
  }
  let slides = [];  // the cards' slides after the last update (Animation objects)
  function animate(box, before) {
    slides = [];
    // a view may draw its cards without the flight (box.dataset.fly = "off"): a flying card crosses
    // other cards and labels while the page redraws
    if (reduced.matches || !before.size || !box.animate || box.dataset.fly === "off") return;
    let moved = 0;
    const seen = new Map();
    for (const n of box.querySelectorAll("[data-card]")) {
      const key = n.dataset.card;
      const k = seen.get(key) || 0;
      seen.set(key, k + 1);
      const old = (before.get(key) || [])[k];
      if (!old) continue;
      const now = n.getBoundingClientRect();
      const dx = old.left - now.left, dy = old.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
      if (moved++ > 12) break;
      slides.push(n.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0 0" }], { duration: 320, easing: "ease-out" }));
    }
    document.body.dataset.moved = String(moved);
  }

  // Aim (issue 36): cards slide for about 0.3 s after every update and a view is drawn anew on each one,
  // so what is under a still pointer can change between the moment a player aims and the click. A
  // click does what the player aimed at:
  //  - the press decides: what is under the pointer at pointerdown is what the click does, even when
  //    it slides away, or is drawn anew, before the button comes up (the browser would click their
  //    common ancestor, or the card that slid in);
  //  - a mouse that has not moved since the update aimed before it: a press while the cards still
  //    slide means what was under the pointer when the update came (not what slid in); updates that
  //    come while the cards still slide keep that aim (what is under the pointer then is on its way).
  // Elements are found again after a redraw by what they show: a "Your moves" button by its move, a
  // card by its name and copy, anything else legal by its move, or by its id.
  const pointer = { x: -1, y: -1, at: 0 };  // where the mouse (or pen) rests, and since when
  let aimedBefore = null, updatedAt = -Infinity, press = null;

  function aimOf(node) {  // the element a press on `node` means: a button, a card, a legal move
    if (!node || !node.closest) return null;
    const n = node.closest("button, a, input, select, [data-card], [data-legal], [data-refusable]");
    return n && ($("#view").contains(n) || $("#actions").contains(n)) ? n : null;
  }
  function keyOf(n) {
    if (!n) return null;
    if (n.dataset.action !== undefined) return { action: n.dataset.action };
    const card = n.closest("[data-card]");
    if (card && $("#view").contains(card)) {
      const copies = [...$("#view").querySelectorAll("[data-card]")].filter((c) => c.dataset.card === card.dataset.card);
      return { card: card.dataset.card, k: copies.indexOf(card), info: n !== card && !!n.closest(".info-btn") };
    }
    if (n.dataset.legal !== undefined) return { legal: n.dataset.legal };
    return n.id ? { id: n.id } : null;
  }
  function find(key) {
    if (!key) return null;
    const all = (sel) => [...document.querySelectorAll(sel)];
    if (key.action !== undefined) return all("#actions [data-action]").find((n) => n.dataset.action === key.action) || null;
    if (key.card !== undefined) {
      const card = all("#view [data-card]").filter((n) => n.dataset.card === key.card)[key.k] || null;
      return card && key.info ? card.querySelector(".info-btn") : card;
    }
    if (key.legal !== undefined) return all("#view [data-legal]").find((n) => n.dataset.legal === key.legal) || null;
    return key.id ? document.getElementById(key.id) : null;
  }
  // cards still on their way (a view's own CSS animations, a glow or a pulse, are no slide)
  const sliding = () => slides.some((a) => a.playState === "running" || a.playState === "paused");

  document.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch" || (e.clientX === pointer.x && e.clientY === pointer.y)) return;
    Object.assign(pointer, { x: e.clientX, y: e.clientY, at: performance.now() });
  }, true);
  document.addEventListener("pointerdown", (e) => {
    press = null;
    if (!e.isPrimary || e.button !== 0) return;
    const here = aimOf(e.target);
    const resting = e.pointerType !== "touch" && pointer.x >= 0 && pointer.at < updatedAt;
    if (resting && aimedBefore && sliding()) {
      press = { key: aimedBefore, node: find(aimedBefore), x: e.clientX, y: e.clientY };  // null: it is gone
    } else if (here) {
      press = { key: keyOf(here), node: here, x: e.clientX, y: e.clientY };
    }
  }, true);
  document.addEventListener("click", (e) => {
    const p = press;
    press = null;
    if (!p || !e.isTrusted) return;  // our own click below passes through
    if (Math.abs(e.clientX - p.x) > 8 || Math.abs(e.clientY - p.y) > 8) return;  // the pointer moved: a drag; the browser's click stands
    const aim = p.node && p.node.isConnected ? p.node : find(p.key);
    if (aim && (aim === e.target || aim.contains(e.target))) return;  // it landed where the player aimed
    e.stopPropagation();
    e.preventDefault();
    if (aim) aim.click();  // what was aimed at; gone (played, taken away): nothing happens
  }, true);

  function render(m, replay = false) {
    const mine = !replay && !m.over && m.current_player === m.seat && m.seat !== null;
    document.title = `${mine ? "● Your turn — " : ""}${m.title} — cardtable`;
    document.body.dataset.version = String(m.version);
    document.body.dataset.over = String(!!m.over);
    document.body.dataset.decides = String(!replay && m.legal.length > 0);
    document.body.classList.toggle("replaying", replay);
    $("#title").textContent = `${m.title} · table ${m.table}` + (m.seat === null ? " · watching" : ` · ${seatName(m.seat)}`);
    const st = $("#status");
    st.textContent = replay ? `Replay: move ${m.version} of ${m.steps}` : statusText(m);
    st.classList.toggle("you", mine);
    const view = CT.views[m.game] || CT.views.generic;
    const box = $("#view");
    const before = positions(box);
    // A pointer still since the last update, whose cards still slide, is over a card on its way (what
    // slid in, or where a card only passes): the player aimed before that update, and that aim stands.
    if (!(pointer.at < updatedAt && sliding())) {
      aimedBefore = pointer.x >= 0 ? keyOf(aimOf(document.elementFromPoint(pointer.x, pointer.y))) : null;
    }
    try {
      view.render(box, m, api);
    } catch (err) {  // a view bug must not hide the game: fall back to the generic view
      console.error(err);
      CT.views.generic.render(box, m, api);
    }
    animate(box, before);
    renderActions(m, replay);
    updatedAt = performance.now();
    renderLog(replay ? m.log : logLines, m);
    renderEnd(m, replay);
    renderName(m, replay);
  }

  function renderActions(m, replay) {
    const box = $("#actions");
    box.replaceChildren();
    if (replay) return;  // the "Your moves" panel is hidden while replaying (body.replaying)
    if (m.seat === null) { box.append(el("span", { class: "conn" }, "you are watching: spectators see public information only")); return; }
    if (!m.legal.length) {
      const cp = m.current_player;
      const who = cp === null || cp === undefined ? "the others" : seatName(cp);
      box.append(el("span", { class: "conn" }, m.over ? "the game is over" : `waiting for ${who}…`));
      return;
    }
    for (const a of m.legal) box.append(el("button", { "data-action": a.text, onclick: () => act(a.text) }, a.label || a.text));
    // One person among bots may ask what hard would play; where several people play the server refuses it.
    const people = m.seats.filter((s) => s.kind !== "bot").length;
    if (people === 1 && m.legal.length > 1) box.append(el("button", { class: "ghost hint", id: "hint-btn", onclick: () => hint(m.version) }, "What would hard play here?"));
  }

  async function hint(version) {
    const q = new URLSearchParams({ token: token || "" });
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hint?${q}`);
    const data = await r.json();
    if (!r.ok) { toast(data.message); return; }
    if (!msg || msg.version !== version || data.version !== version) return;  // the game moved on meanwhile
    for (const b of document.querySelectorAll("#actions button[data-action]")) b.classList.toggle("hinted", b.dataset.action === data.action);
    toast(`${data.level} would play: ${data.label}`, "info");
  }

  async function askReview() {
    const button = $("#review-btn");
    if (button) { button.disabled = true; button.textContent = "The coach is reviewing your game…"; }
    const q = new URLSearchParams({ token: token || "" });
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/review?${q}`);
    const data = await r.json();
    if (!r.ok) { toast(data.message); if (button) { button.disabled = false; button.textContent = "Review my moves"; } return; }
    review = { level: data.level, verdicts: new Map(data.verdicts.map((v) => [v.step, v])) };
    const first = data.verdicts.find((v) => v.marked);
    startReplay(first ? first.step : 0);
  }

  // The coach's word on the move that led to this step (the seat's own move), and the moves it marked.
  function coachLine(step) {
    if (!review) return null;
    const pct = (x) => `${Math.round(x * 100)}%`;
    const marked = [...review.verdicts.values()].filter((v) => v.marked);
    const jumps = el("div", { class: "coach-marks", id: "coach-marks" },
      `Coach: ${marked.length} of your ${review.verdicts.size} decisions clearly lost to ${review.level}'s move`,
      ...marked.map((v) => el("button", { class: "ghost coach-jump", "data-step": v.step, onclick: () => startReplay(v.step) }, `move ${v.step}`)));
    const v = review.verdicts.get(step);
    if (!v) return el("div", {}, jumps);
    const same = v.best === v.made;
    const verdict = el("div", { class: `coach-verdict${v.marked ? " marked" : ""}`, id: "coach-verdict" },
      el("b", {}, v.marked ? "✗ clearly worse: " : "Your move: "), `${v.made} (win chance ${pct(v.made_chance)})`,
      same ? ` · ${review.level} plays the same`
        : ` · ${review.level} plays ${v.best} (${pct(v.best_chance)}; ${v.loss >= 0 ? "+" : ""}${Math.round(v.loss * 100)} points, 95% [${Math.round(v.loss_interval[0] * 100)}, ${Math.round(v.loss_interval[1] * 100)}])`);
    return el("div", {}, verdict, jumps);
  }

  function renderLog(lines, m) {
    const box = $("#log");
    const mine = m.seat !== null && m.seat !== undefined ? seatName(m.seat) : null;
    const esc = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const re = mine ? new RegExp(`(^|\\W)${esc(mine)}(\\W|$)|\\byou\\b`, "i") : null;
    box.replaceChildren(...lines.map((l) => el("div", { class: re && re.test(l) ? "me" : "" }, l)));
    box.scrollTop = box.scrollHeight;
  }

  // A person who sat through a link without a name chooses one here; the table and its log use it.
  function renderName(m, replay) {
    const box = $("#name-box");
    const s = m.seat !== null && m.seat !== undefined ? m.seats[m.seat] : null;
    if (replay || !s || s.named || m.over) { box.classList.add("hidden"); return; }
    if (!box.classList.contains("hidden")) return;
    const input = el("input", { id: "name-input", maxlength: 24, placeholder: "your name", value: "" });
    const send = () => { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "name", name: input.value, token })); };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
    box.replaceChildren(el("label", { for: "name-input" }, `You sit as ${s.name}. Your name at this table: `), input,
      el("button", { class: "primary", id: "name-btn", onclick: send }, "Sit"));
    box.classList.remove("hidden");
  }

  function renderEnd(m, replay) {
    const box = $("#end");
    if (!m.over || replay) { box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    // The end as places and points (the server's standings), never the learners' returns.
    const standings = m.standings || [];
    const withPoints = standings.some((r) => r.points !== null && r.points !== undefined);
    const winners = new Set(m.winners || []);
    const rows = standings.map((r) => el("tr", { class: winners.has(r.seat) ? "win" : "", "data-place": r.place },
      el("td", {}, r.place_name),
      el("td", {}, seatName(r.seat), r.seat === m.seat ? el("span", { class: "you-mark" }, "you") : null),
      withPoints ? el("td", {}, r.points === null || r.points === undefined ? "—" : String(r.points)) : null));
    const names = [...winners].map(seatName).join(" and ");
    box.replaceChildren(
      el("div", { class: "over-banner" }, winners.has(m.seat) ? "You win!" : `${names || "Nobody"} ${winners.size > 1 ? "win" : "wins"}`),
      el("div", { class: "scores" }, el("table", { id: "standings" }, el("tr", {}, el("th", {}, "place"), el("th", {}, "player"), withPoints ? el("th", {}, "points") : null), rows)),
      el("div", { class: "choice", style: "margin-top:.8rem" },
        m.seat !== null ? el("button", { class: "primary", id: "rematch", onclick: () => ws.send(JSON.stringify({ type: "rematch", token })) }, m.rematch ? "Join the rematch" : "Rematch") : null,
        el("button", { class: "ghost", id: "replay-btn", onclick: () => startReplay(0) }, "Replay move by move"),
        m.seat !== null ? el("button", { class: "ghost", id: "review-btn", onclick: askReview }, "Review my moves") : null,
        el("a", { href: "/" }, el("button", { class: "ghost" }, "Lobby"))));
  }

  async function startReplay(step) {
    const q = new URLSearchParams({ step: String(step) });
    if (token) q.set("token", token);
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?${q}`);
    const data = await r.json();
    if (!r.ok) { toast(data.message); return; }
    replayStep = step;
    replayMsg = data;
    data.replay = true;
    render(data, true);
    const bar = $("#replay");
    bar.classList.remove("hidden");
    const go = (s) => startReplay(Math.max(0, Math.min(data.steps, s)));
    const slider = el("input", { type: "range", min: 0, max: data.steps, value: step, "aria-label": "move", onchange: (e) => go(Number(e.target.value)) });
    // Plain text and CSS arrows: the controls read the same without an emoji font.
    const btn = (id, label, title, to, off) => el("button", { id, title, "aria-label": title, disabled: off, onclick: () => go(to) }, label);
    const said = step === 0 ? "the deal, before the first move"
      : (data.last_action && data.actor && data.last_action.startsWith(data.actor) ? data.last_action
        : `${data.actor ? `${data.actor}: ` : ""}${data.last_action || "a move the others could not see"}`);
    bar.replaceChildren(el("div", { class: "replay-bar" },
      btn("replay-first", "|<", "first: the deal", 0, step === 0), btn("replay-prev", "< Back", "previous move", step - 1, step === 0),
      slider, btn("replay-next", "Next >", "next move", step + 1, step >= data.steps), btn("replay-last", ">|", "last move", data.steps, step >= data.steps)),
      el("div", { class: "replay-said", id: "replay-said" }, el("b", {}, `Move ${step} of ${data.steps}`), " · ", said),
      coachLine(step),
      el("div", { class: "replay-bar" }, el("button", { class: "ghost", id: "replay-close", onclick: () => {
        replayStep = null; replayMsg = null; bar.classList.add("hidden"); document.body.classList.remove("replaying"); if (msg) render(msg);
      } }, "Back to the table")));
  }
  document.addEventListener("keydown", (e) => {
    if (replayStep === null || !replayMsg || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") startReplay(Math.min(replayMsg.steps, replayStep + 1));
    if (e.key === "ArrowLeft") startReplay(Math.max(0, replayStep - 1));
  });

  // The cards' texts and the player's guide (public, the same for every seat): views read them
  // through CT.cardInfo; the page is drawn again once they arrive.
  async function loadCards() {
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/cards`);
      if (!r.ok) return;
      CT.setCards(await r.json());
      document.body.dataset.cards = "loaded";
      if (msg && replayStep === null) render(msg);
    } catch (e) { /* offline: cards show their names only */ }
  }
  const rules = $("#rules-link");
  rules.href = `/api/tables/${encodeURIComponent(tableId)}/cards`;
  rules.addEventListener("click", (e) => { e.preventDefault(); CT.showGuide(); });

  loadCards();
  if (params.get("replay") !== null) startReplay(Number(params.get("replay")) || 0);
  connect();
})();
