// The leaderboard: today's board (or a past day's, or the week), the player's own
// line, and their name. Every name goes in with textContent: a name is only text.

import { request } from "./api.js";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== "") node.textContent = text;
  return node;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const pct = (x) => `${Number(x).toFixed(1)}%`;

function row(line) {
  const tr = el("tr", line.you ? { class: "is-me" } : {});
  tr.append(el("td", { class: "num" }, line.rank ?? "–"));
  const who = el("th", { scope: "row" }, line.name);
  if (line.you) who.append(" (you)");
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
  const box = $("board-me");
  box.replaceChildren();
  const me = board.me;
  if (!me) return;
  if (me.pending) {
    box.append(el("p", {}, "Your result is in; the board is being updated."));
    return;
  }
  box.append(el("h2", {}, "Your result"));
  const alone = board.field <= 1 ? " You are the only player so far: everyone starts at 50%." : "";
  box.append(
    el("p", { class: "result-line", id: "board-my-line" },
      `Rank ${me.rank} of ${board.field}: ${pct(me.score)}, ${signed(me.total)} game points, ahead of ${pct(me.percentile)} of the field.${alone}`),
  );
  const share = el("button", { type: "button", id: "board-share" }, "Share my result");
  const out = el("output", { id: "board-share-out", class: "small" });
  share.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(me.share_line);
      out.textContent = `Copied: ${me.share_line}`;
    } catch {
      out.textContent = me.share_line;
    }
  });
  box.append(share, " ", out);
}

function drawDeals(board) {
  const box = $("board-deals");
  box.replaceChildren();
  if (!board.deals) return;
  const table = el("table", { class: "score-sheet" });
  const head = el("tr");
  for (const h of ["Deal", "You", "The field (low, median, high)", "Expert in your seat"]) {
    head.append(el("th", { scope: "col" }, h));
  }
  table.append(el("thead"), el("tbody"));
  table.firstChild.append(head);
  for (const d of board.deals) {
    const tr = el("tr");
    const s = d.spread;
    tr.append(el("th", { scope: "row" }, `Deal ${d.deal}`));
    tr.append(el("td", { class: "num" }, d.you === null ? "–" : signed(d.you)));
    tr.append(el("td", {}, s ? `${signed(s.low)}, ${signed(s.median)}, ${signed(s.high)}` : "–"));
    tr.append(el("td", { class: "num" }, d.expert === null ? "–" : signed(d.expert)));
    table.lastChild.append(tr);
  }
  box.append(el("h2", {}, "Deal by deal"), table);
}

async function showDay(date) {
  const reply = await request("GET", `/daily/board?date=${encodeURIComponent(date)}`);
  if (reply.kind !== "ok") {
    $("board-status").textContent = reply.detail;
    return;
  }
  const board = reply.body;
  const today = $("board-page").dataset.day;
  $("board-title").textContent = board.date === today ? "Today" : `Day ${board.date}`;
  let status = `${board.field} player${board.field === 1 ? "" : "s"}`;
  status += board.final ? ": final. " : ": the board moves as players finish. ";
  if (board.seed) status += `The day's seed: ${board.seed}`;
  else status += `Seed fingerprint: ${board.commitment}`;
  $("board-status").textContent = status;
  drawRows(board.top, "Nobody has finished this day yet.");
  drawMe(board);
  drawDeals(board);
}

async function showWeek() {
  const date = $("board-date").value;
  const reply = await request("GET", `/daily/week?date=${encodeURIComponent(date)}`);
  if (reply.kind !== "ok") return;
  const week = reply.body;
  $("board-title").textContent = `The week of ${week.week_of}`;
  $("board-status").textContent = `${week.players} players. A week's score is the sum of the day scores: every day played counts.`;
  $("board-me").replaceChildren();
  $("board-deals").replaceChildren();
  drawRows(week.top, "Nobody has played this week yet.");
}

async function showDays() {
  const reply = await request("GET", "/daily/days");
  if (reply.kind !== "ok") return;
  const list = $("board-days");
  list.replaceChildren();
  for (const day of reply.body.days) {
    const item = el("li");
    const link = el("a", { href: `#${day.date}` }, day.date);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      $("board-date").value = day.date;
      showDay(day.date);
    });
    item.append(link, ` (${day.field} players) `);
    if (day.seed) {
      item.append(el("a", { href: `/verify/daily?date=${day.date}&seed=${day.seed}` }, "check its deals"));
    }
    list.append(item);
  }
}

async function nameForm() {
  const reply = await request("GET", "/daily/me");
  if (reply.kind !== "ok") return;
  const box = $("board-name");
  box.hidden = false;
  if (reply.body.name) $("name-input").value = reply.body.name;
  $("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await request("PUT", "/daily/me/name", { name: $("name-input").value });
    if (answer.kind === "ok") {
      $("name-error").textContent = "";
      $("name-input").value = answer.body.name;
      showDay($("board-date").value);
    } else {
      $("name-error").textContent = answer.detail;
    }
  });
}

function boot() {
  $("board-date").addEventListener("change", () => showDay($("board-date").value));
  $("board-week").addEventListener("click", showWeek);
  showDay($("board-date").value);
  showDays();
  nameForm();
}

boot();
