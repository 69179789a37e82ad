// Ivion: the board of tiles with both heroes (figure, HP bar with the wounded side, chivalry),
// terrain and attached cards; each hero's actions, power, initiative and control tokens; the stack
// of unresolved cards in the middle with respond / pass; your hand with each card's full text;
// feats; discards and deck counts. Legal targets and tiles light up when a card asks for them,
// hovering a card of the hand lights the tiles it reaches, a click on an adjacent tile moves your
// hero, a refused click says the rule (the engine's reason), and second wind is a chooser. While you
// decide, each card you hold says whether it can be played now and, if not, why: the server sends it
// (`cards`: the move, the rule's reason, the tiles in range), so no rule is worked out here. A card's
// parts (cost, range, text) are fields of the table's card catalogue. Everything drawn comes from the
// seat's observation: the other hand, the decks and the other second-wind look never reach the browser.
// At a laptop's size the whole table is on one screen: the heroes beside the board, the stack beside
// it, the question and its answers above, your hand below.
"use strict";

(() => {
  const { el, binder, cardInfo, cardEntry } = window.CT;
  const COLS = "abcdefgh";
  const SEAT_COLOUR = ["#e0a03a", "#4cc9f0"];
  const CONTROL = { slow: "slow", silence: "silence", disarm: "disarm" };

  // a colour of the content in the table's palette (--gold, --red, --blue, --green), else by its name
  const paint = (colour) => `var(--${colour}, ${colour})`;
  const tileName = (row, col) => `${COLS[col]}${row + 1}`;
  // the direction of a move into `tile` from the hero, as the server lists the tiles next to it
  const direction = (hero, tile) => (Object.entries(hero.steps).find(([, t]) => t === tile) || [null])[0];

  // A card's printed parts: fields of the card catalogue (its header line, its rules text, passive).
  function parts(name) {
    const c = cardEntry(name);
    if (!c) return { header: "", body: "", kind: "", passive: false, colours: [] };
    return { header: c.header, body: c.body, kind: c.kind, passive: c.passive, colours: c.colours || [] };
  }

  // What the server says of a card you hold while you decide: {move, why, moves, reach}, or nothing.
  const statusOf = (m, name) => (m.cards || {})[name] || null;
  // A legal move as the server labels it (the terminal's words).
  const labelOf = (m, text) => (m.legal.find((a) => a.text === text) || { label: text }).label;

  function heroInitials(name) {
    return name.split(/\s+/).filter((w) => /^[A-Z]/.test(w) && w !== "Sir").map((w) => w[0]).join("").slice(0, 2);
  }

  function hpBar(h) {
    const pct = Math.max(0, Math.min(100, (100 * h.hp) / h.max_hp));
    const half = Math.floor(h.max_hp / 2);
    return el("div", { class: "iv-hp", title: `${h.hp} of ${h.max_hp} HP; wounded at ${half} or less` },
      el("div", { class: `fill${h.wounded ? " wounded" : ""}`, style: `width:${pct}%` }),
      el("div", { class: "half", style: `left:${(100 * half) / h.max_hp}%` }),
      el("span", { class: "num" }, `${h.hp} / ${h.max_hp} HP`));
  }

  const token = (cls, text, title) => el("span", { class: `iv-token ${cls}`, title }, text);

  // A seat's hero panel: HP (wounded side), chivalry, pools, control, deck, hand, discard, relics, feats.
  function heroPanel(o, i, m, b, api) {
    const h = o.heroes[i];
    const mine = m.seat === i;
    const ctl = Object.entries(h.control).filter(([, n]) => n > 0);
    const feats = el("span", { class: "iv-feats", id: mine ? "feats" : undefined, "data-feats": i }, h.feats.map((f) => {
      const passive = parts(f.name).passive;
      const node = cardInfo(el("span", { class: `chip iv-feat${f.used ? " used" : ""}${passive ? " passive" : ""}`, "data-feat": f.name },
        f.name, f.used ? " · used" : passive ? " · passive" : ""), f.name);
      if (mine) {
        const st = statusOf(m, f.name);
        b.bind(node, st && !st.why ? st.move : null);
        if (st && st.why) { node.dataset.why = st.why; node.title = `${st.why}\n\n${node.title}`; }
        if (!node.dataset.legal && !passive) {
          node.dataset.refusable = "true";
          node.addEventListener("click", () => api.attempt(st ? st.move : f.name));
        }
        if (st && st.reach) hoverReach(node, st.reach);
      }
      return node;
    }));
    // on the hero, and in front of its player (no tile): both shown with that hero
    const attached = o.attached.filter((a) => (a.host === "hero" || a.host === "player") && a.seat === i).map((a) => attachedChip(a, b, api));
    return el("div", { class: "iv-hero-panel", "data-hero": i },
      el("div", { class: "meta" }, el("b", { style: `color:${SEAT_COLOUR[i]}` }, h.hero), ` · on ${h.tile}`,
        h.wounded ? el("span", { class: "badge iv-wounded" }, "wounded side") : null,
        h.chivalrous ? el("span", { class: "badge iv-chivalry", title: "chivalrous: heal 2 at the start of your turn" }, "⚜ chivalry") : null,
        h.exhausted ? el("span", { class: "badge", title: "no cards in deck: damage can't be reduced, no healing" }, "exhausted") : null),
      hpBar(h),
      el("div", { class: "iv-pools" },
        token("act", `● ${h.actions}`, `${h.actions} actions (at most 5)`),
        token("pow", `✦ ${h.power}`, `${h.power} power (at most 5)`),
        token("ini", `⚑ ${h.initiative}`, `${h.initiative} initiative (lost at the end of the turn)`),
        ctl.map(([k, n]) => token(`ctl ${k}`, `${CONTROL[k]} ${n}`, `${n} ${k} control: cards whose banner includes ${k} can't be played`)),
        el("span", { class: "meta iv-counts", title: h.discard.length ? `top of the discard: ${h.discard[h.discard.length - 1]}` : "the discard is empty" },
          `deck ${h.deck} · hand ${h.hand_size} · discard ${h.discard.length}`, h.relics ? ` · relics ${h.relics}` : "",
          h.looking ? ` · looking at ${h.looking}` : "")),
      h.revealed_in_hand.length ? el("div", { class: "meta" }, "revealed in hand: ", h.revealed_in_hand.join(", ")) : null,
      // attached cards and feats share a line where they fit
      el("div", { class: "chips" }, attached.length ? [el("span", { class: "conn" }, "attached:"), attached] : null, feats));
  }

  function attachedChip(a, b, api) {
    const node = cardInfo(el("span", { class: "chip iv-attached", "data-attached": a.id, style: `border-left:3px solid ${SEAT_COLOUR[a.controller]}` },
      a.card, a.host === "player" ? " · in front" : "",
      // a fading card's turn tokens (verb fade): public, as its text says when it goes
      a.tokens ? ` · ${a.tokens} turn token${a.tokens > 1 ? "s" : ""}` : ""), a.card);
    b.bind(node, `target ${a.card} #${a.id}`);
    return node;
  }

  function board(o, m, b, api) {
    const n = o.board;
    const flip = m.seat === 1;  // each player sees their own side at the bottom
    const me = m.seat !== null && m.seat !== undefined ? m.seat : null;
    const myHero = me !== null ? o.heroes[me] : null;
    const grid = el("div", { class: "iv-board", id: "board", style: `grid-template-columns:repeat(${n},minmax(0,1fr))` });
    for (let vr = 0; vr < n; vr++) {
      const row = flip ? vr : n - 1 - vr;
      for (let vc = 0; vc < n; vc++) {
        const col = flip ? n - 1 - vc : vc;
        const name = tileName(row, col);
        const terrain = o.terrain[name];
        const heroes = o.heroes.map((h, i) => [h, i]).filter(([h]) => h.tile === name);
        const attached = o.attached.filter((a) => a.host === "tile" && a.tile === name);
        const tile = el("div", { class: `iv-tile${terrain ? ` t-${terrain}` : ""}`, "data-tile": name, "data-row": row, "data-col": col },
          el("span", { class: "iv-tname" }, name),
          terrain ? el("span", { class: "iv-terrain", title: `${terrain} terrain` }, terrain) : null,
          heroes.map(([h, i]) => el("div", { class: `iv-figure${h.wounded ? " wounded" : ""}`, "data-figure": i, title: `${h.hero}: ${h.hp} HP`,
            style: `background:${SEAT_COLOUR[i]}` }, heroInitials(h.hero),
          el("span", { class: "iv-fhp" }, String(h.hp)))),
          attached.map((a) => attachedChip(a, b, api)));
        // a card asks for a tile: the legal ones light up
        b.bind(tile, `target ${name}`);
        if (tile.dataset.legal) tile.classList.add("lit");
        else if (myHero) {
          const dir = direction(myHero, name);
          if (dir) {
            const t = b.has(`move ${dir}`) ? `move ${dir}` : b.has(`initiative move ${dir}`) ? `initiative move ${dir}` : null;
            if (t) { b.bind(tile, t); tile.classList.add("step"); tile.title = t === `move ${dir}` ? `move ${dir} (an action)` : `move ${dir} (an initiative)`; }
            else if (m.legal.length) {
              tile.dataset.refusable = "true";
              tile.addEventListener("click", () => api.attempt(`move ${dir}`));  // the engine says why not
            }
          } else if (m.legal.length && name !== myHero.tile) {
            tile.dataset.refusable = "true";
            tile.addEventListener("click", () => api.toast(
              `${name} is not adjacent to your hero on ${o.heroes[me].tile}: a move is to an orthogonally adjacent tile (diagonal tiles are not adjacent)`));
          }
        }
        grid.append(tile);
      }
    }
    return grid;
  }

  // The tiles a card reaches (the server's `reach`) light up while the card is hovered or focused.
  function showReach(reach, on) {
    const box = document.getElementById("board");
    if (!box) return;
    const lit = new Set(reach);
    for (const t of box.querySelectorAll(".iv-tile")) t.classList.toggle("in-range", on && lit.has(t.dataset.tile));
  }
  function hoverReach(node, reach) {
    for (const [ev, on] of [["mouseenter", true], ["mouseleave", false], ["focus", true], ["blur", false]]) {
      node.addEventListener(ev, () => showReach(reach, on));
    }
  }

  function handCard(name, o, m, b, api) {
    const p = parts(name);
    const st = statusOf(m, name);
    // whether it can be played now, and the rule that says no (the server's words): the move a
    // click makes, as the moves are labelled, or the reason
    const verdict = st ? el("div", { class: `iv-status ${st.why ? "no" : "ok"}`, "data-status": st.why ? "refused" : "legal" },
      st.why ? `✗ ${st.why}` : `✓ ${labelOf(m, st.move)}`) : null;
    // the card's colours (its archetype's, the server's catalogue) as its top edge, in the palette's shades
    const edge = p.colours.length ? { style: `border-top:5px solid ${paint(p.colours[0])}` } : {};
    const node = cardInfo(el("div", { class: "iv-card", tabindex: 0, ...edge, "data-colours": p.colours.join(" ") },
      el("div", { class: "iv-cname" }, name),
      el("div", { class: "iv-chead" }, p.header),
      el("div", { class: "iv-cbody" }, p.body),
      verdict || (p.kind ? el("div", { class: "iv-ckind" }, p.kind) : null)), name);
    b.bind(node, st && !st.why ? st.move : null);
    if (st && st.why) node.dataset.why = st.why;
    // its other legal moves (a cantrip, for an initiative): a button each, in the server's words
    for (const other of st ? st.moves.filter((x) => !x.why && x.move !== st.move) : []) {
      node.append(b.bind(el("button", { class: "ghost iv-cantrip", "data-also": name }, labelOf(m, other.move)), other.move));
    }
    if (!node.dataset.legal) {
      if (m.legal.length) node.classList.add("dim");
      node.dataset.refusable = "true";
      node.addEventListener("click", () => api.attempt(st ? st.move : name));  // refused: the toast says the rule (or whose turn it is)
    }
    if (st && st.reach) hoverReach(node, st.reach);
    return node;
  }

  function stackPanel(o, m, b, api) {
    const d = o.decision;
    const mine = d && d.seat === m.seat && !m.over;
    const items = o.stack.map((it, k) => {
      const node = cardInfo(el("div", { class: `iv-stack-item${it.countered ? " countered" : ""}`, "data-stack": k,
        style: `border-left:4px solid ${SEAT_COLOUR[it.controller]}` },
      el("b", {}, it.copy ? `copy of ${it.card}` : it.card), ` · ${api.seatName(it.controller)}`,
      it.targets.length ? ` → ${it.targets.join(" and ")}` : "",
      it.unleashed ? " · unleashed" : "", it.countered ? " · countered" : ""), it.card);
      b.bind(node, `target ${it.ref}`);  // the item as a move names it ("copy 2 of Arc Bolt #17")
      return node;
    }).reverse();  // the top of the stack first
    const pass = b.has("pass") ? b.bind(el("button", { class: "primary", id: "pass" }, o.stack.length ? "Pass (let it resolve)" : "Pass"), "pass") : null;
    const hint = mine && d.kind === "priority"
      ? el("div", { class: "conn" }, "Respond with a highlighted instant from your hand, or pass.") : null;
    return el("div", { class: "panel iv-stack", id: "stack" },
      el("h2", {}, `Turn ${o.turn_number} · ${o.heroes[o.turn].hero}'s turn`),
      items.length ? el("div", {}, el("div", { class: "conn" }, "Unresolved (top first):"), items) : el("div", { class: "conn" }, "the stack is empty"),
      hint, pass,
      o.removed.length ? el("div", { class: "conn" }, `removed from the game: ${o.removed.join(", ")}`) : null);
  }

  // Second wind: keep two of the top five (to the hand), then put the rest on the bottom in order.
  function secondWind(o, m, b) {
    const d = o.decision;
    if (!d || d.seat !== m.seat || !["second_wind_keep", "second_wind_bottom"].includes(d.kind) || !o.looking) return null;
    const keep = d.kind === "second_wind_keep";
    const cards = o.looking.map((name) => {  // compact: the name and the header (the text on hover and behind ⓘ)
      const node = cardInfo(el("div", { class: "iv-card iv-mini" }, el("div", { class: "iv-cname" }, name),
        el("div", { class: "iv-chead" }, parts(name).header)), name);
      return b.bind(node, `${keep ? "keep" : "bottom"} ${name}`);
    });
    return el("div", { class: "panel iv-wind", id: "second-wind" },
      el("h2", {}, "Second wind"),
      el("div", { class: "conn" }, keep ? "You are wounded: keep two of the top five cards of your deck (click one, then another)."
        : "Put the rest on the bottom of your deck: click them in order, the first you click goes to the bottom first."),
      el("div", { class: "iv-hand" }, cards));
  }

  const ivion = {
    render(box, m, api) {
      const o = m.observation;
      const b = binder(m, api);
      const me = m.seat !== null && m.seat !== undefined ? m.seat : null;
      const seats = window.CT.seatsBar(m, api, (i) => heroPanel(o, i, m, b, api));
      const grid = board(o, m, b, api);
      const side = el("div", { class: "iv-side" }, stackPanel(o, m, b, api), secondWind(o, m, b));
      let hand = null;
      if (me !== null && Array.isArray(o.hand)) {
        const cards = el("div", { class: "iv-hand", id: "hand" }, o.hand.map((name) => handCard(name, o, m, b, api)));
        const turnButtons = el("div", { class: "choice iv-turn" },
          b.has("initiative draw") ? b.bind(el("button", { id: "initiative-draw" }, "⚑ Draw (initiative)"), "initiative draw") : null,
          b.has("spend action") ? b.bind(el("button", { class: "ghost" }, "Spend an action (remove control)"), "spend action") : null,
          b.has("spend power") ? b.bind(el("button", { class: "ghost" }, "Spend a power (remove control)"), "spend power") : null,
          b.has("end turn") ? b.bind(el("button", { class: "primary", id: "end-turn" }, "End turn"), "end turn") : null);
        hand = el("div", { class: "panel iv-handpanel" }, el("div", { class: "iv-handhead" }, el("h2", {}, `Your hand · ${o.hand.length}`), turnButtons), cards);
      }
      // the question, and the answers no part of the table shows (unleash, remove a control, yes / no)
      const top = el("div", { class: "iv-ask" }, window.CT.prompt(m, api), b.rest());
      box.replaceChildren(el("div", { class: "iv-table" }, top, el("div", { class: "iv-heroes" }, seats), grid, side, hand));
    },
  };

  window.CT.views.ivion = ivion;
})();
