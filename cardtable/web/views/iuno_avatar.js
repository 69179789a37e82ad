// Iuno Avatar: the table on one screen. Above, a scrolling table (every player's Earth with the gems
// on each figure, the six dice, the purse, the stack and Hell as a compact pile whose every card is
// one tap away); below, always in view, the dock: the question, your moves and your Heaven. Cards are
// drawn in their element's colour with their pictogram sequence (white: mine, black: an opponent I
// choose), each symbol naming itself on hover and on tap, and, with "show text" on, the card's text.
// Everything drawn comes from this seat's observation and the public catalogue (web/cards.js): what
// each of your cards does now, or the rule's reason it cannot, is the server's (`cards`, from
// State.card_status: the same for every game); no rule is here.
"use strict";

(() => {
  const { el, svg, seatsBar, binder, cardInfo, cardEntry } = window.CT;
  const COLOUR = { fire: "#d9482b", earth: "#8a6a43", light: "#e8c547", life: "#4e9f3d", water: "#2f7fd1", dark: "#5b3f86" };
  const INK = { light: "#2a2300" };  // dark text on the pale element
  const title = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const TOP = 3;  // Hell's top cards shown on the table (the rest behind "see all")
  // At most this many move buttons in the dock: beyond it, the moves that name a card drawn on the
  // table (a card of Hell to choose, a figure to activate) fold into one compact chooser, and the
  // cards themselves are the buttons (a choice from all of Hell once made 34 buttons, which pushed
  // your Heaven off a phone's screen).
  const BUTTONS = 6;
  // On a phone the dock (your Heaven) and the table share one screen: "see the table" folds your
  // Heaven away so that the Earths fill it, until "see your Heaven" (kept while the page is open)
  let tableFirst = false;

  // -- "show text": each card's generated text under its pictograms; on for a player's first game,
  // then as the player last set it (this browser remembers) ---------------------------------------
  const TEXT_KEY = "cardtable:iuno_avatar:show_text";
  const PLAYED_KEY = "cardtable:iuno_avatar:played";
  const stored = (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } };
  const store = (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } };
  const showText = () => { const v = stored(TEXT_KEY); return v === null ? stored(PLAYED_KEY) === null : v === "on"; };

  // -- pictograms: one small SVG per symbol of the sequence (the server's `pictograms`, each with its
  // `label`); a kind drawn here by no shape is drawn as its name ------------------------------------
  const SHAPE = {
    "operator:take": '<path d="M4 12h11M11 7l5 5-5 5" /><path d="M19 5v14" />',
    "operator:move": '<path d="M3 12h15M14 7l5 5-5 5" />',
    "operator:discard": '<path d="M12 3v13M7 11l5 5 5-5" /><path d="M5 20h14" />',
    "area:heaven": '<path d="M6 16h12a4 4 0 0 0 0-8 5 5 0 0 0-9.5-1A4 4 0 0 0 6 16z" />',
    "area:earth": '<path d="M3 18l6-9 4 5 3-4 5 8z" />',
    "area:hell": '<path d="M12 3c1 4 5 5 5 10a5 5 0 0 1-10 0c0-3 2-4 2-6 1 1 2 2 2 3 1-2 1-5 1-7z" />',
    // the middle of the table, where paid gems go back: a round table with the purse on it
    "area:middle": '<circle cx="12" cy="12" r="8" /><circle cx="12" cy="12" r="2.5" />',
    // joins the steps of one effect: each step happens only if the one before it could
    "joiner:then": '<path d="M4 12h9M10 8l4 4-4 4" /><circle cx="18.5" cy="12" r="1.6" class="pip" />',
    "component:die": '<rect x="4" y="4" width="16" height="16" rx="3" /><circle cx="9" cy="9" r="1.4" class="pip" /><circle cx="15" cy="15" r="1.4" class="pip" /><circle cx="12" cy="12" r="1.4" class="pip" />',
    "component:card": '<rect x="6" y="3" width="12" height="18" rx="2" />',
    "component:gem": '<path d="M12 3l7 7-7 11-7-11z" /><path d="M5 10h14" />',
    "card type:figure": '<rect x="5" y="2" width="14" height="20" rx="2" /><circle cx="12" cy="9" r="2.6" /><path d="M8 17c0-3 2-4.5 4-4.5s4 1.5 4 4.5" />',
    "card type:spell": '<rect x="5" y="2" width="14" height="20" rx="2" /><path d="M12 6l1.6 3.6 3.9.4-2.9 2.6.8 3.9-3.4-2-3.4 2 .8-3.9-2.9-2.6 3.9-.4z" />',
    "card type:gem": '<rect x="5" y="2" width="14" height="20" rx="2" /><path d="M12 7l4 4-4 6-4-6z" />',
    "card type:card": '<rect x="6" y="3" width="12" height="18" rx="2" />',
    "marker:circle": '<circle cx="12" cy="12" r="6" />',
    "marker:rhombus": '<path d="M12 5l7 7-7 7-7-7z" />',
  };

  // A tap on a symbol shows its name (hover shows it too, as its title); the tap plays nothing.
  function sayName(node, words) {
    document.querySelectorAll(".picto-said").forEach((n) => n.remove());
    const r = node.getBoundingClientRect();
    const bubble = el("div", { class: "picto-said", role: "status" }, words);
    bubble.style.left = `${Math.max(4, Math.min(window.innerWidth - 220, r.left))}px`;
    bubble.style.top = `${r.bottom + 4}px`;
    document.body.append(bubble);
    setTimeout(() => bubble.remove(), 2500);
  }

  function picto(p) {
    const key = `${p.kind}:${p.name}`;
    const words = p.label || p.name;
    const owner = p.owner || (p.element ? "element" : "none");
    const fill = owner === "white" ? "#fbfbf6" : owner === "black" ? "#141414" : owner === "element" ? COLOUR[p.element] : "rgba(255,255,255,.18)";
    const stroke = owner === "white" ? "#141414" : owner === "black" ? "#fbfbf6" : "#f4f1e8";
    let body;
    if (SHAPE[key]) {
      body = svg(`<g fill="none" stroke="${stroke}" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round">${SHAPE[key]}</g>`, "0 0 24 24");
      body.classList.add("picto");
      body.setAttribute("aria-hidden", "true");
    } else {
      body = el("span", { class: "picto-word", style: `color:${stroke}` }, p.name);
    }
    const cell = el("span", { class: `picto-cell ${owner}${SHAPE[key] ? "" : " word"}`, style: `background:${fill}`, role: "img",
      title: words, "aria-label": words, "data-picto": key + (p.owner ? `:${p.owner}` : ""), tabindex: "0" }, body);
    const tell = (e) => { e.stopPropagation(); e.preventDefault(); sayName(cell, words); };
    cell.addEventListener("click", tell);
    cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") tell(e); });
    return cell;
  }

  const costDots = (cost) => el("span", { class: "cost", title: `cost: ${cost.map(title).join(" ")}` },
    cost.map((e) => el("span", { class: "dot-el", style: `background:${COLOUR[e]}`, title: title(e) })));

  // A card: element colour, name, type, level and cost, its pictogram sequence, its text (with
  // "show text"); on Earth the gems on it; on your cards, while you decide, the move a click makes
  // or the rule's reason it cannot be played (`opts.status`, the server's).
  function card(name, opts = {}) {
    const c = cardEntry(name) || {};
    const element = c.element || "none";
    const kind = c.kind || "";
    const type = kind === "figure" ? `figure · L${c.level}` : kind === "gem" ? `gem · ${c.symbols}` : kind;
    const head = el("div", { class: "av-head" }, el("b", {}, name),
      el("span", { class: "av-type" }, type, c.cost && c.cost.length ? costDots(c.cost) : null));
    const rows = [head];
    // a figure on Earth: its gems and whether it is active, under its name (seen first, and still
    // seen where the table's box cuts the card short)
    if (opts.gems !== undefined) {
      const slots = Array.from({ length: c.level || 0 }, (_, i) => el("span", { class: `gem-slot${i < opts.gems ? " on" : ""}` }));
      rows.push(el("div", { class: "on-figure", "data-gems": opts.gems, title: `${opts.gems} of ${c.level} gems` },
        slots, el("span", { class: "av-state" }, opts.gems > 0 ? "active" : "inactive")));
    }
    // (Hell's top cards: the name and type only; the whole card is behind its "i" and in "see all")
    if (c.pictograms && !opts.chip) rows.push(el("div", { class: "pictos" }, c.pictograms.map(picto)));
    if (opts.text && c.text) rows.push(el("div", { class: "av-text clamp", title: c.text }, c.text));
    const st = opts.status;
    if (st) rows.push(st.why ? el("div", { class: "why clamp", title: st.why, "data-why": name }, st.why)
      : el("div", { class: "why clamp ok", "data-can": name }, `✓ ${st.move}`));
    const node = el("div", { class: `gen-card av-card ${kind}${opts.gems === 0 ? " inactive" : ""}${opts.gems > 0 ? " active" : ""}${opts.mini ? " mini" : ""}${opts.chip ? " mini hell-top" : ""}`,
      "data-element": element, style: `background:${COLOUR[element] || "#444"};color:${INK[element] || "#fbfbf6"}` }, rows);
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

  // The move a card's verdict makes now (the server's `cards`), or null when it is refused or has none.
  const chosen = (st) => (st && !st.why ? st.move : null);

  // -- Hell: every card, in a dialog (the pile's top first) -----------------------------------------
  let hellOpen = false;
  function hellDialog(o, b, text, statusOf) {
    let box = document.getElementById("hell-all");
    if (!box) {
      box = el("aside", { id: "hell-all", class: "overlay guide hidden", role: "dialog", "aria-label": "every card in Hell" });
      document.body.append(box);
    }
    const close = el("button", { class: "ghost close", "aria-label": "close", onclick: () => { hellOpen = false; box.classList.add("hidden"); } }, "×");
    const cards = o.hell.slice().reverse().map((n) => b.bind(card(n, { text }), chosen(statusOf(n))));
    box.replaceChildren(close, el("h3", {}, `Hell · ${o.hell.length} card${o.hell.length === 1 ? "" : "s"}, face up (top first)`),
      el("div", { class: "forum av-hell-all" }, cards));
    box.classList.toggle("hidden", !hellOpen);
    return box;
  }

  // -- a choice among many cards drawn on the table: one line in the dock (how many, a list to pick
  // from, a button that makes the move picked); the cards above are clicked as well -----------------
  function chooser(moves, api) {
    const label = (t) => (moves.find((a) => a.text === t) || {}).label || t;
    const pick = el("select", { id: "chooser-pick", "aria-label": "the card to choose" },
      moves.map((a) => el("option", { value: a.text }, a.label || a.text)));
    const go = el("button", { id: "chooser-go", class: "playable" }, "OK");
    const aim = () => { go.dataset.legal = pick.value; go.title = label(pick.value); };
    pick.addEventListener("change", aim);
    go.addEventListener("click", (e) => { e.stopPropagation(); api.act(pick.value); });
    aim();
    return el("div", { class: "av-chooser", id: "chooser" },
      el("span", { class: "conn" }, `tap one of the ${moves.length} cards above, or`), pick, go);
  }

  document.addEventListener("keydown", (e) => {
    const box = document.getElementById("hell-all");
    if (e.key === "Escape" && box) { hellOpen = false; box.classList.add("hidden"); }
  });

  // -- the legend of every pictogram, in the Rules panel (the server's list, with its names) --------
  window.CT.guideLegend = (legend) => el("section", { id: "legend" },
    el("h2", {}, "Pictograms"),
    el("p", {}, "White symbols are yours; black ones are an opponent you choose. Tap or point at a symbol on a card to read its name."),
    el("div", { class: "legend-grid" }, legend.map((p) => el("div", { class: "legend-row", "data-legend": `${p.kind}:${p.name}${p.owner ? `:${p.owner}` : ""}` },
      picto(p), el("span", {}, p.label || p.name)))));

  // The dock holds the question, your moves and your Heaven; the table above it scrolls. When the
  // dock would not fit, the cards are drawn smaller (dense), then with less on them (denser).
  function fit(view) {
    const head = document.querySelector("header.top");
    if (head) document.documentElement.style.setProperty("--av-head", `${head.offsetHeight}px`);
    view.classList.remove("dense", "denser", "densest");
    const dock = view.querySelector(".av-dock");
    if (!dock) return;
    const over = () => dock.scrollHeight > dock.clientHeight + 1;
    for (const level of ["dense", "denser", "densest"]) if (over()) view.classList.add(level);
  }
  let fitting = false;
  const refit = () => {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(() => { fitting = false; const v = document.getElementById("view"); if (v && v.querySelector(".av-dock")) fit(v); });
  };
  window.addEventListener("resize", refit);

  const avatar = {
    render(box, m, api) {
      const o = m.observation;
      const b = binder(m, api);
      const me = m.seat;
      const d = o.decision;
      const mine = d && me !== null && d.seat === me && !m.over && m.legal.length > 0;
      const text = showText();
      if (m.over && me !== null) store(PLAYED_KEY, "1");  // the next game starts with the switch as set
      document.body.dataset.game = "iuno_avatar";
      box.dataset.fly = "off";  // cards appear where they land (no flight across the table)
      // what the server says of a card you hold (or may choose) while you decide: {move, why, moves}, or nothing
      const statusOf = (name) => (m.cards || {})[name] || null;
      // a card the rules refuse now: dimmed, and a click asks the engine, which says why
      const refusable = (node, st) => {
        node.classList.add("dim");
        node.dataset.refusable = "true";
        node.addEventListener("click", () => api.attempt(st.move));
      };

      // seats: avatar, Heaven size, dice, gems, and the opponent to choose
      const seats = seatsBar(m, api, (i) => {
        const p = o.seats[i];
        const node = el("div", { class: "meta" }, el("span", { class: "dot-el", style: `background:${COLOUR[p.avatar]}` }), ` ${title(p.avatar)} · `,
          el("span", { "data-heaven": i }, `Heaven ${p.heaven_size}`), " · ", el("span", { "data-dice": i }, `dice ${p.dice}`), " · ",
          el("span", { "data-gems-of": i }, `gems ${p.gems}`));
        const t = `opponent seat ${i}`;
        if (b.has(t)) b.bind(node, t);
        return node;
      });

      // the middle: dice, purse, stack, Hell's pile
      const dice = [];
      // a rolled die is back in the middle at once (rulebook: "Discarded dies are put back in the
      // middle"): it is drawn apart, showing its value, while its roll is being used
      const rolled = d && d.kind === "use_roll" ? 1 : 0;
      for (let k = 0; k < o.middle - rolled; k++) dice.push(die(0, "middle", "a die in the middle"));
      o.order.forEach((s) => { for (let k = 0; k < o.seats[s].dice; k++) dice.push(die(0, `taken seat-${s}`, `a die taken by ${api.seatName(s)}`)); });
      if (d && d.kind === "use_roll") dice.push(die(d.value, "rolled", `${api.seatName(d.seat)} rolled ${d.value}`));
      const top = o.hell.slice(-TOP).reverse();
      const hell = el("div", { class: "av-hell", id: "hell", "data-count": o.hell.length },
        el("span", { class: "conn" }, `Hell · ${o.hell.length}`),
        el("span", { class: "av-hell-top" }, top.map((n) => card(n, { chip: true }))),
        el("button", { class: "ghost", id: "hell-see", onclick: () => { hellOpen = true; hellDialog(o, binder(m, api), showText(), statusOf); } },
          o.hell.length > TOP ? `see all ${o.hell.length}` : "see Hell"));
      const middle = el("div", { class: "panel av-middle", id: "middle" },
        el("div", { class: "av-row" }, el("b", {}, `Turn ${o.turns}/${o.turn_limit}`), el("span", { class: "conn" }, `${o.phase} phase`),
          el("span", { class: "dice", id: "dice" }, dice),
          el("span", { class: "conn" }, `${o.middle - rolled} in the middle` + (rolled ? `, 1 rolled (${d.value})` : "")),
          el("span", { id: "purse" }, `purse ${o.purse}`), el("span", { id: "stack" }, `stack ${o.stack}`),
          el("span", {}, `spells cast ${o.spells_cast}`)),
        el("div", { class: "av-row" }, hell,
          o.announced.length ? el("span", { class: "av-announced" }, el("span", { class: "conn" }, "being played:"), o.announced.map((n) => card(n, { mini: true }))) : null));

      // a choice of a card in Hell (an effect that fetches one, or replaces an opponent's card with
      // one): the cards the server says may be chosen (`cards`), as small clickable cards at the top
      // of the table (the pile's top first; every card of Hell is in "see all")
      const fromHell = o.hell.slice().reverse().filter((n) => chosen(statusOf(n)));
      const hellChoice = fromHell.length ? el("div", { class: "panel av-choose", id: "hell-choice" },
        el("div", { class: "meta" }, `Choose from Hell · ${fromHell.length} of ${o.hell.length} card${o.hell.length === 1 ? "" : "s"}`),
        el("div", { class: "forum" }, fromHell.map((n) => b.bind(card(n, { mini: true }), chosen(statusOf(n)))))) : null;

      // every Earth, in turn order: figures with their gems
      const earths = el("div", { class: "panel", id: "earths" }, o.order.map((s) => {
        const p = o.seats[s];
        return el("div", { class: "earth", "data-earth": s },
          el("div", { class: "meta" }, s === me ? "Your Earth" : `${api.seatName(s)}'s Earth`),
          el("div", { class: "forum" }, p.earth.length ? p.earth.map((f) => {
            // your figures' verdicts; another Earth's card only while an effect may choose it
            const st = statusOf(f.name);
            const node = card(f.name, { gems: f.type === "figure" ? f.gems : undefined, text, status: s === me ? st : null });
            b.bind(node, chosen(st));
            if (s === me && st && st.why) refusable(node, st);
            return node;
          }) : el("span", { class: "conn" }, "no figures")));
      }));

      // the dock: the question (with the text switch), your moves, your Heaven
      const labels = {};
      if (mine && d.kind === "use_ability") {
        // (the question above words the effect whole: a card of several steps asked twice would
        // push your Heaven off a phone's screen)
        labels.yes = `Yes: ${d.instead ? "instead" : "also"} ${d.card}'s effect`;
        labels.no = `No, not ${d.card}'s effect`;
      }
      if (mine && d.kind === "first_trigger") (d.options || []).forEach((n, i) => { labels[`first ${i + 1}`] = `${n} first`; });
      if (mine && d.kind === "use_roll") labels["discard the die"] = "Discard the die (no action)";
      const gems = statusOf("gems");  // your gems, while you pay: whether they pay the rest, or why not

      const hand = me !== null && Array.isArray(o.heaven) ? el("div", { class: "forum", id: "hand" }, o.heaven.map((n) => {
        const st = statusOf(n);
        const node = card(n, { text, status: st });
        b.bind(node, chosen(st));
        if (st && st.why) refusable(node, st);
        return node;
      })) : null;
      const table = el("div", { class: "av-table", id: "av-table" }, hellChoice, seats, middle, earths);
      // moves that are no card of your Heaven: a button each, here in the dock, even when the thing
      // they move is drawn on the table above too (a figure to activate, a card of Hell, an
      // opponent); when they are more than BUTTONS, those drawn as a card above fold into a chooser
      const loose = m.legal.filter((a) => !(hand && hand.querySelector(`[data-legal="${CSS.escape(a.text)}"]`)));
      const byText = new Map(loose.map((a) => [a.text, a]));  // (in the order the table draws them)
      const onCard = [...new Set([...table.querySelectorAll(".av-card[data-legal]")].map((n) => n.dataset.legal))]
        .filter((t) => byText.has(t)).map((t) => byText.get(t));
      const folded = new Set(loose.length > BUTTONS && onCard.length > 1 ? onCard.map((a) => a.text) : []);
      const choices = el("div", { class: "choice", id: "choices" }, loose.filter((a) => !folded.has(a.text)).map((a) =>
        window.CT.legal(el("button", { class: a.text.startsWith("no") || a.text === "discard the die" || a.text === "end turn" ? "ghost" : "" },
          labels[a.text] || a.label || a.text), a.text, api)));
      if (folded.size) choices.prepend(chooser(onCard, api));
      const gemsWhy = mine && gems && gems.why ? el("div", { class: "why center", id: "gems-why" }, `Paying the rest with gems: ${gems.why}`) : null;
      const toggle = el("label", { class: "av-switch", title: "print each card's text under its pictograms" },
        el("input", { type: "checkbox", id: "show-text", checked: text, onchange: (e) => { store(TEXT_KEY, e.target.checked ? "on" : "off"); avatar.render(box, m, api); } }),
        " show text");
      const fold = el("button", { class: "ghost av-fold", id: "table-first", "aria-pressed": String(tableFirst),
        onclick: () => { tableFirst = !tableFirst; avatar.render(box, m, api); } }, tableFirst ? "see your Heaven" : "see the table");
      // (the switch beside "Your Heaven", or beside the question for a spectator)
      const dock = el("div", { class: "av-dock", id: "dock" },
        el("div", { class: "av-ask" }, window.CT.prompt(m, api) || el("div", { class: "prompt", id: "prompt" }, m.over ? "Game over" : ""), hand ? null : toggle),
        choices.childNodes.length ? choices : null, gemsWhy,
        hand ? el("div", { class: "av-heaven" }, el("h2", {}, `Your Heaven · ${o.heaven.length} (empty it to win)`, toggle, fold), hand) : null);
      box.classList.toggle("table-first", Boolean(hand) && tableFirst);

      box.replaceChildren(table, dock);
      hellDialog(o, b, text, statusOf);
      fit(box);
    },
  };

  // The view's own look (the page allows style attributes and this script, nothing inline else).
  if (!document.getElementById("av-style")) {
    const st = document.createElement("link");
    st.id = "av-style";
    st.rel = "stylesheet";
    st.href = "/static/views/iuno_avatar.css";
    st.addEventListener("load", refit);  // the table drawn before its look arrived is fitted again
    document.head.append(st);
  }

  window.CT.views.iuno_avatar = avatar;
})();
