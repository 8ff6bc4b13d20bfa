// The cards, drawn as SVG: a rank index and suit pips in two corners, pips or a
// crowned figure in the middle, and a patterned back. Drawing, naming, and the order
// and points a hand or a trick is shown with: which card may be played, and which
// card wins a trick, always come from the server.

import { t } from "./i18n.js";

export const FACE_DOWN = "??";

const RANK_WORDS = {
  7: "seven",
  8: "eight",
  9: "nine",
  T: "ten",
  J: "jack",
  Q: "queen",
  K: "king",
  A: "ace",
};

// The trumps, high to low. For showing only: the "mark trumps" learner aid's gold
// corner, and the order of a hand of cards. It never decides anything; the server's
// legal list does.
const TRUMP_ORDER = "QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D".split(" ");
const TRUMP_FACES = new Set(TRUMP_ORDER);
const FAIL_SUITS = "CSH";
const FAIL_RANKS = "ATK987";

function displayKey(text) {
  if (TRUMP_FACES.has(text)) return TRUMP_ORDER.indexOf(text);
  return 100 + 10 * FAIL_SUITS.indexOf(text[1]) + FAIL_RANKS.indexOf(text[0]);
}

/**
 * Cards in the order a seat holds them: trump high to low, then clubs, spades and
 * hearts, each high to low. The server sends the player's own hand (`view.cards`) in
 * this order already (`sorted_for_display`); this sorts the hands it sends as dealt
 * (the summary's), and a face-down card goes last.
 */
export function inHandOrder(cards) {
  const key = (text) => (text === FACE_DOWN || !text ? 1000 : displayKey(text));
  return [...cards].sort((a, b) => key(a) - key(b));
}

const RANK_POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2 };

/** A trick's card points, or null when a card in it is face down (the server keeps those). */
export function trickPoints(cards) {
  if (cards.some((text) => text === FACE_DOWN || !text)) return null;
  return cards.reduce((sum, text) => sum + (RANK_POINTS[text[0]] || 0), 0);
}


// Every card's name in the page's language, as card players of that language say it
// ("queen of clubs", "Kreuz-Dame", "চিড়িতনের বিবি"): whole names in the catalogs, never
// assembled from words, since each language builds them its own way.
const CARD_NAMES = {
  "7C": t("seven of clubs"), "8C": t("eight of clubs"), "9C": t("nine of clubs"), "TC": t("ten of clubs"),
  "JC": t("jack of clubs"), "QC": t("queen of clubs"), "KC": t("king of clubs"), "AC": t("ace of clubs"),
  "7S": t("seven of spades"), "8S": t("eight of spades"), "9S": t("nine of spades"), "TS": t("ten of spades"),
  "JS": t("jack of spades"), "QS": t("queen of spades"), "KS": t("king of spades"), "AS": t("ace of spades"),
  "7H": t("seven of hearts"), "8H": t("eight of hearts"), "9H": t("nine of hearts"), "TH": t("ten of hearts"),
  "JH": t("jack of hearts"), "QH": t("queen of hearts"), "KH": t("king of hearts"), "AH": t("ace of hearts"),
  "7D": t("seven of diamonds"), "8D": t("eight of diamonds"), "9D": t("nine of diamonds"), "TD": t("ten of diamonds"),
  "JD": t("jack of diamonds"), "QD": t("queen of diamonds"), "KD": t("king of diamonds"), "AD": t("ace of diamonds"),
};

/** The suits' names, singular and plural ("heart", "hearts"), for the table's sentences. */
export const SUIT_NAMES = {
  C: { one: t("club"), many: t("clubs") },
  S: { one: t("spade"), many: t("spades") },
  H: { one: t("heart"), many: t("hearts") },
  D: { one: t("diamond"), many: t("diamonds") },
};

/** "QC" -> "queen of clubs" (in the page's language); "??" -> "a face-down card". */
export function cardName(text) {
  if (text === FACE_DOWN || !text) return t("a face-down card");
  return CARD_NAMES[text] || text;
}

/** "AH" -> "hearts": the plural name of a card's suit. */
export function suitWord(text) {
  return SUIT_NAMES[text[1]].many;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// The rank letters live in the sprite and cards refer to them, so a card button's own
// content holds no text: its name ("queen of clubs") is then the whole label that
// voice control and axe's label-in-name check see, not "Q Q Q" beside it.
const INDEX_GLYPHS = [..."789TJQKA"]
  .map((rank) => {
    const squeeze = rank === "T" ? ' textLength="24" lengthAdjust="spacingAndGlyphs"' : "";
    return `<text id="ix-${rank}"${squeeze}>${rank === "T" ? "10" : rank}</text>`;
  })
  .join("");

// Suit shapes in a 20 x 20 box, filled with the card's suit colour (currentColor).
const SPRITE = `
<symbol id="pip-H" viewBox="0 0 20 20"><path d="M10 18.5C3.5 13.4.6 9.7 1.4 6.2 2.3 2.4 7.4 1.4 10 5.4c2.6-4 7.7-3 8.6.8.8 3.5-2.1 7.2-8.6 12.3z"/></symbol>
<symbol id="pip-D" viewBox="0 0 20 20"><path d="M10 .8l7.6 9.2-7.6 9.2L2.4 10z"/></symbol>
<symbol id="pip-S" viewBox="0 0 20 20"><path d="M10 .8C6.6 5.3 1.4 8.2 1.6 12.3c.2 3.4 4.4 4.4 7.1 1.7-.2 2.4-1.2 4.1-2.9 5.2h8.4c-1.7-1.1-2.7-2.8-2.9-5.2 2.7 2.7 6.9 1.7 7.1-1.7C18.6 8.2 13.4 5.3 10 .8z"/></symbol>
<symbol id="pip-C" viewBox="0 0 20 20"><circle cx="10" cy="5.6" r="4.3"/><circle cx="5" cy="11.6" r="4.3"/><circle cx="15" cy="11.6" r="4.3"/><path d="M9 9h2c0 4.4.9 7.6 3.2 10.2H5.8C8.1 16.6 9 13.4 9 9z"/></symbol>
${INDEX_GLYPHS}
<pattern id="back-weave" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" class="back-a"/><rect width="4" height="8" class="back-b"/></pattern>`;

/** Put the suit shapes in the page once; every card refers to them. */
export function installSprite(doc = document) {
  if (doc.getElementById("pip-H")) return;
  const svg = doc.createElementNS(SVG_NS, "svg");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "sprite");
  svg.innerHTML = `<defs>${SPRITE}</defs>`;
  doc.body.prepend(svg);
}

function pip(suit, cx, cy, size) {
  const h = size / 2;
  const turn = cy > 72 ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  return `<use href="#pip-${suit}" x="${cx - h}" y="${cy - h}" width="${size}" height="${size}"${turn}/>`;
}

// Pip positions (centres) for the number cards, in the 100 x 140 card box.
const L = 31;
const R = 69;
const ROWS3 = [32, 70, 108];
const ROWS4 = [32, 57, 83, 108];
const both = (rows) => rows.flatMap((y) => [[L, y], [R, y]]);
const PIPS = {
  7: [...both(ROWS3), [50, 51]],
  8: [...both(ROWS3), [50, 51], [50, 89]],
  9: [...both(ROWS4), [50, 70]],
  T: [...both(ROWS4), [50, 44], [50, 96]],
};

const EMBLEMS = {
  // A king's crown with three points, a queen's tiara, a jack's cap and feather.
  K: '<path class="gold" d="M35 47V27l7.5 9L50 22l7.5 14L65 27v20z"/>',
  Q: '<path class="gold" d="M36 47q14-24 28 0z"/><circle class="gold" cx="41" cy="37" r="3"/><circle class="gold" cx="50" cy="31" r="3.4"/><circle class="gold" cx="59" cy="37" r="3"/>',
  J: '<path class="gold" d="M36 48q1-14 14-14t14 14z"/><path class="gold" d="M58 37q9-13 5-19-7 7-9 18z"/>',
};

function figure(rank, suit) {
  // A crowned figure: emblem, head, and a body in the suit's colour carrying the letter.
  return `<rect class="panel" x="22" y="18" width="56" height="104" rx="5"/>
${EMBLEMS[rank]}<circle class="skin" cx="50" cy="58" r="10"/>
<path d="M28 120q0-40 22-47 22 7 22 47z"/>
<use class="fig-letter" href="#ix-${rank}" x="50" y="111"/>${pip(suit, 50, 83, 11)}`;
}

function centre(rank, suit) {
  if (rank === "A") return pip(suit, 50, 70, 48);
  if (rank in PIPS) return PIPS[rank].map(([x, y]) => pip(suit, x, y, 20)).join("");
  return figure(rank, suit);
}

function index(rank, suit) {
  return `<use class="ix" href="#ix-${rank}" x="13" y="29"/>${pip(suit, 13, 42, 17)}`;
}

const cache = new Map();

/**
 * The SVG markup of a card face ("QC") or of a back ("??").
 * `trumpMark` adds a gold corner to the trumps (a learner's aid, display only).
 */
export function cardSvg(text, { trumpMark = false } = {}) {
  const key = `${text}|${trumpMark}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let svg;
  if (text === FACE_DOWN || !text) {
    svg = `<svg class="cardsvg back" viewBox="0 0 100 140" aria-hidden="true" focusable="false"><rect class="edge" x="1" y="1" width="98" height="138" rx="8"/><rect x="8" y="8" width="84" height="124" rx="4" fill="url(#back-weave)"/></svg>`;
  } else {
    const rank = text[0];
    const suit = text[1];
    const mark = trumpMark && TRUMP_FACES.has(text) ? '<path class="tmark" d="M66 1.5h25a7.5 7.5 0 0 1 7.5 7.5v25z"/>' : "";
    svg = `<svg class="cardsvg suit-${suit}" viewBox="0 0 100 140" aria-hidden="true" focusable="false"><rect class="edge" x="1" y="1" width="98" height="138" rx="8"/>${mark}${index(rank, suit)}<g transform="rotate(180 50 70)">${index(rank, suit)}</g>${centre(rank, suit)}</svg>`;
  }
  cache.set(key, svg);
  return svg;
}
