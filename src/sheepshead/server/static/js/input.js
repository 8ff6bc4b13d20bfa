// Clicks, taps and keys, turned into the actions the server listed as legal.
// Arrow keys move among the cards (one tab stop for the hand), Enter or Space plays
// the focused card, and a refused card tells why on hover, focus or a long press.

import { num, t } from "./i18n.js";
import { $, burySize, render } from "./render.js";
import { legalSet, store } from "./state.js";

const LONG_PRESS_MS = 450;

export function showHint(text) {
  $("hint").textContent = text || "";
}

function cards() {
  return [...$("hand").querySelectorAll(".card")];
}

function moveFocus(from, step) {
  const list = cards();
  if (!list.length) return;
  const at = list.indexOf(from);
  let next;
  if (step === "first") next = list[0];
  else if (step === "last") next = list[list.length - 1];
  else next = list[(at + step + list.length) % list.length];
  for (const card of list) card.tabIndex = card === next ? 0 : -1;
  store.focusCard = next.dataset.card;
  next.focus();
}

function reasonOf(node) {
  return node.dataset.reason || "";
}

/**
 * Wire the table's controls. `send(actionText)` posts an action; `ui(name, node)`
 * handles the page's own buttons (bury, next hand, dialogs…); `say(text)` announces.
 */
export function bindInput({ send, ui, say }) {
  const hand = $("hand");
  let pressTimer = 0;
  let pressed = false;

  hand.addEventListener("click", (event) => {
    const card = event.target.closest(".card");
    if (!card) return;
    if (pressed) {
      // The long press showed the reason; the finger lifting is not a play.
      pressed = false;
      return;
    }
    store.focusCard = card.dataset.card;
    for (const other of cards()) other.tabIndex = other === card ? 0 : -1;
    if (card.getAttribute("aria-disabled") === "true") {
      const reason = reasonOf(card);
      if (reason) {
        showHint(reason);
        say(reason);
      }
      // Offers the link to the rule that refused it.
      render();
      return;
    }
    const text = card.dataset.card;
    const mode = hand.dataset.mode;
    if (mode === "play") send(`play ${text}`);
    else if (mode === "unknown") send(`call ${store.calling} unknown ${text}`);
    else if (mode === "bury") ui("select", card);
  });

  hand.addEventListener("keydown", (event) => {
    const card = event.target.closest(".card");
    if (!card) return;
    const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: "first", End: "last" };
    if (event.key in steps) {
      event.preventDefault();
      moveFocus(card, steps[event.key]);
    }
  });

  hand.addEventListener("focusin", (event) => {
    const card = event.target.closest(".card");
    if (card) showHint(reasonOf(card));
  });
  hand.addEventListener("focusout", () => showHint(""));
  hand.addEventListener("pointerover", (event) => {
    const card = event.target.closest(".card");
    if (card && event.pointerType === "mouse") showHint(reasonOf(card));
  });
  hand.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "mouse") return;
    const card = document.activeElement?.closest?.("#hand .card");
    showHint(card ? reasonOf(card) : "");
  });
  hand.addEventListener("pointerdown", (event) => {
    const card = event.target.closest(".card");
    pressed = false;
    if (!card || event.pointerType === "mouse") return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      pressed = true;
      showHint(reasonOf(card) || card.getAttribute("aria-label"));
    }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    hand.addEventListener(type, () => clearTimeout(pressTimer));
  }
  hand.addEventListener("contextmenu", (event) => {
    // A long press on a phone would open the context menu over the card.
    if (event.target.closest(".card")) event.preventDefault();
  });

  $("actions").addEventListener("click", (event) => {
    const node = event.target.closest("button");
    if (!node) return;
    if (node.getAttribute("aria-disabled") === "true") {
      const legal = legalSet();
      const size = burySize(legal);
      const text = size ? t("Choose {n} cards to bury first.", { n: num(size) }) : t("Not now.");
      showHint(text);
      say(text);
      return;
    }
    if (node.dataset.action) send(node.dataset.action);
    else if (node.dataset.ui) ui(node.dataset.ui, node);
  });
}

/** Toggle a card in the bury being chosen (the oldest choice gives way when full). */
export function toggleBury(card, selectionWith) {
  store.selected = selectionWith(card.dataset.card, legalSet());
  store.focusCard = card.dataset.card;
  render();
}
