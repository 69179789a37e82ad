// IUNU: the Forum to draft from, the three dice, each Dynasty's Citizens with their Bread, Debens,
// the Scribe and the Afterlife; your hand. Every legal move is a click on what it names.
"use strict";

(() => {
  const { el, svg, seatsBar, binder, cardInfo } = window.CT;
  const COLOR = { Pharaoh: "#d4a017", Scribe: "#2a9d8f", Noble: "#7b2cbf", Priest: "#3a86ff", Artisan: "#e76f51",
    Soldier: "#c1121f", Baker: "#8d5524", Merchant: "#2d6a4f", Farmer: "#6a994e" };
  const GLYPH = { Pharaoh: "☥", Scribe: "✎", Noble: "♛", Priest: "☉", Artisan: "⚒", Soldier: "⚔", Baker: "◍", Merchant: "⚖", Farmer: "⚘" };
  const PIPS = { 1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[6, 6], [12, 12], [18, 18]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]],
    5: [[6, 6], [18, 6], [12, 12], [6, 18], [18, 18]], 6: [[7, 5], [17, 5], [7, 12], [17, 12], [7, 19], [17, 19]] };

  function citizen(name, extra = "") {
    return cardInfo(el("div", { class: `gen-card citizen ${extra}`, "data-card": name, title: name, style: `background:linear-gradient(160deg,#fffaf0 55%,${COLOR[name] || "#ccc"}40),#fffaf0;border-top:8px solid ${COLOR[name] || "#888"}` },
      el("span", { style: `font-size:1.9rem;color:${COLOR[name] || "#444"};text-align:center` }, GLYPH[name] || "?"),
      el("b", {}, name)), name);
  }

  function die(v, i) {
    const node = el("div", { class: `die${v ? "" : " used"}`, "data-die": i + 1, title: v ? `die ${i + 1}: ${v}` : `die ${i + 1}: used` });
    if (v && PIPS[v]) node.append(svg(PIPS[v].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.4" fill="#222"/>`).join(""), "0 0 24 24"));
    else node.append(v ? String(v) : "–");
    node.firstChild && node.firstChild.setAttribute && node.firstChild.setAttribute("width", "34");
    return node;
  }

  const iunu = {
    render(box, m, api) {
      const o = m.observation;
      const b = binder(m, api);
      const low = (s) => s.toLowerCase();
      const seats = seatsBar(m, api, (i) => {
        const d = o.dynasties[i];
        return el("div", { class: "meta" }, `${d.debens} Debens · ${d.hand_size} in hand`, d.scribe_cards ? ` · ${d.scribe_cards} scribed` : "",
          d.has_afterlife ? " · Afterlife ✓" : "");
      });
      const dice = el("div", { class: "choice", id: "dice" }, o.dice.map((v, i) => {
        const node = die(v, i);
        b.bind(node, b.find((t) => t === `reroll die ${i + 1}` || t === `priest with die ${i + 1}`));
        return el("div", {}, node, el("span", { class: "die-cap" }, v ? `die ${i + 1} · ${v}` : `die ${i + 1} · out`));
      }));
      // A card that is not a legal move now still answers a click: the server says why (not your
      // turn, not what this decision asks for).
      const refusable = (node, text) => {
        if (!node.dataset.legal && m.seat !== null) {
          node.dataset.refusable = "true";
          if (m.legal.length) node.classList.add("dim");
          // the server's reason as a toast, and what the card is (as a tap on any card shows)
          node.addEventListener("click", () => { api.attempt(text); window.CT.cardDetail(node.dataset.card); });
        }
        return node;
      };
      const forum = el("div", { class: "forum", id: "forum" }, o.forum.map((c) => refusable(b.bind(citizen(c), `take ${low(c)}`), `take ${low(c)}`)));
      const head = el("div", { class: "panel" },
        el("div", { class: "row", style: "justify-content:space-between" },
          el("b", {}, `Round ${o.round}`, o.final_turns ? el("span", { class: "badge", style: "margin-left:.5rem" }, "FINAL TURNS") : ""),
          el("span", { class: "conn" }, `Citizen deck ${o.deck} · Afterlife deck ${o.afterlife_deck} · Bread left ${o.bread_supply}`)),
        el("h2", {}, "The Forum"), forum, el("h2", { style: "margin-top:.8rem" }, "Dice"), dice);
      const dyn = el("div", { class: "panel" }, el("h2", {}, "Dynasties"),
        o.dynasties.map((d, i) => {
          const steal = b.find((t) => t === `steal a farmer from seat ${i}`);
          const row = el("div", { class: "row", "data-dynasty": i },
            el("b", { style: "min-width:6em" }, api.seatName(i)),
            Object.keys(d.dynasty).length ? Object.entries(d.dynasty).map(([c, n]) => {
              const fed = d.fed[c] || 0;
              const chip = cardInfo(el("span", { class: "chip", style: `border-left:6px solid ${COLOR[c] || "#888"}`, "data-citizen": c },
                `${GLYPH[c] || ""} ${c} ×${n}`, fed ? ` · ${fed} bread` : ""), c);
              if (i === m.seat) b.bind(chip, `bread on ${low(c)}`);
              return chip;
            }) : el("span", { class: "conn" }, "no Citizens yet"),
            d.afterlife ? cardInfo(el("span", { class: "chip" }, `Afterlife: ${d.afterlife}`), d.afterlife) : null);
          if (steal) row.append(b.bind(el("button", { class: "primary" }, "Steal a Farmer"), steal));
          return row;
        }));
      const d = o.decision;
      const prompt = window.CT.prompt(m, api);
      // the Afterlife cards the Priest drew, shown only to their player
      if (prompt && d && Array.isArray(d.drawn)) prompt.append(el("div", { class: "chips" }, d.drawn.map((c) => cardInfo(el("span", { class: "chip" }, c), c))));
      const parts = [seats, head, dyn, prompt];
      if (m.seat !== null && Array.isArray(o.hand)) {
        // the server's verdict for each card of the hand while you decide (`cards`): the move that
        // takes it now (play, tuck under the Scribe, place in the Forum), or the rule that refuses it
        const hand = el("div", { class: "forum", id: "hand" }, o.hand.map((c) => {
          const st = (m.cards || {})[c];
          const node = b.bind(citizen(c), st && !st.why ? st.move : null);
          if (st && st.why) node.dataset.why = st.why;
          return refusable(node, st ? st.move : low(c));
        }));
        parts.push(el("div", { class: "panel" }, el("h2", {}, `Your hand · ${o.hand.length}`), hand,
          o.scribed && o.scribed.length ? el("div", { class: "conn" }, `under your Scribe: ${o.scribed.join(", ")}`) : null,
          o.afterlife ? el("div", { class: "conn" }, "your Afterlife card: ", cardInfo(el("span", { class: "chip" }, o.afterlife), o.afterlife)) : null));
      }
      const cit = d && d.citizen ? `the ${d.citizen}'s` : "the";
      const dieLabel = (t) => { const k = Number(t.split(" ").pop()); return `${t} (${o.dice[k - 1] ? `a ${o.dice[k - 1]}` : "out"})`; };
      const labels = { "keep the dice": "Keep the dice", "use ability": `Use ${cit} ability`, "skip ability": "Skip" };
      for (const a of m.legal) if (/ die \d+$/.test(a.text)) labels[a.text] = dieLabel(a.text);
      parts.push(b.rest(labels));
      if (m.over && Array.isArray(o.scores)) {
        const cols = Object.keys(o.scores[0] || {});
        parts.push(el("div", { class: "panel scores" }, el("h2", {}, "Scoring"), el("table", {},
          el("tr", {}, el("th", {}, ""), cols.map((c) => el("th", {}, c.replace(/_/g, " ")))),
          o.scores.map((s, i) => el("tr", { class: (m.winners || []).includes(i) ? "win" : "" }, el("td", {}, api.seatName(i)), cols.map((c) => el("td", {}, s[c])))))));
      }
      box.replaceChildren(...parts.filter(Boolean));
    },
  };

  window.CT.views.iunu = iunu;
})();
