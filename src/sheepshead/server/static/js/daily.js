// The daily game's page: the table's own modules (render, input, dialogs, cards,
// state, and table.js's way of showing a reply's events one by one) drawing an
// attempt at today's five deals, fetched from /api/v1/daily.
// Like the table, it only shows what the server sends: no rules, no scores here.

import { request } from "./api.js";
import { num, t, zonedMoment } from "./i18n.js";
import { openSummary } from "./dialogs.js";
import { showHint } from "./input.js";
import { $, focusDecision, nextLabel, render } from "./render.js";
import { legalSet, setTable, store } from "./state.js";
import { bindTable, call, retry, say, show } from "./table.js";

const daily = {
  today: (opts) => request("GET", "/daily/today", undefined, opts),
  start: (opts) => request("POST", "/daily/attempts", undefined, opts),
  current: (opts) => request("GET", "/daily/attempts/current", undefined, opts),
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
      : t("Replay finished. Only your first attempt counts.");
  }
}

/** Before the first deal is drawn there is no table for render() to put its "Try again" on. */
function drawOffline() {
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
  $("summary-next").textContent = nextLabel(state);
  // The table's note says a seed shows when the hand ends; a daily deal's waits for the day.
  const note = $("summary-body").querySelector(".fairness .small");
  if (note && !state.seed) {
    note.textContent = t("The daily deals' seeds are published when the day is over: then anyone can check them.");
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
  store.busy = true;
  const reply = await call((opts) => daily.start(opts), draw);
  store.busy = false;
  await handle(reply);
}

// The day turns at midnight in Chicago: said in Chicago's time and in the reader's,
// each with its zone.
const DAY_ZONE = "America/Chicago";

function localTime() {
  const node = $("daily-next");
  const iso = node.getAttribute("datetime");
  const chicago = zonedMoment(iso, DAY_ZONE);
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  node.textContent =
    here === DAY_ZONE
      ? t("{chicago} (Chicago time, yours too)", { chicago })
      : t("{chicago} in Chicago, {local} where you are", { chicago, local: zonedMoment(iso) });
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
  $("daily-replay").addEventListener("click", startAttempt);
  await load();
}

/** After a lost connection while loading, "Try again" loads afresh. */
function loadAgain() {
  store.pending = async () => {
    await load();
    return null;
  };
}

/**
 * Today's attempt to resume, or a new one. /daily/today says whether there is one,
 * so that a new visitor's page does not ask for an attempt it has not got (a 404).
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
    await startAttempt();
    return;
  }
  const reply = await call((opts) => daily.current(opts), draw);
  if (!reply) {
    loadAgain();
    return;
  }
  if (reply.kind === "refused" && reply.status === 404) {
    await startAttempt();
    return;
  }
  await handle(reply);
}

boot();
