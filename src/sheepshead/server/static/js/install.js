// The service worker (/sw.js): the static files and the rules guide for reading
// offline. A page works the same without it.
function register() {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
