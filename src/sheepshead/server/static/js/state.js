// What the page remembers: the last table state the server sent, the player's
// half-made choices (a bury being selected), and the settings kept in localStorage.

const SETTINGS_KEY = "sheepshead.settings.v1";

// The rule sheet as the server serves it (#rules-catalog: server/catalog.py, from
// rules.py; docs/api.md, Rules): the options and their defaults, the presets, the head
// counts, which partner rule each head count plays, and the levels. The page keeps no
// copy of them; the server checks every rules object again.
function readCatalog() {
  const node = typeof document === "undefined" ? null : document.getElementById("rules-catalog");
  try {
    return JSON.parse((node && node.textContent) || "{}");
  } catch {
    return {};
  }
}

export const RULES = readCatalog();
export const DEFAULT_RULES = Object.freeze({ ...(RULES.defaults || {}) });
export const PARTNER_PLAYERS = RULES.partner_players || {};
export const PRESETS = Object.fromEntries((RULES.presets || []).map((p) => [p.name, p.rules]));
export const LEVELS = (RULES.levels || []).map((level) => level.name);
export const PACES = { slow: 900, normal: 520, fast: 220, instant: 0 };

const defaultPartner = (players) => (RULES.default_partner || {})[players];

/** A full rules object from a preset name. */
export function presetRules(name) {
  return { ...(PRESETS[name] || DEFAULT_RULES) };
}

/** Make a rules object playable: a head count the deal table has, a partner rule that
 * fits it, a second partner only where the catalog plays one. */
export function fitRules(rules) {
  const out = { ...DEFAULT_RULES, ...rules };
  const players = Number(out.players);
  out.players = (RULES.head_counts || []).includes(players) ? players : DEFAULT_RULES.players;
  if (!(PARTNER_PLAYERS[out.partner] || []).includes(out.players)) {
    out.partner = defaultPartner(out.players);
  }
  const second = RULES.second_partner || {};
  if (out.players !== second.players || out.partner !== second.partner) out.second_partner = false;
  return out;
}

/** Only the fields that differ from the defaults (the partner's for the head count), as a
 * record writes them. */
export function rulesForServer(rules) {
  const fitted = fitRules(rules);
  const base = { ...DEFAULT_RULES, players: fitted.players, partner: defaultPartner(fitted.players) };
  const out = {};
  for (const [name, value] of Object.entries(fitted)) {
    if (name === "players" ? value !== DEFAULT_RULES.players : value !== base[name]) out[name] = value;
  }
  return out;
}

const DEFAULT_SETTINGS = {
  rules: { ...DEFAULT_RULES },
  level: RULES.default_level,
  fourColour: false,
  markTrumps: false,
  pace: "normal",
};

// A browser with no saved settings starts with the two aids that help most while
// learning; settings once saved are read as they were saved.
const FIRST_SETTINGS = { fourColour: true, markTrumps: true };

function loadSettings() {
  try {
    const text = localStorage.getItem(SETTINGS_KEY);
    const saved = JSON.parse(text || "{}");
    const settings = { ...DEFAULT_SETTINGS, ...(text ? {} : FIRST_SETTINGS), ...saved };
    settings.rules = fitRules(saved.rules || {});
    if (!LEVELS.includes(settings.level)) settings.level = RULES.default_level;
    if (!(settings.pace in PACES)) settings.pace = "normal";
    return settings;
  } catch {
    return { ...DEFAULT_SETTINGS, ...FIRST_SETTINGS, rules: { ...DEFAULT_RULES } };
  }
}

export function saveSettings(settings) {
  store.settings = settings;
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private browsing may refuse storage; the settings still hold for this visit.
  }
}

export const store = {
  /** The last TableState from the server (null before the first reply). */
  table: null,
  /** Cards chosen for the bury so far (card texts). */
  selected: [],
  /** The card being called with an unknown, while the player chooses the unknown card. */
  calling: null,
  /** An action is on its way to the server. */
  busy: false,
  /** While events are being shown: what the table looks like at that moment. */
  overlay: null,
  /** While events are being shown: the hand's worth as it stood before them. */
  shownWorth: null,
  /** The action to send again after a lost connection: {kind, action}. */
  pending: null,
  /** The card that has (or last had) the hand's one tab stop. */
  focusCard: null,
  /** The connection was lost: `pending` can be sent again. */
  offline: false,
  settings: loadSettings(),
};

export function setTable(table) {
  const before = store.table;
  store.table = table;
  const sameDecision =
    before &&
    before.id === table.id &&
    before.hand_number === table.hand_number &&
    before.view.phase === table.view.phase &&
    before.view.turn === table.view.turn;
  if (!sameDecision) {
    store.selected = [];
    store.calling = null;
  }
}

export function legalSet() {
  const table = store.table;
  if (!table || store.busy || store.overlay) return new Set();
  return new Set(table.view.legal);
}

export function myTurn() {
  const view = store.table && store.table.view;
  return Boolean(view && view.turn === store.table.seat && view.legal.length);
}
