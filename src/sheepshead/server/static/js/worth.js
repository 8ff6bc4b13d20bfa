// What the hand is worth, in words: its kind (a leaster and what winning one needs),
// what it counts (a doubled hand, each crack, the bump) and the card points of the
// picker's side as this seat knows them. The server works all of it out for this seat
// (`worth` in the state, docs/api.md); the page only says it.

import { trickPoints } from "./cards.js";
import { list, num, t } from "./i18n.js";
import { store } from "./state.js";
import { nameIn, nameOf } from "./words.js";

/** Why the hand counts more: "Ann cracked", "after a thrown-in hand", "lost: double on the bump". */
function doublingWords(table, doubling) {
  switch (doubling.reason) {
    case "doubler":
      return t("after a thrown-in hand");
    case "crack":
      return doubling.seat === table.seat ? t("you cracked") : t("{name} cracked", { name: nameIn(table, doubling.seat) });
    case "bump":
      return t("lost: double on the bump");
    default:
      return doubling.reason;
  }
}

/** "Counts ×2: Ann cracked", or "" when the hand counts once. */
export function multiplierText(table, worth) {
  if (!worth || worth.multiplier <= 1) return "";
  const reasons = worth.doublings.map((d) => doublingWords(table, d));
  return t("Counts ×{n}: {reasons}", { n: num(worth.multiplier), reasons: list(reasons) });
}

/** What a leaster asks of its winner, from the table's rules. */
export function leasterText(table) {
  const needsTrick = table.rules.leaster_needs_trick !== false;
  return needsTrick
    ? t("Leaster: the fewest card points wins, with at least one trick taken.")
    : t("Leaster: the fewest card points wins.");
}

/** The picker's side's card points as this seat knows them, or "" before there are any to tell. */
export function sideText(table, worth) {
  const v = table.view;
  if (!worth || worth.side_points === null || worth.side_points === undefined) return "";
  const mine = v.picker === table.seat;
  // Before the first lead only the picker has something to count: the bury, once made.
  const buried = mine && worth.bury_points !== null && v.phase !== "burying";
  if (v.phase !== "playing" && !buried) return "";
  const points = num(worth.side_points);
  let line;
  if (mine && worth.bury_points !== null) {
    line = t("Your side: {points} card points, the bury's {bury} included (61 wins)", {
      points,
      bury: num(worth.bury_points),
    });
  } else if (v.partner) {
    line = t("Your side: {points} card points (61 wins)", { points });
  } else {
    line = t("Picker's side: {points} card points (61 wins)", { points });
  }
  return worth.face_down ? [line, t("(and a face-down card)")].join(" ") : line;
}

/** The line above the hand: what the hand counts, its kind, the picker's side's points. */
export function worthParts(table, worth) {
  const parts = [];
  const times = multiplierText(table, worth);
  if (times) parts.push({ text: times, cls: "times" });
  if (worth && worth.kind === "leaster" && table.view.phase !== "done") parts.push({ text: leasterText(table), cls: "kind" });
  const side = sideText(table, worth);
  if (side) parts.push({ text: side, cls: "side" });
  return parts;
}

/** Card points taken so far: per seat in a leaster, the picker's side's as this seat
 * knows them, and what the hand counts; once it is over, the scored totals. */
function pointsParts(table, players) {
  const v = table.view;
  if (table.summary && table.summary.result.points) {
    const r = table.summary.result;
    if (r.leaster) return [{ text: t("Card points: {list}", { list: perSeat(table, r.points) }) }];
    const line = t("Card points with the bury: picker's side {picker}, defenders {defenders}", {
      picker: num(r.points[0]),
      defenders: num(r.points[1]),
    });
    const times = multiplierText(table, table.worth);
    return times ? [{ text: times, cls: "times" }, { text: line }] : [{ text: line }];
  }
  // While events are being shown, the hand as it stood before them: the tricks not
  // yet shown do not count yet.
  const worth = store.overlay ? store.shownWorth : table.worth;
  const parts = worthParts(table, worth);
  const tricks = store.overlay ? v.tricks.slice(0, store.overlay.tricksDone) : v.tricks;
  if (v.phase === "playing" && v.picker === null && tricks.length) {
    const per = new Array(players).fill(0);
    for (const trick of tricks) {
      const points = trickPoints(trick.cards);
      if (points === null) return parts;
      per[trick.winner] += points;
    }
    parts.push({ text: t("Card points: {list}", { list: perSeat(table, per) }) });
  }
  return parts;
}

/** Draw the points line (#points), one span per part. */
export function renderPoints(table, players) {
  const spans = pointsParts(table, players).map((part) => {
    const span = document.createElement("span");
    if (part.cls) span.className = part.cls;
    span.textContent = part.text;
    return span;
  });
  document.getElementById("points").replaceChildren(...spans);
}

/** "Ann 12, Bob 0, …": each seat's card points, in the page's digits. */
function perSeat(table, points) {
  return points.map((p, s) => `${nameOf(table, s)} ${num(p)}`).join(", ");
}
