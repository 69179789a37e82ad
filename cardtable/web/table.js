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

  let ws = null, msg = null, logLines = [], retry = 0, closedForGood = false, replayStep = null, toastTimer = null;

  function toast(text, kind = "error") {
    const t = $("#toast");
    t.textContent = text;
    t.className = `toast ${kind === "info" ? "info" : ""}`;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 5000);
  }

  function seatName(i) {
    if (!msg || i === null || i === undefined) return "";
    if (i === msg.seat) return "You";
    const s = msg.seats[i];
    return s ? s.name : `seat ${i}`;
  }

  function act(action) {
    if (!ws || ws.readyState !== 1 || !msg) { toast("not connected: reconnecting…"); return; }
    ws.send(JSON.stringify({ type: "act", action, version: msg.version, token }));
  }

  const api = { act, seatName, toast, isMe: (i) => msg && i === msg.seat };
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
    return `${seatName(cp)} to decide…`;
  }

  function render(m, replay = false) {
    document.title = `${m.title} — cardtable`;
    document.body.dataset.version = String(m.version);
    document.body.dataset.over = String(!!m.over);
    document.body.dataset.decides = String(!replay && m.legal.length > 0);
    $("#title").textContent = `${m.title} · table ${m.table}` + (m.seat === null ? " · spectating" : ` · seat ${m.seat}`);
    const st = $("#status");
    st.textContent = replay ? `Replay: move ${m.version} of ${m.steps}` : statusText(m);
    st.classList.toggle("you", !replay && m.current_player === m.seat && !m.over);
    const view = CT.views[m.game] || CT.views.generic;
    const box = $("#view");
    try {
      view.render(box, m, api);
    } catch (err) {  // a view bug must not hide the game: fall back to the generic view
      console.error(err);
      CT.views.generic.render(box, m, api);
    }
    renderActions(m);
    renderLog(replay ? m.log : logLines, m);
    renderEnd(m, replay);
  }

  function renderActions(m) {
    const box = $("#actions");
    box.replaceChildren();
    if (m.seat === null) { box.append(el("span", { class: "conn" }, "spectators see public information only")); return; }
    if (!m.legal.length) { box.append(el("span", { class: "conn" }, m.over ? "the game is over" : "waiting for the others…")); return; }
    for (const a of m.legal) box.append(el("button", { "data-action": a.text, onclick: () => act(a.text) }, a.text));
  }

  function renderLog(lines, m) {
    const box = $("#log");
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
    box.replaceChildren(...lines.map((l) => el("div", { class: /\byou\b/i.test(l) ? "me" : "" }, l)));
    if (atBottom || m.version === 0 || true) box.scrollTop = box.scrollHeight;
  }

  function renderEnd(m, replay) {
    const box = $("#end");
    if (!m.over || replay) { box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    const obs = m.observation || {};
    const scores = Array.isArray(obs.scores) ? obs.scores : null;
    const winners = new Set(m.winners || []);
    const rows = m.seats.map((s, i) => el("tr", { class: winners.has(i) ? "win" : "" },
      el("td", {}, winners.has(i) ? "★ " : "", seatName(i)),
      scores ? el("td", {}, scores[i] !== null && typeof scores[i] === "object" ? (scores[i].total ?? JSON.stringify(scores[i])) : scores[i]) : null,
      el("td", {}, (m.returns[i] > 0 ? "+" : "") + m.returns[i].toFixed(2))));
    const names = [...winners].map(seatName).join(" and ");
    box.replaceChildren(
      el("div", { class: "over-banner" }, winners.has(m.seat) ? "You win!" : `${names || "Nobody"} ${winners.size > 1 ? "win" : "wins"}`),
      el("div", { class: "scores" }, el("table", {}, el("tr", {}, el("th", {}, "player"), scores ? el("th", {}, "score") : null, el("th", {}, "result")), rows)),
      el("div", { class: "choice", style: "margin-top:.8rem" },
        m.seat !== null ? el("button", { class: "primary", id: "rematch", onclick: () => ws.send(JSON.stringify({ type: "rematch", token })) }, m.rematch ? "Join the rematch" : "Rematch") : null,
        el("button", { class: "ghost", id: "replay-btn", onclick: () => startReplay(0) }, "Replay move by move"),
        el("a", { href: "/" }, el("button", { class: "ghost" }, "Lobby"))));
  }

  async function startReplay(step) {
    const q = new URLSearchParams({ step: String(step) });
    if (token) q.set("token", token);
    const r = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay?${q}`);
    const data = await r.json();
    if (!r.ok) { toast(data.message); return; }
    replayStep = step;
    render(data, true);
    const bar = $("#replay");
    bar.classList.remove("hidden");
    const go = (s) => startReplay(Math.max(0, Math.min(data.steps, s)));
    const slider = el("input", { type: "range", min: 0, max: data.steps, value: step, onchange: (e) => go(Number(e.target.value)) });
    bar.replaceChildren(el("div", { class: "replay-bar" },
      el("button", { onclick: () => go(0) }, "⏮"), el("button", { id: "replay-prev", onclick: () => go(step - 1) }, "◀"),
      slider, el("button", { id: "replay-next", onclick: () => go(step + 1) }, "▶"), el("button", { onclick: () => go(data.steps) }, "⏭"),
      el("span", {}, data.last_action ? `last move: ${data.last_action}` : "the deal"),
      el("button", { class: "ghost", onclick: () => { replayStep = null; bar.classList.add("hidden"); if (msg) render(msg); } }, "back to the table")));
  }

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
