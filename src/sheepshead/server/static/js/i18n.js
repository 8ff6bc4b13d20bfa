// The page scripts' words in the page's language. The server puts the catalog of the
// scripts' messages in the page (#i18n-catalog, JSON: English text -> translation, a
// list of forms for a plural) and the language in <html lang>. English needs no
// catalog: a message is its own English text. See docs/i18n.md.
//
//   t("Waiting for {name}…", { name })          one message, {name} filled in
//   tn("{n} player", "{n} players", n, { n })   a plural, chosen by n
//   num(12), signed(-4), percent(62.5), day("2026-10-14")   in the page's digits

export const lang = document.documentElement.lang || "en";

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return {};
  try {
    return JSON.parse(node.textContent || "{}");
  } catch {
    return {};
  }
}

const catalog = readJson("i18n-catalog");

/** The sentences of the server's phrases.py in the page's language (#phrases): events by
 * type, refusals by code, scripts by name; see `phrase`. */
export const phrases = readJson("phrases");

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The message in the page's language, with `{name}` placeholders filled from `params`. */
export function t(message, params = {}) {
  const found = catalog[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

const plurals = new Intl.PluralRules(lang);

/** A message with a singular and a plural form, chosen by `n` as the language does. */
export function tn(singular, plural, n, params = {}) {
  const forms = catalog[singular];
  // The catalogs' plural forms follow gettext's "n != 1" for all three languages.
  const index = plurals.select(n) === "one" && n === 1 ? 0 : 1;
  let text = index === 0 ? singular : plural;
  if (Array.isArray(forms) && forms.length) text = forms[Math.min(index, forms.length - 1)];
  return fill(text, { n: num(n), ...params });
}

/** A message of `phrases` (a string, or a plural's forms chosen by `params.n`, a number)
 * with its placeholders filled from `params` (`n` written in the page's digits). */
export function phrase(message, params = {}) {
  if (!Array.isArray(message)) return fill(message, params);
  const n = params.n;
  const form = message[plurals.select(n) === "one" && n === 1 ? 0 : Math.min(1, message.length - 1)];
  return fill(form, { ...params, n: num(n) });
}

const numbers = new Intl.NumberFormat(lang);
const scores = new Intl.NumberFormat(lang, { signDisplay: "exceptZero" });
const percents = new Intl.NumberFormat(lang, {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A number in the page's digits: "12", "১২". */
export const num = (n) => numbers.format(n);

/** A score with its sign: "+2", "-4", "0" ("+২" in Bengali). */
export const signed = (n) => scores.format(n);

/** A share given in percent: 62.5 -> "62.5%", "62,5 %", "৬২.৫%". */
export const percent = (x) => percents.format(Number(x) / 100);

/** An ISO day ("2026-10-14") as the language writes a date. */
export function day(iso) {
  const [y, m, d] = String(iso).split("-").map(Number);
  if (!y || !m || !d) return String(iso);
  return new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date(y, m - 1, d));
}

/** A moment (ISO instant) in the reader's time zone and language. */
export function moment(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  // Bengali times in 24 hours: the locale's AM and PM are written in Latin letters.
  return when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short", hour12: lang === "bn" ? false : undefined });
}

/** A moment in a given time zone (the reader's if none), with the zone's name: "Dec 2, 2026, 12:00 AM CST". */
export function zonedMoment(iso, timeZone = undefined) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  const options = { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
  return when.toLocaleString(lang, { ...options, timeZone, hour12: lang === "bn" ? false : undefined });
}

/** Items joined as the language joins a list: "A and B", "A und B", "A ও B". */
export function list(items) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items.map(String));
}
