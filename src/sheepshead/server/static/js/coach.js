// The coach at the table: "What would the expert do?" and, when a hand is over, the
// hints it used and the link to the coach's review (server/coach.py).

import { request } from "./api.js";
import { t, tn, num } from "./i18n.js";
import { actionWords } from "./coach_words.js";

const $ = (id) => document.getElementById(id);

async function current() {
  const reply = await request("GET", "/games/current");
  return reply.kind === "ok" ? reply.body : null;
}

async function askHint() {
  const out = $("coach-hint");
  const button = $("coach-hint-ask");
  button.disabled = true;
  out.textContent = t("The expert is thinking…");
  try {
    const state = await current();
    if (!state) {
      out.textContent = t("Deal a hand first.");
      return;
    }
    const reply = await request("POST", `/games/${encodeURIComponent(state.id)}/hint`, { version: state.version });
    if (reply.kind !== "ok") {
      out.textContent = reply.detail;
      return;
    }
    const { action, reason, hints } = reply.body;
    const choice = actionWords(`0 ${action}`);
    const why = reason ? ` ${reason.text}` : "";
    out.textContent = t("The expert would: {choice}.", { choice }) + why + " " +
      tn("({n} hint in this hand)", "({n} hints in this hand)", hints, { n: num(hints) });
  } finally {
    button.disabled = false;
  }
}

async function handOver() {
  const state = await current();
  if (!state) return;
  const link = $("summary-coach");
  link.href = `/review/${state.id}/${state.hand_number}`;
  const reply = await request("GET", `/games/${encodeURIComponent(state.id)}/hints`);
  const used = reply.kind === "ok" ? reply.body.hints[String(state.hand_number)] || 0 : 0;
  // Said only when there were hints: a hand played alone needs no line about them.
  $("summary-hints").textContent = used ? t("Hints used in this hand: {n}", { n: num(used) }) : "";
}

/** The score sheet: each hand's line says how many hints it used, in its result cell. */
async function scoreLines() {
  const state = await current();
  if (!state) return;
  const reply = await request("GET", `/games/${encodeURIComponent(state.id)}/hints`);
  if (reply.kind !== "ok") return;
  const rows = document.querySelectorAll("#scores-body table.score-sheet tbody tr");
  rows.forEach((row, i) => {
    const used = reply.body.hints[String(i + 1)];
    const cell = row.children[2];
    if (!used || !cell || cell.querySelector(".coach-hints")) return;
    const mark = document.createElement("span");
    mark.className = "coach-hints";
    mark.textContent = " · " + tn("{n} hint", "{n} hints", used, { n: num(used) });
    cell.append(mark);
  });
}

$("coach-hint-ask").addEventListener("click", askHint);
const scores = $("dlg-scores");
new MutationObserver(() => {
  if (scores.open) scoreLines();
}).observe(scores, { attributes: true, attributeFilter: ["open"] });
const summary = $("dlg-summary");
new MutationObserver(() => {
  if (summary.open) handOver();
  else $("coach-hint").textContent = "";
}).observe(summary, { attributes: true, attributeFilter: ["open"] });
