// JUNO: cards drawn with CSS and SVG symbols, a fanned hand, the DRAW and DISCARD piles, the color in
// play, the direction of play, card counts per seat, UNO called as part of playing, catch and challenge.
"use strict";

(() => {
  const { el, svg, legal, seatsBar } = window.CT;
  const COLORS = ["red", "yellow", "green", "blue"];

  const SYM = {
    skip: () => svg('<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="3"/><line x1="6" y1="18" x2="18" y2="6" stroke="currentColor" stroke-width="3"/>'),
    reverse: () => svg('<path d="M4 9h12l-3-3M20 15H8l3 3" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>'),
  };

  // A card's colour ("wild" for a wild) and rank, as the catalogue sends them (games/juno/text.py,
  // `card_catalog`); until the catalogue has arrived (the page is drawn again then) a card shows its name.
  function parse(name) {
    const c = window.CT.cardEntry(name);
    return c ? { color: c.color, rank: c.rank } : { color: "wild", rank: name };
  }

  function face(rank, big) {
    if (rank === "skip" || rank === "reverse") return SYM[rank]();
    if (rank === "draw two") return "+2";
    if (rank === "wild draw four") return "+4";
    if (rank === "wild") return big ? "WILD" : "W";
    return rank;
  }

  function card(name, extra = "") {
    const { color, rank } = parse(name);
    return window.CT.cardInfo(el("div", { class: `card c-${color} ${extra}`, title: name, "data-card": name, "aria-label": name },
      el("div", { class: "face" },
        el("div", { class: "oval" }),
        el("div", { class: "corner tl" }, face(rank, false)),
        el("div", { class: "big" }, face(rank, true)),
        el("div", { class: "corner br" }, face(rank, false)))), name);
  }

  function back(extra = "") {
    return el("div", { class: `card back ${extra}`, "aria-label": "card back" },
      el("div", { class: "face" }, el("div", { class: "oval" }), el("div", { class: "big" }, "JUNO")));
  }

  let unoOn = false;   // the "call UNO" toggle, kept between renders

  const juno = {
    card, back, parse,
    render(box, m, api) {
      const o = m.observation;
      const me = m.seat;
      const legalTexts = new Set(m.legal.map((a) => a.text));
      const d = o.decision;

      // seats: counts as fanned backs, scores, UNO!, dealer
      const seats = seatsBar(m, api, (i) => el("div", {},
        el("div", { class: "opp-cards" }, Array.from({ length: Math.min(o.hand_counts[i], window.innerWidth < 820 ? 7 : 12) }, () => back("small"))),
        el("div", { class: "meta" }, `${o.hand_counts[i]} card${o.hand_counts[i] === 1 ? "" : "s"}`,
          o.target ? ` · ${o.scores[i]} pts` : "", i === o.dealer ? " · dealer" : "", " ",
          o.hand_counts[i] === 1 ? el("span", { class: "badge" }, "UNO!") : null)));

      // the center: DRAW pile, DISCARD pile, color in play, direction, stacked draw
      const drawPile = el("div", { class: "pile", id: "draw-pile" },
        el("div", { class: "stack" }, o.draw_pile ? back() : el("div", { class: "card", style: "opacity:.2" })),
        el("div", { class: "cap" }, `DRAW · ${o.draw_pile}`));
      if (legalTexts.has("draw")) {
        drawPile.classList.add("clickable");
        legal(drawPile, "draw", api);
      } else if (me !== null) {
        drawPile.dataset.refusable = "true";  // out of turn, or when drawing is not the choice: the server says why
        drawPile.addEventListener("click", () => api.attempt("draw"));
      }
      const under = o.discard.slice(-3, -1);
      const discard = el("div", { class: "pile", id: "discard-pile" },
        el("div", { class: "stack", style: "position:relative" },
          under.map((c, k) => { const n = card(c); n.style.transform = `rotate(${(k - 1) * 9}deg)`; n.style.opacity = ".85"; return n; }),
          o.top_card ? card(o.top_card, "top") : null),
        el("div", { class: "cap" }, `DISCARD · ${o.discard.length}`));
      const inPlay = el("div", { class: "in-play" },
        el("div", { class: `color-dot ${o.color || "none"}`, id: "color-in-play", title: `color in play: ${o.color || "to be chosen"}` }),
        el("div", { class: "cap" }, o.color ? `${o.color} in play` : "color to be chosen"),
        el("div", { class: "direction", title: `play goes to the ${o.direction}` }, el("span", { class: `direction ${o.direction}` }, "↻")),
        el("div", { class: "cap" }, `play goes ${o.direction}`),
        o.penalty ? el("div", { class: "penalty" }, `+${o.penalty} stacked`) : null);
      const center = el("div", { class: "panel juno-center" }, drawPile, discard, inPlay);

      // the prompt and the decision's own buttons
      const prompt = window.CT.prompt(m, api) || "";
      const choice = el("div", { class: "choice" });
      if (d && !m.over) {
        if (d.seat === me) {
          if (d.kind === "choose_color") {
            choice.classList.add("color-choice");
            for (const c of COLORS) if (legalTexts.has(`choose ${c}`)) choice.append(legal(el("button", { class: c, "data-label": c, "aria-label": `choose ${c}` }, c), `choose ${c}`, api));
          }
          // Trade, catch, challenge and pass in the server's words (games/juno/text.py, choices): the
          // same label as under "Your moves" and in the terminal.
          for (const a of m.legal) {
            if (a.text.startsWith("swap with seat")) choice.append(legal(el("button", {}, a.label), a.text, api));
          }
          const label = (text) => m.legal.find((a) => a.text === text).label;
          if (legalTexts.has("catch")) choice.append(legal(el("button", { class: "uno-btn" }, label("catch")), "catch", api));
          if (legalTexts.has("challenge")) choice.append(legal(el("button", { class: "primary" }, label("challenge")), "challenge", api));
          if (legalTexts.has("pass")) choice.append(legal(el("button", { class: "ghost", id: "pass-btn" }, label("pass")), "pass", api));
        }
      }

      // my hand: a fan; playable cards raised and outlined; UNO is called as part of the play. The
      // server's verdict for each card while you decide (`cards`): its moves, `play X` and with the
      // next-to-last card `play X uno` second (games/juno/state.py, card_moves), or the rule's reason.
      const parts = [seats, center, el("div", {}, prompt), choice];
      const statusOf = (name) => (m.cards || {})[name] || null;
      const calling = (st) => (st && st.moves.length > 1 && !st.moves[1].why ? st.moves[1].move : null);
      if (me !== null && Array.isArray(o.hand)) {
        const canCall = o.hand.some((name) => calling(statusOf(name)));
        if (!canCall) unoOn = false;
        const n = o.hand.length;
        const hand = el("div", { class: "hand", id: "hand" }, o.hand.map((name, k) => {
          const rot = n > 1 ? (k - (n - 1) / 2) * Math.min(4, 40 / n) : 0;
          const lift = Math.abs(rot) * 1.2;
          const isDrawn = d && d.kind === "after_draw" && d.drawn === name;
          const node = card(name, isDrawn ? "drawn" : "");
          node.style.transform = `rotate(${rot}deg) translateY(${lift}px)`;
          const st = statusOf(name);
          const text = (unoOn && calling(st)) || (st && !st.why ? st.move : null);
          if (text) legal(node, text, api);
          else {
            if (m.legal.length) node.classList.add("dim");
            if (st && st.why) {
              node.dataset.why = st.why;
              node.title = `${window.CT.cardTitle(name)}\n${st.why}`;  // what it does, then why not now
            }
            node.dataset.refusable = "true";
            // Refused by the server with its reason (shown as a toast), in turn or out of it: that is
            // how a person learns the rule, or whose turn it is.
            node.addEventListener("click", () => api.attempt(st ? st.move : name));
          }
          return node;
        }));
        const uno = canCall ? el("button", {
          class: `uno-btn ${unoOn ? "on" : "pulse"}`, id: "uno-toggle", "aria-pressed": unoOn ? "true" : "false",
          onclick: () => { unoOn = !unoOn; juno.render(box, m, api); },
        }, unoOn ? "UNO! ✓ (called with your next card)" : "Call UNO! with your next card") : null;
        parts.push(el("div", { class: "panel" },
          el("div", { class: "row", style: "justify-content:space-between" }, el("b", {}, `Your hand · ${n}`), uno),
          el("div", { class: "hand-wrap" }, hand)));
      }
      box.replaceChildren(...parts);
      fitHand(box);
    },
  };

  // Overlap the fan so the whole hand fits the width (phones), never less than a corner visible.
  function fitHand(box) {
    const hand = box.querySelector("#hand");
    if (!hand || !hand.children.length) return;
    const n = hand.children.length;
    const w = hand.children[0].offsetWidth;
    const avail = hand.parentElement.clientWidth - 32;
    const step = n > 1 ? Math.max(18, Math.min(w * 0.72, (avail - w) / (n - 1))) : w;
    hand.style.setProperty("--overlap", `${Math.round(step - w)}px`);
  }
  window.addEventListener("resize", () => fitHand(document));

  window.CT.views.juno = juno;
})();
