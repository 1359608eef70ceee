"""tools/browser-test, the inspector's app: a field day in headless Chromium driven by Playwright.

Runs a small seeded demo, starts `itemaudit serve`, checks how /app/ is served (its CSP, content
types, cache policy, public shell), then on an iPad (1024x768) and a phone (390x844) signs in
inside the app, allocates a batch, collects one task by a keyboard-wedge scan of a GS1-128
string, skips the other with a reason, inspects every attribute of the collected task (a measured
value, a note, a photo), submits, and waits until nothing is left unsent. Every screen is checked
with axe-core (no serious or critical violation). Afterwards `itemaudit history --batch` must
show the batch's events in order. --screenshot saves a PNG per screen.
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
from browser_test import Failure, Server, run  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402
from axe_playwright_python.sync_playwright import Axe  # noqa: E402

DEMO_ARGS = ["--seed", "11", "--days", "3", "--products", "200", "--inspectors", "2", "--datasheets", "60", "--quiet"]
APP_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
           "connect-src 'self'; worker-src 'self'; manifest-src 'self'")
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
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.request.method} {r.url}")
                if r.status >= 400 else None)

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

    def run(self, base, photo_path):
        page = self.page
        page.goto(base + "/app/")
        self.ready("Sign in")
        self.screen("sign-in")
        page.fill("#username", self.account[0])
        page.fill("#password", self.account[1])
        page.click("button[type=submit]")
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

        page.click("text=Start collection")
        page.wait_for_selector("#scan")
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
        measured = noted = 0
        for _ in range(400):
            if page.locator(".attribute").count() == 0:
                break
            if page.locator("#measured").count():
                page.fill("#measured", "501")
                measured += 1
            if noted == 0:
                page.fill("#note", "Label slightly worn")
                noted += 1
            path = page.get_attribute(".attribute", "data-path")
            page.click(".verdict.v1")
            page.wait_for_function(
                "p => !document.querySelector('.attribute') || document.querySelector('.attribute').dataset.path !== p",
                arg=path, timeout=10000)
        else:
            raise Failure(f"{self.name}: the inspection did not end after 400 verdicts")
        if measured == 0:
            self.failures.append(f"{self.name}: no attribute asked for a measured value")
        page.set_input_files("#photo", photo_path)
        page.wait_for_selector(".photo-list img")
        self.screen("inspection-done")
        page.click("#finish")
        self.ready("Inspection")
        page.wait_for_selector("#submit")
        page.click("#submit")
        page.wait_for_selector("#submit-dialog[open]")
        self.screen("submit-confirm")
        page.click("#submit-dialog button[value=submit]")
        page.wait_for_function("() => document.querySelector('.meta')?.textContent.includes('Submitted')", timeout=10000)
        page.wait_for_function("() => document.querySelector('[data-unsent]')?.dataset.unsent === '0'", timeout=30000)
        page.wait_for_function("() => !document.getElementById('refused')", timeout=5000)
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
        self.failures += [f"{self.name}: {p}" for p in self.problems]
        return batch


def check_history(binary, data, batch):
    """The log holds the batch's day, each step once and in the order it was done."""
    events = json.loads(run(binary, ["history", "--data", data, "--batch", batch, "--format", "json"]))
    kinds = [e["eventType"] for e in events]
    expected = ["BatchAllocated", "CollectionStarted", "ProductCollected", "CollectionSkipped", "CollectionFinished",
                "InspectionStarted", "AttributeVerdictRecorded", "PhotoAttached", "InspectionFinished", "BatchSubmitted"]
    failures = [f"history --batch {batch}: {k} appears {kinds.count(k)} times, not once"
                for k in expected if k != "AttributeVerdictRecorded" and kinds.count(k) != 1]
    firsts = [kinds.index(k) for k in expected if k in kinds]
    if firsts != sorted(firsts):
        failures.append(f"history --batch {batch}: out of order: {kinds}")
    if "AttributeVerdictRecorded" not in kinds:
        failures.append(f"history --batch {batch}: no verdicts recorded")
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
    screenshots = os.path.join(os.getcwd(), ".build", "screenshots") if options.screenshot else None
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
    try:
        data = os.path.join(scratch, "data")
        out = run(options.binary, ["demo", "--data", data] + DEMO_ARGS)
        account = re.search(r"^(inspector-\d+)\s+inspector\s+(\S+)$", out, re.M)
        if not account:
            raise Failure("the demo printed no inspector account")
        server = Server(options.binary, data, os.path.join(scratch, "serve.log"))
        failures += check_serving(server.base)
        photo_path = os.path.join(scratch, "shelf.png")
        with open(photo_path, "wb") as file:
            file.write(png())
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=["--no-sandbox"])
            try:
                for name, viewport in VIEWPORTS.items():
                    context = browser.new_context(viewport=viewport, locale="en-GB", has_touch=name == "phone")
                    day = Day(context.new_page(), name, (account.group(1), account.group(2)), screenshots)
                    try:
                        batches.append(day.run(server.base, photo_path))
                    except Exception as error:
                        shot = os.path.join(scratch, "failure.png")
                        day.page.screenshot(path=shot, full_page=True)
                        keep = os.path.join(os.getcwd(), ".build", f"app-failure-{name}.png")
                        shutil.copy(shot, keep)
                        raise Failure(f"{name}: {str(error).splitlines()[0]} (screen: {keep}; "
                                      f"text: {day.page.inner_text('body')[:1500]!r}; {day.problems})")
                    failures += day.failures
                    context.close()
            finally:
                browser.close()
        server.stop()
        server = None
        for batch in batches:
            found, count = check_history(options.binary, data, batch)
            failures += found
            print(f"browser-test: app: history --batch {batch}: {count} events")
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
    print(f"browser-test: app: a field day on {', '.join(VIEWPORTS)} reached the log, no serious axe violation "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
