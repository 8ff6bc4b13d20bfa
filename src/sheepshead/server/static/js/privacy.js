// The privacy page: a recovery code, using one, deleting the identity.

import { request } from "./api.js";

const $ = (id) => document.getElementById(id);

$("privacy-code").addEventListener("click", async () => {
  const reply = await request("POST", "/daily/me/recovery-code");
  $("privacy-code-out").textContent =
    reply.kind === "ok" ? `${reply.body.code} (write it down: it is shown only once)` : reply.detail;
});

$("privacy-recover").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await request("POST", "/daily/recover", { code: $("recover-code").value });
  if (reply.kind === "ok") window.location.assign("/leaderboard");
  else $("recover-error").textContent = reply.detail;
});

$("privacy-delete").addEventListener("click", async () => {
  // eslint-disable-next-line no-alert
  if (!window.confirm("Delete your identity, your games and your results? This cannot be undone.")) return;
  const response = await fetch("/api/v1/daily/me", { method: "DELETE", credentials: "same-origin" });
  $("privacy-deleted").textContent =
    response.status === 204 ? "Deleted. A new visit starts a new anonymous identity." : "That did not work; try again.";
});
