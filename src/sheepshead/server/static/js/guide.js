// The rules guide in the browser: draw the table's own cards into the guide's card
// placeholders, play the one-trick demonstration, and open a rule in place at the
// table. What a trick holds and who wins it always comes from the server's page
// (built from a hand record); nothing here knows the rules.

import { cardSvg, installSprite } from "./cards.js";
import { t } from "./i18n.js";

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Draw every card placeholder (`.gc[data-card]`) under `root` as the table draws cards. */
export function drawCards(root = document) {
  installSprite();
  for (const node of root.querySelectorAll(".gc[data-card]:not(.drawn)")) {
    node.insertAdjacentHTML("beforeend", cardSvg(node.dataset.card));
    node.classList.add("drawn");
  }
}

let scrollers = 0;

/**
 * A table too wide for the screen scrolls sideways in its `.scroll-x` box; the box then
 * takes the focus (a group named by the table's caption or the heading before it), so a
 * keyboard can scroll it too. Checked again when the window changes size.
 */
export function keyboardScrollers(root = document) {
  const fit = () => {
    for (const box of root.querySelectorAll(".scroll-x")) {
      const wide = box.scrollWidth > box.clientWidth + 1;
      if (!wide) {
        if (box.dataset.scroller) box.removeAttribute("tabindex");
        continue;
      }
      box.dataset.scroller = "";
      box.tabIndex = 0;
      if (box.hasAttribute("role")) continue;
      box.setAttribute("role", "group");
      const caption = box.querySelector("caption");
      let heading = box.previousElementSibling;
      while (heading && !/^H[2-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      const name = caption || heading || box.closest("dialog")?.querySelector("h2");
      if (name) {
        if (!name.id) name.id = `scroller-${(scrollers += 1)}`;
        box.setAttribute("aria-labelledby", name.id);
      }
    }
  };
  fit();
  if (root === document) window.addEventListener("resize", fit);
  return fit;
}

// --- the trick demonstration ---------------------------------------------------------

// Seats sit on an ellipse as at the table: seat 0 at the bottom, then clockwise
// from its left. The stylesheet turns --cos and --sin into a position.
function place(node, seat, players) {
  const a = ((90 + (seat * 360) / players) * Math.PI) / 180;
  node.style.setProperty("--cos", Math.cos(a).toFixed(4));
  node.style.setProperty("--sin", Math.sin(a).toFixed(4));
}

function div(cls, text = "") {
  const node = document.createElement("div");
  node.className = cls;
  if (text) node.textContent = text;
  return node;
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

class TrickDemo {
  constructor(figure) {
    this.figure = figure;
    this.players = Number(figure.dataset.players);
    this.plays = [...figure.querySelectorAll(".demo-plays > li")].map((li) => ({
      seat: Number(li.dataset.seat),
      card: li.dataset.card,
      wins: li.dataset.wins === "true",
      who: li.querySelector(".demo-say b")?.textContent || "",
      say: li.querySelector(".demo-say")?.textContent || "",
    }));
    this.result = figure.querySelector(".demo-result")?.textContent || "";
    this.stage = figure.querySelector(".demo-stage");
    this.live = figure.querySelector(".demo-live");
    this.replay = figure.querySelector(".demo-replay");
    this.run = 0;
    this.build();
    this.replay.addEventListener("click", () => this.play());
  }

  build() {
    const seats = new Map();
    for (const p of this.plays) {
      const seat = div("demo-seat", p.who);
      seat.dataset.seat = String(p.seat);
      place(seat, p.seat, this.players);
      seats.set(p.seat, seat);
      this.stage.append(seat);
    }
    this.seats = seats;
    this.figure.classList.add("live");
    this.live.classList.remove("sr-only");
    this.figure.dataset.state = "ready";
  }

  clear() {
    for (const node of this.stage.querySelectorAll(".demo-card")) node.remove();
    for (const seat of this.seats.values()) seat.classList.remove("takes");
  }

  say(text) {
    this.live.textContent = text;
  }

  async step(ms) {
    await wait(ms);
  }

  /** Play the trick from the start; a replay in the middle starts it over. */
  async play() {
    const run = ++this.run;
    const still = reducedMotion.matches;
    const beat = still ? 500 : 900;
    this.figure.dataset.state = "playing";
    this.replay.hidden = true;
    this.clear();
    for (const p of this.plays) {
      if (run !== this.run) return;
      const card = div("demo-card");
      card.dataset.card = p.card;
      card.innerHTML = cardSvg(p.card);
      place(card, p.seat, this.players);
      this.stage.append(card);
      this.say(p.say);
      if (!still) {
        const [sx, sy] = centre(this.seats.get(p.seat));
        const [tx, ty] = centre(card);
        card.animate(
          [
            { transform: `translate(calc(-50% + ${sx - tx}px), calc(-50% + ${sy - ty}px)) scale(0.6)`, opacity: 0.2 },
            { transform: "translate(-50%, -50%)", opacity: 1 },
          ],
          { duration: 450, easing: "ease-out" },
        );
      }
      await this.step(beat);
    }
    if (run !== this.run) return;
    const winner = this.plays.find((p) => p.wins);
    if (winner) {
      this.stage.querySelector(`.demo-card[data-card="${winner.card}"]`)?.classList.add("winning");
      this.seats.get(winner.seat)?.classList.add("takes");
    }
    this.say(this.result);
    this.figure.dataset.state = "done";
    this.replay.hidden = false;
  }
}

function startWhenSeen(demo) {
  if (!("IntersectionObserver" in window)) {
    demo.play();
    return;
  }
  const seen = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        seen.disconnect();
        demo.play();
      }
    },
    { threshold: 0.35 },
  );
  seen.observe(demo.figure);
}

function startDemos(root = document) {
  for (const figure of root.querySelectorAll("figure.trick-demo:not(.live)")) {
    drawCards(figure);
    startWhenSeen(new TrickDemo(figure));
  }
}

/** The home page fetches the demonstration (its page has no hand record at hand). */
async function fillDemoSlots() {
  for (const slot of document.querySelectorAll(".demo-slot[data-demo-src]")) {
    try {
      const reply = await fetch(slot.dataset.demoSrc);
      if (!reply.ok) continue;
      slot.innerHTML = await reply.text();
      startDemos(slot);
    } catch {
      // Offline: the words already in the slot tell the same trick.
    }
  }
}

// --- a rule, opened in place at the table ----------------------------------------------

// Which section of the guide explains a refused card, by the refusal's code.
const REFUSALS = {
  "must-follow": "play",
  "keep-unknown": "unknown-card",
  "lead-only-with": "partner-duties",
  "must-play-on-first-trick": "partner-duties",
  "keep-suit": "called-ace",
  "keep-card": "duty-cards",
};

/** The guide section for a refused card's refusal ({code: "must-follow", ...} -> "play"). */
export function ruleForRefusal(refusal) {
  return REFUSALS[refusal && refusal.code] || "play";
}

const RULE_WORDS = {
  "picking-order": t("The rule on picking"),
  "forced-pick": t("The rule on the forced pick"),
  burying: t("The rule on the bury"),
  "called-ace": t("The rule on calling an ace"),
  "unknown-card": t("The rule on the unknown card"),
  "called-ten": t("The rule on the called ten"),
  "jack-of-diamonds": t("The rule on the jack of diamonds partner"),
  cracking: t("The rule on cracking"),
  "leaster-rules": t("The rule on the leaster"),
  play: t("The rule on following suit"),
  "partner-duties": t("The rule on the called card's duties"),
  "duty-cards": t("The rule on cards you must keep"),
};

/** The rule behind the decision in front of the player, from the view's phase and legal list. */
export function ruleForDecision(phase, legal) {
  const texts = [...legal];
  switch (phase) {
    case "picking":
      return texts.includes("pass") ? "picking-order" : "forced-pick";
    case "burying":
      return "burying";
    case "calling":
      if (texts.some((t) => / unknown /.test(t))) return "unknown-card";
      if (texts.some((t) => /^call T/.test(t))) return "called-ten";
      if (texts.some((t) => /^call J/.test(t))) return "jack-of-diamonds";
      return "called-ace";
    case "cracking":
      return "cracking";
    case "naming":
      return "leaster-rules";
    case "playing":
      return "play";
    default:
      return null;
  }
}

/**
 * A link to a rule: a real address (it works in a new tab, or without this module),
 * opened in a dialog at the table so the game stays where it is.
 */
export function ruleLink(anchor, why = "") {
  const link = document.createElement("a");
  link.className = "rule-link";
  link.href = `/guide/rule/${anchor}`;
  link.dataset.rule = anchor;
  const words = RULE_WORDS[anchor] || t("This rule");
  link.textContent = why ? [t("Why?"), words].join(" ") : words;
  return link;
}

let ruleOpener = null;

function ruleDialog() {
  let dialog = document.getElementById("dlg-rule");
  if (dialog) return dialog;
  if (!document.querySelector("link[data-guide-css]")) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("../css/guide.css", import.meta.url).href;
    css.dataset.guideCss = "";
    document.head.append(css);
  }
  dialog = document.createElement("dialog");
  dialog.id = "dlg-rule";
  dialog.className = "dlg dlg-wide guide-rule";
  dialog.innerHTML =
    '<div class="rule-body" id="rule-body"></div>' +
    '<form method="dialog" class="dlg-buttons"><button class="primary"></button></form>';
  dialog.querySelector("button").textContent = t("Back to the game");
  dialog.addEventListener("close", () => {
    if (ruleOpener && ruleOpener.isConnected) ruleOpener.focus();
    ruleOpener = null;
  });
  document.body.append(dialog);
  return dialog;
}

/** Open the guide's section `anchor` in a dialog over the page. */
export async function openRule(anchor, opener = document.activeElement) {
  const dialog = ruleDialog();
  const body = dialog.querySelector("#rule-body");
  // From a link inside the dialog, focus stays in it, and goes back on closing to what
  // opened the dialog in the first place.
  const within = dialog.open;
  if (!within) ruleOpener = opener;
  body.replaceChildren();
  body.textContent = t("Loading the rule…");
  if (!within) dialog.showModal();
  try {
    const reply = await fetch(`/guide/fragment/${encodeURIComponent(anchor)}`);
    if (!reply.ok) throw new Error(String(reply.status));
    body.innerHTML = await reply.text();
  } catch {
    body.textContent = t("The rule could not be loaded. Your game is unchanged.");
    return;
  }
  drawCards(body);
  startDemos(body);
  keyboardScrollers(body);
  // A rule's links to other rules and glossary entries open here too; the rest (the
  // whole guide, a hand record) in a new tab, so the game stays open in this one.
  for (const link of body.querySelectorAll("a[href]")) {
    const to = new URL(link.href, location.href);
    const inPlace = to.pathname.startsWith("/guide/") && to.hash.length > 1 && !link.closest(".guide-more");
    if (inPlace) link.dataset.rule = to.hash.slice(1);
    else {
      link.target = "_blank";
      link.rel = "noopener";
    }
  }
  const heading = body.querySelector("h2");
  if (heading && heading.id) dialog.setAttribute("aria-labelledby", heading.id);
  dialog.dataset.rule = anchor;
  if (within && heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/** Open rule links (`a[data-rule]`) in place instead of leaving the page. */
export function bindRuleLinks(root = document) {
  root.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-rule]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    openRule(link.dataset.rule, link);
  });
}

// --- the guide's own pages ------------------------------------------------------------

if (document.querySelector(".page-guide, .home-guide")) {
  drawCards();
  startDemos();
  fillDemoSlots();
  keyboardScrollers();
}
