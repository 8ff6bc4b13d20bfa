// The coach's review page (templates/review.html): start the review, show its progress
// while it fills, then every decision of the player's seat; a flagged one opens the
// position as the player saw it, with the better choice and why.

import { request } from "./api.js";
import { t, num } from "./i18n.js";
import { cardList } from "./words.js";
import { actionWords, labelWords } from "./coach_words.js";

const $ = (id) => document.getElementById(id);
const root = $("review");
// The review's path under /api/v1: a free-play hand's, or a past daily deal's.
const path = root.dataset.api;
const POLL_MS = 700;

function points(x) {
  return num(Math.round(x * 100) / 100);
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function showPosition(d) {
  const box = $("position-body");
  box.replaceChildren();
  const v = d.view;
  box.append(el("p", t("Your cards: {cards}", { cards: cardList(v.cards) })));
  if (v.trick.cards.length) {
    box.append(el("p", t("On the table: {cards}", { cards: cardList(v.trick.cards) })));
  }
  box.append(el("p", t("You chose: {choice}", { choice: actionWords(d.action) })));
  box.append(el("p", t("Better: {choice}", { choice: actionWords(d.best) }), "review-best"));
  if (d.reason) box.append(el("p", d.reason.text, "review-reason"));
  const table = el("table");
  const head = el("tr");
  for (const h of [t("Choice"), t("Expected game points"), t("Expected card points of your side")]) {
    head.append(el("th", h));
  }
  table.append(head);
  for (const o of d.options) {
    const row = el("tr");
    row.append(el("td", actionWords(o.action)), el("td", points(o.game_points)), el("td", points(o.card_points)));
    table.append(row);
  }
  box.append(table);
  $("review-position").hidden = false;
  $("position-title").focus?.();
}

function showDecisions(decisions) {
  const list = $("review-list");
  list.replaceChildren();
  for (const d of decisions) {
    const item = el("li");
    item.append(el("span", actionWords(d.action)), " ", el("span", labelWords(d), `review-label ${d.label || ""}`));
    if (!d.forced && d.loss > 0) {
      item.append(" ", el("span", t("loss {loss} game points", { loss: points(d.loss) })));
    }
    if (d.label || d.loss > 0 || d.card_points_loss >= 8) {
      const open = el("button", t("Show the position"));
      open.type = "button";
      open.addEventListener("click", () => showPosition(d));
      item.append(" ", open);
    }
    list.append(item);
  }
}

// A daily deal's review: your game points beside the expert's in your seat.
function showExpert(r) {
  const box = $("review-expert");
  if (!box || !r.expert || r.expert.points === null) return;
  box.textContent = t("You scored {mine} game points on this deal; the expert in your seat would have scored {expert}.", {
    mine: num(r.points),
    expert: num(r.expert.points),
  });
  box.hidden = false;
}

async function poll(first) {
  const reply = first ? await request("POST", path) : await request("GET", path);
  if (reply.kind !== "ok") {
    $("review-status").textContent = reply.detail;
    return;
  }
  const r = reply.body;
  const bar = $("review-progress");
  bar.max = Math.max(1, r.total);
  bar.value = r.progress;
  if (r.status === "done") {
    bar.value = bar.max;
    showExpert(r);
    $("review-status").textContent = t("The review is ready: {n} decisions.", { n: num(r.decisions.length) });
    showDecisions(r.decisions);
    return;
  }
  if (r.status === "failed") {
    $("review-status").textContent = t("This hand could not be reviewed.");
    return;
  }
  $("review-status").textContent = t("Reviewing: {done} of {total} decisions…", {
    done: num(r.progress),
    total: num(r.total || 0),
  });
  setTimeout(() => poll(false), POLL_MS);
}

poll(true);
