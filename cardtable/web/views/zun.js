// Runes of Zun: every player's HP tracker with its tiers, teams, hands (and exposed hands),
// what is resolving (the chain), what is in play and ongoing, and your runes to play.
"use strict";

(() => {
  const { el, seatsBar, binder, cardInfo, cardDetail } = window.CT;
  const TEAM = ["#f6c343", "#4cc9f0", "#f72585", "#80ed99"];
  // Tiers and teams are named as in the terminal (games/zun/text.py): teams from 1, tiers with their HP.
  const TIER = { 0: "Defeated", 1: "tier 1 (1–4 HP)", 2: "tier 2 (5–8 HP)", 3: "tier 3 (9–12 HP)" };

  // A carved mark per rune, drawn from its name so each rune has its own shape.
  function runeMark(name) {
    let h = 0;
    for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    const strokes = ["M12 3v18"];
    const arms = [["M12 7l6-4", "M12 7l-6-4"], ["M12 12l6-5", "M12 12l-6-5"], ["M12 12l6 5", "M12 12l-6 5"], ["M12 17l6 4", "M12 17l-6 4"], ["M6 8h12"], ["M7 14l10-4"]];
    arms.forEach((a, i) => { if (h & (1 << i)) strokes.push(...a); });
    if (strokes.length < 3) strokes.push(...arms[(h >> 7) % arms.length]);
    return window.CT.svg(`<path d="${strokes.join(" ")}" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>`, "0 0 24 24");
  }

  // A rune: its mark, its name and its kind (action, reaction, modifier), as the catalogue sends it.
  function rune(name, extra = "") {
    const c = window.CT.cardEntry(name);
    return cardInfo(el("div", { class: `gen-card rune ${extra}`, "data-card": name, "data-kind": c ? c.kind : "", title: name, style: "background:linear-gradient(165deg,#2b2d42,#4a4e69);color:#f4f1e8;border:2px solid #9a8c98" },
      el("span", { style: "text-align:center;color:#c9ada7" }, runeMark(name)), el("b", {}, name),
      c ? el("span", { class: "meta", style: "color:#c9ada7" }, c.kind) : null), name);
  }

  // A rune chip (in play, ongoing, the chain, exposed hands): its text on hover, ⓘ for the detail.
  const chip = (name, ...text) => cardInfo(el("span", { class: "chip" }, ...text), name);


  function hp(o, i) {
    const maxTier = Math.max(...o.tiers, 3);
    const per = 4;  // the tracker is drawn in tiers of equal size; the numbers are the engine's
    return el("div", {},
      el("div", { class: "meta" }, `HP ${o.hp[i]} · ${TIER[o.tiers[i]] || `tier ${o.tiers[i]}`}`, o.defeated[i] ? el("span", { class: "badge", style: "margin-left:.3rem" }, "DEFEATED") : null),
      el("div", { class: "hp", title: `${o.hp[i]} HP` }, el("div", { style: `width:${Math.max(0, Math.min(100, (100 * o.hp[i]) / (maxTier * per)))}%` })),
      el("div", { class: "meta" }, `${o.hand_counts[i]} runes in hand`));
  }

  const zun = {
    render(box, m, api) {
      const o = m.observation;
      const b = binder(m, api);
      const seats = seatsBar(m, api, (i) => {
        const node = hp(o, i);
        if (o.teams !== null && o.teams !== undefined) node.prepend(el("div", { class: "meta", style: `color:${TEAM[o.team_of[i] % TEAM.length]}` }, `team ${o.team_of[i] + 1}`));
        const exposed = o.exposed_hands && o.exposed_hands[String(i)];
        if (exposed && i !== m.seat) node.append(el("div", { class: "meta" }, "exposed: ", exposed.map((r) => chip(r, r))));
        for (const verb of ["target", "blame", "redirect to"]) {
          const t = `${verb} seat ${i}`;
          const label = verb === "redirect to" ? "Redirect here" : verb[0].toUpperCase() + verb.slice(1);
          if (b.has(t)) node.append(b.bind(el("button", { class: "primary", style: "margin-top:.3rem" }, i === m.seat ? `${label} yourself` : label), t));
        }
        return node;
      });
      const chain = el("div", { class: "panel" }, el("h2", {}, `Turn ${o.turn_number} · ${o.phase} phase`),
        o.resolving.length ? o.resolving.map((f) => cardInfo(el("div", { class: "chip", style: "margin:.2rem 0;display:block" },
          `${api.seatName(f.player)}: ${f.card}${f.as && f.as !== f.card ? ` as ${f.as}` : ""} (${f.kind})`,
          f.current_target >= 0 ? ` → ${api.seatName(f.current_target)}` : "", f.boosts ? ` · +${f.boosts}` : "", f.fizzled ? " · fizzled" : ""), f.as || f.card))
          : el("div", { class: "conn" }, "nothing is resolving"),
        o.in_play.length ? el("div", { class: "chips", style: "margin-top:.5rem" }, el("span", { class: "conn" }, "in play:"), o.in_play.map((e) => chip(e.card, `${e.card} (${api.seatName(e.player)})`))) : null,
        o.ongoing.length ? el("div", { class: "chips", style: "margin-top:.5rem" }, el("span", { class: "conn" }, "ongoing:"), o.ongoing.map((e) => chip(e.as || e.card, `${e.card}${e.affects ? ` on ${e.affects.map(api.seatName).join(", ")}` : ""}`))) : null,
        el("div", { class: "conn", style: "margin-top:.5rem" }, `deck ${o.deck} · discard ${o.discard.length}${o.discard.length ? ` (top: ${o.discard[o.discard.length - 1]})` : ""} · turn limit ${o.turn_limit}`));
      const prompt = window.CT.prompt(m, api);
      const parts = [seats, chain, prompt];
      if (m.seat !== null && Array.isArray(o.hand)) {
        const hand = el("div", { class: "forum", id: "hand" }, o.hand.map((r) => {
          // the server's verdict while you decide (`cards`, every rune at every decision): the move
          // that plays the rune, or the rule that refuses it
          const st = (m.cards || {})[r];
          const node = b.bind(rune(r), st && !st.why ? st.move : null);
          if (!node.dataset.legal) {
            if (m.legal.length) node.classList.add("dim");
            node.dataset.refusable = "true";
            if (st && st.why) {
              node.dataset.why = st.why;
              node.title = `${st.why}\n\n${node.title || r}`;
            }
            // refused: the engine says why (its rule, or whose turn it is), and the rune's detail
            // opens, saying when it can be played
            node.addEventListener("click", () => { api.attempt(st ? st.move : r); cardDetail(r); });
          }
          return node;
        }));
        parts.push(el("div", { class: "panel" }, el("h2", {}, `Your runes · ${o.hand.length}`), hand));
      }
      parts.push(b.rest());
      box.replaceChildren(...parts.filter(Boolean));
    },
  };

  window.CT.views.zun = zun;
})();
