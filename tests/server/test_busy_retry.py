"""The page's request path when the server is full: a 503 "busy" is said ("trying
again") and the request sent once more after Retry-After; a second one is said as a
refusal in the page's language. ``api.js`` run by Node, its fetch answered here."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from sheepshead.server import i18n

API_JS = Path(i18n.__file__).resolve().parent / "static" / "js" / "api.js"
NODE = shutil.which("node")
BUSY = {
    "detail": "The server is busy just now: please try again in a moment.",
    "code": "busy",
    "params": {"seconds": 1},
}


def send_actions(lang: str, runs: list[list[int]]) -> list[dict[str, Any]]:
    """For each run, ``api.act`` against a server whose replies have these statuses in
    turn (503: the busy refusal): the outcome, what was fetched, how often the page was
    told. One Node process for all the runs."""
    assert NODE, "node is needed to run the page scripts"
    catalog = json.dumps(i18n.script_messages(lang))
    script = f"""
globalThis.document = {{
  documentElement: {{ lang: {json.dumps(lang)} }},
  getElementById: (id) => (id === "i18n-catalog" ? {{ textContent: {json.dumps(catalog)} }} : null),
}};
const busyBody = {json.dumps(BUSY)};
let answers = [];
let fetched = [];
globalThis.fetch = async (url, init) => {{
  fetched.push([init.method, url, JSON.parse(init.body)]);
  const status = answers.shift();
  const busy = status === 503;
  const body = busy ? busyBody : {{ state: {{ version: 8 }}, events: [] }};
  const headers = {{ "content-type": "application/json" }};
  if (busy) headers["retry-after"] = "1";
  return new Response(JSON.stringify(body), {{ status, headers }});
}};
const {{ api }} = await import({json.dumps(API_JS.as_uri())});
const out = [];
for (const run of {json.dumps(runs)}) {{
  answers = [...run];
  fetched = [];
  const told = {{ busy: 0, retries: 0 }};
  const started = Date.now();
  const hooks = {{ onBusy: () => told.busy++, onRetry: () => told.retries++ }};
  const reply = await api.act("g1", "play QC", 7, hooks);
  out.push({{ reply, fetched, ...told, waited: Date.now() - started }});
}}
console.log(JSON.stringify(out));
"""
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def test_a_busy_refusal_is_said_and_sent_once_more_then_said_as_a_refusal() -> None:
    once, twice = send_actions("de", [[503, 200], [503, 503, 200]])
    sent = ["POST", "/api/v1/games/g1/actions", {"action": "play QC", "version": 7}]
    # Busy once: the page is told, and after Retry-After the same action goes again.
    assert once["reply"]["kind"] == "ok"
    assert once["reply"]["body"]["state"] == {"version": 8}
    assert once["fetched"] == [sent, sent]
    assert once["busy"] == 1
    assert once["retries"] == 0
    assert once["waited"] >= 900
    # Busy twice: once more only, then the refusal in the page's language.
    assert twice["fetched"] == [sent, sent]
    assert twice["busy"] == 1
    assert twice["reply"] == {
        "kind": "refused",
        "status": 503,
        "detail": "Der Server ist gerade ausgelastet: bitte gleich noch einmal versuchen.",
    }
