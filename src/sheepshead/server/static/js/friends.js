// Play with friends: open a table (/friends), then its lobby and the shared table
// (/friends/<code>). The table's own modules draw it (render, input, dialogs, and
// table.js's way of showing a reply's events); what changes at the table arrives over
// the socket /api/v1/tables/<code>/live, each seat getting only its own view.
// No rules here: the server says what is legal, whose turn it is and when the clock ends.

import { api, request } from "./api.js";
import { num, t } from "./i18n.js";
import { openSettings } from "./dialogs.js";
import { showHint } from "./input.js";
import { $, focusDecision, render } from "./render.js";
import { legalSet, rulesForServer, setTable, store } from "./state.js";
import { bindTable, call, say, show } from "./table.js";

const code = $("friends-bar").dataset.code || null;
const path = code ? `/tables/${encodeURIComponent(code)}` : null;

const friends = {
  open: (body, opts) => request("POST", "/tables", body, opts),
  get: (opts) => request("GET", path, undefined, opts),
  sit: (name, opts) => request("POST", `${path}/seats`, name ? { name } : {}, opts),
  start: (opts) => request("POST", `${path}/start`, undefined, opts),
  act: (action, version, opts) => request("POST", `${path}/actions`, { action, version }, opts),
  nextHand: (version, opts) => request("POST", `${path}/next-hand`, { version }, opts),
  say: (message, opts) => request("POST", `${path}/messages`, { message }, opts),
};
// The score sheet's and the summary's record links point at this table's hands.
api.recordUrl = (_id, hand) => `/api/v1${path}/hands/${hand}/record`;

const MESSAGES = {
  hello: () => t("Hello"),
  "good-luck": () => t("Good luck"),
  "well-played": () => t("Well played"),
  "good-game": () => t("Good game"),
  thanks: () => t("Thanks"),
  "one-more": () => t("One more?"),
  bye: () => t("Bye"),
};

let lobby = null; // the last state the server sent (lobby fields, and the game once started)
let socket = null;
let shownVersion = 0;
let queue = Promise.resolve();

function error(text) {
  $("friends-error").textContent = text || "";
}

// --- opening a table ------------------------------------------------------------------

async function openTable(event) {
  event.preventDefault();
  const { rules, level } = store.settings;
  const seconds = $("friends-clock").value ? Number($("friends-clock").value) : null;
  const body = { rules: rulesForServer(rules), level, seconds, hints: $("friends-hints").checked };
  const name = $("friends-name").value.trim();
  if (name) body.name = name;
  const reply = await call((opts) => friends.open(body, opts));
  if (!reply) return;
  if (reply.kind !== "ok") {
    error(reply.detail);
    return;
  }
  window.location.assign(reply.body.url);
}

// --- the lobby ------------------------------------------------------------------------

function seatLine(state, seat) {
  const li = document.createElement("li");
  const name = state.names[seat];
  const computer = state.computers.includes(seat);
  const parts = [t("Seat {n}", { n: num(seat + 1) }), computer ? t("{name} (computer)", { name }) : name];
  if (state.host === seat) parts.push(t("host"));
  if (state.seat === seat) parts.push(t("you"));
  if (state.away.includes(seat)) parts.push(t("away"));
  li.textContent = parts.join(" · ");
  return li;
}

function drawMessages(state) {
  const list = $("friends-said");
  list.replaceChildren(
    ...state.messages.slice(-5).map((m) => {
      const li = document.createElement("li");
      const said = (MESSAGES[m.key] || (() => m.key))();
      li.textContent = `${state.names[m.seat]}: ${said}`;
      return li;
    }),
  );
}

function between(state) {
  return !state.started || state.hand_over;
}

function drawBar(state) {
  lobby = state;
  const seated = state.seat !== undefined && state.seat !== null;
  $("friends-lobby").hidden = state.started && seated;
  $("friends-invite").hidden = !seated;
  $("friends-link").value = `${window.location.origin}/friends/${state.code}`;
  $("friends-share").hidden = !navigator.share;
  $("friends-sit").hidden = seated;
  $("friends-seats").replaceChildren(...state.names.map((_, seat) => seatLine(state, seat)));
  $("friends-start").hidden = !(seated && !state.started && state.host === state.seat);
  $("friends-messages").hidden = !(seated && between(state));
  $("friends-back").hidden = !(seated && state.covered.includes(state.seat));
  drawMessages(state);
  drawStatus();
  $("table").hidden = !(state.started && seated);
}

function drawStatus() {
  const state = lobby;
  if (!state) return;
  let text;
  if (state.status === "closed") text = t("This table has closed.");
  else if (!state.started) text = t("Waiting for the host to start.");
  else if (state.hand_over) text = t("The hand is over.");
  else if (state.turn === state.seat) text = t("Your turn.");
  else text = t("{name}'s turn.", { name: state.names[state.turn] ?? "" });
  if (state.deadline && state.started && !state.hand_over) {
    const left = Math.max(0, Math.round((Date.parse(state.deadline) - Date.now()) / 1000));
    const clock = t("{n} seconds left.", { n: num(left) });
    text = [text, clock].join(" ");
  }
  $("friends-status").textContent = text;
}

async function sit(event) {
  event.preventDefault();
  const name = $("friends-sit-name").value.trim();
  const reply = await call((opts) => friends.sit(name, opts));
  if (!reply) return;
  if (reply.kind !== "ok") {
    error(reply.detail);
    return;
  }
  error("");
  connect();
  await receive(reply.body.state, []);
}

// --- the table ------------------------------------------------------------------------

async function receive(state, events) {
  drawBar(state);
  if (!state.started || state.seat === undefined || state.seat === null) return;
  if (state.version < shownVersion) return;
  shownVersion = state.version;
  await show(state, events);
}

function enqueue(state, events) {
  queue = queue.then(() => receive(state, events)).catch(() => {});
}

async function handle(reply) {
  if (!reply) return;
  if (reply.kind === "ok") {
    const body = reply.body;
    enqueue(body.state, body.events || []);
  } else if (reply.kind === "conflict") {
    setTable(reply.state);
    render();
    focusDecision();
  } else {
    render();
    showHint(reply.detail);
    say(reply.detail);
  }
}

async function send(action) {
  const table = store.table;
  if (!table || store.busy || store.overlay) return;
  if (!legalSet().has(action)) return;
  store.busy = true;
  render();
  const reply = await call((opts) => friends.act(action, table.version, opts));
  store.busy = false;
  await handle(reply);
}

async function nextHand() {
  const table = store.table;
  if (!table || store.busy || store.overlay) return;
  store.busy = true;
  const reply = await call((opts) => friends.nextHand(table.version, opts));
  store.busy = false;
  await handle(reply);
}

// --- the socket -----------------------------------------------------------------------

function connect() {
  if (socket) return;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${window.location.host}/api/v1${path}/live`);
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", version: shownVersion }));
  });
  socket.addEventListener("message", (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (data.type === "state") enqueue(data.state, data.events || []);
  });
  socket.addEventListener("close", () => {
    socket = null;
    // Back in a moment: the server says what was missed since the version shown.
    setTimeout(connect, 2000);
  });
}

// --- boot -----------------------------------------------------------------------------

function bindBar() {
  $("friends-new").addEventListener("submit", openTable);
  $("friends-rules").addEventListener("click", () => openSettings());
  $("friends-sit").addEventListener("submit", sit);
  $("friends-start").addEventListener("click", async () => {
    const reply = await call((opts) => friends.start(opts));
    if (reply && reply.kind !== "ok") error(reply.detail);
  });
  $("friends-copy").addEventListener("click", async () => {
    $("friends-link").select();
    try {
      await navigator.clipboard.writeText($("friends-link").value);
      say(t("The link is copied."));
    } catch {
      document.execCommand("copy");
    }
  });
  $("friends-share").addEventListener("click", () => {
    navigator.share({ title: t("Play with friends"), url: $("friends-link").value }).catch(() => {});
  });
  $("friends-back").addEventListener("click", () => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "back" }));
  });
  for (const button of $("friends-messages").querySelectorAll("button[data-message]")) {
    button.addEventListener("click", async () => {
      const reply = await call((opts) => friends.say(button.dataset.message, opts));
      if (reply && reply.kind !== "ok") error(reply.detail);
    });
  }
  setInterval(drawStatus, 1000);
}

async function boot() {
  bindTable({ send, nextHand, newGame: () => window.location.assign("/friends") });
  bindBar();
  if (!code) {
    $("table").hidden = true;
    return;
  }
  const reply = await call((opts) => friends.get(opts));
  if (!reply) return;
  if (reply.kind !== "ok") {
    $("table").hidden = true;
    error(reply.detail);
    return;
  }
  $("friends-lobby").hidden = false;
  await receive(reply.body, []);
  if (reply.body.seat !== undefined && reply.body.seat !== null) connect();
}

boot();
