// The leaderboard: today's board (or a past day's, or the week), the player's own
// line, and their name. Every name goes in with textContent: a name is only text.

import { request } from "./api.js";
import { day, num, percent, signed, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== "") node.textContent = text;
  return node;
}

const pct = percent;

/** The share line in the page's language, if it is the server's usual one. */
function shareLine(me, date) {
  const m = /^Sheepshead daily \S+: [\d.]+% (\S*)( \u{1F525}\d+)?$/u.exec(me.share_line || "");
  if (!m) return me.share_line;
  const line = t("Sheepshead daily {day}: {score} {symbols}", { day: day(date), score: pct(me.score), symbols: m[1] });
  return m[2] ? line + m[2] : line;
}

function row(line) {
  const tr = el("tr", line.you ? { class: "is-me" } : {});
  tr.append(el("td", { class: "num" }, line.rank === null || line.rank === undefined ? "–" : num(line.rank)));
  const who = el("th", { scope: "row" }, line.name);
  if (line.you) who.append(" " + t("(you)"));
  tr.append(who, el("td", { class: "num" }, pct(line.score)), el("td", { class: "num" }, signed(line.total)));
  return tr;
}

function drawRows(lines, empty) {
  const body = $("board-rows");
  body.replaceChildren(...lines.map(row));
  if (!lines.length) {
    const tr = el("tr");
    tr.append(el("td", { colspan: "4" }, empty));
    body.append(tr);
  }
}

function drawMe(board) {
  const date = board.date;
  const box = $("board-me");
  box.replaceChildren();
  const me = board.me;
  if (!me) return;
  if (me.pending) {
    box.append(el("p", {}, t("Your result is in; the board is being updated.")));
    return;
  }
  box.append(el("h2", {}, t("Your result")));
  let line = t("Rank {rank} of {field}: {score}, {total} game points, ahead of {percentile} of the field.", {
    rank: num(me.rank),
    field: num(board.field),
    score: pct(me.score),
    total: signed(me.total),
    percentile: pct(me.percentile),
  });
  if (board.field <= 1) line += " " + t("You are the only player so far: everyone starts at {half}.", { half: pct(50) });
  box.append(el("p", { class: "result-line", id: "board-my-line" }, line));
  const share = el("button", { type: "button", id: "board-share" }, t("Share my result"));
  const out = el("output", { id: "board-share-out", class: "small" });
  share.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shareLine(me, date));
      out.textContent = t("Copied: {line}", { line: shareLine(me, date) });
    } catch {
      out.textContent = shareLine(me, date);
    }
  });
  box.append(share, " ", out);
}

const fieldSize = (spread) => spread.counts.reduce((sum, [, n]) => sum + n, 0);

/** "−2, +1, +4" (low, median, high), or every score when fewer than three played. */
function spreadText(spread) {
  if (fieldSize(spread) < 3) {
    return spread.counts.flatMap(([value, n]) => new Array(n).fill(signed(value))).join(", ");
  }
  return `${signed(spread.low)}, ${signed(spread.median)}, ${signed(spread.high)}`;
}

function drawDeals(board) {
  const box = $("board-deals");
  box.replaceChildren();
  if (!board.deals) return;
  const table = el("table", { class: "score-sheet" });
  const head = el("tr");
  // Low, median and high say little of two players: then their scores are listed.
  const few = board.deals.some((d) => d.spread && fieldSize(d.spread) < 3);
  const field = few ? t("The field's scores") : t("The field (low, median, high)");
  for (const h of [t("Deal"), t("You"), field, t("Expert in your seat")]) {
    head.append(el("th", { scope: "col" }, h));
  }
  table.append(el("thead"), el("tbody"));
  table.firstChild.append(head);
  for (const d of board.deals) {
    const tr = el("tr");
    const s = d.spread;
    tr.append(el("th", { scope: "row" }, t("Deal {n}", { n: num(d.deal) })));
    tr.append(el("td", { class: "num" }, d.you === null ? "–" : signed(d.you)));
    tr.append(el("td", {}, s ? spreadText(s) : "–"));
    tr.append(el("td", { class: "num" }, d.expert === null ? "–" : signed(d.expert)));
    table.lastChild.append(tr);
  }
  box.append(el("h2", {}, t("Deal by deal")), table);
}

/** "Today" and "Yesterday": the one naming the day shown says so (aria-current). */
function markDay(date) {
  for (const id of ["board-today", "board-yesterday"]) {
    const link = $(id);
    if (link.dataset.date === date) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
}

async function showDay(date) {
  markDay(date);
  const reply = await request("GET", `/daily/board?date=${encodeURIComponent(date)}`);
  if (reply.kind !== "ok") {
    $("board-status").textContent = reply.detail;
    return;
  }
  const board = reply.body;
  const today = $("board-page").dataset.day;
  $("board-title").textContent = board.date === today ? t("Today") : day(board.date);
  let status = board.final
    ? tn("{n} player: final.", "{n} players: final.", board.field)
    : tn("{n} player: the board moves as players finish.", "{n} players: the board moves as players finish.", board.field);
  if (board.seed) status += " " + t("The day's seed: {seed}", { seed: board.seed });
  else status += " " + t("Seed fingerprint: {hash}", { hash: board.commitment });
  $("board-status").textContent = status;
  drawRows(board.top, t("Nobody has finished this day yet."));
  drawMe(board);
  drawDeals(board);
}

async function showWeek() {
  const date = $("board-date").value;
  const reply = await request("GET", `/daily/week?date=${encodeURIComponent(date)}`);
  if (reply.kind !== "ok") return;
  const week = reply.body;
  $("board-title").textContent = t("The week of {day}", { day: day(week.week_of) });
  $("board-status").textContent = [
    tn("{n} player.", "{n} players.", week.players),
    t("A week's score is the sum of the day scores: every day played counts."),
  ].join(" ");
  $("board-me").replaceChildren();
  $("board-deals").replaceChildren();
  drawRows(week.top, t("Nobody has played this week yet."));
}

async function showDays() {
  const reply = await request("GET", "/daily/days");
  if (reply.kind !== "ok") return;
  const list = $("board-days");
  list.replaceChildren();
  // No heading over an empty list: the first day has no past days yet.
  const none = reply.body.days.length === 0;
  list.hidden = none;
  $("board-days-title").hidden = none;
  for (const past of reply.body.days) {
    const item = el("li");
    const link = el("a", { href: `#${past.date}` }, day(past.date));
    link.addEventListener("click", (event) => {
      event.preventDefault();
      $("board-date").value = past.date;
      showDay(past.date);
    });
    item.append(link, " (" + tn("{n} player", "{n} players", past.field) + ") ");
    if (past.seed) {
      const href = `/verify/daily?date=${past.date}&seed=${past.seed}&sha256=${past.commitment}`;
      item.append(el("a", { href }, t("check its deals")));
      // Once a day is over its deals are no secret: its page replays them, unranked.
      item.append(" · ", el("a", { href: `/daily/${past.date}` }, t("replay it")));
    }
    list.append(item);
  }
}

async function nameForm() {
  const reply = await request("GET", "/daily/me");
  if (reply.kind !== "ok") return;
  if (reply.body.name) $("name-input").value = reply.body.name;
  $("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("name-saved").textContent = "";
    const answer = await request("PUT", "/daily/me/name", { name: $("name-input").value });
    if (answer.kind === "ok") {
      $("name-error").textContent = "";
      $("name-input").value = answer.body.name;
      // Before the player has finished a day the board shows no change: say it took.
      $("name-saved").textContent = t("Saved: the board shows you as {name}.", { name: answer.body.name });
      showDay($("board-date").value);
    } else {
      $("name-error").textContent = answer.detail;
    }
  });
  $("board-name").hidden = false;
}

function boot() {
  $("board-date").addEventListener("change", () => showDay($("board-date").value));
  $("board-week").addEventListener("click", () => {
    markDay(null);
    showWeek();
  });
  for (const id of ["board-today", "board-yesterday"]) {
    const link = $(id);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      $("board-date").value = link.dataset.date;
      history.replaceState(null, "", link.href);
      showDay(link.dataset.date);
    });
  }
  showDay($("board-date").value);
  showDays();
  nameForm();
}

boot();
