// The coach at a friends' table whose host allows hints (friends.html loads this only
// there): "What would the expert do?" for your own seat on your turn, and, for every
// seat, the hints each hand used on the score sheet and in the hand's summary, from
// the state's hints_used (server/friends_hint.py). No rules here: the server decides.

import { request } from "./api.js";
import { list, num, t, tn } from "./i18n.js";
import { actionWords } from "./coach_words.js";
import { store } from "./state.js";

const $ = (id) => document.getElementById(id);
const code = $("friends-bar").dataset.code;
let askedAt = null; // the version the hint shown was for

function myTurn(table) {
  return Boolean(table && table.started && !table.hand_over && table.turn === table.seat);
}

async function askHint() {
  const table = store.table;
  const out = $("coach-hint");
  const button = $("coach-hint-ask");
  if (!myTurn(table)) return;
  button.disabled = true;
  out.textContent = t("The expert is thinking…");
  try {
    const reply = await request("POST", `/tables/${encodeURIComponent(code)}/hint`, { version: table.version });
    if (reply.kind !== "ok") {
      out.textContent = reply.detail;
      return;
    }
    const { action, reason, hints } = reply.body;
    askedAt = table.version;
    const choice = actionWords(`${table.seat} ${action}`);
    const why = reason ? ` ${reason.text}` : "";
    out.textContent = t("The expert would: {choice}.", { choice }) + why + " " +
      tn("({n} hint in this hand)", "({n} hints in this hand)", hints, { n: num(hints) });
  } finally {
    button.disabled = !myTurn(store.table);
  }
}

/** "Ann (2 hints) and Bob (1 hint)" for a hand; "" when nobody asked for one. */
function whoAsked(table, hand) {
  const counts = (table.hints_used || {})[String(hand)] || [];
  const who = [];
  counts.forEach((n, seat) => {
    if (n) who.push(tn("{name} ({n} hint)", "{name} ({n} hints)", n, { name: table.names[seat], n: num(n) }));
  });
  return who.length ? list(who) : "";
}

function scoreLines() {
  const table = store.table;
  if (!table) return;
  const rows = document.querySelectorAll("#scores-body table.score-sheet tbody tr");
  rows.forEach((row, i) => {
    const line = table.score_sheet[i];
    const cell = row.children[2];
    if (!line || !cell || cell.querySelector(".coach-hints")) return;
    const who = whoAsked(table, line.hand);
    if (!who) return;
    const mark = document.createElement("span");
    mark.className = "coach-hints";
    mark.textContent = " · " + who;
    cell.append(mark);
  });
}

function handOver() {
  const table = store.table;
  const who = table ? whoAsked(table, table.hand_number) : "";
  // Said only when somebody asked: a hand played without the coach needs no line.
  $("summary-hints").textContent = who ? t("Hints asked for in this hand: {who}", { who }) : "";
}

$("coach-hint-ask").addEventListener("click", askHint);
const scores = $("dlg-scores");
new MutationObserver(() => {
  if (scores.open) scoreLines();
}).observe(scores, { attributes: true, attributeFilter: ["open"] });
const summary = $("dlg-summary");
new MutationObserver(() => {
  if (summary.open) handOver();
}).observe(summary, { attributes: true, attributeFilter: ["open"] });
// The button is there on your turn only; a hint shown goes once the table moves on.
setInterval(() => {
  const table = store.table;
  $("coach-hint-ask").disabled = !myTurn(table);
  if (askedAt !== null && (!table || table.version !== askedAt)) {
    askedAt = null;
    $("coach-hint").textContent = "";
  }
}, 300);
