"""tools/browser-test: the web pages in a real browser (headless Chromium over the DevTools protocol).

Runs a small seeded demo into a temporary directory, starts `itemaudit serve` on a free loopback
port, logs in as the demo's manager through the login form, loads every page and fails on a
console error, a failed request, a missing chart, a page over 1 MB or a missing accessibility
basic (language, title, form labels, chart text alternatives). --screenshot saves a PNG per page.
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the tool
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError  # noqa: E402
from run_pages import run_pages  # noqa: E402

# A small demo: every page has data, and it runs in about a minute with a debug build.
DEMO_ARGS = ["--seed", "11", "--days", "20", "--products", "600", "--inspectors", "4", "--datasheets", "60", "--quiet"]


class Failure(Exception):
    pass


def run(binary, args, **kwargs):
    result = subprocess.run([binary] + args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise Failure(f"itemaudit {' '.join(args[:2])} exited {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result.stdout


def demo_facts(binary, data):
    """Runs the demo; returns its manager account, showcase GTIN, a search word and a batch id."""
    started = time.monotonic()
    out = run(binary, ["demo", "--data", data] + DEMO_ARGS)
    print(f"browser-test: demo made in {time.monotonic() - started:.0f} s")
    accounts = {}
    section = out.split("demo credentials", 1)
    if len(section) < 2:
        raise Failure("the demo printed no 'demo credentials' table")
    for line in section[1].splitlines():
        cells = line.split()
        if len(cells) == 3 and cells[1] in ("manager", "inspector", "auditor"):
            accounts[cells[1]] = (cells[0], cells[2])
    if "manager" not in accounts:
        raise Failure("the demo printed no manager account")
    serve = re.search(r"^itemaudit serve( --data \S+)?$", out, re.M)
    if not serve:
        raise Failure("the demo does not print the command to start the server")
    gtin = re.search(r"itemaudit product (\d{14})", out).group(1)
    word = re.search(r"itemaudit search (\S+)", out).group(1)
    batches = json.loads(run(binary, ["batches", "--data", data, "--format", "json"]))
    batch = batches[0]["batchID"] if batches else None
    return accounts, gtin, word, batch


class Server:
    def __init__(self, binary, data, log_path):
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--data", data, "--port", "0", "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.stop()
            raise Failure(f"itemaudit serve did not start: {line!r} (log: {log_path})")
        self.base = f"http://127.0.0.1:{match.group(1)}"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


class Tab:
    """One page target, with the events of its last navigation."""

    def __init__(self, browser):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.send(f"{domain}.enable")
        self.events = []

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def collect(self):
        self.events += [e for e in self.browser.drain() if e.get("sessionId") == self.session]

    def wait_loaded(self, action, timeout=60):
        """Runs `action`, then waits for the load event and for the network to be quiet 300 ms."""
        self.browser.drain()
        self.events = []
        action()
        deadline = time.monotonic() + timeout
        loaded = False
        pending = set()
        quiet_since = None
        seen = 0
        while time.monotonic() < deadline:
            self.collect()
            for event in self.events[seen:]:
                method, params = event["method"], event.get("params", {})
                if method == "Page.loadEventFired":
                    loaded = True
                elif method == "Network.requestWillBeSent":
                    pending.add(params["requestId"])
                elif method in ("Network.loadingFinished", "Network.loadingFailed"):
                    pending.discard(params["requestId"])
            if len(self.events) != seen:
                quiet_since = time.monotonic()
                seen = len(self.events)
            if loaded and not pending and quiet_since and time.monotonic() - quiet_since > 0.3:
                return
            time.sleep(0.05)
        raise Failure(f"the page did not finish loading within {timeout} s (pending requests: {len(pending)})")

    def goto(self, url):
        self.wait_loaded(lambda: self.send("Page.navigate", {"url": url}))

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise Failure(f"evaluating in the page failed: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def problems(self):
        """Console errors, exceptions, failed requests and HTTP errors of the last navigation."""
        found = []
        urls = {}
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Network.requestWillBeSent":
                urls[params["requestId"]] = params["request"]["url"]
            elif method == "Network.loadingFailed" and not params.get("canceled"):
                found.append(f"request failed: {urls.get(params['requestId'], '?')} ({params.get('errorText')})")
            elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
                found.append(f"HTTP {params['response']['status']}: {params['response']['url']}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
                found.append(f"console error: {text}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(f"browser error: {params['entry']['text']} ({params['entry'].get('url', '')})")
        return found

    def document_bytes(self):
        """Bytes of the main document as received (the last Document response of the navigation)."""
        document_ids = [e["params"]["requestId"] for e in self.events
                        if e["method"] == "Network.responseReceived" and e["params"].get("type") == "Document"]
        sizes = {e["params"]["requestId"]: e["params"]["encodedDataLength"] for e in self.events
                 if e["method"] == "Network.loadingFinished"}
        return sizes.get(document_ids[-1], 0) if document_ids else 0

    def screenshot(self, path):
        metrics = self.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 12000), "scale": 1}
        data = self.send("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
        with open(path, "wb") as file:
            file.write(base64.b64decode(data["data"]))


def check_static_report(tab, binary, data, folder, screenshot):
    """`itemaudit report --out`: its pages open from disk with every chart and photo, nothing fetched."""
    from run_pages import A11Y_SCRIPT
    run(binary, ["report", "--data", data, "--out", folder, "--quiet"])
    failures = []
    with_photos = sorted(name for name in os.listdir(folder)
                         if name.startswith("product-") and name.endswith(".html")
                         and 'src="photos/' in open(os.path.join(folder, name), encoding="utf-8").read())
    if not with_photos:
        failures.append("report --out: no product page shows a photo")
    for name in ["index.html"] + with_photos[:1]:
        path = os.path.join(folder, name)
        tab.goto("file://" + path)
        failures += [f"report {name}: {p}" for p in tab.problems()]
        report = tab.evaluate(A11Y_SCRIPT)
        failures += [f"report {name}: {p}" for p in report["problems"]]
        if report["charts"] == 0:
            failures.append(f"report {name}: no chart (svg role=img)")
        remote = [e["params"]["request"]["url"] for e in tab.events if e["method"] == "Network.requestWillBeSent"
                  and not e["params"]["request"]["url"].startswith(("file:", "data:"))]
        failures += [f"report {name}: fetched {url}" for url in remote]
        if screenshot:
            target = os.path.join(os.getcwd(), ".build", "screenshots", "report-" + name.replace(".html", ".png"))
            tab.screenshot(target)
            print(f"browser-test: {target}")
        print(f"browser-test: report {name}: {report['charts']} chart(s), {report['tables']} table(s) from disk")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the built itemaudit executable")
    parser.add_argument("--screenshot", action="store_true", help="save a PNG per page under .build/screenshots/")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    options = parser.parse_args()
    if not shutil.which(options.chromium) and not os.path.exists(options.chromium):
        print("browser-test: error: chromium is not installed (run tools/setup --browser)", file=sys.stderr)
        return 2

    scratch = tempfile.mkdtemp(prefix="itemaudit-browser-")
    server = browser = None
    try:
        data = os.path.join(scratch, "data")
        accounts, gtin, word, batch = demo_facts(options.binary, data)
        server = Server(options.binary, data, os.path.join(scratch, "serve.log"))
        profile = os.path.join(scratch, "profile")
        os.makedirs(profile)
        browser = Browser(options.chromium, profile)
        tab = Tab(browser)
        failures = run_pages(tab, server.base, accounts["manager"], gtin, word, batch, data, options.screenshot)
        failures += check_static_report(tab, options.binary, data, os.path.join(scratch, "report"), options.screenshot)
    except (Failure, CDPError) as error:
        print(f"browser-test: error: {error}", file=sys.stderr)
        return 2
    finally:
        if browser:
            browser.close()
        if server:
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print(f"browser-test: {len(failures)} problem(s):", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    print("browser-test: every page loaded without errors, with its charts and accessibility basics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
