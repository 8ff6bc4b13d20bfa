// Talking to the server: the only authority. Every reply is sorted into one of a few
// outcomes the table knows how to show; a lost connection is retried before the
// player hears of it, and the action is kept so that it can be sent again.

import { t } from "./i18n.js";
import { serverText } from "./words.js";

const BASE = "/api/v1";
// Waits between attempts when the connection drops (or the server is briefly away).
const RETRY_DELAYS_MS = [400, 1000, 2000, 4000];
const TRANSIENT = new Set([502, 503, 504]);

// A 503 that says why in JSON and sets no Retry-After is not a passing outage (the day's
// computer players are ones this server cannot run): the reason is said, not retried.
function lasting(response) {
  return (
    response.status === 503 &&
    !response.headers.get("retry-after") &&
    (response.headers.get("content-type") || "").startsWith("application/json")
  );
}

export class OfflineError extends Error {
  constructor() {
    super(t("The connection to the server was lost."));
    this.name = "OfflineError";
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function detailOf(response) {
  try {
    const body = await response.json();
    return body;
  } catch {
    return { detail: t("The server answered {status}.", { status: response.status }) };
  }
}

function readable(data) {
  // The server's reasons are English, most with a code and params: said in the page's
  // language where words.js knows them.
  const detail = data.detail;
  if (typeof detail === "string") return serverText(detail, data.code, data.params);
  // FastAPI's validation errors: a list of {loc, msg}.
  if (Array.isArray(detail)) return detail.map((d) => d.msg || String(d)).join("; ");
  return t("The server refused that.");
}

// A 503 whose reason is "busy": the server is full and refused at once (nothing was
// done). The action is sent once more after the wait it names, then the refusal said.
async function busyWait(response) {
  if (response.status !== 503) return null;
  const data = await detailOf(response.clone());
  if (!data || data.code !== "busy") return null;
  const seconds = Number(response.headers.get("retry-after")) || 1;
  return Math.min(Math.max(seconds, 1), 10) * 1000;
}

/**
 * One request with retries. Resolves to one of:
 *   {kind: "ok", status, body}
 *   {kind: "conflict", state, detail}   (409: redraw the state it carries)
 *   {kind: "refused", status, detail}   (4xx: a reason a person can read)
 * Rejects with OfflineError when every attempt failed to reach the server.
 * `onRetry(attempt)` is told before each new attempt, so the page can say "reconnecting";
 * `onBusy()` before the one new attempt after a "busy" refusal.
 */
export async function request(method, path, body, { onRetry, onBusy } = {}) {
  const init = {
    method,
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let busyRetried = false;
  for (let attempt = 0; ; attempt += 1) {
    let response = null;
    try {
      response = await fetch(BASE + path, init);
    } catch {
      response = null; // the network dropped: retry below
    }
    const busyMs = response ? await busyWait(response) : null;
    if (busyMs !== null) {
      if (busyRetried) {
        const detail = t("The server is busy just now: please try again in a moment.");
        return { kind: "refused", status: 503, detail };
      }
      busyRetried = true;
      if (onBusy) onBusy();
      await sleep(busyMs);
      attempt -= 1; // not a lost connection: its retries stay as they were
      continue;
    }
    if (response && (!TRANSIENT.has(response.status) || lasting(response))) {
      if (response.ok) {
        return { kind: "ok", status: response.status, body: await response.json() };
      }
      const data = await detailOf(response);
      if (response.status === 409 && data.state) {
        return { kind: "conflict", state: data.state, detail: readable(data) };
      }
      return { kind: "refused", status: response.status, detail: readable(data) };
    }
    if (attempt >= RETRY_DELAYS_MS.length) throw new OfflineError();
    if (onRetry) onRetry(attempt + 1);
    await sleep(RETRY_DELAYS_MS[attempt]);
  }
}

export const api = {
  current: (opts) => request("GET", "/games/current", undefined, opts),
  game: (id, opts) => request("GET", `/games/${encodeURIComponent(id)}`, undefined, opts),
  create: (rules, level, opts) => request("POST", "/games", { rules, level }, opts),
  act: (id, action, version, opts) =>
    request("POST", `/games/${encodeURIComponent(id)}/actions`, { action, version }, opts),
  nextHand: (id, version, opts) =>
    request("POST", `/games/${encodeURIComponent(id)}/next-hand`, { version }, opts),
  recordUrl: (id, hand) => `${BASE}/games/${encodeURIComponent(id)}/hands/${hand}/record`,
  verify: (seed, players, opts) =>
    request(
      "GET",
      `/verify?seed=${encodeURIComponent(seed)}&players=${encodeURIComponent(players)}`,
      undefined,
      opts,
    ),
};
