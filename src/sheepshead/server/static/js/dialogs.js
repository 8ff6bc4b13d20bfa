// The table's dialogs: the last trick, the score sheet, the hand's summary, the
// review of a finished hand trick by trick, and the settings. All of them only show
// what the server sent; the settings are kept in this browser.

import { api } from "./api.js";
import { cardName, cardSvg, inHandOrder } from "./cards.js";
import { list, num, signed, t, tn } from "./i18n.js";
import { bindRuleLinks, keyboardScrollers } from "./guide.js";
import { $, focusDecision, nameOf, resultLine } from "./render.js";
import { PARTNER_PLAYERS, PRESETS, fitRules, presetRules, rulesForServer, saveSettings, store } from "./state.js";
import { nameIn } from "./words.js";
import { multiplierText } from "./worth.js";

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  if (text !== "") node.textContent = text;
  return node;
}


/** A row of small cards, each named for screen readers. `marks` maps a card to a note. */
function cardRow(cards, label, marks = {}) {
  const list = el("ul", { class: "mini-cards", "aria-label": label });
  for (const card of cards) {
    const mark = marks[card] || {};
    const item = el("li", { class: ["mini", mark.cls, mark.faceDown ? "face-down" : ""].join(" ").trim(), "data-card": card });
    item.innerHTML = cardSvg(card, { trumpMark: store.settings.markTrumps });
    const words = marks[card] ? t("{card} ({note})", { card: cardName(card), note: marks[card].word }) : cardName(card);
    item.append(el("span", { class: "sr-only" }, words));
    if (marks[card] && marks[card].tag) item.append(el("span", { class: "tag", "aria-hidden": "true" }, marks[card].tag));
    list.append(item);
  }
  return list;
}

// Dialogs give focus back to what opened them, or to the player's next decision.
let opener = null;

function open(id) {
  opener = document.activeElement;
  const dialog = $(id);
  if (!dialog.open) dialog.showModal();
  // Its button at the bottom takes the focus; the reader starts at the title all the same.
  dialog.scrollTop = 0;
}

function giveFocusBack() {
  if (opener && opener.isConnected && opener !== document.body) opener.focus();
  else focusDecision(true);
  opener = null;
}

// --- last trick ------------------------------------------------------------------

/** Whether `card`, played by `seat`, went face down: the picker's unknown card. */
function wasFaceDown(table, seat, card) {
  const v = table.view;
  return card === "??" || (v.unknown_call && seat === v.picker && card === v.unknown);
}

function trickList(table, trick) {
  const n = table.players;
  const list = el("ol", { class: "trick-list" });
  trick.cards.forEach((card, i) => {
    const seat = (trick.leader + i) % n;
    const faceDown = wasFaceDown(table, seat, card);
    const cls = [seat === trick.winner ? "won" : "", faceDown ? "face-down" : ""].join(" ").trim();
    const item = el("li", { class: cls, "data-card": card });
    item.innerHTML = cardSvg(card, { trumpMark: store.settings.markTrumps });
    item.append(el("span", { class: "who" }, nameOf(table, seat)));
    let words = cardName(card);
    if (faceDown && card !== "??") {
      words = t("{card}, played face down as the unknown card", { card: words });
      item.append(el("span", { class: "tag", "aria-hidden": "true" }, t("face down")));
    }
    if (seat === trick.winner) words = t("{card}, takes the trick", { card: words });
    item.append(el("span", { class: "sr-only" }, `: ${words}`));
    list.append(item);
  });
  return list;
}

export function openLastTrick() {
  const table = store.table;
  const body = $("last-body");
  body.replaceChildren();
  const tricks = table ? table.view.tricks : [];
  if (!tricks.length) {
    body.append(el("p", {}, t("No trick has been taken yet in this hand.")));
  } else {
    const trick = tricks[tricks.length - 1];
    const words = { n: num(tricks.length), leader: nameOf(table, trick.leader), winner: nameIn(table, trick.winner) };
    body.append(el("p", {}, t("Trick {n}: {leader} led; {winner} took it.", words)));
    body.append(trickList(table, trick));
  }
  open("dlg-last");
}

// --- score sheet -------------------------------------------------------------------

const RESULT_WORDS = {
  win: t("won"),
  "win-schneider": t("won, schneider"),
  "win-no-trick": t("won every trick"),
  loss: t("lost"),
  "loss-schneider": t("lost, schneidered"),
  "loss-no-trick": t("lost, no trick"),
  leaster: t("leaster"),
  doubler: t("thrown in"),
};

function sideOf(table, line) {
  if (line.picker === null || line.picker === undefined) return "—";
  const seats = [line.picker, ...(line.partners || [])];
  return seats.map((s) => nameOf(table, s)).join(" + ");
}

function scoreTable(table) {
  const sheet = el("table", { class: "score-sheet" });
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("Hand")), el("th", { scope: "col" }, t("Picker + partner")));
  head.append(el("th", { scope: "col" }, t("Result")));
  table.names.forEach((_, seat) => head.append(el("th", { scope: "col", class: "num" }, nameOf(table, seat))));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const line of table.score_sheet) {
    const row = el("tr");
    const number = el("th", { scope: "row" });
    if (line.seed) {
      const label = t("Check the deal of hand {n}", { n: num(line.hand) });
      number.append(el("a", { href: verifyUrl(table, line.seed, line.seed_sha256), "aria-label": label, title: label }, num(line.hand)));
    } else {
      number.textContent = num(line.hand);
    }
    row.append(number);
    row.append(el("td", {}, sideOf(table, line)));
    const times = line.multiplier > 1 ? ` ×${num(line.multiplier)}` : "";
    row.append(el("td", {}, (RESULT_WORDS[line.result] || line.result) + times));
    for (const score of line.scores) row.append(el("td", { class: "num" }, signed(score)));
    tbody.append(row);
  }
  const foot = el("tfoot");
  const total = el("tr");
  total.append(el("th", { scope: "row", colspan: "3" }, t("Total")));
  for (const score of table.scores) total.append(el("td", { class: "num" }, signed(score)));
  foot.append(total);
  sheet.append(thead, tbody, foot);
  return sheet;
}

/** The verify page for a hand: its seed, and the fingerprint shown at its deal to compare. */
function verifyUrl(table, seed, sha256) {
  return `/verify?seed=${seed}&players=${table.players}&sha256=${sha256}`;
}

function fairness(table) {
  const box = el("div", { class: "fairness" });
  const n = num(table.hand_number);
  box.append(el("p", {}, t("Hand {n}'s deal fingerprint (SHA-256 of its seed):", { n }) + " "));
  box.lastChild.append(el("code", { class: "hash" }, table.seed_sha256));
  if (table.seed) {
    const p = el("p", {}, t("Its seed, revealed now that the hand is over:") + " ");
    p.append(el("code", { class: "hash" }, table.seed), " ");
    const link = el("a", { href: verifyUrl(table, table.seed, table.seed_sha256) }, t("check this deal"));
    p.append(link);
    box.append(p);
  } else {
    box.append(el("p", { class: "small" }, t("The seed itself is shown when the hand is over.")));
  }
  return box;
}

export function openScores() {
  const table = store.table;
  const body = $("scores-body");
  body.replaceChildren();
  if (!table) return;
  if (!table.score_sheet.length) body.append(el("p", {}, t("No hand has been scored yet.")));
  else body.append(scoreTable(table));
  body.append(fairness(table));
  open("dlg-scores");
  keyboardScrollers($("dlg-scores"));
  // A sheet wider than the screen says so: its shadows alone are easy to miss.
  let note = $("scores-scroll-note");
  if (!note) {
    note = el("p", { id: "scores-scroll-note", class: "scroll-note" }, t("The sheet is wider than the screen: scroll it sideways to see every player."));
    body.before(note);
  }
  note.hidden = body.scrollWidth <= body.clientWidth;
}

// --- summary ----------------------------------------------------------------------

export function openSummary() {
  const table = store.table;
  if (!table || !table.summary) return;
  const { result: r, bury, blind } = table.summary;
  const v = table.view;
  const body = $("summary-body");
  body.replaceChildren();
  const facts = el("dl", { class: "facts" });
  const fact = (term, ...detail) => {
    const dd = el("dd");
    dd.append(...detail);
    facts.append(el("dt", {}, term), dd);
  };
  const n = num(table.hand_number);
  let title;
  if (r.result === "doubler") {
    title = t("Hand {n}: thrown in", { n });
    fact(t("Nobody picked"), t("The next hand counts double."));
  } else if (r.leaster) {
    title = t("Hand {n}: a leaster", { n });
    fact(t("Nobody picked"), t("A leaster: the fewest card points wins."));
    fact(t("Card points"), r.points.map((p, s) => `${nameOf(table, s)} ${num(p)}`).join(", "));
  } else {
    title = r.result.startsWith("win") ? t("Hand {n}: the picker's side wins", { n }) : t("Hand {n}: the picker's side loses", { n });
    fact(t("Picker"), nameOf(table, r.picker));
    const partners = r.partners.length ? list(r.partners.map((s) => nameOf(table, s))) : t("none: alone");
    let partner = partners;
    if (v.called && v.unknown_call) {
      partner = t("{partners}, called the {card} (with an unknown card)", { partners, card: cardName(v.called) });
    } else if (v.called) {
      partner = t("{partners}, called the {card}", { partners, card: cardName(v.called) });
    }
    fact(t("Partner"), partner);
    if (v.unknown_call && v.unknown) {
      const unknown = el("span", { class: "unknown-card" });
      unknown.append(
        cardRow([v.unknown], t("The unknown card")),
        t("the {card}, played face down for the {called}", { card: cardName(v.unknown), called: cardName(v.called) }),
      );
      fact(t("Unknown card"), unknown);
    }
    // A sealed deal (a daily deal before its day is over) shows them only to their picker.
    const later = t("shown when the day is over");
    fact(t("Blind"), blind ? cardRow(blind, t("The blind")) : later);
    fact(t("Bury"), bury ? cardRow(bury, t("The bury")) : later);
    fact(t("Card points"), t("Picker's side {picker} (bury included), defenders {defenders}", {
      picker: num(r.points[0]),
      defenders: num(r.points[1]),
    }));
    fact(t("Result"), RESULT_WORDS[r.result] || r.result);
  }
  const times = multiplierText(table, table.worth);
  if (times) fact(t("Counts"), times);
  body.append(facts);
  body.append(el("p", { class: "result-line" }, resultLine(table)));
  const scores = el("table", { class: "score-sheet" });
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("Player")), el("th", { scope: "col", class: "num" }, t("This hand")));
  head.append(el("th", { scope: "col", class: "num" }, t("Total")));
  scores.append(el("thead"), el("tbody"));
  scores.firstChild.append(head);
  table.names.forEach((_, s) => {
    const row = el("tr", { class: s === table.seat ? "is-me" : "" });
    row.append(el("th", { scope: "row" }, nameOf(table, s)), el("td", { class: "num" }, signed(r.scores[s])));
    row.append(el("td", { class: "num" }, signed(table.scores[s])));
    scores.lastChild.append(row);
  });
  body.append(scores);
  body.append(fairness(table));
  $("summary-title").textContent = title;
  $("summary-record").href = api.recordUrl(table.id, table.hand_number);
  $("summary-record").setAttribute("download", `sheepshead-hand-${table.hand_number}.json`);
  open("dlg-summary");
}

// --- review -----------------------------------------------------------------------

let reviewStep = 0;

function drawReview() {
  const table = store.table;
  const { result: r, hands, blind, bury } = table.summary;
  const v = table.view;
  const tricks = r.tricks;
  const played = new Set(tricks.slice(0, reviewStep).flatMap((t) => t.cards));
  const body = $("review-body");
  body.replaceChildren();
  const status = el("p", { class: "review-status", "aria-live": "polite" });
  if (reviewStep === 0 && table.summary.sealed) {
    status.textContent = tn(
      "Your hand as dealt; the other hands are shown when the day is over. {n} trick follows.",
      "Your hand as dealt; the other hands are shown when the day is over. {n} tricks follow.",
      tricks.length,
    );
  } else if (reviewStep === 0) {
    status.textContent = tricks.length
      ? tn(
          "Every hand face up, sorted as it was held. {n} trick follows.",
          "Every hand face up, sorted as it was held. {n} tricks follow.",
          tricks.length,
        )
      : t("Every hand face up. No trick was played.");
  } else {
    const trick = tricks[reviewStep - 1];
    const words = {
      n: num(reviewStep),
      of: num(tricks.length),
      leader: nameOf(table, trick.leader),
      winner: nameIn(table, trick.winner),
      points: num(trick.points ?? 0),
    };
    status.textContent =
      trick.points === undefined
        ? t("Trick {n} of {of}: {leader} led; {winner} took it.", words)
        : t("Trick {n} of {of}: {leader} led; {winner} took it, {points} points.", words);
  }
  body.append(status);
  if (reviewStep > 0) body.append(trickList(table, tricks[reviewStep - 1]));
  const seats = el("div", { class: "review-hands" });
  hands.forEach((cards, seat) => {
    if (!cards) return; // a sealed deal: only the player's own hand is sent
    const box = el("section", { class: "review-seat", "aria-label": nameOf(table, seat) });
    const tags = [];
    if (seat === r.picker) tags.push(t("picker"));
    if (r.partners.includes(seat)) tags.push(t("partner"));
    box.append(el("h3", {}, nameOf(table, seat) + (tags.length ? ` (${tags.join(", ")})` : "")));
    // Each seat's cards sorted as the player's own hand is (the server sends them as
    // dealt); the picker's with the blind, the bury marked. Played cards stay in place.
    const all = inHandOrder(seat === r.picker && blind ? [...cards, ...blind] : cards);
    const marks = {};
    for (const c of all) {
      const unknown = seat === r.picker && v.unknown_call && c === v.unknown;
      if (bury && bury.includes(c) && seat === r.picker) marks[c] = { cls: "buried", word: t("buried") };
      else if (played.has(c) && unknown) marks[c] = { cls: "gone", faceDown: true, word: t("played face down as the unknown card"), tag: t("face down") };
      else if (played.has(c)) marks[c] = { cls: "gone", word: t("played") };
      else if (unknown) marks[c] = { faceDown: true, word: t("the unknown card"), tag: t("unknown") };
    }
    const label = seat === table.seat ? t("Your cards") : t("{name}'s cards", { name: nameOf(table, seat) });
    box.append(cardRow(all, label, marks));
    seats.append(box);
  });
  if ((r.picker === null || r.picker === undefined) && blind) {
    const box = el("section", { class: "review-seat", "aria-label": t("The blind") });
    box.append(el("h3", {}, t("The blind")), cardRow(inHandOrder(blind), t("The blind")));
    seats.append(box);
  }
  body.append(seats);
  for (const [id, off] of [["review-prev", reviewStep === 0], ["review-next", reviewStep >= tricks.length]]) {
    const node = $(id);
    if (off) node.setAttribute("aria-disabled", "true");
    else node.removeAttribute("aria-disabled");
  }
  $("review-title").textContent = t("Review of hand {n}", { n: num(table.hand_number) });
}

export function openReview() {
  if (!store.table || !store.table.summary) return;
  reviewStep = 0;
  drawReview();
  open("dlg-review");
}

// --- settings ----------------------------------------------------------------------

const form = () => $("settings-form");

function fillSettings(settings) {
  const f = form();
  const rules = fitRules(settings.rules);
  for (const [name, value] of Object.entries(rules)) {
    const field = f.elements[name];
    if (!field) continue;
    if (field.type === "checkbox") field.checked = Boolean(value);
    else field.value = String(value);
  }
  f.elements.level.value = settings.level;
  f.elements.fourColour.checked = Boolean(settings.fourColour);
  f.elements.markTrumps.checked = Boolean(settings.markTrumps);
  f.elements.pace.value = settings.pace;
  f.elements.preset.value = presetOf(rules);
  fitForm();
}

/** The preset whose rules these are ("standard" for a new browser), or "" for others. */
function presetOf(rules) {
  const mine = JSON.stringify(rulesForServer(rules));
  return Object.keys(PRESETS).find((name) => JSON.stringify(rulesForServer(presetRules(name))) === mine) || "";
}

function formRules() {
  const f = form();
  const rules = {};
  for (const name of Object.keys(fitRules({}))) {
    const field = f.elements[name];
    if (!field) continue;
    if (field.type === "checkbox") rules[name] = field.checked;
    else rules[name] = name === "players" ? Number(field.value) : field.value;
  }
  return fitRules(rules);
}

// Offer only the partner rules that the hand-record format allows with the head count.
function fitForm() {
  const f = form();
  const players = Number(f.elements.players.value);
  for (const option of f.elements.partner.options) {
    option.disabled = !PARTNER_PLAYERS[option.value].includes(players);
  }
  if (f.elements.partner.selectedOptions[0]?.disabled) f.elements.partner.value = fitRules({ players }).partner;
  const six = players === 6 && f.elements.partner.value === "jack-of-diamonds";
  f.elements.second_partner.disabled = !six;
  if (!six) f.elements.second_partner.checked = false;
}

export function openSettings(error = "") {
  fillSettings(store.settings);
  $("settings-error").textContent = error;
  open("dlg-settings");
}

/** Wire the dialogs' own buttons. `onNewGame()` starts a game with the saved settings. */
export function bindDialogs({ onNewGame, onNextHand, onDisplayChange }) {
  bindRuleLinks();
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("close", () => {
      if (dialog.id !== "dlg-settings") giveFocusBack();
    });
  }
  $("summary-review").addEventListener("click", () => {
    $("dlg-summary").close();
    openReview();
  });
  $("summary-next").addEventListener("click", () => {
    opener = null;
    $("dlg-summary").close();
    onNextHand();
  });
  $("review-prev").addEventListener("click", () => {
    if (reviewStep > 0) reviewStep -= 1;
    drawReview();
  });
  $("review-next").addEventListener("click", () => {
    if (store.table && reviewStep < store.table.summary.result.tricks.length) reviewStep += 1;
    drawReview();
  });
  const f = form();
  f.elements.preset.addEventListener("change", () => {
    const name = f.elements.preset.value;
    if (!name) return;
    fillSettings({ ...store.settings, rules: presetRules(name), level: f.elements.level.value });
    f.elements.preset.value = name;
  });
  // A rule changed by hand: the rule set shown is the one the rules now make, if any.
  f.addEventListener("change", (event) => {
    if (event.target.closest(".house-rules") && event.target.name !== "preset") {
      f.elements.preset.value = presetOf(formRules());
    }
  });
  f.elements.players.addEventListener("change", fitForm);
  f.elements.partner.addEventListener("change", fitForm);
  $("dlg-settings").addEventListener("close", () => {
    const choice = $("dlg-settings").returnValue;
    $("dlg-settings").returnValue = "";
    if (choice === "save" || choice === "new") {
      saveSettings({
        rules: formRules(),
        level: f.elements.level.value,
        fourColour: f.elements.fourColour.checked,
        markTrumps: f.elements.markTrumps.checked,
        pace: f.elements.pace.value,
      });
      onDisplayChange();
    }
    if (choice === "new") {
      opener = null;
      onNewGame();
    } else {
      giveFocusBack();
    }
  });
}
