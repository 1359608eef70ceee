// The inspector app's service worker: cache first for the app's own files (versioned, so a new
// build gets a new cache and old code never talks to a changed API), network first with the
// cached copy as fallback for the entry page. Data and commands are the page's business
// (IndexedDB), never cached here: several users may share one device.
const VERSION = "@VERSION@";
const CACHE = "itemaudit-app-" + VERSION;
const SHELL = ["/app/", "/app/manifest.webmanifest", ...@ASSETS@];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("itemaudit-app-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === "/app" || url.pathname === "/app/") {
    event.respondWith(
      fetch(event.request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put("/app/", copy));
        }
        return response;
      }).catch(() => caches.match("/app/")));
  } else if (url.pathname.startsWith("/app/")) {
    event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
  }
});
