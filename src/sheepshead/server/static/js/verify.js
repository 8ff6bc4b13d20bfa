// Check a deal: show the re-derived cards as card images. When the server did not
// render the result into the page, fetch it from the API with the form's values.

import { api } from "./api.js";
import { cardName, cardSvg, installSprite } from "./cards.js";
import { t } from "./i18n.js";

function row(cards) {
  const list = document.createElement("ul");
  list.className = "mini-cards";
  for (const card of cards) {
    const item = document.createElement("li");
    item.className = "mini";
    item.innerHTML = cardSvg(card);
    const words = document.createElement("span");
    words.className = "sr-only";
    words.textContent = cardName(card);
    item.append(words);
    list.append(item);
  }
  return list;
}

function line(label, cards) {
  const item = document.createElement("li");
  const seat = document.createElement("span");
  seat.className = "deal-seat";
  seat.textContent = label;
  item.append(seat, row(cards));
  return item;
}

function draw(box, result) {
  const hash = document.createElement("p");
  hash.textContent = t("SHA-256 of the seed:") + " ";
  const code = document.createElement("code");
  code.className = "hash";
  code.textContent = result.seed_sha256;
  hash.append(code);
  const list = document.createElement("ol");
  list.className = "deal-list";
  // The names at the table (the server's, for the page's head count); seat 0 is the player.
  const names = (box.dataset.names || "").split(" ");
  result.hands.forEach((cards, seat) => list.append(line(seat === 0 ? t("You") : names[seat] || String(seat), cards)));
  list.append(line(t("Blind"), result.blind));
  box.replaceChildren(hash, ...verdict(result), list);
}

/** Whether the seed's SHA-256 is the fingerprint the link passed from the deal. */
function verdict(result) {
  const shown = (new URLSearchParams(window.location.search).get("sha256") || "").trim().toLowerCase();
  if (!shown) return [];
  const p = document.createElement("p");
  const words = document.createElement("strong");
  p.id = "verify-verdict";
  if (shown === result.seed_sha256) {
    p.classList.add("verdict", "verdict-ok");
    words.textContent = t("It matches the fingerprint shown at the deal.");
  } else {
    p.classList.add("verdict", "verdict-bad");
    p.setAttribute("role", "alert");
    words.textContent = t("It does not match the fingerprint shown at the deal ({hash}).", { hash: shown });
  }
  p.append(words);
  return [p];
}

async function main() {
  installSprite();
  const box = document.getElementById("verify-result");
  // Cards the server already wrote as text become pictures (the text stays for readers).
  for (const node of box.querySelectorAll(".deal-cards[data-cards]")) {
    const cards = node.dataset.cards.split(" ").filter(Boolean);
    node.replaceWith(row(cards));
  }
  const params = new URLSearchParams(window.location.search);
  const seed = params.get("seed");
  const form = document.getElementById("verify-form");
  if (seed && !form.elements.seed.value) form.elements.seed.value = seed;
  if (params.get("players")) form.elements.players.value = params.get("players");
  if (!seed || box.childElementCount) return;
  box.textContent = t("Dealing…");
  const players = params.get("players") || "5";
  try {
    const reply = await api.verify(seed.trim(), players);
    if (reply.kind === "ok") draw(box, reply.body);
    else {
      const error = document.createElement("p");
      error.className = "error";
      error.setAttribute("role", "alert");
      error.textContent = reply.detail;
      box.replaceChildren(error);
    }
  } catch (error) {
    box.textContent = error.message;
  }
}

main();
