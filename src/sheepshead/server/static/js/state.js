// What the page remembers: the last table state the server sent, the player's
// half-made choices (a bury being selected), and the settings kept in localStorage.

const SETTINGS_KEY = "sheepshead.settings.v1";

// The rules object's fields and defaults, as in the hand-record format. Which
// combinations exist is the format's business; the server checks them again.
export const DEFAULT_RULES = Object.freeze({
  players: 5,
  partner: "called-ace",
  call_unknown: true,
  call_ten: true,
  alone: true,
  jd_picker_holds: "alone",
  second_partner: false,
  nobody_picks: "leaster",
  leaster_blind: "last-trick",
  leaster_needs_trick: true,
  double_on_the_bump: true,
  forced_pick_bump: true,
  cracking: false,
});
export const DEFAULT_PARTNER = { 3: "none", 4: "none", 5: "called-ace", 6: "jack-of-diamonds" };
export const PARTNER_PLAYERS = {
  "called-ace": [4, 5],
  "jack-of-diamonds": [5, 6],
  none: [3, 4],
};
export const PRESETS = {
  standard: { players: 5 },
  "three-handed": { players: 3 },
  "four-handed": { players: 4 },
  "four-handed-called-ace": { players: 4, partner: "called-ace" },
  "six-handed": { players: 6 },
  "jack-of-diamonds": { players: 5, partner: "jack-of-diamonds" },
};
export const LEVELS = ["beginner", "standard", "expert"];
export const PACES = { slow: 900, normal: 520, fast: 220, instant: 0 };

/** A full rules object from a preset name. */
export function presetRules(name) {
  const preset = PRESETS[name] || PRESETS.standard;
  return { ...DEFAULT_RULES, partner: DEFAULT_PARTNER[preset.players], ...preset };
}

/** Make a rules object playable: a partner rule that fits the head count, and so on. */
export function fitRules(rules) {
  const out = { ...DEFAULT_RULES, ...rules };
  out.players = [3, 4, 5, 6].includes(Number(out.players)) ? Number(out.players) : 5;
  if (!(PARTNER_PLAYERS[out.partner] || []).includes(out.players)) {
    out.partner = DEFAULT_PARTNER[out.players];
  }
  if (out.players !== 6 || out.partner !== "jack-of-diamonds") out.second_partner = false;
  return out;
}

/** Only the fields that differ from the defaults, as a record writes them. */
export function rulesForServer(rules) {
  const fitted = fitRules(rules);
  const base = { ...DEFAULT_RULES, players: fitted.players, partner: DEFAULT_PARTNER[fitted.players] };
  const out = {};
  for (const [name, value] of Object.entries(fitted)) {
    if (name === "players" ? value !== 5 : value !== base[name]) out[name] = value;
  }
  return out;
}

const DEFAULT_SETTINGS = {
  rules: { ...DEFAULT_RULES },
  level: "standard",
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
    if (!LEVELS.includes(settings.level)) settings.level = "standard";
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
