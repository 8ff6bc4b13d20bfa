// What the table says, in the page's language: the players' names, each event of a
// reply ("Ann passes"), a hand's result, and why a card may not be played.
//
// The server's events carry an English `text` (for any client of the API) and the
// facts: type, seat, card, winner, points. The rest of what a sentence needs is in
// the state the reply brings (the hand's view and, once it is over, its summary), so
// the sentences are built here from the catalog. No rule is decided here.

import { FACE_DOWN, SUIT_NAMES, cardName } from "./cards.js";
import { list, num, signed, t, tn } from "./i18n.js";

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

// The blind's size, as rules.md deals it: four cards with four players, else two.
const blindSize = (table) => (table.players === 4 ? 4 : 2);

function passText(event, table, mine) {
  const v = table.view;
  const name = nameOf(table, event.seat);
  // The dealer speaks last: a pass by the dealer means that nobody picked.
  if (event.seat === v.dealer && v.picker === null) {
    const thrownIn = table.summary && table.summary.result.result === "doubler";
    if (thrownIn) {
      return mine
        ? t("You pass: nobody picked, so the hand is thrown in")
        : t("{name} passes: nobody picked, so the hand is thrown in", { name });
    }
    return mine
      ? t("You pass: nobody picked, so this hand is a leaster")
      : t("{name} passes: nobody picked, so this hand is a leaster", { name });
  }
  return mine ? t("You pass") : t("{name} passes", { name });
}

function callText(event, table, mine) {
  const v = table.view;
  const name = nameOf(table, event.seat);
  const card = cardName(event.card);
  if (!v.unknown_call) return mine ? t("You call the {card}", { card }) : t("{name} calls the {card}", { name, card });
  if (mine && v.unknown) {
    return t("You call the {card}, with the {unknown} as the unknown card", {
      card,
      unknown: cardName(v.unknown),
    });
  }
  return t("{name} calls the {card}, with an unknown card", { name, card });
}

function trickText(event, table) {
  const mine = event.winner === table.seat;
  const name = nameOf(table, event.winner);
  if (event.points === null || event.points === undefined) {
    return mine
      ? t("You take the trick, with a face-down card")
      : t("{name} takes the trick, with a face-down card", { name });
  }
  return mine
    ? tn("You take the trick: {n} point", "You take the trick: {n} points", event.points)
    : tn("{name} takes the trick: {n} point", "{name} takes the trick: {n} points", event.points, { name });
}

const PICKER_SIDE = {
  win: (p) => t("The picker's side ({side}) wins: {points} card points.", p),
  "win-schneider": (p) => t("The picker's side ({side}) wins with schneider: {points} card points.", p),
  "win-no-trick": (p) => t("The picker's side ({side}) wins every trick: {points} card points.", p),
  loss: (p) => t("The picker's side ({side}) loses: {points} card points.", p),
  "loss-schneider": (p) => t("The picker's side ({side}) loses, schneidered: {points} card points.", p),
  "loss-no-trick": (p) => t("The picker's side ({side}) loses without a trick: {points} card points.", p),
};

const LONE_PICKER = {
  win: (p) => t("The lone picker ({side}) wins: {points} card points.", p),
  "win-schneider": (p) => t("The lone picker ({side}) wins with schneider: {points} card points.", p),
  "win-no-trick": (p) => t("The lone picker ({side}) wins every trick: {points} card points.", p),
  loss: (p) => t("The lone picker ({side}) loses: {points} card points.", p),
  "loss-schneider": (p) => t("The lone picker ({side}) loses, schneidered: {points} card points.", p),
  "loss-no-trick": (p) => t("The lone picker ({side}) loses without a trick: {points} card points.", p),
};

/** The hand's result in one sentence, from the summary the server sent with it. */
export function handText(table) {
  const hand = table.summary;
  if (!hand) return "";
  const r = hand.result;
  const mine = r.scores[table.seat];
  const tail = t("You score {score}.", { score: signed(mine) });
  if (r.result === "doubler") return [t("Everyone passed: the hand is thrown in and the next one counts double."), tail].join(" ");
  if (r.leaster) {
    const winners = r.scores.map((s, seat) => [s, seat]).filter(([s]) => s > 0).map(([, seat]) => seat);
    if (!winners.length) return [t("Leaster: everyone ties, nobody scores."), tail].join(" ");
    const names = list(winners.map((seat) => nameIn(table, seat)));
    const low = r.points[winners[0]];
    const won = tn("Leaster: won by {names}, with {n} card point.", "Leaster: won by {names}, with {n} card points.", low, { names });
    return [won, tail].join(" ");
  }
  const side = list([r.picker, ...r.partners].map((seat) => nameIn(table, seat)));
  const words = (r.alone ? LONE_PICKER : PICKER_SIDE)[r.result];
  const text = words ? words({ side, points: num(r.points[0]) }) : r.result;
  return [text, tail].join(" ");
}

/** One event of a reply in words, for the live region and the prompt. */
export function eventText(event, table) {
  const mine = event.seat === table.seat;
  const name = event.seat === null || event.seat === undefined ? "" : nameOf(table, event.seat);
  const v = table.view;
  switch (event.type) {
    case "pass":
      return passText(event, table, mine);
    case "pick":
      return mine ? t("You pick up the blind") : t("{name} picks", { name });
    case "bury":
      if (mine && v.bury) return t("You bury the {cards}", { cards: cardList(v.bury) });
      return tn("{name} buries {n} card", "{name} buries {n} cards", blindSize(table), { name });
    case "call":
      return callText(event, table, mine);
    case "alone":
      return mine ? t("You go alone") : t("{name} goes alone", { name });
    case "crack":
      return mine ? t("You crack: the hand counts double") : t("{name} cracks: the hand counts double", { name });
    case "nocrack":
      return mine ? t("You do not crack") : t("{name} does not crack", { name });
    case "name": {
      const n = num(v.named_trick ?? "");
      return mine
        ? t("You name trick {n} to take the blind", { n })
        : t("{name} names trick {n} to take the blind", { name, n });
    }
    case "play":
      if (event.card === FACE_DOWN) return t("{name} plays a card face down", { name });
      return mine
        ? t("You play the {card}", { card: cardName(event.card) })
        : t("{name} plays the {card}", { name, card: cardName(event.card) });
    case "trick":
      return trickText(event, table);
    case "hand":
      return handText(table) || event.text;
    default:
      return event.text;
  }
}

// --- why a card may not be played ------------------------------------------------------

// The engine's refusals of a card, by code (refusals.py; docs/api.md lists the codes and
// their params), each with its words for the player: at the table the seat refused is
// always the one reading. A suit is its letter, or "trump".
const one = (p) => SUIT_NAMES[p.suit].one;
const many = (p) => SUIT_NAMES[p.suit].many;
const REFUSALS = {
  "lead-only-with": (p) =>
    t("You may lead {suits} only with the {card} until {suits} are led", { suits: many(p), card: cardName(p.card) }),
  "must-follow": (p) =>
    (p.suit === "trump" ? t("You must follow trump") : t("You must follow {suits}", { suits: many(p) })),
  "must-play-on-first-trick": (p) =>
    t("You must play the {card} on the first {suit} trick", { card: cardName(p.card), suit: one(p) }),
  "keep-unknown": (p) => t("You must keep the unknown card until {suits} are led", { suits: many(p) }),
  "keep-suit": (p) => t("You must keep a {suit} until {suits} are led", { suit: one(p), suits: many(p) }),
  "keep-card": (p) => t("You must keep the {card} until {suits} are led", { card: cardName(p.card), suits: many(p) }),
};

/** The words of the first pattern (a list of [RegExp, (match) => words]) that reads `text`, or null. */
function readWith(patterns, text) {
  for (const [pattern, words] of patterns) {
    const m = pattern.exec(text || "");
    if (m) return words(m);
  }
  return null;
}

/** Why the player may not play a card, from the engine's refusal {code, params, text}:
 * "You must follow hearts". */
export function refusalText(refusal) {
  const words = refusal && REFUSALS[refusal.code];
  return words ? words(refusal.params || {}) : t("You may not play that card now");
}

// --- what the server may answer ----------------------------------------------------------

// The server's fixed reasons that can reach the player (names.py, daily.py,
// daily_play.py, tables.py, table.py). They are listed here so that the catalogs carry
// them; serverText says them in the page's language.
export const SERVER_REASONS = [
  t("A name cannot contain markup: no <, > or &."),
  t("A combining mark must follow a letter."),
  t("Too many accents or marks on one letter."),
  t("A name needs at least one letter or digit."),
  t("That name is reserved: it would pass for the site or a computer player."),
  t("That name would pass for the site or its staff."),
  t("That name would pass for a computer player."),
  t("A letter cannot carry the same mark twice."),
  t("Every letter of that name looks like a letter of another script: it would pass for a name written in that script."),
  t("That name, or one that looks like it, is taken."),
  t("No player has that recovery code."),
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

// The scripts a name may not mix, as names.py calls them ("Cyrillic and Latin").
const SCRIPT_NAMES = {
  Latin: t("Latin"),
  Cyrillic: t("Cyrillic"),
  Greek: t("Greek"),
  Armenian: t("Armenian"),
  Georgian: t("Georgian"),
  Hebrew: t("Hebrew"),
  Arabic: t("Arabic"),
  Bengali: t("Bengali"),
  Devanagari: t("Devanagari"),
  Thai: t("Thai"),
  Han: t("Han"),
  Hangul: t("Hangul"),
  Hiragana: t("Hiragana"),
  Katakana: t("Katakana"),
};

function mixedScripts(named) {
  const scripts = named.split(" and ").map((name) => SCRIPT_NAMES[name]);
  if (scripts.every(Boolean)) {
    return t("A name cannot mix {scripts} letters: mixed scripts make look-alike names.", { scripts: list(scripts) });
  }
  return t("A name cannot mix letters of different scripts: mixed scripts make look-alike names.");
}

// A refused character as names.py describes it: '"☃" (snowman)', or, for one that
// cannot be shown, 'U+200B zero width space'. The page shows the character itself, or
// its code: the description is English.
const CHAR = '(?:"(.+)" \\([^()]*\\)|(U\\+[0-9A-F]{4,6})(?: [^()]*)?)';
const shown = (m) => m[1] ?? m[2];

// Rate limits (security.py) say how long to wait as the server does: seconds under
// two minutes, else whole minutes.
const waitFor = (p, seconds, minutes) =>
  (p.seconds < 120 ? seconds(p.seconds) : minutes(Math.ceil(p.seconds / 60)));

// The server's refusals that carry a code (refused.py; docs/api.md), by code, each with
// its words for the player from the params.
const SERVER_CODES = {
  "too-many-requests": (p) => waitFor(p,
    (n) => tn("Too many requests: please wait {n} second and try again.", "Too many requests: please wait {n} seconds and try again.", n),
    (n) => tn("Too many requests: please wait {n} minute and try again.", "Too many requests: please wait {n} minutes and try again.", n)),
  "too-many-new-players": (p) => waitFor(p,
    (n) => tn("Too many new players: please wait {n} second and try again. (new players from one network address are limited)", "Too many new players: please wait {n} seconds and try again. (new players from one network address are limited)", n),
    (n) => tn("Too many new players: please wait {n} minute and try again. (new players from one network address are limited)", "Too many new players: please wait {n} minutes and try again. (new players from one network address are limited)", n)),
  "stale-version": (p) =>
    t("this table is at version {now}, not {sent}: it changed since you saw it", { now: num(p.now), sent: num(p.sent) }),
};

// The server's reasons with a part that varies, each with its words for the player.
// tests/test_i18n.py holds each pattern to the server's own message.
export const SERVER_PATTERNS = [
  [new RegExp(`^A name cannot contain control or invisible characters \\(${CHAR}\\)\\.$`), (m) =>
    t("A name cannot contain control or invisible characters ({char}).", { char: shown(m) })],
  [new RegExp(`^A name may use letters, digits, spaces and - _ \\. ' only, not ${CHAR}\\.$`), (m) =>
    t("A name may use letters, digits, spaces and - _ . ' only, not \"{char}\".", { char: shown(m) })],
  [new RegExp(`^A name may use only letters in common use today, not ${CHAR}\\.$`), (m) =>
    t("A name may use only letters in common use today, not \"{char}\".", { char: shown(m) })],
  [/^A name needs at least (\d+) characters\.$/, (m) =>
    t("A name needs at least {n} characters.", { n: num(Number(m[1])) })],
  [/^A name has at most (\d+) characters\.$/, (m) =>
    t("A name has at most {n} characters.", { n: num(Number(m[1])) })],
  [/^A name cannot mix (.+) letters: mixed scripts make look-alike names\.$/, (m) => mixedScripts(m[1])],
  [/^A recovery code has (\d+) letters and digits, like ([0-9A-Z-]+)\.$/, (m) =>
    t("A recovery code has {n} letters and digits, like {example}.", { n: num(Number(m[1])), example: m[2] })],
  [/^"(.+)" is not in a recovery code\.$/, (m) => t('"{char}" is not in a recovery code.', { char: m[1] })],
  [/^this day is played against the \w+ computer players of version (\S+), and this server cannot run them \(.*\); the next day is played with the ones it has$/, (m) =>
    t("this day is played against computer players (version {version}) that this server cannot run; the next day is played with the ones it has", { version: /^\d+$/.test(m[1]) ? num(Number(m[1])) : m[1] })],
];

/**
 * A reason the server gave, in the page's language: by its code and params where the
 * server gave one that words.js words (a rate limit, a stale version, the engine's
 * refusal of a card), else a name's reason with a part that varies through
 * SERVER_PATTERNS, else a fixed one through the catalog. What none of them reads (a
 * malformed request's validation error) stays as the server wrote it.
 */
export function serverText(detail, code, params) {
  if (code && SERVER_CODES[code]) return SERVER_CODES[code](params || {});
  if (code && REFUSALS[code]) return refusalText({ code, params });
  return readWith(SERVER_PATTERNS, detail) ?? t(detail);
}
