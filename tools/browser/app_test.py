"""tools/browser-test, the inspector's app: a field day in headless Chromium driven by Playwright.

Runs a small seeded demo, starts `itemaudit serve`, checks how /app/ is served (its CSP, content
types, cache policy, public shell). Then on an iPad (1024x768) and a phone (390x844): signs in
(inside the app on the iPad, through /login?next=/app/ on the phone), allocates a batch of two,
collects one by a keyboard-wedge scan of a GS1-128 string (]C1 prefix on the iPad, GS character on
the phone), skips the other with a reason, inspects every attribute of the collected task (a
measured value, a note, a photo), submits, and waits until nothing is left unsent. On the iPad the
server is stopped for real halfway through the inspection: the app works on, is reloaded, closed
and opened again, shows what is unsent, the log does not grow; the server starts again on the
same port and data; another inspector signs in on the same device first (the first one's work
stays unsent and apart), signs out, the first signs in again and the work is sent. The phone also pauses and
resumes collection, detaches a photo, switches language (fi, sv, en) and opens the inspector's own
results (today's rows hold both devices' work). A receiver then signs in on a phone, receives a
sample in good condition by wedge scans and a damaged one, and finds both in their receptions
list (the damaged one with its replacement asked for), each with its acknowledgement. Every screen is checked
with axe-core (no serious or critical violation). Afterwards `itemaudit history --batch` must hold
each batch's events, each kind exactly as often as it was done, in order, all by the inspector who did them. --screenshot saves a
PNG per screen under .build/screenshots/.
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Failure, run  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402
from axe_playwright_python.sync_playwright import Axe  # noqa: E402

DEMO_ARGS = ["--seed", "11", "--days", "3", "--products", "200", "--inspectors", "2", "--datasheets", "60", "--quiet"]
APP_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
           "connect-src 'self'; worker-src 'self'; manifest-src 'self'")
# A second inspector sharing the iPad.
OTHER = ("anna", "anna-demo-password-42")
# The receiver at the inspection centre.
RECEIVER = ("rita", "rita-demo-password-42")
VIEWPORTS = {"ipad": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
# The scans each device sends: GS1-128 as a wedge types it, with ]C1 or with the GS character.
SCANS = {"ipad": "]C101{gtin}10LOT7\x1d21S1", "phone": "\x1d01{gtin}10LOT8\x1d21S2"}


def png(width=640, height=480):
    """A small valid PNG (a gradient), standing in for a camera photo."""
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 120)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class Server:
    """`itemaudit serve` on a loopback port, which a restart keeps (the app's origin, and so its
    stored work, is bound to it)."""

    def __init__(self, binary, data, log_path):
        self.binary, self.data, self.log_path = binary, data, log_path
        self.port = 0
        self.process = None
        self.start()

    def start(self):
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--data", self.data, "--port", str(self.port), "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise Failure(f"itemaudit serve did not start: {line!r} (log: {self.log_path})")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None
        self.log.close()


def check_serving(base):
    """The shell and its assets are public, with the app's CSP, content types and cache policy."""
    failures = []
    with urllib.request.urlopen(base + "/app/") as answer:
        html = answer.read().decode()
        headers = answer.headers
    if headers["Content-Security-Policy"] != APP_CSP:
        failures.append(f"/app/ CSP is {headers['Content-Security-Policy']!r}")
    if headers["Cache-Control"] != "no-cache":
        failures.append(f"/app/ Cache-Control is {headers['Cache-Control']!r}, not no-cache")
    if "style=" in html or re.search(r"<script(?![^>]*\bsrc=)", html):
        failures.append("/app/ has inline styles or scripts")
    script = re.search(r'src="(/app/[0-9a-f]{16}/main\.js)"', html)
    if not script:
        return failures + ["/app/ names no versioned main.js"]
    with urllib.request.urlopen(base + script.group(1)) as answer:
        if not answer.headers["Content-Type"].startswith("text/javascript"):
            failures.append(f"main.js is {answer.headers['Content-Type']}")
        if "immutable" not in answer.headers["Cache-Control"]:
            failures.append(f"main.js Cache-Control is {answer.headers['Cache-Control']}")
    with urllib.request.urlopen(base + "/app/manifest.webmanifest") as answer:
        if answer.headers["Content-Type"] != "application/manifest+json":
            failures.append(f"manifest is {answer.headers['Content-Type']}")
        json.loads(answer.read())
    # The whole app, as the service worker caches it, compressed: under the 150 KB.
    with urllib.request.urlopen(base + "/app/sw.js") as answer:
        worker = answer.read().decode()
    paths = ["/app/", "/app/manifest.webmanifest", "/app/sw.js"] + re.findall(r'"(/app/[0-9a-f]{16}/[^"]+)"', worker)
    compressed = sum(len(zlib.compress(urllib.request.urlopen(base + path).read(), 9)) for path in paths)
    print(f"browser-test: app: {len(paths)} files, {compressed / 1024:.1f} KB compressed")
    if compressed > 150 * 1024:
        failures.append(f"the app's files are {compressed / 1024:.0f} KB compressed, over 150 KB")
    for missing in ["/app/0000000000000000/main.js", "/app/nothing.js"]:
        try:
            urllib.request.urlopen(base + missing)
            failures.append(f"{missing} answered 2xx")
        except urllib.error.HTTPError as error:
            if error.code != 404:
                failures.append(f"{missing} answered {error.code}, not 404")
    return failures


class Day:
    """One device's field day in the app."""

    def __init__(self, page, name, account, screenshots):
        self.page, self.name, self.account, self.screenshots = page, name, account, screenshots
        self.failures = []
        self.axe = Axe()
        self.problems = []
        self.cut_off = False
        # The first day (UTC) of this run: the inspector's results from then on are this test's.
        self.since = time.strftime("%Y-%m-%d", time.gmtime())
        self.listen()

    def listen(self):
        page = self.page
        page.on("console", lambda m: self.problem(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problem(f"exception: {e}"))
        page.on("response", lambda r: self.problem(f"HTTP {r.status}: {r.request.method} {r.url}")
                if r.status >= 400 else None)

    def problem(self, text):
        # While the server is stopped, and until the inspector signs in again, calls fail on purpose.
        if self.cut_off and re.search(r"ERR_CONNECTION_REFUSED|HTTP 401|status of 401", text):
            return
        self.problems.append(text)

    def ready(self, heading=None):
        self.page.wait_for_selector("#main[data-ready]", timeout=15000)
        if heading:
            self.page.wait_for_function(
                "h => document.getElementById('title')?.textContent.includes(h)", arg=heading, timeout=15000)

    def screen(self, label):
        """Checks the screen with axe-core and saves its screenshot when asked."""
        before = len(self.problems)
        result = self.axe.run(self.page)
        # axe-core's own probes set inline styles, which the app's CSP rightly blocks.
        self.problems[before:] = [p for p in self.problems[before:] if "inline style" not in p]
        for violation in result.response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                nodes = ", ".join(n["target"][0] for n in violation["nodes"][:3])
                self.failures.append(f"{self.name} {label}: axe {violation['impact']} {violation['id']} ({nodes})")
        if self.screenshots:
            path = os.path.join(self.screenshots, f"app-{self.name}-{label}.png")
            self.page.screenshot(path=path, full_page=True)
            print(f"browser-test: {path}")

    def sign_in(self, account=None):
        page = self.page
        account = account or self.account
        page.wait_for_selector("#username")
        page.fill("#username", account[0])
        page.fill("#password", account[1])
        page.click("button[type=submit]")
        page.wait_for_selector("#signout:not([hidden])")

    def unsent(self):
        return int(self.page.get_attribute("[data-unsent]", "data-unsent"))

    def answer(self, count):
        """Gives up to `count` verdicts (a measured value where asked, a note on the first), each
        advancing to the next attribute; returns how many were given."""
        page = self.page
        given = 0
        while given < count and page.locator(".attribute").count():
            if page.locator("#measured").count():
                page.fill("#measured", "501")
                self.measured += 1
            if self.answered == 0:
                page.fill("#note", "Label slightly worn")
            path = page.get_attribute(".attribute", "data-path")
            page.click(".verdict.v1")
            page.wait_for_function(
                "p => !document.querySelector('.attribute') || document.querySelector('.attribute').dataset.path !== p",
                arg=path, timeout=10000)
            given += 1
            self.answered += 1
        return given

    def read_ahead(self, batch):
        """Back on the front page, the open batch and each of its tasks' datasheets are read ahead
        into the device's store (for work offline later), and the storage used of the quota shown."""
        page = self.page
        page.evaluate("location.hash = '#/'")
        self.ready("Start inspecting")
        page.wait_for_function("() => document.getElementById('storage')?.dataset.readAhead", timeout=20000)
        keys = page.evaluate(
            """async () => { const db = await new Promise((ok, no) => { const r = indexedDB.open('itemaudit');
                 r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
               const keys = await new Promise((ok) => { const r = db.transaction('cache').objectStore('cache').getAllKeys();
                 r.onsuccess = () => ok(r.result); });
               db.close(); return keys; }""")
        user = self.account[0]
        if f"{user} /v1/batches/{batch}" not in keys:
            self.failures.append(f"{self.name}: the open batch {batch} was not read ahead")
        sheets = [k for k in keys if k.startswith(f"{user} /v1/tasks/{batch}-") and k.endswith("/datasheet")]
        if len(sheets) != 2:
            self.failures.append(f"{self.name}: {len(sheets)} datasheets of batch {batch} read ahead, not 2 ({keys})")
        if " MB" not in page.inner_text("#storage"):
            self.failures.append(f"{self.name}: the front page does not show the storage used ({page.inner_text('#storage')!r})")
        page.evaluate(f"location.hash = '#/batch/{batch}'")
        self.ready("Collection")

    def analytics(self):
        """The inspector's own results: today's rows hold both devices' days (one task collected,
        one skipped and one inspected on each), read until the report has caught up."""
        page = self.page
        today = {"collected": 0, "skipped": 0, "inspected": 0}
        for _ in range(20):
            page.evaluate("location.hash = '#/'")
            self.ready("Start inspecting")
            page.click("a[href='#/analytics']")
            self.ready("Your results")
            rows = page.eval_on_selector_all(
                "tr[data-day]", "rows => rows.map(r => [r.dataset.day, ...[...r.cells].slice(1).map(c => c.textContent)])")
            today = {field: sum(int(row[1 + i]) for row in rows if row[0] >= self.since)
                     for i, field in enumerate(["collected", "skipped", "inspected"])}
            if today == {"collected": 2, "skipped": 2, "inspected": 2}:
                break
            page.wait_for_timeout(500)
        else:
            self.failures.append(f"{self.name}: the inspector's results show {today} since {self.since}, not 2 of each")
        if page.evaluate("document.documentElement.scrollWidth > innerWidth"):
            self.failures.append(f"{self.name}: the inspector's results are wider than the screen")
        if not page.locator("dd[data-field=inspected]").count():
            self.failures.append(f"{self.name}: the inspector's results have no totals")
        self.screen("analytics")

    def run(self, base, photo_path, cut=None):
        """The field day; with `cut` (the server's stop, start and event count), the server is
        stopped halfway through the inspection and started again after the batch is submitted."""
        page = self.page
        self.answered = self.measured = self.detached = self.paused = 0
        if cut:
            page.goto(base + "/app/")
            self.ready("Sign in")
            self.screen("sign-in")
            self.sign_in()
        else:
            # The server's own login form, sent back to the app: the app finds the session it left.
            page.goto(base + "/login?next=/app/")
            page.fill("#username", self.account[0])
            page.fill("#password", self.account[1])
            page.click("button[type=submit]")
            page.wait_for_url(base + "/app/")
        self.ready("Start inspecting")
        page.wait_for_selector(".modes a")
        self.screen("front")

        page.click("a[href='#/allocate/2']")
        self.ready("Add task")
        page.wait_for_selector("#location option", state="attached")
        page.fill("#amount", "2")
        self.screen("allocate")
        page.click("button[type=submit]")
        self.ready("Collection")
        batch = page.locator(".meta").inner_text().split(" · ")[-1].strip()

        if not cut:
            self.read_ahead(batch)
        page.click("text=Start collection")
        page.wait_for_selector("#scan")
        if not cut:
            page.click("text=Pause")
            page.click("text=Resume collection")
            page.wait_for_selector("#scan")
            self.paused = 1
        self.ready("Collection")
        gtins = page.eval_on_selector_all(".task.pending", "rows => rows.map(r => r.dataset.gtin)")
        if len(gtins) != 2:
            raise Failure(f"{self.name}: the batch has {len(gtins)} tasks pending collection, not 2")
        self.screen("collection")
        page.fill("#scan", SCANS[self.name].format(gtin=gtins[0]))
        page.press("#scan", "Enter")
        page.wait_for_selector(f".task.collected[data-gtin='{gtins[0]}']")
        page.click(f".task.pending[data-gtin='{gtins[1]}'] button")
        page.wait_for_selector("#skip-dialog[open]")
        self.screen("skip-reason")
        page.check("#reason-2")
        page.click("#skip-dialog button[value=skip]")
        page.wait_for_selector(f".task.skipped[data-gtin='{gtins[1]}']")
        page.click("text=Finish collection")
        self.ready("Inspection")

        page.click(f".task[data-gtin='{gtins[0]}'] a.button")
        self.ready("Inspection")
        page.wait_for_selector(".attribute")
        self.screen("inspection")
        self.answer(5)
        events_before = None
        if cut:
            page.wait_for_function("() => document.querySelector('[data-unsent]')?.dataset.unsent === '0'", timeout=30000)
            self.cut_off = True
            cut["stop"]()
            events_before = cut["events"](batch)
            self.answer(5)
            page.reload()
            self.ready("Inspection")
            page.wait_for_selector(".attribute")
        if self.answer(1000) == 0 or page.locator(".attribute").count():
            raise Failure(f"{self.name}: the inspection did not end")
        if self.measured == 0:
            self.failures.append(f"{self.name}: no attribute asked for a measured value")
        page.set_input_files("#photo", photo_path)
        page.wait_for_selector(".photo-list img")
        if not cut:
            # A second photo, taken by mistake, then detached.
            page.set_input_files("#photo", photo_path.replace(".png", "-2.png"))
            page.wait_for_selector(".photo-list li:nth-child(2) img")
            page.click(".photo-list li:nth-child(2) button")
            page.wait_for_function("() => document.querySelectorAll('.photo-list li').length === 1")
            self.detached = 1
        self.screen("inspection-done")
        page.click("#finish")
        self.ready("Inspection")
        if cut:
            # Closed and opened again, still without the server.
            context = page.context
            page.close()
            page = self.page = context.new_page()
            self.listen()
            page.goto(base + f"/app/#/batch/{batch}")
            self.ready("Inspection")
        page.wait_for_selector("#submit")
        page.click("#submit")
        page.wait_for_selector("#submit-dialog[open]")
        self.screen("submit-confirm")
        page.click("#submit-dialog button[value=submit]")
        page.wait_for_function("() => document.querySelector('.meta')?.textContent.includes('Submitted')", timeout=10000)
        if cut:
            waiting = self.unsent()
            if waiting < self.answered - 5:
                self.failures.append(f"{self.name}: offline, the app shows {waiting} unsent, fewer than the work done")
            if self.page.locator(".badge.offline").count() == 0:
                self.failures.append(f"{self.name}: offline, the app does not say so")
            self.screen("offline")
            if cut["events"](batch) != events_before:
                self.failures.append(f"{self.name}: the log grew while the server was stopped")
            cut["start"]()
            # The server's sessions did not survive it: sign in again, and the kept work goes.
            page.wait_for_selector("#username", timeout=45000)
            self.screen("session-ended")
            if page.is_visible("#signout") or page.locator(".badge.offline").count():
                self.failures.append(f"{self.name}: signed out by the restart, the app still offers sign-out or says offline")
            if self.unsent() == 0:
                self.failures.append(f"{self.name}: signed out by the restart, the app no longer shows the unsent work")
            # Another inspector on the same device first: the first one's work is not theirs to send.
            page.evaluate("location.hash = '#/'")
            self.sign_in(OTHER)
            self.ready("Start inspecting")
            if self.unsent() != 0:
                self.failures.append(f"{self.name}: {OTHER[0]} sees {self.unsent()} unsent actions of another user")
            page.wait_for_timeout(2000)
            page.click("#signout")
            self.sign_in()
            self.cut_off = False
        page.wait_for_function("() => document.querySelector('[data-unsent]')?.dataset.unsent === '0'", timeout=45000)
        answer = page.evaluate(
            """async id => { const token = document.cookie.match(/itemaudit_csrf=([^;]+)/)[1];
                 const r = await fetch('/v1/batches/' + id, { headers: { 'X-CSRF-Token': token } });
                 return r.json(); }""", batch)
        if answer.get("status") != 6:
            self.failures.append(f"{self.name}: batch {batch} has status {answer.get('status')} on the server, not 6 (submitted)")
        refused = page.locator("#refused")
        if refused.count():
            self.failures.append(f"{self.name}: refused: {refused.inner_text()}")
        page.goto(base + "/app/#/")
        self.ready("Start inspecting")
        self.screen("front-after")
        if not cut:
            for lang, title in (("fi", "Aloita tarkastus"), ("sv", "Börja inspektera"), ("en", "Start inspecting")):
                page.select_option("#lang", lang)
                self.ready(title)
                if lang == "fi" and "Kaikki lähetetty" not in page.inner_text("sync-status"):
                    self.failures.append(f"{self.name}: the sync status is not in Finnish after choosing it")
                if page.get_attribute("html", "lang") != lang:
                    self.failures.append(f"{self.name}: the page's lang is not {lang} after choosing it")
                if lang != "en":
                    self.screen("front-" + lang)
            self.analytics()
        self.failures += [f"{self.name}: {p}" for p in self.problems]
        return batch, {"answered": self.answered, "detached": self.detached, "paused": self.paused}


def signed_in_json(page, path):
    """`path` read with the page's browser session, as the app reads it."""
    return page.evaluate(
        """async p => { const token = document.cookie.match(/itemaudit_csrf=([^;]+)/)[1];
             const r = await fetch(p, { headers: { 'X-CSRF-Token': token } });
             return { status: r.status, body: await r.json() }; }""", path)


def unreceived_gtins(browser, base, manager):
    """Two products no sample of which waits at the centre (the demo receives a few): asked as
    the manager, who reads everyone's receptions."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "/login?next=/app/")
    page.fill("#username", manager[0])
    page.fill("#password", manager[1])
    page.click("button[type=submit]")
    page.wait_for_url(base + "/app/")
    received = {r["gtin"] for r in signed_in_json(page, "/v1/receptions?limit=200")["body"]["items"]}
    answer = signed_in_json(page, "/v1/products?limit=200")["body"]
    context.close()
    gtins = [p["gtin"] for p in answer.get("items", answer.get("products", [])) if p["gtin"] not in received]
    if len(gtins) < 2:
        raise Failure(f"the demo has {len(gtins)} products not yet received, fewer than 2")
    return gtins[:2]


def receive(browser, base, gtins, screenshots):
    """The receiver on a phone: signs in inside the app, receives one sample in good condition
    (product and shelf typed by a keyboard wedge, each ending in Enter) and one damaged, then their
    receptions list shows both, the damaged one with its replacement asked for, each with a
    printable acknowledgement."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="en-GB", has_touch=True)
    day = Day(context.new_page(), "receiver", RECEIVER, screenshots)
    page = day.page
    page.goto(base + "/app/")
    day.ready("Sign in")
    day.sign_in()
    day.ready("Receiving samples")
    if page.locator(".modes a[href^='#/allocate']").count():
        day.failures.append("receiver: the front page offers inspection modes to a receiver")
    day.screen("front")
    page.click("a[href='#/receive']")
    day.ready("Receive a sample")
    page.wait_for_selector("#centre option", state="attached")
    day.screen("reception")
    # A wedge types into the focused field: the product, Enter, the shelf, Enter.
    page.focus("#product")
    page.keyboard.type("]C101" + gtins[0])
    page.keyboard.press("Enter")
    page.keyboard.type("IC-SHELF-9-1")
    page.keyboard.press("Enter")
    if page.evaluate("document.activeElement.id") != "condition":
        day.failures.append("receiver: Enter after the shelf's scan did not move on to the condition")
    for name, default in (("condition", "0"), ("priority", "0"), ("decommission", "0")):
        if page.input_value("#" + name) != default:
            day.failures.append(f"receiver: {name} defaults to {page.input_value('#' + name)}, not {default}")
    page.fill("#inspect-before", "2026-12-31")
    page.click("button[type=submit]")
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('Received')")
    page.fill("#product", gtins[1])
    page.fill("#shelf", "IC-SHELF-9-2")
    page.select_option("#condition", "1")
    page.select_option("#priority", "2")
    page.select_option("#decommission", "2")
    page.click("button[type=submit]")
    page.wait_for_function(f"() => document.getElementById('notice').textContent.includes('{gtins[1]}')")
    page.wait_for_function("() => document.querySelector('[data-unsent]')?.dataset.unsent === '0'", timeout=30000)
    page.click("a[href='#/receptions']")
    day.ready("Your receptions")
    page.wait_for_selector(f".reception:not(.unsent)[data-reception] >> text={gtins[1]}")
    cards = page.eval_on_selector_all(
        ".reception", "cards => cards.map(c => ({ text: c.textContent, unsent: c.classList.contains('unsent'), "
        "replacement: !!c.querySelector('.replacement'), link: c.querySelector('a')?.getAttribute('href') }))")
    day.screen("receptions")
    if len(cards) != 2 or any(c["unsent"] for c in cards):
        day.failures.append(f"receiver: the list shows {cards}, not the two receptions sent")
    for gtin, damaged in ((gtins[0], False), (gtins[1], True)):
        card = next((c for c in cards if gtin in c["text"]), None)
        if not card:
            day.failures.append(f"receiver: no reception of {gtin} in the list")
            continue
        if card["replacement"] != damaged:
            day.failures.append(f"receiver: the reception of {gtin} shows replacementRequested {card['replacement']}, not {damaged}")
        if not (card["link"] or "").startswith("/receptions?reception="):
            day.failures.append(f"receiver: the reception of {gtin} has no acknowledgement link ({card['link']})")
            continue
        ack = page.request.get(base + card["link"])
        if ack.status != 200 or gtin not in ack.text():
            day.failures.append(f"receiver: the acknowledgement {card['link']} answered {ack.status}")
    day.failures += [f"receiver: {p}" for p in day.problems]
    context.close()
    return day.failures


def check_receptions(binary, data, gtins):
    """Each sample reached the log once, by the receiver; the damaged one with its replacement."""
    failures = []
    for gtin, damaged in ((gtins[0], False), (gtins[1], True)):
        events = json.loads(run(binary, ["history", "--data", data, "--gtin", gtin, "--format", "json"]))
        mine = [e for e in events if e["actor"] == RECEIVER[0]]
        kinds = [e["eventType"] for e in mine]
        expected = ["ProductReceived"] + (["ReplacementRequested"] if damaged else [])
        if kinds != expected:
            failures.append(f"history --gtin {gtin}: the receiver's events are {kinds}, not {expected}")
    return failures


def check_history(binary, data, batch, done, inspector):
    """The log holds the batch's day, each step once and in the order it was done."""
    events = json.loads(run(binary, ["history", "--data", data, "--batch", batch, "--format", "json"]))
    kinds = [e["eventType"] for e in events]
    expected = ["BatchAllocated", "CollectionStarted", "ProductCollected", "CollectionSkipped", "CollectionFinished",
                "InspectionStarted", "AttributeVerdictRecorded", "PhotoAttached", "InspectionFinished", "BatchSubmitted"]
    times = {k: 1 for k in expected}
    times.update({
        "AttributeVerdictRecorded": done["answered"], "PhotoAttached": 1 + done["detached"],
        "PhotoDetached": done["detached"], "CollectionPaused": done["paused"], "CollectionStarted": 1 + done["paused"]})
    failures = [f"history --batch {batch}: {k} appears {kinds.count(k)} times, not {n}"
                for k, n in times.items() if kinds.count(k) != n]
    failures += [f"history --batch {batch}: an unexpected {k}" for k in sorted(set(kinds) - set(times))]
    actors = {e["actor"] for e in events}
    if actors != {inspector}:
        failures.append(f"history --batch {batch}: actors {sorted(actors)}, not only {inspector}")
    firsts = [kinds.index(k) for k in expected if k in kinds]
    if firsts != sorted(firsts):
        failures.append(f"history --batch {batch}: out of order: {kinds}")
    return failures, len(events)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshot", action="store_true")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    options = parser.parse_args()
    started = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="itemaudit-app-")
    server = None
    failures = []
    batches = []
    gtins = []
    screenshots = os.path.join(os.getcwd(), ".build", "screenshots") if options.screenshot else None
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
    try:
        data = os.path.join(scratch, "data")
        out = run(options.binary, ["demo", "--data", data] + DEMO_ARGS)
        account = re.search(r"^(inspector-\d+)\s+inspector\s+(\S+)$", out, re.M)
        if not account:
            raise Failure("the demo printed no inspector account")
        manager = re.search(r"^(manager-\d+)\s+manager\s+(\S+)$", out, re.M)
        for (name, password), role, full in ((OTHER, "inspector", "Anna K"), (RECEIVER, "receiver", "Rita R")):
            subprocess.run([options.binary, "users", "add", name, "--role", role, "--name", full,
                            "--password-stdin", "--data", data], input=password + "\n", text=True, check=True,
                           capture_output=True)
        server = Server(options.binary, data, os.path.join(scratch, "serve.log"))
        failures += check_serving(server.base)
        photo_path = os.path.join(scratch, "shelf.png")
        with open(photo_path, "wb") as file:
            file.write(png())
        with open(photo_path.replace(".png", "-2.png"), "wb") as file:
            file.write(png(480, 640))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=["--no-sandbox"])
            try:
                for name, viewport in VIEWPORTS.items():
                    context = browser.new_context(viewport=viewport, locale="en-GB", has_touch=name == "phone")
                    day = Day(context.new_page(), name, (account.group(1), account.group(2)), screenshots)
                    cut = None
                    if name == "ipad":
                        cut = {"stop": server.stop, "start": server.start,
                               "events": lambda batch: len(json.loads(run(options.binary, [
                                   "history", "--data", data, "--batch", batch, "--format", "json"])))}
                    try:
                        batches.append(day.run(server.base, photo_path, cut))
                    except Exception as error:
                        shot = os.path.join(scratch, "failure.png")
                        day.page.screenshot(path=shot, full_page=True)
                        keep = os.path.join(os.getcwd(), ".build", f"app-failure-{name}.png")
                        shutil.copy(shot, keep)
                        raise Failure(f"{name}: {str(error).splitlines()[0]} (screen: {keep}; "
                                      f"text: {day.page.inner_text('body')[:1500]!r}; {day.problems})")
                    failures += day.failures
                    context.close()
                gtins = unreceived_gtins(browser, server.base, (manager.group(1), manager.group(2)))
                failures += receive(browser, server.base, gtins, screenshots)
            finally:
                browser.close()
        server.stop()
        server = None
        for batch, done in batches:
            found, count = check_history(options.binary, data, batch, done, account.group(1))
            failures += found
            print(f"browser-test: app: history --batch {batch}: {count} events")
        failures += check_receptions(options.binary, data, gtins)
    except Failure as error:
        print(f"browser-test: app: error: {error}", file=sys.stderr)
        return 2
    finally:
        if server:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print(f"browser-test: app: {len(failures)} problem(s):", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    print(f"browser-test: app: a field day on {', '.join(VIEWPORTS)} and a receiver's two samples reached the log, "
          f"no serious axe violation "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
