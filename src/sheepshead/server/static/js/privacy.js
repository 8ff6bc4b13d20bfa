// The privacy page: a recovery code, using one, deleting the identity.

import { request } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

$("privacy-code").addEventListener("click", async () => {
  const reply = await request("POST", "/daily/me/recovery-code");
  $("privacy-code-out").textContent =
    reply.kind === "ok" ? t("{code} (write it down: it is shown only once)", { code: reply.body.code }) : reply.detail;
});

$("privacy-recover").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await request("POST", "/daily/recover", { code: $("recover-code").value });
  if (reply.kind === "ok") window.location.assign("/leaderboard");
  else $("recover-error").textContent = reply.detail;
});

$("privacy-delete").addEventListener("click", async () => {
  // eslint-disable-next-line no-alert
  if (!window.confirm(t("Delete your identity, your games and your results? This cannot be undone."))) return;
  const response = await fetch("/api/v1/daily/me", { method: "DELETE", credentials: "same-origin" });
  $("privacy-deleted").textContent =
    response.status === 204 ? t("Deleted. A new visit starts a new anonymous identity.") : t("That did not work; try again.");
});
