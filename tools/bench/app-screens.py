#!/usr/bin/env python3
"""The inspector app's screens in Chromium against a static page of the same size: milliseconds to
the first usable screen (the app sets `data-ready` on <main> once a screen is drawn) and per screen
change, each against a baseline measured in the same run (the ratio is the figure to compare).

A small seeded demo, `itemaudit serve` on loopback, the demo's inspector signed in. Measured in
headless Chromium (Debian's package, driven by Playwright, as tools/browser-test):
  - cold: a fresh browser context (no HTTP cache, no service worker) with the inspector's session
    opens /app/ and waits for the front page (the app's files, /v1/me, /v1/batches);
  - warm: the same again in a context that has loaded the app before (its service worker serves
    the app's files);
  - screen change: front page -> "Add task" (GET /v1/locations) -> front page (GET /v1/batches),
    each a hash change drawn by the app.
The baseline is one HTML page as large as all the app's files together (entry page, CSS,
JavaScript, manifest, icon), with a <main data-ready> of its own, served with the app's headers
(its CSP, Cache-Control: no-cache) by a loopback HTTP/1.1 server in this process; a screen change
of the baseline is a load of a second such page, as a site without script changes screens.
Times are the page's own clock (performance.now()): a load from the navigation's start, an app's
screen change from the hash change, both to <main data-ready> with the screen's heading.

  tools/bench/app-screens.py --binary .build/debug/itemaudit [--runs 15] [--format json]
"""

import argparse
import http.server
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import threading
import urllib.request

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "browser"))
from browser_test import Failure, run  # noqa: E402
from app_test import APP_CSP, DEMO_ARGS, Server  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402


def app_bytes(base):
    """The app's files as its service worker lists them, and their total size in bytes."""
    with urllib.request.urlopen(base + "/app/sw.js") as answer:
        worker = answer.read().decode()
    paths = ["/app/", "/app/manifest.webmanifest", "/app/sw.js"] + re.findall(r'"(/app/[0-9a-f]{16}/[^"]+)"', worker)
    return paths, sum(len(urllib.request.urlopen(base + path).read()) for path in paths)


def static_page(size, title):
    """An HTML page of `size` bytes: a heading in a ready <main>, then paragraphs of text."""
    head = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
            f'<body><main id="main" data-ready><h1 id="title">{title}</h1>')
    tail = "</main></body></html>"
    line = "<p>Collected products, skipped products, verdicts per attribute and photos of the day.</p>\n"
    body = line * ((size - len(head) - len(tail)) // len(line))
    return (head + body + "x" * (size - len(head) - len(body) - len(tail)) + tail).encode()


class StaticServer:
    """Two static pages on loopback (HTTP/1.1, keep-alive), with the app's headers."""

    def __init__(self, size):
        pages = {"/a": static_page(size, "Static page A"), "/b": static_page(size, "Static page B")}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out as separate writes: without this, Nagle's algorithm meets the
            # browser's delayed ACK and each page waits for it.
            disable_nagle_algorithm = True

            def do_GET(self):
                body = pages.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Security-Policy", APP_CSP)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


# Injected before any page script (not subject to the page's CSP): the page's own clock
# (performance.now(), from the navigation's start) each time <main> becomes ready, so the figures
# leave out the driver's round trips.
READY_CLOCK = """
window.__ready = [];
let wasReady = false;
new MutationObserver((records) => {
  const main = document.getElementById("main");
  const isReady = !!main && main.hasAttribute("data-ready");
  const redrawn = records.some((r) => r.type === "attributes" && r.target === main);
  if (isReady && (redrawn || !wasReady)) window.__ready.push(performance.now());
  wasReady = isReady;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"] });
"""


def ready(page, title, count=1):
    page.wait_for_function(
        """([t, n]) => window.__ready && window.__ready.length >= n
             && document.getElementById('title')?.textContent.includes(t)""",
        arg=[title, count], timeout=15000)


def load(page, url, title):
    """Milliseconds from the navigation's start to the first ready screen."""
    page.goto(url, wait_until="commit")
    ready(page, title)
    return page.evaluate("window.__ready[0]")


def change(page, hash_, title):
    """Milliseconds from a hash change to the screen it names drawn and ready."""
    count = page.evaluate("window.__ready.length") + 1
    started = page.evaluate("h => { const t = performance.now(); location.hash = h; return t; }", hash_)
    ready(page, title, count)
    return page.evaluate("window.__ready[window.__ready.length - 1]") - started


def measure(browser, server, static, account, runs):
    """Lists of milliseconds per workload, the app's and the baseline's."""
    signed = browser.new_context()
    page = signed.new_page()
    page.goto(server.base + "/app/")
    page.wait_for_selector("#username")
    page.fill("#username", account[0])
    page.fill("#password", account[1])
    page.click("button[type=submit]")
    page.wait_for_selector("#signout:not([hidden])")
    session = signed.storage_state()
    signed.close()
    times = {key: [] for key in ("cold", "cold-static", "warm", "warm-static", "change", "change-static")}

    def context(**kwargs):
        made = browser.new_context(**kwargs)
        made.add_init_script(READY_CLOCK)
        return made

    for _ in range(runs):
        for key, url, title in (("cold", server.base + "/app/", "Start inspecting"),
                                ("cold-static", static.base + "/a", "Static page A")):
            fresh = context(storage_state=session)
            times[key].append(load(fresh.new_page(), url, title))
            fresh.close()

    warm = context(storage_state=session)
    page = warm.new_page()
    load(page, server.base + "/app/", "Start inspecting")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    for _ in range(runs):
        times["warm"].append(load(page, server.base + "/app/", "Start inspecting"))
        for hash_, title in (("#/allocate/2", "Add task"), ("#/", "Start inspecting")):
            times["change"].append(change(page, hash_, title))
    warm.close()

    warm = context()
    page = warm.new_page()
    load(page, static.base + "/a", "Static page A")
    for _ in range(runs):
        times["warm-static"].append(load(page, static.base + "/a", "Static page A"))
        for name in ("b", "a"):
            times["change-static"].append(load(page, f"{static.base}/{name}", "Static page " + name.upper()))
    warm.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--format", choices=["table", "json"], default="table")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    scratch = tempfile.mkdtemp(prefix="itemaudit-app-bench-")
    server = static = None
    try:
        data = os.path.join(scratch, "data")
        out = run(options.binary, ["demo", "--data", data] + DEMO_ARGS)
        account = re.search(r"^(inspector-\d+)\s+inspector\s+(\S+)$", out, re.M)
        if not account:
            raise Failure("the demo printed no inspector account")
        server = Server(options.binary, data, os.path.join(scratch, "serve.log"))
        paths, size = app_bytes(server.base)
        static = StaticServer(size)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=["--no-sandbox"])
            try:
                times = measure(browser, server, static, (account.group(1), account.group(2)), options.runs)
            finally:
                browser.close()
    except Failure as error:
        print(f"app-screens: error: {error}", file=sys.stderr)
        return 2
    finally:
        if server:
            server.stop()
        if static:
            static.stop()
        shutil.rmtree(scratch, ignore_errors=True)

    rows = []
    for key, label in (("cold", "first usable screen, cold"), ("warm", "first usable screen, warm"),
                       ("change", "screen change")):
        app, base = statistics.median(times[key]), statistics.median(times[key + "-static"])
        rows.append({"workload": label, "samples": len(times[key]), "appMs": round(app, 1),
                     "appP90Ms": round(sorted(times[key])[int(0.9 * (len(times[key]) - 1))], 1),
                     "staticMs": round(base, 1), "ratio": round(app / base, 2)})
    if options.format == "json":
        print(json.dumps({"appFiles": len(paths), "appBytes": size, "binary": options.binary, "rows": rows}, indent=2))
    else:
        print(f"app: {len(paths)} files, {size} bytes; static page: {size} bytes; binary {options.binary}")
        print(f"{'workload':28} {'n':>4} {'app ms':>8} {'app p90':>8} {'static ms':>10} {'ratio':>6}")
        for row in rows:
            print(f"{row['workload']:28} {row['samples']:>4} {row['appMs']:>8} {row['appP90Ms']:>8} "
                  f"{row['staticMs']:>10} {row['ratio']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
