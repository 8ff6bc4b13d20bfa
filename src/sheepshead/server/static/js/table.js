// The table page: load the player's game (or deal a first one when they ask), send the
// player's actions, and show the events each reply carries, one by one, before the
// next decision.
// The daily page (daily.js) imports `say`, `call`, `retry`, `show` and `bindTable`
// from here; the table's own boot runs only when this is the page's script.

import { OfflineError, api } from "./api.js";
import { cardName, installSprite } from "./cards.js";
import { signed, t } from "./i18n.js";
import {
  bindDialogs,
  openLastTrick,
  openReview,
  openScores,
  openSettings,
  openSummary,
} from "./dialogs.js";
import { bindInput, showHint, toggleBury } from "./input.js";
import {
  $,
  focusDecision,
  knownPartners,
  nameOf,
  render,
  scene,
  selectedBury,
  selectionWith,
  shortName,
} from "./render.js";
import { PACES, legalSet, rulesForServer, setTable, store } from "./state.js";
import { cardList, eventText } from "./words.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function pace() {
  if (store.skip || reducedMotion.matches) return 0;
  return PACES[store.settings.pace] ?? PACES.normal;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function say(text) {
  const log = $("log");
  const line = document.createElement("p");
  line.textContent = text;
  log.append(line);
  while (log.childElementCount > 40) log.firstElementChild.remove();
}

// --- talking to the server ----------------------------------------------------------

/**
 * Run a request; on a lost connection keep it in store.pending to try again, and say
 * so. `draw` is the page's render (the daily page's also offers "Try again" before
 * its first deal is drawn).
 */
export async function call(attempt, draw = render) {
  store.offline = false;
  try {
    return await attempt({
      onRetry: () => {
        $("prompt").textContent = t("Reconnecting…");
      },
      onBusy: () => {
        $("prompt").textContent = t("The server is busy: trying again…");
      },
    });
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    store.offline = true;
    store.pending = attempt;
    store.busy = false;
    say(error.message);
    draw();
    focusDecision();
    return null;
  }
}

const HAD_GAME_KEY = "sheepshead.hadGame";

function hadGame() {
  try {
    return localStorage.getItem(HAD_GAME_KEY) === "1";
  } catch {
    return true;
  }
}

function noteGame() {
  try {
    localStorage.setItem(HAD_GAME_KEY, "1");
  } catch {
    // Without storage every visit asks the server for a game to resume.
  }
}

async function handle(reply) {
  if (!reply) return;
  store.pending = null;
  if (reply.kind === "ok" || reply.kind === "conflict") noteGame();
  if (reply.kind === "ok") {
    const body = reply.body;
    if (body.state) await show(body.state, body.events || []);
    else await show(body, []);
  } else if (reply.kind === "conflict") {
    // The table moved on (a second tab, a double tap): show it as it is, no error.
    setTable(reply.state);
    render();
    focusDecision();
  } else {
    const text = reply.detail;
    render();
    showHint(text);
    say(text);
  }
}

async function send(action) {
  const table = store.table;
  if (!table || store.busy || store.overlay) return;
  if (!legalSet().has(action)) return;
  store.busy = true;
  render();
  const reply = await call((opts) => api.act(table.id, action, table.version, opts));
  store.busy = false;
  await handle(reply);
}

async function nextHand() {
  const table = store.table;
  if (!table || store.busy || store.overlay) return;
  store.busy = true;
  render();
  const reply = await call((opts) => api.nextHand(table.id, table.version, opts));
  store.busy = false;
  await handle(reply);
}

async function newGame() {
  // Let the events being shown finish at once, then start afresh.
  while (store.overlay) {
    store.skip = true;
    await wait(20);
  }
  const { rules, level } = store.settings;
  store.busy = true;
  if (store.table) render();
  else dealing();
  const reply = await call((opts) => api.create(rulesForServer(rules), level, opts));
  store.busy = false;
  if (reply && reply.kind === "refused") {
    render();
    if (!store.table) awaitDeal();
    openSettings(reply.detail);
    return;
  }
  await handle(reply);
  // Offline before the first game: "Deal" again is the way to try once more.
  if (!store.table) awaitDeal();
}

/**
 * No game yet: the table waits for the player's "Deal". Dealing makes their identity
 * on the server, so merely opening the page leaves nothing behind (docs/api.md).
 */
function awaitDeal() {
  $("info").textContent = t("A new table: the rules are in Settings.");
  $("prompt").textContent = t("Ready when you are.");
  const deal = document.createElement("button");
  deal.type = "button";
  deal.className = "act primary";
  deal.dataset.ui = "deal";
  deal.textContent = t("Deal the cards");
  // A first visit is offered the guided first game too (/learn).
  const learn = document.createElement("a");
  learn.className = "button";
  learn.href = "/learn";
  learn.textContent = t("New to Sheepshead? Play the guided first game");
  $("actions").replaceChildren(deal, ...(hadGame() ? [] : [learn]));
  const table = $("table");
  table.setAttribute("aria-busy", "false");
  table.dataset.phase = "start";
  table.dataset.idle = "true";
  if (!document.querySelector("dialog[open]")) deal.focus();
}

/** The first game asked for: busy until its cards arrive. */
function dealing() {
  $("prompt").textContent = t("Shuffling the cards…");
  $("actions").replaceChildren();
  $("table").setAttribute("aria-busy", "true");
  $("table").dataset.idle = "false";
}

/** "Try again": send the request `call` kept once more, and `handle` the reply. */
export async function retry(handle, draw = render) {
  const attempt = store.pending;
  if (!attempt) return;
  // Taken, so that a second click while it is under way does not send it twice.
  store.pending = null;
  store.busy = true;
  store.offline = false;
  draw();
  const reply = await call(attempt, draw);
  store.busy = false;
  await handle(reply);
}

// --- showing a reply's events -----------------------------------------------------

function centre(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

function seatBox(seat) {
  if (seat === store.table.seat) return $("me");
  return $("seats").querySelector(`[data-seat="${seat}"]`);
}

async function flyIn(seat, card, from) {
  const ms = pace();
  const node = $("trick").querySelector(`[data-seat="${seat}"]`);
  if (!ms || !node) return;
  const source = from || seatBox(seat)?.getBoundingClientRect();
  if (!source) return;
  const [sx, sy] = centre(source);
  const [tx, ty] = centre(node.getBoundingClientRect());
  const frames = [
    { transform: `translate(${sx - tx}px, ${sy - ty}px) scale(0.7)`, opacity: 0.4 },
    { transform: "none", opacity: 1 },
  ];
  await node.animate(frames, { duration: ms * 0.7, easing: "ease-out" }).finished.catch(() => {});
}

async function sweep(winner) {
  const ms = pace();
  const box = seatBox(winner);
  if (!ms || !box) return;
  const [wx, wy] = centre(box.getBoundingClientRect());
  const moves = [...$("trick").children].map((node) => {
    const [x, y] = centre(node.getBoundingClientRect());
    const frames = [
      { transform: "none", opacity: 1 },
      { transform: `translate(${wx - x}px, ${wy - y}px) scale(0.4)`, opacity: 0 },
    ];
    return node.animate(frames, { duration: ms * 0.7, easing: "ease-in", fill: "forwards" }).finished;
  });
  await Promise.all(moves).catch(() => {});
}

const SAID = {
  pass: () => t("Pass"),
  pick: () => t("Picks"),
  bury: () => t("Buries"),
  alone: () => t("Alone"),
  crack: () => t("Crack!"),
  nocrack: () => t("No crack"),
  call: (e) => ({ text: t("Calls {card}", { card: shortName(e.card) }), words: t("calls the {card}", { card: cardName(e.card) }) }),
  name: () => t("Names a trick"),
};

/** The end of a hand at the table: the player's total, then the summary. */
function handOver(state) {
  const you = state.scores[state.seat];
  say(t("Your total: {score}.", { score: signed(you) }));
  openSummary();
}

/**
 * Draw `state` after showing `events` one by one, as the table saw them happen.
 * `draw` is the page's render (the daily page adds its bar); `onHandOver(state)` runs
 * when the events end the hand.
 */
export async function show(state, events, { draw = render, onHandOver = handOver } = {}) {
  const before = store.table;
  const sameHand = before && before.id === state.id && before.hand_number === state.hand_number;
  const n = state.players;
  // The player's own card flies from where it sat in the hand.
  const first = events[0];
  let from = null;
  if (first && first.type === "play" && first.seat === state.seat) {
    from = $("hand").querySelector(`[data-card="${first.card}"]`)?.getBoundingClientRect() || null;
  }
  if (!sameHand) store.dealing = true;
  // The hand's worth as it stood before these events, shown until they have been shown.
  store.shownWorth = sameHand ? before.worth : null;
  setTable(state);
  if (!events.length) {
    // A fresh deal with nothing said yet is still dealt before the player's eyes.
    store.dealing = store.dealing && state.view.moves.length === 0;
    draw();
    store.dealing = false;
    focusDecision();
    return;
  }
  const v = before && sameHand ? before.view : null;
  const o = {
    trick: v ? v.trick.cards.map((card, i) => ({ seat: (v.trick.leader + i) % n, card })) : [],
    picker: v ? v.picker : null,
    partners: v ? knownPartners(before) : new Set(),
    said: v ? scene(before).said : {},
    acting: null,
    winner: null,
    prompt: "",
    tricksDone: v ? v.tricks.length : 0,
  };
  store.overlay = o;
  store.skip = false;
  draw();
  store.dealing = false;
  for (const event of events) {
    const text = eventText(event, state);
    say(text);
    o.prompt = text;
    const seat = event.seat;
    if (event.type === "play") {
      o.acting = seat;
      o.trick = [...o.trick, { seat, card: event.card }];
      if (event.card === state.view.called && seat !== o.picker && seat !== null) {
        o.partners = new Set([...o.partners, seat]);
        if (seat !== state.seat) say(t("{name} is the picker's partner.", { name: nameOf(state, seat) }));
      }
      draw();
      await flyIn(seat, event.card, seat === state.seat ? from : null);
      await wait(pace() * 0.6);
    } else if (event.type === "trick") {
      o.acting = null;
      o.winner = event.winner;
      o.tricksDone += 1;
      draw();
      await wait(pace() * 1.6);
      await sweep(event.winner);
      o.trick = [];
      o.winner = null;
      draw();
    } else if (event.type === "hand") {
      o.acting = null;
      draw();
      await wait(pace());
    } else {
      if (event.type === "pick") o.picker = seat;
      if (seat !== null && seat !== undefined && SAID[event.type]) o.said = { ...o.said, [seat]: SAID[event.type](event) };
      o.acting = seat;
      draw();
      await wait(pace() * 0.8);
    }
  }
  store.overlay = null;
  store.skip = false;
  draw();
  if (state.hand_over && events.some((e) => e.type === "hand")) {
    onHandOver(state);
  } else {
    focusDecision();
  }
  if (state.view.phase === "burying" && state.view.picker === state.seat && state.view.blind) {
    const blind = cardList(state.view.blind);
    say(t("The blind: the {cards}, now in your hand.", { cards: blind }));
    showHint(t("From the blind: the {cards}", { cards: blind }));
  }
}

// --- the page's own buttons -----------------------------------------------------------

/**
 * Wire the table's controls: the cards and buttons (`send` an action, `nextHand`,
 * `summary` to reopen the hand's summary, `retry` a lost request), the dialogs
 * (`newGame`), the buttons above the table, and hurrying the computer players along.
 * `draw` is the page's render. The daily page (daily.js) binds its own with this too.
 */
export function bindTable({ send, nextHand, newGame, summary = openSummary, retry = () => {}, draw = render }) {
  function ui(name, node) {
    const legal = legalSet();
    switch (name) {
      case "select":
        toggleBury(node, selectionWith);
        break;
      case "bury": {
        const bury = selectedBury(legal);
        if (bury) send(bury);
        break;
      }
      case "call-unknown":
        store.calling = node.dataset.card;
        draw();
        $("hand").querySelector(".card.live")?.focus();
        break;
      case "call-back":
        store.calling = null;
        draw();
        $("actions").querySelector("button")?.focus();
        break;
      case "next-hand":
        nextHand();
        break;
      case "summary":
        summary();
        break;
      case "review":
        openReview();
        break;
      case "retry":
        retry();
        break;
      case "deal":
        newGame();
        break;
      default:
        break;
    }
  }

  installSprite();
  bindInput({ send, ui, say });
  bindDialogs({
    onNewGame: newGame,
    onNextHand: nextHand,
    onDisplayChange: () => {
      $("hand").dataset.sig = "";
      draw();
    },
  });
  $("open-last").addEventListener("click", openLastTrick);
  $("open-scores").addEventListener("click", openScores);
  $("open-settings").addEventListener("click", () => openSettings());
  // A click on the felt or Escape hurries the computer players' moves along.
  $("felt").addEventListener("click", () => {
    if (store.overlay) store.skip = true;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && store.overlay) store.skip = true;
  });
}

async function boot() {
  bindTable({ send, nextHand, newGame, retry: () => retry(handle) });
  // Back from another tab: the game may have moved on there.
  document.addEventListener("visibilitychange", async () => {
    const table = store.table;
    if (document.visibilityState !== "visible" || !table || store.busy || store.overlay) return;
    const reply = await api.game(table.id).catch(() => null);
    if (reply && reply.kind === "ok" && reply.body.version !== store.table.version) {
      setTable(reply.body);
      render();
    }
  });
  // A first visit has no game to resume: nothing to ask the server, the player deals.
  if (!hadGame()) {
    awaitDeal();
    return;
  }
  const reply = await call((opts) => api.current(opts));
  if (reply && reply.kind === "refused" && reply.status === 404) {
    awaitDeal();
    return;
  }
  await handle(reply);
}

// Imported by another page's script (daily.js), this module only lends its functions.
const entry = [...document.querySelectorAll('script[type="module"][src]')].some(
  (script) => script.src === import.meta.url,
);
if (entry) boot();
