// What the table says, in the page's language: the players' names, each event of a
// reply ("Ann passes"), a hand's result, and why a card may not be played.
//
// The server's events carry their facts (type, seat, card, winner, points...) and an
// English `text` (for any client of the API). Both the server's text and the words here
// come from one catalog, the server's phrases.py, which the page carries in its
// language (#phrases): this module only picks the sentence and fills it from the
// facts. No rule is decided here, and no sentence is written here.

import { FACE_DOWN, SUIT_NAMES, cardName } from "./cards.js";
import { list, num, phrase, phrases, signed, t } from "./i18n.js";

/** A seat's name: "You" for the player, else the computer player's name. */
export function nameOf(table, seat) {
  if (seat === table.seat) return t("You");
  return table.names[seat] ?? t("Seat {n}", { n: num(seat) });
}

/** A seat's name inside a sentence: "you" for the player ("Ann and you"). */
export function nameIn(table, seat) {
  return seat === table.seat ? t("you") : nameOf(table, seat);
}

/** Card names joined as a list: "the ten of clubs and the ace of hearts" in English. */
export function cardList(cards) {
  return list(cards.map(cardName));
}

// A sentence of the server's catalog (phrases.py, in the page's language): `group` is
// "events" or "refusals", `key` the event's type or the refusal's code.
function say(group, key, variant, params = {}) {
  const variants = (phrases[group] || {})[key] || {};
  const message = variants[variant];
  return message === undefined ? null : phrase(message, params);
}

// Each event's sentence variant and params, from its facts alone (docs/api.md, Events),
// as events.py chooses them for the server's English: "you" when the reader acted.
function eventWords(event, table) {
  const mine = event.seat === table.seat ? "you" : "other";
  const name = event.seat === null || event.seat === undefined ? "" : nameOf(table, event.seat);
  switch (event.type) {
    case "pass":
      return [event.nobody_picked ? `${mine}-${event.nobody_picked}` : mine, { name }];
    case "bury":
      if (event.cards) return ["you", { cards: cardList(event.cards) }];
      return ["other", { name, n: event.count }];
    case "call": {
      const card = cardName(event.card);
      if (!event.unknown) return [mine, { name, card }];
      if (event.unknown !== FACE_DOWN) return ["you-unknown", { card, unknown: cardName(event.unknown) }];
      return ["other-unknown", { name, card }];
    }
    case "name":
      return [mine, { name, n: num(event.trick) }];
    case "play":
      if (event.card === FACE_DOWN) return ["face-down", { name }];
      return [mine, { name, card: cardName(event.card) }];
    case "trick": {
      const who = event.winner === table.seat ? "you" : "other";
      const winner = nameOf(table, event.winner);
      if (event.points === null || event.points === undefined) return [`${who}-face-down`, { name: winner }];
      return [who, { name: winner, n: event.points }];
    }
    default:
      return [mine, { name }];
  }
}

/** The hand's result in one sentence, from the "hand" event's facts (docs/api.md). */
export function handText(event, table) {
  const tail = say("events", "hand", "score", { score: signed(event.scores[table.seat]) });
  if (event.result === "doubler") return [say("events", "hand", "doubler"), tail].join(" ");
  if (event.leaster) {
    const winners = event.scores.map((s, seat) => [s, seat]).filter(([s]) => s > 0).map(([, seat]) => seat);
    if (!winners.length) return [say("events", "hand", "leaster-tie"), tail].join(" ");
    const names = list(winners.map((seat) => nameIn(table, seat)));
    return [say("events", "hand", "leaster", { names, n: event.points[winners[0]] }), tail].join(" ");
  }
  const side = list([event.picker, ...event.partners].map((seat) => nameIn(table, seat)));
  const variant = `${event.alone ? "alone" : "side"}-${event.result}`;
  const text = say("events", "hand", variant, { side, points: num(event.points[0]) }) ?? event.text;
  return [text, tail].join(" ");
}

/** One event of a reply in words, for the live region and the prompt. */
export function eventText(event, table) {
  if (event.type === "hand") return handText(event, table);
  const [variant, params] = eventWords(event, table);
  return say("events", event.type, variant, params) ?? event.text;
}

// --- why a card may not be played ------------------------------------------------------

// A refusal's params in words for the page (docs/api.md, Refusals): a suit is its letter
// or "trump", a card its text, a number in the page's digits. At the table the seat
// refused is always the one reading, so the catalog says it to "You".
function refusalParams(params) {
  const out = { ...params };
  const suit = SUIT_NAMES[params.suit];
  if (suit) Object.assign(out, { suit: suit.one, suits: suit.many });
  if (params.card) out.card = cardName(params.card);
  return out;
}

const refusalVariant = (code, p) => (code === "must-follow" && p.suit === "trump" ? "trump" : "you");

/** Why the player may not play a card, from the engine's refusal {code, params, text}:
 * "You must follow hearts". */
export function refusalText(refusal) {
  const code = refusal && refusal.code;
  const p = (refusal && refusal.params) || {};
  return say("refusals", code, refusalVariant(code, p), refusalParams(p)) ?? say("refusals", "card-refused", "you");
}

// --- what the server may answer ----------------------------------------------------------

// The server's fixed reasons without a code that can reach the player (daily_play.py,
// tables.py). They are listed here so that the catalogs carry them; serverText says them
// in the page's language.
export const SERVER_REASONS = [
  t("this game changed while your action was on its way"),
  t("this attempt changed while your action was on its way"),
  t("this attempt changed while your request was on its way"),
  t("this attempt is finished"),
  t("the day is over: an attempt unfinished at its end does not count"),
  t("that was the day's last deal"),
  t("that day has not started yet"),
  t("the hand is over: deal the next hand"),
  t("the current hand is not over yet"),
];

// Rate limits (security.py) say how long to wait as the server does: seconds under
// two minutes, else whole minutes.
function waitParams(p) {
  return p.seconds < 120 ? ["seconds", { n: p.seconds }] : ["minutes", { n: Math.ceil(p.seconds / 60) }];
}

// The scripts a name may not mix, in the page's words; null if one has none.
function scriptNames(scripts) {
  const named = (scripts || []).map((name) => (phrases.scripts || {})[name]);
  return named.length && named.every(Boolean) ? list(named) : null;
}

// The server's refusals with a code (refused.py; docs/api.md), each with the variant and
// params of its sentence in phrases.py; the rest say their params as they come, numbers
// in the page's digits.
const SERVER_PARAMS = {
  "too-many-requests": waitParams,
  "too-many-new-players": waitParams,
  "stale-version": (p) => ["you", { now: num(p.now), sent: num(p.sent) }],
  "day-players-gone": (p) => ["you", { version: Number.isInteger(p.version) ? num(p.version) : p.version }],
  "name-too-short": (p) => ["you", { n: num(p.n) }],
  "name-too-long": (p) => ["you", { n: num(p.n) }],
  "name-invisible": (p) => ["you", { char: p.shown }],
  "name-symbol": (p) => ["you", { char: p.shown }],
  "name-profile": (p) => ["you", { char: p.shown }],
  "name-mixed-scripts": (p) => {
    const scripts = scriptNames(p.scripts);
    return scripts ? ["you", { scripts }] : ["unnamed", {}];
  },
  "recovery-code-length": (p) => ["you", { n: num(p.n), example: p.example }],
  // A friends' table's (friends_play.py): the variant named by a param where one code
  // has several sentences.
  "too-many-joins": waitParams,
  "not-your-turn": (p) => (typeof p.name === "string" ? ["you", { name: p.name }] : ["plain", {}]),
  "no-such-seat": (p) => ["you", { seat: num(p.seat) }],
  "not-host": (p) => [p.for === "remove" ? "remove" : "start", {}],
  "hand-not-over": (p) =>
    Number.isInteger(p.number) ? ["number", { number: num(p.number) }] : [p.for === "remove" ? "remove" : "you", {}],
  "bad-message": (p) => ["you", { message: p.message, messages: p.messages }],
  "bad-rules": (p) => ["you", { reason: p.reason }],
  "bad-level": (p) => ["you", { reason: p.reason }],
};

/**
 * A reason the server gave, in the page's language: by its code and params where the
 * server gave a code the catalog words (a name, a recovery code, a rate limit, a stale
 * version, the engine's refusal of a card), else a fixed one through the catalog. What
 * neither reads (a malformed request's validation error) stays as the server wrote it.
 */
export function serverText(detail, code, params) {
  const p = params || {};
  if (code && (phrases.refusals || {})[code]) {
    const [variant, filled] = SERVER_PARAMS[code] ? SERVER_PARAMS[code](p) : [refusalVariant(code, p), refusalParams(p)];
    const words = say("refusals", code, variant, filled);
    if (words !== null) return words;
  }
  return t(detail);
}
