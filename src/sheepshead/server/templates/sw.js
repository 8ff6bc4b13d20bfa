{#- The service worker (server/webapp.py serves it at /sw.js, for the whole site).
    Context: cache (the cache's name: the static files' build), files (every static
    file's URL under the build), guide (the rules guide's pages), offline (the offline
    page of each language, by its code). -#}
// Sheepshead's service worker: the static files and the rules guide, for reading
// offline; a friendly page for anything else while offline. It never keeps /api/ or a
// page that carries a player's data: only the files and pages listed here, and guide
// pages as they are read.
const CACHE = {{ cache | tojson }};
const FILES = {{ files | tojson }};
const GUIDE = {{ guide | tojson }};
const OFFLINE = {{ offline | tojson }};
let language = "";

function isGuide(path) {
  return path === "/guide" || path.startsWith("/guide/");
}

function offlinePage(url) {
  const asked = url.searchParams.get("lang") || language || (self.navigator.language || "").slice(0, 2);
  const page = OFFLINE[asked] || OFFLINE.en;
  return caches.match(page).then((hit) => hit || new Response("offline", { status: 503 }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...FILES, ...GUIDE, ...Object.values(OFFLINE)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // A new build's worker drops the caches of the builds before it.
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("sheepshead-") && key !== CACHE)
          .map((key) => caches.delete(key)),
      ))
      .then(() => self.clients.claim()),
  );
});

function fromNetwork(request) {
  return fetch(request).then((response) => {
    const said = response.headers.get("content-language");
    if (said) language = said;
    return response;
  });
}

function guidePage(request, url) {
  // The network first (the reader's language, the latest words), the copy when offline.
  return fromNetwork(request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      }
      return response;
    })
    .catch(() => caches.match(url.pathname).then((hit) => hit || offlinePage(url)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  } else if (isGuide(url.pathname)) {
    event.respondWith(guidePage(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(fromNetwork(request).catch(() => offlinePage(url)));
  }
});
