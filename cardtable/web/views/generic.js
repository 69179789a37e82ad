// Shared helpers and the generic view: any registered game is playable from its observation.
"use strict";

(() => {
  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs = {}, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") n.className = v;
      else if (k === "style") n.setAttribute("style", v);
      else if (k.startsWith("on") && typeof v === "function") n.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined && kid !== false) n.append(kid.nodeType ? kid : String(kid));
    return n;
  };
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = (markup, viewBox = "0 0 24 24") => {
    const s = document.createElementNS(svgNS, "svg");
    s.setAttribute("viewBox", viewBox);
    s.innerHTML = markup;
    return s;
  };

  // A button or element that plays `text` when clicked; marked so people (and tests) see it is legal.
  const legal = (node, text, api) => {
    node.dataset.legal = text;
    node.classList.add("playable");
    node.addEventListener("click", (e) => { e.stopPropagation(); api.act(text); });
    return node;
  };

  // The seats bar: each player by the name they chose (yours marked), who is connected, whose
  // decision it is ("thinking…" while a bot decides) and each seat's last play, highlighted.
  const seatsBar = (m, api, extra) => el("div", { class: "seats" }, m.seats.map((s, i) => {
    const turn = m.current_player === i && !m.over;
    const last = (m.last_plays || {})[String(i)];
    return el("div", { class: `seat${turn ? " turn" : ""}${m.seat === i ? " me" : ""}`, "data-seat": i },
      el("div", { class: "name" }, el("span", { class: `dot${s.connected ? " on" : ""}`, title: s.connected ? "connected" : "away" }),
        el("span", { class: "seat-name" }, api.seatName(i)), m.seat === i ? el("span", { class: "you-mark" }, "you") : null,
        s.kind === "bot" ? el("span", { class: "bot", title: `a bot (${s.agent})` }, `BOT · ${s.agent}`) : null,
        s.open ? el("span", { class: "bot" }, "OPEN") : null),
      turn && s.kind === "bot" && !m.replay ? el("div", { class: "thinking", "data-thinking": i }, "thinking…") : null,
      extra ? extra(i) : null,
      last ? el("div", { class: "last-play", "data-last-play": i, title: `last play: ${last}` }, last) : null);
  }));

  // The question of the moment, as the server words it from the decision itself (one wording for
  // the log, the terminal and this page): "You: choose the color that continues play" for the
  // seat that decides, "Ann may roll a die or end the turn" for everyone else.
  const prompt = (m, api) => {
    const p = m.prompt;
    if (!p || m.over) return null;
    const mine = p.seat === m.seat;
    return el("div", { class: "prompt", id: "prompt", "data-kind": p.kind },
      mine ? el("span", { class: "you" }, "You") : api.seatName(p.seat), mine ? `: ${p.text}` : ` ${p.text}`);
  };

  function value(v) {
    if (v === null || v === undefined) return el("span", { class: "conn" }, "—");
    if (Array.isArray(v)) {
      if (!v.length) return el("span", { class: "conn" }, "none");
      if (v.every((x) => typeof x !== "object" || x === null)) return el("div", { class: "chips" }, v.map((x) => el("span", { class: "chip" }, String(x))));
      return el("div", {}, v.map((x, i) => el("div", { class: "kv" }, el("span", { class: "k" }, `#${i}`), value(x))));
    }
    if (typeof v === "object") return el("div", { class: "kv" }, Object.entries(v).map(([k, x]) => [el("span", { class: "k" }, k.replace(/_/g, " ")), value(x)]));
    return el("span", {}, String(v));
  }

  const generic = {
    render(box, m, api) {
      const obs = m.observation || {};
      const parts = [seatsBar(m, api), prompt(m, api)].filter(Boolean);
      const hand = Array.isArray(obs.hand) ? obs.hand : null;
      if (hand) {
        const cards = hand.map((c) => {
          const name = typeof c === "object" ? (c.name || JSON.stringify(c)) : String(c);
          const node = el("div", { class: "gen-card" }, el("b", {}, name));
          // the server's verdict while you decide (`cards`): the move that plays it, or the rule's reason
          const st = (m.cards || {})[name];
          if (st && !st.why) return legal(node, st.move, api);
          // not a move now: a click still asks, and the server says why (whose turn, or the rule)
          node.dataset.refusable = "true";
          if (st) node.dataset.why = st.why;
          node.addEventListener("click", () => api.attempt(st ? st.move : name));
          return node;
        });
        parts.push(el("div", { class: "panel" }, el("h2", {}, "Your hand"), el("div", { class: "chips" }, cards)));
      }
      const rest = Object.fromEntries(Object.entries(obs).filter(([k]) => !["hand", "legal_actions", "game", "seat"].includes(k)));
      parts.push(el("div", { class: "panel" }, el("h2", {}, "Table"), value(rest)));
      if (m.legal.length) parts.push(el("div", { class: "panel" }, el("div", { class: "choice" }, m.legal.map((a) => legal(el("button", {}, a.label || a.text), a.text, api)))));
      box.replaceChildren(...parts);
    },
  };

  // Binds legal actions to the elements that show them; whatever is left becomes a button row,
  // so a dedicated view can never hide a legal move.
  function binder(m, api) {
    const used = new Set();
    const texts = m.legal.map((a) => a.text);
    const named = Object.fromEntries(m.legal.map((a) => [a.text, a.label || a.text]));  // seats by name
    return {
      has: (t) => texts.includes(t),
      bind(node, text) { if (text && texts.includes(text)) { used.add(text); legal(node, text, api); } return node; },
      find(pred) { return texts.find(pred) || null; },
      rest(labels = {}) {
        return el("div", { class: "choice", id: "choices" }, texts.filter((t) => !used.has(t)).map((t) =>
          legal(el("button", { class: t.startsWith("skip") || t.startsWith("no ") || t.startsWith("keep") ? "ghost" : "" }, labels[t] || named[t]), t, api)));
      },
    };
  }

  window.CT = { el, $, svg, legal, seatsBar, prompt, value, binder, views: { generic } };
})();
