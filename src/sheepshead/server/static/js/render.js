// Drawing the table from the last state the server sent. A card or a button is live
// only when its action is in the view's legal list; everything else is shown as it is.

import { FACE_DOWN, cardName, cardSvg, suitWord } from "./cards.js";
import { ruleForDecision, ruleForRefusal, ruleLink } from "./guide.js";
import { num, signed, t } from "./i18n.js";
import { legalSet, myTurn, store } from "./state.js";
import { cardList, nameOf, refusalText } from "./words.js";
import { renderPoints } from "./worth.js";

export { nameOf };

export const $ = (id) => document.getElementById(id);

// Seats sit on an ellipse: the player at the bottom, the others clockwise from the
// player's left. Played cards sit on a smaller ellipse, in front of their seat.

// The radii are the stylesheet's (they change with the screen); here only the angle.
export function place(el, seat, players) {
  const a = ((90 + (seat * 360) / players) * Math.PI) / 180;
  el.style.setProperty("--cos", Math.cos(a).toFixed(4));
  el.style.setProperty("--sin", Math.sin(a).toFixed(4));
}

/** Who is known to sit with the picker: revealed partners, and this seat if it is one. */
export function knownPartners(table) {
  const seats = new Set(table.view.known_partners);
  if (table.view.partner) seats.add(table.seat);
  if (table.summary) for (const s of table.summary.result.partners) seats.add(s);
  return seats;
}

/** The table as it should look now: the state, or the moment an animation has reached. */
export function scene(table) {
  const v = table.view;
  const n = table.players;
  const o = store.overlay;
  if (o) return { ...o, n };
  // The picker's call stays in view for the whole hand.
  const said = {};
  if (v.picker !== null && v.phase !== "burying") {
    if (v.called) {
      const short = shortName(v.called);
      const card = cardName(v.called);
      said[v.picker] = v.unknown_call
        ? { text: t("Called {card} (unknown)", { card: short }), words: t("called the {card}, with an unknown card", { card }) }
        : { text: t("Called {card}", { card: short }), words: t("called the {card}", { card }) };
    }
    else if (v.alone && v.phase !== "calling") said[v.picker] = t("Alone");
  }
  return {
    n,
    picker: v.picker,
    partners: knownPartners(table),
    trick: v.trick.cards.map((card, i) => ({ seat: (v.trick.leader + i) % n, card })),
    said,
    acting: v.phase === "done" ? null : v.turn,
    winner: null,
  };
}

/** An engine refusal ({code, params, text}), said to the player: "You must follow hearts". */
export function personal(table, refusal) {
  return refusalText(refusal);
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(key, value === true ? "" : String(value));
  }
  if (text) node.textContent = text;
  return node;
}

function badge(kind, text) {
  return el("span", { class: `badge badge-${kind}` }, text);
}

// --- seats ---------------------------------------------------------------------

function seatBadges(table, sc, seat) {
  const out = [];
  if (table.view.dealer === seat) out.push(badge("dealer", t("Dealer")));
  if (sc.picker === seat) out.push(badge("picker", t("Picker")));
  if (sc.partners.has(seat)) out.push(badge("partner", t("Partner")));
  return out;
}

const SUIT_SIGNS = { C: "♣", S: "♠", H: "♥", D: "♦" };

/** "AS" -> "A♠", for the narrow seat boxes (screen readers get the words). */
export function shortName(card) {
  return `${card[0] === "T" ? "10" : card[0]}${SUIT_SIGNS[card[1]]}`;
}

/** A seat's last word: a string, or {text, words} when the short text needs words. */
function said(entry) {
  const box = el("span", { class: "said" });
  if (!entry) return box;
  if (typeof entry === "string") {
    box.textContent = entry;
    return box;
  }
  box.append(el("span", { "aria-hidden": "true" }, entry.text), el("span", { class: "sr-only" }, entry.words));
  return box;
}

function renderSeats(table, sc) {
  const list = $("seats");
  const items = [];
  // The reader sits at the bottom (seat 0 at a solo table), the others clockwise.
  const me = table.seat || 0;
  for (let k = 1; k < sc.n; k += 1) {
    const seat = (me + k) % sc.n;
    const li = el("li", { class: "seat", "data-seat": seat });
    if (sc.acting === seat) li.classList.add("acting");
    if (sc.winner === seat) li.classList.add("winner");
    place(li, k, sc.n);
    li.append(el("span", { class: "seat-name" }, nameOf(table, seat)));
    // A computer player says so: a name on the board cannot pass for one, and the
    // table never lets one pass for a person. At a solo table every other seat is one;
    // a friends' table lists its computer players' seats in `computers`.
    if (!table.computers || table.computers.includes(seat)) {
      li.append(el("span", { class: "seat-kind" }, t("computer")));
    }
    const badges = el("span", { class: "badges" });
    badges.append(...seatBadges(table, sc, seat));
    li.append(badges);
    li.append(said(sc.said[seat] || ""));
    items.push(li);
  }
  list.replaceChildren(...items);
}

// --- the trick -------------------------------------------------------------------

export function playedCard(table, seat, card, n) {
  const li = el("li", { class: "played", "data-seat": seat, "data-card": card });
  place(li, (seat - (table.seat || 0) + n) % n, n);
  li.innerHTML = cardSvg(card, { trumpMark: store.settings.markTrumps });
  li.append(el("span", { class: "sr-only" }, `${nameOf(table, seat)}: ${cardName(card)}`));
  return li;
}

function renderTrick(table, sc) {
  const items = sc.trick.map(({ seat, card }) => {
    const li = playedCard(table, seat, card, sc.n);
    if (sc.winner === seat) li.classList.add("winning");
    return li;
  });
  $("trick").replaceChildren(...items);
  const note = $("centre-note");
  const v = table.view;
  note.replaceChildren();
  if (!store.overlay && v.phase === "picking") {
    const pile = el("span", { class: "blind-pile", "aria-hidden": "true" });
    pile.innerHTML = cardSvg("??") + cardSvg("??");
    if (store.dealing) {
      // The blind is laid partway through the deal, between the two rounds.
      pile.classList.add("dealing");
      pile.style.setProperty("--deal", dealStep(Math.ceil(v.cards.length / 2)) - 1);
    }
    note.append(pile, el("span", {}, t("The blind")));
  } else if (!store.overlay && v.phase === "burying" && v.picker !== table.seat) {
    note.textContent = t("{name} is burying", { name: nameOf(table, v.picker) });
  }
}

// --- the player's cards -----------------------------------------------------------

/** When the i-th card arrives in the deal animation: in packets of three, with a pause
 * after each packet and a longer one halfway, where the blind is laid. */
function dealStep(i, count = Infinity) {
  const half = Math.ceil(count / 2);
  return i + Math.floor(i / 3) + (i >= half ? 2 : 0);
}

/** The bury's size, read from the legal list ("bury 8S TH" -> 2). */
export function burySize(legal) {
  for (const text of legal) if (text.startsWith("bury ")) return text.split(" ").length - 1;
  return 0;
}

/** Whether `cards` (texts) are all in one legal bury. */
function fitsABury(legal, cards) {
  for (const text of legal) {
    if (!text.startsWith("bury ")) continue;
    const bury = text.split(" ").slice(1);
    if (cards.every((c) => bury.includes(c))) return true;
  }
  return false;
}

/** The bury the current selection makes, if it is legal ("bury 8S TH"), else null. */
export function selectedBury(legal) {
  const text = `bury ${[...store.selected].sort().join(" ")}`;
  return legal.has(text) ? text : null;
}

/** What selecting `card` would leave selected: the oldest choice gives way when full. */
export function selectionWith(card, legal) {
  const size = burySize(legal);
  if (store.selected.includes(card)) return store.selected.filter((c) => c !== card);
  const next = [...store.selected, card];
  return next.length > size ? next.slice(next.length - size) : next;
}

function handMode(table, legal) {
  if (!myTurn() || store.busy || store.overlay) return "idle";
  const phase = table.view.phase;
  if (phase === "burying") return "bury";
  if (phase === "calling" && store.calling) return "unknown";
  if (phase === "playing") return "play";
  return "idle";
}

function describe(card, table, mode, legal) {
  // Returns [live, reason]: whether the card is a control now, and why not.
  const v = table.view;
  if (mode === "play") {
    if (legal.has(`play ${card}`)) return [true, ""];
    return [false, personal(table, v.refusals[card])];
  }
  if (mode === "bury") {
    if (fitsABury(legal, selectionWith(card, legal))) return [true, ""];
    return [false, t("That card cannot be buried with the others you chose")];
  }
  if (mode === "unknown") {
    if (legal.has(`call ${store.calling} unknown ${card}`)) return [true, ""];
    return [false, t("That card cannot be your unknown card")];
  }
  return [false, ""];
}

function renderHand(table, sc) {
  const v = table.view;
  const legal = legalSet();
  const mode = handMode(table, legal);
  const hand = $("hand");
  const reasons = [];
  const fromBlind =
    v.picker === table.seat && v.blind && ["burying", "calling"].includes(v.phase)
      ? new Set(v.blind)
      : new Set();
  // Rebuild only when something changed, so that a card keeps its focus and the
  // dealing animation plays once.
  const sig = JSON.stringify([v.cards, mode, store.selected, store.calling, [...legal], v.refusals,
    store.settings.markTrumps, [...fromBlind], v.unknown, v.phase]);
  if (!store.dealing && hand.dataset.sig === sig) return;
  hand.dataset.sig = sig;
  hand.classList.toggle("dealing", Boolean(store.dealing));
  hand.dataset.mode = mode;
  hand.style.setProperty("--n", v.cards.length);
  const buttons = v.cards.map((card, i) => {
    const [live, reason] = describe(card, table, mode, legal);
    let label = cardName(card);
    if (fromBlind.has(card)) label = t("{card}, from the blind", { card: label });
    if (v.unknown === card && v.phase !== "done") label = t("{card}, your unknown card", { card: label });
    const button = el("button", {
      type: "button",
      class: "card",
      "data-card": card,
      "aria-label": label,
      "aria-disabled": live ? null : "true",
      tabindex: "-1",
    });
    button.style.setProperty("--i", i);
    button.style.setProperty("--deal", dealStep(i, v.cards.length));
    if (live) button.classList.add("live");
    if (mode !== "idle" && !live) button.classList.add("refused");
    if (fromBlind.has(card)) button.classList.add("from-blind");
    if (v.unknown === card) {
      button.classList.add("is-unknown");
      button.dataset.tag = t("unknown");
    }
    if (mode === "bury") button.setAttribute("aria-pressed", String(store.selected.includes(card)));
    if (reason) {
      const id = `why-${card}`;
      reasons.push(el("span", { id }, reason));
      button.setAttribute("aria-describedby", id);
      button.dataset.reason = reason;
    }
    button.innerHTML = cardSvg(card, { trumpMark: store.settings.markTrumps });
    return button;
  });
  $("reasons").replaceChildren(...reasons);
  hand.replaceChildren(...buttons);
  // One tab stop for the whole hand (arrow keys move within it).
  const keep =
    buttons.find((b) => b.dataset.card === store.focusCard) ||
    buttons.find((b) => b.classList.contains("live")) ||
    buttons[0];
  if (keep) keep.tabIndex = 0;
}

// --- prompt and decisions ----------------------------------------------------------

function button(text, attrs = {}) {
  return el("button", { type: "button", class: "act", ...attrs }, text);
}

const CALL_WORDS = {
  alone: t("Go alone"),
  crack: t("Crack: the hand counts double"),
  nocrack: t("No crack"),
  pick: t("Pick up the blind"),
  pass: t("Pass"),
};

function decisionButtons(table, legal) {
  const v = table.view;
  const out = [];
  if (v.phase === "picking" || v.phase === "cracking") {
    for (const text of ["pick", "pass", "crack", "nocrack"]) {
      if (legal.has(text)) out.push(button(CALL_WORDS[text], { "data-action": text }));
    }
  } else if (v.phase === "burying") {
    const size = burySize(legal);
    const chosen = store.selected;
    const bury = selectedBury(legal);
    const label = bury
      ? t("Bury the {cards}", { cards: cardList(chosen) })
      : t("Bury: {n} of {size} chosen", { n: num(chosen.length), size: num(size) });
    out.push(button(label, { "data-ui": "bury", class: "act primary", "aria-disabled": bury ? null : "true" }));
  } else if (v.phase === "calling") {
    if (store.calling) {
      out.push(button(t("Back"), { "data-ui": "call-back" }));
      return out;
    }
    const unknown = new Set();
    for (const text of [...legal].sort()) {
      const words = text.split(" ");
      if (words[0] === "call" && words.length === 2) {
        out.push(button(t("Call the {card}", { card: cardName(words[1]) }), { "data-action": text }));
      } else if (words[0] === "call") {
        unknown.add(words[1]);
      }
    }
    for (const card of unknown) {
      out.push(
        button(t("Call the {card} with an unknown card…", { card: cardName(card) }), {
          "data-ui": "call-unknown",
          "data-card": card,
        }),
      );
    }
    if (legal.has("alone")) out.push(button(CALL_WORDS.alone, { "data-action": "alone" }));
  } else if (v.phase === "naming") {
    for (const text of [...legal].sort((a, b) => Number(a.split(" ")[1]) - Number(b.split(" ")[1]))) {
      const k = text.split(" ")[1];
      out.push(button(num(k), { "data-action": text, "aria-label": t("Name trick {n}", { n: num(k) }) }));
    }
  }
  return out;
}

function promptText(table, legal) {
  const v = table.view;
  if (store.offline) return t("The connection to the server was lost. Your cards are safe: try again.");
  if (store.overlay) return store.overlay.prompt || "";
  if (store.busy) return "…";
  if (table.hand_over) return resultLine(table);
  if (!myTurn()) return v.turn === null ? "" : t("Waiting for {name}…", { name: nameOf(table, v.turn) });
  switch (v.phase) {
    case "picking":
      return t("Your turn: pick up the blind, or pass?");
    case "burying":
      return t("Choose {n} cards to bury, then confirm. They count for you.", { n: num(burySize(legal)) });
    case "calling":
      return store.calling
        ? t("Choose the card you will play face down for the {card}.", { card: cardName(store.calling) })
        : t("Call your partner's card, or go alone.");
    case "cracking":
      return t("Crack to double the hand, or let it be?");
    case "naming":
      return t("Name the trick whose winner takes the blind.");
    case "playing":
      if (v.trick.cards[0] === FACE_DOWN && v.called) {
        // The picker led the unknown card: it leads the called suit, though none can see it.
        const suits = suitWord(v.called);
        return t("{name} led the unknown card face down: it counts as one of the {suits}, so follow {suits} if you can.", {
          name: nameOf(table, v.trick.leader),
          suits,
        });
      }
      return v.trick.cards.length ? t("Your turn: play a card.") : t("Your lead: play a card.");
    default:
      return "";
  }
}

export function resultLine(table) {
  const hand = table.summary;
  const you = table.scores[table.seat];
  const total = t("Your total: {score}.", { score: signed(you) });
  if (!hand) return total;
  const r = hand.result;
  const mine = r.scores[table.seat];
  const score = t("This hand: {score}.", { score: signed(mine) });
  if (r.result === "doubler") return [t("Nobody picked: the hand is thrown in."), total].join(" ");
  if (r.leaster) return [t("Leaster over."), score, total].join(" ");
  const won = r.result.startsWith("win");
  const points = num(r.points[0]);
  const name = nameOf(table, r.picker);
  let picked;
  if (r.picker === table.seat) {
    picked = won ? t("You picked and won with {points} points.", { points }) : t("You picked and lost with {points} points.", { points });
  } else {
    picked = won
      ? t("{name} picked and won with {points} points.", { name, points })
      : t("{name} picked and lost with {points} points.", { name, points });
  }
  return `${picked} ${score} ${total}`;
}

// The rule behind the decision in front of the player, or behind the card just refused;
// guide.js opens it in a dialog, so the game stays as it is.
function ruleFor(table, legal) {
  const refused = (table.view.refusals || {})[store.focusCard];
  if (table.view.phase === "playing" && refused) return ruleLink(ruleForRefusal(refused), true);
  const anchor = ruleForDecision(table.view.phase, legal);
  return anchor ? ruleLink(anchor) : null;
}

/** The button after a hand: the daily game's last deal leads to the leaderboard. */
export function nextLabel(table) {
  const d = table.daily;
  if (!d) return t("Next hand");
  return d.finished || d.void ? t("See the leaderboard") : t("Next deal");
}

function renderControls(table) {
  const legal = legalSet();
  $("prompt").textContent = promptText(table, legal);
  const buttons = [];
  if (store.offline) {
    buttons.push(button(t("Try again"), { "data-ui": "retry", class: "act primary" }));
  } else if (!store.overlay && !store.busy && table.hand_over) {
    buttons.push(button(nextLabel(table), { "data-ui": "next-hand", class: "act primary" }));
    buttons.push(button(t("Summary"), { "data-ui": "summary", "aria-haspopup": "dialog" }));
    buttons.push(button(t("Review"), { "data-ui": "review", "aria-haspopup": "dialog" }));
  } else if (myTurn() && !store.busy && !store.overlay) {
    buttons.push(...decisionButtons(table, legal));
    const rule = ruleFor(table, legal);
    if (rule) buttons.push(rule);
  }
  $("actions").replaceChildren(...buttons);
  $("actions").classList.toggle("numbers", table.view.phase === "naming" && buttons.length > 1);
  // A rule link alone (while playing) moves to a corner, clear of the trick.
  const linksOnly = buttons.length > 0 && buttons.every((b) => b.tagName === "A");
  $("actions").classList.toggle("links-only", linksOnly);
}

// --- the bar, the player's own line, running points ------------------------------

function renderInfo(table) {
  const v = table.view;
  const dealer = v.dealer === table.seat ? t("You deal") : t("{name} deals", { name: nameOf(table, v.dealer) });
  const you = table.scores[table.seat];
  const parts = [t("Hand {n}", { n: num(table.hand_number) }), dealer, t("You: {score}", { score: signed(you) })];
  const times = (table.worth || {}).multiplier || v.multiplier;
  if (times > 1) parts.push(t("counts ×{n}", { n: num(times) }));
  const info = $("info");
  info.replaceChildren(parts.join(" · "));
  const fp = el("span", { class: "fingerprint" }, " · " + t("deal {fingerprint}", { fingerprint: table.seed_sha256.slice(0, 8) }));
  fp.title = t("SHA-256 of this hand's seed: {hash}", { hash: table.seed_sha256 });
  info.append(fp);
}

function renderMe(table, sc) {
  const me = $("me");
  const parts = [el("span", { class: "seat-name" }, t("You"))];
  parts.push(...seatBadges(table, sc, table.seat));
  if (table.view.partner && !table.hand_over) parts.push(el("span", { class: "small" }, t("(only you know)")));
  const mine = sc.said[table.seat];
  if (mine) parts.push(el("span", { class: "small" }, typeof mine === "string" ? mine : mine.words));
  me.replaceChildren(...parts);
  me.classList.toggle("acting", sc.acting === table.seat && !table.hand_over);
}

// --- everything ------------------------------------------------------------------

function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.dataset && node.dataset.card && node.closest("#hand")) return { card: node.dataset.card };
  if (node.closest && node.closest("#actions")) {
    return { action: node.dataset.action, ui: node.dataset.ui, inActions: true };
  }
  return null;
}

function restoreFocus(key) {
  if (!key) return;
  if (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected) return;
  if (key.card) {
    const same = $("hand").querySelector(`[data-card="${key.card}"]`);
    const target = same || $("hand").querySelector('[tabindex="0"]') || firstAction();
    if (target) target.focus();
    return;
  }
  const actions = $("actions");
  const match =
    (key.action && actions.querySelector(`[data-action="${key.action}"]`)) ||
    (key.ui && actions.querySelector(`[data-ui="${key.ui}"]`)) ||
    firstAction() ||
    $("hand").querySelector('[tabindex="0"]');
  if (match) match.focus();
}

function firstAction() {
  return $("actions").querySelector("button, a");
}

/** Redraw everything from the store; focus stays on the same card or button if it can. */
export function render() {
  const table = store.table;
  if (!table) return;
  const key = focusKey(document.activeElement);
  const sc = scene(table);
  document.body.classList.toggle("four-colour", Boolean(store.settings.fourColour));
  $("table").setAttribute("aria-busy", String(Boolean(store.busy)));
  // Waiting for the server or showing its events, or ready for the player (tests wait on it).
  $("table").dataset.idle = String(!store.busy && !store.overlay);
  $("table").dataset.phase = table.hand_over ? "over" : table.view.phase;
  $("table").dataset.players = String(table.players);
  renderInfo(table);
  renderSeats(table, sc);
  renderTrick(table, sc);
  renderControls(table);
  renderMe(table, sc);
  renderHand(table, sc);
  renderPoints(table, sc.n);
  restoreFocus(key);
}

/**
 * Put focus where the player's next decision is, unless they are busy elsewhere
 * (`force`: a dialog closing hands the focus back, wherever it was).
 */
export function focusDecision(force = false) {
  focusOn(force);
  keepInView();
}

/**
 * While the player is to act, the prompt and the hand are both on the screen: a bar
 * above the table (the daily game's), large text or a short screen can push the hand
 * below it. The page scrolls just enough, never past the prompt.
 */
export function keepInView() {
  if (!myTurn() || store.overlay || document.querySelector("dialog[open]")) return;
  const prompt = $("prompt").getBoundingClientRect();
  const hand = $("hand").getBoundingClientRect();
  const height = window.innerHeight;
  if (hand.bottom <= height && prompt.top >= 0) return;
  window.scrollBy({ top: Math.min(hand.bottom - height + 4, prompt.top - 4), behavior: "instant" });
}

function focusOn(force) {
  const active = document.activeElement;
  const inDialog = active && active.closest && active.closest("dialog[open]");
  if (inDialog && !force) return;
  const table = store.table;
  const hand = $("hand");
  const idle = !active || active === document.body || !active.isConnected;
  if (!force && !idle && !active.closest("#hand, #actions")) return;
  // Playing, burying or choosing the unknown card, the decision is made in the hand.
  const phase = table ? table.view.phase : "";
  const inHand = phase === "playing" || phase === "burying" || (phase === "calling" && store.calling);
  if (table && inHand && myTurn()) {
    const card = hand.querySelector('.card.live[tabindex="0"]') || hand.querySelector(".card.live");
    if (card) {
      card.focus();
      return;
    }
  }
  const target = firstAction() || hand.querySelector('[tabindex="0"]');
  if (target) target.focus();
}
