// The coach's actions and labels in the page's language (coach.js, review.js).

import { t, num } from "./i18n.js";
import { cardName } from "./cards.js";
import { cardList } from "./words.js";

/** "0 play QC" -> "play the queen of clubs"; the seat is left out (it is the player's). */
export function actionWords(action) {
  const [, verb, ...args] = action.split(" ");
  switch (verb) {
    case "play":
      return t("play {card}", { card: cardName(args[0]) });
    case "bury":
      return t("bury {cards}", { cards: cardList(args) });
    case "call":
      if (args[1] === "unknown") {
        return t("call {card}, with {unknown} as the unknown card", {
          card: cardName(args[0]),
          unknown: cardName(args[2]),
        });
      }
      return t("call {card}", { card: cardName(args[0]) });
    case "pick":
      return t("pick");
    case "pass":
      return t("pass");
    case "alone":
      return t("go alone");
    case "crack":
      return t("crack");
    case "nocrack":
      return t("not crack");
    case "name":
      return t("name trick {n}", { n: num(Number(args[0])) });
    default:
      return action;
  }
}

/** A label's words: inaccuracy, mistake, blunder; close; or nothing. */
export function labelWords(decision) {
  if (decision.forced) return t("forced");
  if (decision.close) return t("close");
  switch (decision.label) {
    case "inaccuracy":
      return t("inaccuracy");
    case "mistake":
      return t("mistake");
    case "blunder":
      return t("blunder");
    default:
      return t("good");
  }
}
