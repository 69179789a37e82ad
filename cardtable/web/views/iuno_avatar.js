// Iuno Avatar: every player's Earth (figures with their gems, active or not), the shared Hell face
// up, your Heaven, the stack, the six dice (in the middle, taken, rolled), the gems in the purse and
// per player. Cards are drawn in their element's colour with their pictogram sequence (white: mine,
// black: an opponent I choose), generated from the card data (the table's catalogue, web/cards.js).
// A roll shows what it allows and why the rest is not possible; paying is a chooser that refuses an
// overpayment with its reason; an effect that offers itself asks "also do …?" or "instead do …?",
// naming its card. Everything drawn comes from this seat's observation and the public catalogue.
"use strict";

(() => {
  const { el, svg, seatsBar, binder, cardInfo, cardEntry } = window.CT;
  const COLOUR = { fire: "#d9482b", earth: "#8a6a43", light: "#e8c547", life: "#4e9f3d", water: "#2f7fd1", dark: "#5b3f86" };
  const INK = { light: "#2a2300" };  // dark text on the pale element
  const title = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  // -- pictograms: one small SVG per symbol of the sequence (language.py `pictograms`) -------------
  const SHAPE = {
    // operators
    "operator:take": '<path d="M4 12h11M11 7l5 5-5 5" /><path d="M19 5v14" />',
    "operator:move": '<path d="M3 12h15M14 7l5 5-5 5" />',
    "operator:discard": '<path d="M12 3v13M7 11l5 5 5-5" /><path d="M5 20h14" />',
    // areas
    "area:heaven": '<path d="M6 16h12a4 4 0 0 0 0-8 5 5 0 0 0-9.5-1A4 4 0 0 0 6 16z" />',
    "area:earth": '<path d="M3 18l6-9 4 5 3-4 5 8z" />',
    "area:hell": '<path d="M12 3c1 4 5 5 5 10a5 5 0 0 1-10 0c0-3 2-4 2-6 1 1 2 2 2 3 1-2 1-5 1-7z" />',
    // components
    "component:die": '<rect x="4" y="4" width="16" height="16" rx="3" /><circle cx="9" cy="9" r="1.4" class="pip" /><circle cx="15" cy="15" r="1.4" class="pip" /><circle cx="12" cy="12" r="1.4" class="pip" />',
    "component:card": '<rect x="6" y="3" width="12" height="18" rx="2" />',
    "component:gem": '<path d="M12 3l7 7-7 11-7-11z" /><path d="M5 10h14" />',
    // card types
    "card type:figure": '<rect x="5" y="2" width="14" height="20" rx="2" /><circle cx="12" cy="9" r="2.6" /><path d="M8 17c0-3 2-4.5 4-4.5s4 1.5 4 4.5" />',
    "card type:spell": '<rect x="5" y="2" width="14" height="20" rx="2" /><path d="M12 6l1.6 3.6 3.9.4-2.9 2.6.8 3.9-3.4-2-3.4 2 .8-3.9-2.9-2.6 3.9-.4z" />',
    "card type:gem": '<rect x="5" y="2" width="14" height="20" rx="2" /><path d="M12 7l4 4-4 6-4-6z" />',
    "card type:card": '<rect x="6" y="3" width="12" height="18" rx="2" />',
    // the effect's marker: inclusive (also) or exclusive (instead)
    "marker:circle": '<circle cx="12" cy="12" r="6" />',
    "marker:rhombus": '<path d="M12 5l7 7-7 7-7-7z" />',
  };
  const WORD = { "marker:circle": "also (inclusive)", "marker:rhombus": "instead (exclusive)" };

  function picto(p) {
    const key = `${p.kind}:${p.name}`;
    const owner = p.owner || (p.element ? "element" : "none");
    const fill = owner === "white" ? "#fbfbf6" : owner === "black" ? "#141414" : owner === "element" ? COLOUR[p.element] : "rgba(255,255,255,.18)";
    const stroke = owner === "white" ? "#141414" : owner === "black" ? "#fbfbf6" : "#f4f1e8";
    const s = svg(`<g fill="none" stroke="${stroke}" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round">${SHAPE[key] || '<circle cx="12" cy="12" r="5" />'}</g>`, "0 0 24 24");
    s.classList.add("picto");
    s.setAttribute("data-picto", key + (p.owner ? `:${p.owner}` : ""));
    const words = `${WORD[key] || `${p.kind} ${p.name}`}${p.owner ? ` (${p.owner === "white" ? "mine" : "an opponent I choose"})` : ""}`;
    s.setAttribute("aria-label", words);
    const t = document.createElementNS("http://www.w3.org/2000/svg", "title");
    t.textContent = words;
    s.prepend(t);
    return el("span", { class: `picto-cell ${owner}`, style: `background:${fill}` }, s);
  }

  const costDots = (cost) => el("span", { class: "cost", title: `cost: ${cost.map(title).join(" ")}` },
    cost.map((e) => el("span", { class: "dot-el", style: `background:${COLOUR[e]}`, title: title(e) })));

  // A card: element colour, name, type and cost (or symbols), its pictogram sequence; its text on
  // hover and behind the ⓘ (web/cards.js). `gems`: the gems on a figure on Earth (active with one).
  function card(name, opts = {}) {
    const c = cardEntry(name) || {};
    const element = c.element || "none";
    const bg = COLOUR[element] || "#444";
    const ink = INK[element] || "#fbfbf6";
    const kind = c.kind || "";
    const head = el("div", { class: "av-head" },
      el("b", {}, name),
      el("span", { class: "av-type" }, kind === "figure" ? `figure · level ${c.level}` : kind === "gem" ? `gem · ${c.symbols}` : kind));
    const rows = [head];
    if (c.cost && c.cost.length) rows.push(costDots(c.cost));
    if (c.pictograms) rows.push(el("div", { class: "pictos" }, c.pictograms.map(picto)));
    if (opts.gems !== undefined) {
      const gems = Array.from({ length: c.level || 0 }, (_, i) => el("span", { class: `gem-slot${i < opts.gems ? " on" : ""}` }));
      rows.push(el("div", { class: "on-figure", "data-gems": opts.gems },
        gems, el("span", { class: "av-state" }, opts.gems > 0 ? "active" : "inactive")));
    }
    if (opts.why) rows.push(el("div", { class: "why", "data-why": name }, opts.why));
    if (opts.because) rows.push(el("div", { class: "why ok", "data-because": name }, opts.because));
    const node = el("div", { class: `gen-card av-card ${kind}${opts.gems === 0 ? " inactive" : ""}${opts.gems > 0 ? " active" : ""}`,
      "data-element": element, style: `background:${bg};color:${ink}` }, rows);
    return cardInfo(node, name);
  }

  // -- dice ----------------------------------------------------------------------------------------
  const PIPS = { 1: [[12, 12]], 2: [[8, 8], [16, 16]], 3: [[7, 7], [12, 12], [17, 17]], 4: [[8, 8], [16, 8], [8, 16], [16, 16]],
    5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]], 6: [[8, 6], [16, 6], [8, 12], [16, 12], [8, 18], [16, 18]] };
  function die(value, cls, label) {
    const pips = (PIPS[value] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="1.9" fill="#1b1b1b"/>`).join("");
    const s = svg(`<rect x="2" y="2" width="20" height="20" rx="4" fill="#f4f1e8" stroke="#1b1b1b" stroke-width="1.2"/>${pips}`, "0 0 24 24");
    return el("span", { class: `av-die ${cls}`, title: label, "aria-label": label }, s);
  }

  // -- why a card of your Heaven cannot be played with this roll (the engine's own rule, rulebook
  // "Playing Iuno"); the engine says the same when the card is clicked anyway ------------------------
  function whyNot(c, roll, o, me) {
    const figures = o.seats[me].earth.filter((f) => f.type === "figure").length;
    if (c.kind === "gem") return "gem card: pays costs, it is not played";
    if (c.kind === "figure" && roll <= figures) return `roll ${roll} must exceed your ${figures} figure${figures === 1 ? "" : "s"} on Earth`;
    if (c.kind === "spell" && roll <= o.spells_cast) return `roll ${roll} must exceed the ${o.spells_cast} spell${o.spells_cast === 1 ? "" : "s"} cast this turn`;
    return `you cannot pay ${(c.cost || []).map(title).join(" ")} exactly with your gems and gem cards`;
  }

  // Why a card of your Heaven can be played with this roll.
  function because(c, roll, o, me) {
    const figures = o.seats[me].earth.filter((f) => f.type === "figure").length;
    const cost = `you can pay ${(c.cost || []).map(title).join(" ")}`;
    if (c.kind === "figure") return `roll ${roll} exceeds your ${figures} figure${figures === 1 ? "" : "s"} on Earth; ${cost}`;
    return `roll ${roll} exceeds the ${o.spells_cast} spell${o.spells_cast === 1 ? "" : "s"} cast this turn; ${cost}`;
  }

  function whyNotFigure(f, roll, o, me) {
    if (o.seats[me].gems === 0) return "you have no gem to put on it";
    if (f.gems >= f.level) return `level ${f.level}: it holds at most ${f.level} gem${f.level === 1 ? "" : "s"}`;
    if (roll <= f.gems) return `roll ${roll} must exceed the ${f.gems} gem${f.gems === 1 ? "" : "s"} on it`;
    return "";
  }

  // Why a gem card cannot pay now: gem cards pay only symbols of their element still owed (never
  // more), and what is left must stay payable.
  function whyNotPay(c, owed, o, me) {
    const n = owed[c.element] || 0;
    if (!n) return `overpaying: no ${title(c.element)} symbol is owed`;
    if (c.symbols > n) return `overpaying: it pays ${c.symbols} ${title(c.element)}, only ${n} owed`;
    return "the rest could not be paid exactly afterwards";
  }

  const avatar = {
    render(box, m, api) {
      const o = m.observation;
      const b = binder(m, api);
      const me = m.seat;
      const d = o.decision;
      const mine = d && me !== null && d.seat === me && !m.over && m.legal.length > 0;
      const roll = mine && d.kind === "use_roll" ? d.value : null;

      // seats: avatar, Heaven size, dice, gems, and the opponent to choose
      const seats = seatsBar(m, api, (i) => {
        const p = o.seats[i];
        const node = el("div", {},
          el("div", { class: "meta" }, el("span", { class: "dot-el", style: `background:${COLOUR[p.avatar]}` }), ` ${title(p.avatar)} avatar`,
            o.turn === i ? (i === me ? " · your turn" : " · their turn") : ""),
          el("div", { class: "meta", "data-heaven": i }, `Heaven ${p.heaven_size} · `, el("span", { "data-dice": i }, `dice ${p.dice}`), ` · `,
            el("span", { "data-gems-of": i }, `gems ${p.gems}`)));
        const t = `opponent seat ${i}`;
        if (b.has(t)) node.append(b.bind(el("button", { class: "primary", style: "margin-top:.3rem" }, `Choose ${api.seatName(i)}`), t));
        return node;
      });

      // the middle: dice, purse, stack, Hell
      const dice = [];
      // a rolled die is back in the middle at once (rulebook: "Discarded dies are put back in the
      // middle"): it is drawn apart, showing its value, while its roll is being used
      const rolled = d && d.kind === "use_roll" ? 1 : 0;
      for (let k = 0; k < o.middle - rolled; k++) dice.push(die(0, "middle", "a die in the middle"));
      o.order.forEach((s) => { for (let k = 0; k < o.seats[s].dice; k++) dice.push(die(0, `taken seat-${s}`, `a die taken by ${api.seatName(s)}`)); });
      if (d && d.kind === "use_roll") dice.push(die(d.value, "rolled", `${api.seatName(d.seat)} rolled ${d.value}`));
      const rollBtn = b.has("roll a die") ? b.bind(el("button", { class: "primary", id: "roll" }, "Roll a die"), "roll a die") : null;
      const middle = el("div", { class: "panel", id: "middle" },
        el("h2", {}, `Turn ${o.turns} of ${o.turn_limit}`, o.turn !== null ? ` · ${api.seatName(o.turn)}'s turn` : "", ` · ${o.phase} phase`),
        el("div", { class: "av-row" }, el("span", { class: "conn" }, "dice:"), el("span", { class: "dice", id: "dice" }, dice),
          el("span", { class: "conn" }, `${o.middle - rolled} in the middle` + (rolled ? `, 1 rolled (${d.value})` : "") + (6 - o.middle ? `, ${6 - o.middle} taken` : "")), rollBtn),
        el("div", { class: "av-row" }, el("span", { id: "purse" }, `purse: ${o.purse} gems`), " · ",
          el("span", { id: "stack" }, `stack: ${o.stack} cards`), " · ", `spells cast this turn: ${o.spells_cast}`),
        o.announced.length ? el("div", { class: "av-row" }, el("span", { class: "conn" }, "being played:"), o.announced.map((n) => card(n))) : null);

      // every Earth, in turn order
      const earths = el("div", { class: "panel", id: "earths" }, el("h2", {}, "Earth"), o.order.map((s) => {
        const p = o.seats[s];
        return el("div", { class: "earth", "data-earth": s },
          el("div", { class: "meta" }, s === me ? "Your Earth" : `${api.seatName(s)}'s Earth`, ` · ${p.gems} gems · ${p.dice} dice`),
          el("div", { class: "forum" }, p.earth.length ? p.earth.map((f) => {
            let why = "";
            if (s === me && roll !== null && f.type === "figure") why = whyNotFigure(f, roll, o, me);
            const can = b.has(`activate ${f.name}`) || b.has(`level up ${f.name}`);
            const ok = can ? `roll ${roll} exceeds the ${f.gems} gem${f.gems === 1 ? "" : "s"} on it; ${f.gems ? "level up" : "activate"} with a gem` : "";
            const node = card(f.name, { gems: f.gems, why: can ? "" : why, because: ok });
            b.bind(node, b.find((t) => t === `activate ${f.name}` || t === `level up ${f.name}` || t === `choose ${f.name}`));
            if (!node.dataset.legal && s === me && roll !== null && f.type === "figure") {
              node.classList.add("dim");
              node.dataset.refusable = "true";
              node.addEventListener("click", () => api.attempt(`${f.gems ? "level up" : "activate"} ${f.name}`));
            }
            return node;
          }) : el("span", { class: "conn" }, "no figures")));
      }));

      const hell = el("div", { class: "panel", id: "hell" }, el("h2", {}, `Hell · ${o.hell.length} face up`),
        el("div", { class: "forum" }, o.hell.map((n) => b.bind(card(n), b.find((t) => t === `choose ${n}`)))));

      // the question of the moment
      const prompt = window.CT.prompt(m, api);

      const labels = {};
      if (mine && d.kind === "use_ability") {
        labels.yes = `Yes: ${d.instead ? "instead" : "also"} ${d.effect} (${d.card})`;
        labels.no = `No, not ${d.card}'s effect`;
      }
      if (mine && d.kind === "first_trigger") (d.options || []).forEach((n, i) => { labels[`first ${i + 1}`] = `${n} first`; });
      if (mine && d.kind === "pay") {
        const owed = Object.values(d.remaining).reduce((a, x) => a + x, 0);
        labels["pay the rest with gems"] = `Pay the rest (${owed}) with gems`;
      }
      if (mine && d.kind === "use_roll") labels["discard the die"] = "Discard the die (no action)";

      const parts = [seats, middle, earths, hell, prompt];
      if (mine && d.kind === "pay") {
        const owed = Object.values(d.remaining).reduce((a, x) => a + x, 0);
        const gems = o.seats[me].gems;
        if (!b.has("pay the rest with gems")) {
          parts.push(el("div", { class: "why center", id: "gems-why" }, gems < owed
            ? `Paying the rest with gems: you have ${gems} gem${gems === 1 ? "" : "s"}, ${owed} owed`
            : "Paying the rest with gems is not possible"));
        }
      }

      if (me !== null && Array.isArray(o.heaven)) {
        const heaven = el("div", { class: "forum", id: "hand" }, o.heaven.map((n) => {
          const c = cardEntry(n) || {};
          const action = b.find((t) => t === `summon ${n}` || t === `cast ${n}` || t === `pay with ${n}` || t === `discard ${n}` || t === `choose ${n}`);
          let why = "";
          let attempt = null;
          if (!action && roll !== null && c.kind !== "gem") { why = whyNot(c, roll, o, me); attempt = `${c.kind === "spell" ? "cast" : "summon"} ${n}`; }
          if (!action && mine && d.kind === "pay" && c.kind === "gem") { why = whyNotPay(c, d.remaining, o, me); attempt = `pay with ${n}`; }
          const ok = action && roll !== null && (action.startsWith("summon ") || action.startsWith("cast ")) ? because(c, roll, o, me) : "";
          const node = b.bind(card(n, { why, because: ok }), action);
          if (!node.dataset.legal && attempt) {
            node.classList.add("dim");
            node.dataset.refusable = "true";
            node.addEventListener("click", () => api.attempt(attempt));
          }
          return node;
        }));
        parts.push(el("div", { class: "panel" }, el("h2", {}, `Your Heaven · ${o.heaven.length} cards (empty it to win)`), heaven));
      }
      parts.push(b.rest(labels));
      box.replaceChildren(...parts.filter(Boolean));
    },
  };

  // The view's own look (the page allows style attributes and this script, nothing inline else).
  if (!document.getElementById("av-style")) {
    const st = document.createElement("link");
    st.id = "av-style";
    st.rel = "stylesheet";
    st.href = "/static/views/iuno_avatar.css";
    document.head.append(st);
  }

  window.CT.views.iuno_avatar = avatar;
})();
