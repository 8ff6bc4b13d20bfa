// The daily game's page: the table's own modules (render, input, dialogs, cards,
// state, and table.js's way of showing a reply's events one by one) drawing an
// attempt at today's five deals, fetched from /api/v1/daily.
// Like the table, it only shows what the server sends: no rules, no scores here.
// The same script draws a past day's page (/daily/<date>, `data-archive` on the bar):
// there an attempt is an unranked replay, compared with the day's board at the end.
// Nothing is dealt before the player presses Start.

import { request } from "./api.js";
import { list, num, percent, signed, t, tn, zonedMoment } from "./i18n.js";
import { openSummary } from "./dialogs.js";
import { showHint } from "./input.js";
import { $, focusDecision, nextLabel, render } from "./render.js";
import { legalSet, setTable, store } from "./state.js";
import { bindTable, call, retry, say, show } from "./table.js";

/** The past day this page replays, or null on today's page. */
const archiveDay = $("daily-bar").dataset.archive || null;
const dayPath = archiveDay ? `/daily/days/${encodeURIComponent(archiveDay)}` : null;

const daily = {
  today: (opts) => request("GET", "/daily/today", undefined, opts),
  start: (opts) => request("POST", archiveDay ? `${dayPath}/replays` : "/daily/attempts", undefined, opts),
  current: (opts) => request("GET", "/daily/attempts/current", undefined, opts),
  archive: (opts) => request("GET", dayPath, undefined, opts),
  board: (opts) => request("GET", `/daily/board?date=${encodeURIComponent(archiveDay)}`, undefined, opts),
  attempt: (id, opts) => request("GET", `/daily/attempts/${encodeURIComponent(id)}`, undefined, opts),
  act: (id, action, version, opts) =>
    request("POST", `/daily/attempts/${encodeURIComponent(id)}/actions`, { action, version }, opts),
  nextDeal: (id, version, opts) =>
    request("POST", `/daily/attempts/${encodeURIComponent(id)}/next-deal`, { version }, opts),
  recordUrl: (id, deal) => `/api/v1/daily/attempts/${encodeURIComponent(id)}/deals/${deal}/record`,
};

function finished(state) {
  return Boolean(state && state.daily && state.daily.finished);
}

/** The bar above the table: which deal, ranked or not, and the way to the board. */
function drawBar() {
  const state = store.table;
  if (!state) return;
  const d = state.daily;
  const words = { n: num(d.deal), of: num(d.deals) };
  let text = d.ranked ? t("Deal {n} of {of} (ranked).", words) : t("Deal {n} of {of} (a replay, unranked).", words);
  if (d.void) text = t("The day is over: this attempt was not finished in time and does not count.");
  $("daily-deal").textContent = text;
  const done = $("daily-done");
  done.hidden = !(d.finished || d.void);
  if (d.finished) {
    $("daily-done-text").textContent = d.ranked
      ? t("You have played today's five deals: your result is on the leaderboard.")
      : t("Replay finished: it counts on no board.");
    if (d.ranked && !archiveDay) drawStreak(d.next_day_starts);
  }
  if (archiveDay && d.finished && compared !== state.id) {
    compared = state.id;
    drawCompare();
  }
}

/** The streak, asked for once when today's ranked attempt is finished (`GET /me/stats`). */
let streakShown = false;

async function drawStreak(nextDay) {
  if (streakShown) return;
  streakShown = true;
  startCountdown(nextDay);
  let reply = null;
  try {
    reply = await request("GET", "/me/stats");
  } catch {
    return; // offline: the streak waits for the next visit
  }
  if (reply.kind !== "ok") return;
  const d = reply.body.daily;
  const node = $("daily-streak");
  node.textContent = [
    tn("Your streak: {n} day in a row.", "Your streak: {n} days in a row.", d.streak, { n: num(d.streak) }),
    t("Best: {n}.", { n: num(d.best_streak) }),
  ].join(" ");
  node.append(" ");
  const link = document.createElement("a");
  link.href = "/me";
  link.textContent = t("All your games");
  node.append(link);
  node.hidden = false;
}

/** "The next day starts in 5 h 12 min": ticks each half minute until the day turns. */
function startCountdown(nextDay) {
  const node = $("daily-countdown");
  const end = Date.parse(nextDay);
  if (!node || Number.isNaN(end)) return;
  const tick = () => {
    const minutes = Math.max(0, Math.ceil((end - Date.now()) / 60000));
    node.textContent =
      minutes > 0
        ? t("The next day starts in {h} h {m} min.", { h: num(Math.floor(minutes / 60)), m: num(minutes % 60) })
        : t("The next day has started: reload the page to play it.");
    if (minutes <= 0) window.clearInterval(timer);
  };
  const timer = window.setInterval(tick, 30000);
  tick();
  node.hidden = false;
}

/** The replay last set beside the day's board: asked for once, when it finishes. */
let compared = null;

/**
 * Before Start: the introduction, and no table (nothing has been dealt). The Start button
 * comes disabled in the page and is enabled only here, once the page knows there is no
 * attempt to resume: a press before that would race the page's own loading, which could
 * then put the introduction back over the freshly dealt table.
 */
function showIntro(shown) {
  $("daily-intro").hidden = !shown;
  $("daily-start").disabled = !shown;
  document.body.classList.toggle("daily-before-start", shown);
}

/** A finished replay of a past day beside that day's board (`GET /daily/days/<date>`). */
async function drawCompare() {
  const box = $("daily-compare");
  if (!box) return;
  const [archive, board] = [await daily.archive(), await daily.board()];
  const replay = archive.kind === "ok" ? archive.body.replay : null;
  if (!replay || !replay.compare) return;
  const c = replay.compare;
  const field = archive.body.field;
  const lines = [
    field
      ? t("Your replay scores {score}: among that day's {n} players it would have ranked {rank}, ahead of {percentile} of them.", {
          score: percent(c.score),
          n: num(field),
          rank: num(c.rank),
          percentile: percent(c.percentile),
        })
      : t("Nobody finished that day ranked: your replay has no one to be compared with."),
    t("Its game points, deal by deal: {points}.", { points: list(c.points.map((p) => signed(p))) }),
  ];
  const me = board.kind === "ok" ? board.body.me : null;
  if (me && me.rank) {
    lines.push(t("Your ranked go that day scored {score}, rank {rank}.", { score: percent(me.score), rank: num(me.rank) }));
  }
  box.replaceChildren(...lines.map((line) => Object.assign(document.createElement("p"), { textContent: line })));
  box.hidden = false;
}

/** Before the first deal is drawn there is no table for render() to put its "Try again" on. */
function drawOffline() {
  // The "Try again" goes where the table will be, even before Start.
  document.body.classList.remove("daily-before-start");
  $("prompt").textContent = t("The connection to the server was lost.");
  const again = document.createElement("button");
  again.type = "button";
  again.className = "act primary";
  again.dataset.ui = "retry";
  again.textContent = t("Try again");
  $("actions").replaceChildren(again);
}

function draw() {
  if (!store.table) {
    if (store.offline) drawOffline();
    return;
  }
  render();
  drawBar();
}

async function handle(reply) {
  if (!reply) return;
  store.pending = null;
  if (reply.kind === "ok") {
    const body = reply.body;
    await show(body.state || body, body.events || [], { draw, onHandOver: summary });
  } else if (reply.kind === "conflict") {
    setTable(reply.state);
    draw();
    showHint(reply.detail);
    focusDecision();
  } else {
    draw();
    showHint(reply.detail);
    say(reply.detail);
  }
}

function summary() {
  const state = store.table;
  openSummary();
  const link = $("summary-record");
  link.href = daily.recordUrl(state.id, state.hand_number);
  link.setAttribute("download", `sheepshead-daily-${state.daily.date}-deal-${state.hand_number}.json`);
  // A record holds every hand: the server gives it once the day is over.
  link.hidden = !state.seed;
  $("summary-next").textContent =
    archiveDay && finished(state) ? t("Compare with the day's board") : nextLabel(state);
  // The table's note says a seed shows when the hand ends; a daily deal's waits for the day.
  const note = $("summary-body").querySelector(".fairness .small");
  if (note && !state.seed) {
    note.textContent = t("The daily deals' seeds, every hand and the deals' records are published when the day is over: then anyone can check them.");
  }
}

async function send(action) {
  const state = store.table;
  if (!state || store.busy || !legalSet().has(action)) return;
  store.busy = true;
  draw();
  const reply = await call((opts) => daily.act(state.id, action, state.version, opts), draw);
  store.busy = false;
  await handle(reply);
}

async function nextDeal() {
  const state = store.table;
  if (!state || store.busy || store.overlay) return;
  if (archiveDay && finished(state)) {
    $("daily-done").scrollIntoView();
    return;
  }
  if (finished(state) || state.daily.void) {
    window.location.assign("/leaderboard");
    return;
  }
  store.busy = true;
  draw();
  const reply = await call((opts) => daily.nextDeal(state.id, state.version, opts), draw);
  store.busy = false;
  await handle(reply);
}

async function startAttempt() {
  if (store.busy) return;
  showIntro(false);
  $("daily-done").hidden = true;
  store.busy = true;
  const reply = await call((opts) => daily.start(opts), draw);
  store.busy = false;
  await handle(reply);
}

// The day turns at midnight in Chicago: said in Chicago's time and in the reader's,
// each with its zone. The server writes the same sentence with UTC for the reader's
// time, so that putting the reader's in its place moves nothing on the page (no layout
// shift: Lighthouse, docs/performance.md).
const DAY_ZONE = "America/Chicago";

function localTime() {
  const node = $("daily-next");
  if (!node) return; // a past day's page has no next day to announce
  const iso = node.getAttribute("datetime");
  const chicago = zonedMoment(iso, DAY_ZONE);
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  node.textContent =
    here === DAY_ZONE
      ? t("{chicago} (Chicago time, yours too)", { chicago })
      : t("{chicago} in Chicago ({local})", { chicago, local: zonedMoment(iso) });
}

async function boot() {
  localTime();
  bindTable({
    send,
    nextHand: nextDeal,
    newGame: () => window.location.assign("/play"),
    summary,
    retry: () => retry(handle, draw),
    draw,
  });
  $("daily-start").addEventListener("click", startAttempt);
  await (archiveDay ? loadArchive() : load());
}

/** After a lost connection while loading, "Try again" loads afresh. */
function loadAgain() {
  store.pending = async () => {
    await (archiveDay ? loadArchive() : load());
    return null;
  };
}

/**
 * Today's attempt to resume, or the introduction and its Start button. /daily/today
 * says whether there is one, so that a new visitor's page asks for nothing it has not
 * got, and deals nothing before Start.
 */
async function load() {
  const today = await call((opts) => daily.today(opts), draw);
  if (!today) {
    loadAgain();
    return;
  }
  if (today.kind !== "ok") {
    await handle(today);
    return;
  }
  if (today.body.ranked === null && today.body.attempts === 0) {
    showIntro(true);
    return;
  }
  showIntro(false);
  const reply = await call((opts) => daily.current(opts), draw);
  if (!reply) {
    loadAgain();
    return;
  }
  if (reply.kind === "refused" && reply.status === 404) {
    showIntro(true);
    return;
  }
  await handle(reply);
}

/** A past day: the replay in progress to carry on, else the last one's comparison and Start. */
async function loadArchive() {
  const archive = await call((opts) => daily.archive(opts), draw);
  if (!archive) {
    loadAgain();
    return;
  }
  const replay = archive.kind === "ok" ? archive.body.replay : null;
  if (!replay || replay.finished) {
    showIntro(true);
    if (replay) {
      $("daily-done").hidden = false;
      await drawCompare();
    }
    return;
  }
  showIntro(false);
  await handle(await call((opts) => daily.attempt(replay.id, opts), draw));
}

boot();
