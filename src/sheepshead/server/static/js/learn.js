// The guided first game (/learn): the table's own modules drawing the lesson that
// /api/v1/lesson serves, with the lesson's panel above the table. The server says each
// step (its kind and facts, `state.lesson.step`) and refuses, with the reason, a card
// the rules do not allow or a choice the lesson does not take; the words are the
// server's catalog (phrases.LESSON, in #phrases). No rule is decided here.

import { request } from "./api.js";
import { SUIT_NAMES, cardName } from "./cards.js";
import { openSummary } from "./dialogs.js";
import { list, num, phrase, phrases, t } from "./i18n.js";
import { showHint } from "./input.js";
import { $, focusDecision, render } from "./render.js";
import { legalSet, setTable, store } from "./state.js";
import { bindTable, call, retry, say, show } from "./table.js";

const lesson = {
  start: (opts) => request("GET", "/lesson", undefined, opts),
  act: (action, version, opts) => request("POST", "/lesson/actions", { action, version }, opts),
  nextHand: (version, opts) => request("POST", "/lesson/next-hand", { version }, opts),
};

/** A step's facts in the page's words: card names, the suit led. */
function words(params) {
  const out = {};
  if (params.card) out.card = cardName(params.card);
  if (params.cards) out.cards = list(params.cards.map(cardName));
  const suit = SUIT_NAMES[params.suit];
  if (suit) Object.assign(out, { suit: suit.one, suits: suit.many });
  return out;
}

function lessonWords(kind, part, params) {
  const message = ((phrases.lesson || {})[kind] || {})[part];
  return message === undefined ? "" : phrase(message, words(params));
}

/** The step shown last, so that its words are said once. */
let shownStep = null;

/** The lesson's panel: where the player is, what to do and why, the rule at hand. */
function drawLesson() {
  const state = store.table;
  if (!state || !state.lesson) return;
  const l = state.lesson;
  const step = l.step;
  $("learn-done").hidden = !l.done;
  if (step && !store.overlay) {
    $("learn-progress").textContent = t("Hand {hand} of {hands}, step {n} of {steps}.", {
      hand: num(step.hand),
      hands: num(l.hands),
      n: num(step.number),
      steps: num(l.steps),
    });
    $("learn-do").textContent = lessonWords(step.kind, "do", step.params);
    $("learn-rule").textContent = lessonWords(step.kind, "rule", step.params);
    if (shownStep !== step.number) {
      shownStep = step.number;
      $("learn-why").textContent = "";
      say($("learn-do").textContent);
    }
    markCards(step);
  } else if (!step) {
    markCards(null);
    // After the last hand the way on is the panel's: play a game of one's own.
    if (l.done) $("actions").querySelector('[data-ui="next-hand"]')?.remove();
    $("learn-rule").textContent = "";
    $("learn-why").textContent = "";
    $("learn-do").textContent = l.done
      ? t("The lesson is over.")
      : t("The hand is over: see how it went, then go on to the next hand.");
  }
}

/** The cards the step names (the card to play, the bury's two), marked in the hand. */
let named = new Set();

function markCards(step) {
  named = new Set(step && step.kind !== "call" ? step.params.cards || [step.params.card] : []);
  remark();
}

function remark() {
  for (const node of $("hand").querySelectorAll(".card")) {
    const on = named.has(node.dataset.card) && !store.overlay;
    if (node.classList.contains("learn-this") !== on) node.classList.toggle("learn-this", on);
  }
}

// The table redraws the hand on its own too (a card chosen for the bury): mark it again.
new MutationObserver(remark).observe($("hand"), { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });

function draw() {
  render();
  drawLesson();
}

async function handle(reply) {
  if (!reply) return;
  store.pending = null;
  if (reply.kind === "ok") {
    const body = reply.body;
    if (body.state) await show(body.state, body.events || [], { draw, onHandOver });
    else await show(body, [], { draw, onHandOver });
  } else if (reply.kind === "conflict") {
    setTable(reply.state);
    draw();
    focusDecision();
  } else {
    // Refused: the engine's rule, or the lesson's reason for its own choice.
    draw();
    $("learn-why").textContent = reply.detail;
    showHint(reply.detail);
    say(reply.detail);
  }
}

function onHandOver(state) {
  drawLesson();
  if (state.lesson && state.lesson.done) {
    $("learn-done").querySelector("a")?.focus();
    return;
  }
  openSummary();
}

async function send(action) {
  const state = store.table;
  if (!state || store.busy || store.overlay) return;
  if (!legalSet().has(action)) return;
  store.busy = true;
  draw();
  const reply = await call((opts) => lesson.act(action, state.version, opts), draw);
  store.busy = false;
  await handle(reply);
}

async function nextHand() {
  const state = store.table;
  if (!state || store.busy || store.overlay) return;
  if (state.lesson && state.lesson.done) {
    $("learn-done").hidden = false;
    $("learn-done").querySelector("a")?.focus();
    return;
  }
  store.busy = true;
  draw();
  const reply = await call((opts) => lesson.nextHand(state.version, opts), draw);
  store.busy = false;
  await handle(reply);
}

async function begin() {
  const reply = await call((opts) => lesson.start(opts), draw);
  await handle(reply);
}

bindTable({ send, nextHand, newGame: begin, retry: () => retry(handle, draw), draw });
begin();
