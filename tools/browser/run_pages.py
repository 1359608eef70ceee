"""What tools/browser-test does in the browser: log in through the form, visit every page, check it."""

import json
import os
import urllib.error
import urllib.parse
import urllib.request

# Pages that must show at least one chart (an <svg role="img">).
CHART_PAGES = {"dashboard", "coverage", "inspectors", "product"}
MAX_PAGE_BYTES = 1 << 20

# Runs in the page (DevTools evaluation is not page script: the pages themselves run none).
A11Y_SCRIPT = r"""
(() => {
  const problems = [];
  const lang = document.documentElement.getAttribute('lang');
  if (!lang) problems.push('no lang on <html>');
  if (!document.title.trim()) problems.push('no <title>');
  for (const field of document.querySelectorAll('input, select, textarea')) {
    const type = (field.getAttribute('type') || '').toLowerCase();
    if (['hidden', 'submit', 'button', 'reset', 'image'].includes(type)) continue;
    const labelled = (field.labels && field.labels.length > 0) || field.getAttribute('aria-label')
      || field.getAttribute('aria-labelledby') || field.getAttribute('title');
    if (!labelled) problems.push('form field without a label: ' + (field.name || field.id || field.outerHTML.slice(0, 80)));
  }
  const charts = [...document.querySelectorAll('svg[role="img"]')];
  for (const chart of charts) {
    const title = chart.querySelector(':scope > title');
    const text = chart.getAttribute('aria-label') || chart.getAttribute('aria-labelledby')
      || (title && title.textContent.trim());
    if (!text) problems.push('chart without a text alternative: ' + chart.outerHTML.slice(0, 80));
  }
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.closest('svg[role="img"]')) continue;
    if (svg.getAttribute('aria-hidden') === 'true') continue;
    problems.push('svg that is neither a chart (role="img") nor hidden: ' + svg.outerHTML.slice(0, 80));
  }
  if (charts.length > 0 && document.querySelectorAll('table').length === 0) problems.push('charts without a table');
  for (const figure of document.querySelectorAll('figure')) {
    const section = figure.closest('section');
    const table = section && section.querySelector('table');
    if (figure.querySelector('svg[role="img"]') && table && table.querySelectorAll('tbody td').length === 0)
      problems.push('a chart whose table has no cells: ' + (table.id || table.getAttribute('data-table') || '?'));
  }
  for (const image of document.querySelectorAll('img')) {
    if (!image.complete || image.naturalWidth === 0) problems.push('image not shown: ' + image.src);
    if (!image.hasAttribute('alt')) problems.push('image without alt: ' + image.src);
  }
  const csv = [...document.querySelectorAll('a[href*="format=csv"]')].map(a => a.href);
  return {problems, charts: charts.length, tables: document.querySelectorAll('table').length, csv,
          path: location.pathname + location.search, title: document.title};
})()
"""


def fill_and_submit(form_selector, values):
    """Types values into a form's fields and presses its submit button, as a person would."""
    script = "(() => { const form = document.querySelector(%s); if (!form) return false;" % json.dumps(form_selector)
    for name, value in values.items():
        script += "form.elements[%s].value = %s;" % (json.dumps(name), json.dumps(value))
    script += "const button = form.querySelector('button, input[type=submit]');"
    script += "if (button) { button.click(); } else { form.requestSubmit(); } return true; })()"
    return script


def cookie_header(tab, base):
    cookies = tab.send("Network.getCookies", {"urls": [base + "/"]})["cookies"]
    return "; ".join(f"{c['name']}={c['value']}" for c in cookies)


def photo_gtin(data):
    """The product with the most photos in the demo's projection database (the photo read model)."""
    import sqlite3
    connection = sqlite3.connect("file:" + os.path.join(data, "projections.sqlite") + "?mode=ro", uri=True)
    try:
        row = connection.execute(
            "SELECT gtin FROM photo GROUP BY gtin ORDER BY count(*) DESC, gtin LIMIT 1").fetchone()
    finally:
        connection.close()
    return row[0] if row else None


def check_photo_route(base, cookies, source):
    """A thumbnail's image: served with the session (an image type), refused without it."""
    failures = []
    try:
        with urllib.request.urlopen(urllib.request.Request(source, headers={"Cookie": cookies}), timeout=30) as answer:
            kind = answer.headers.get("Content-Type", "")
            if answer.status != 200 or not kind.startswith("image/"):
                failures.append(f"photo {source} answered {answer.status} {kind} with the session")
    except OSError as error:
        failures.append(f"photo {source} failed with the session: {error}")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(source, timeout=30) as answer:
            failures.append(f"photo {source} was served without a session ({answer.status})")
    except urllib.error.HTTPError as error:
        if error.code not in (302, 303, 401, 403):
            failures.append(f"photo {source} without a session answered {error.code}, not a redirect to the login")
    return failures


def run_pages(tab, base, manager, gtin, word, batch, data, screenshot):
    failures = []
    username, password = manager

    # Log in through the real form: the dashboard redirects to it, and it returns to the dashboard.
    tab.goto(base + "/")
    landed = tab.evaluate("location.pathname")
    if landed != "/login":
        return [f"an unauthenticated visit to / landed on {landed}, not /login"]
    failures += [f"login form: {p}" for p in tab.problems()]
    report = tab.evaluate(A11Y_SCRIPT)
    failures += [f"login form: {p}" for p in report["problems"]]
    shots = os.path.join(os.getcwd(), ".build", "screenshots")
    if screenshot:
        os.makedirs(shots, exist_ok=True)
        tab.screenshot(os.path.join(shots, "login.png"))
        print(f"browser-test: {os.path.join(shots, 'login.png')}")
    if not tab.evaluate('!!document.querySelector(\'form[action="/login"]\')'):
        return ["the login page has no form posting to /login"]
    tab.wait_loaded(lambda: tab.evaluate(
        fill_and_submit('form[action="/login"]', {"username": username, "password": password})))
    if tab.evaluate("location.pathname") != "/":
        return [f"logging in as {username} did not reach the dashboard (at {tab.evaluate('location.href')})"]

    with_photos = photo_gtin(data)
    if not with_photos:
        failures.append("the demo attached no photo (the photo read model is empty)")
    pages = [("dashboard", "/"), ("coverage", "/coverage"), ("coverage-by-mode", "/coverage?by=mode"),
             ("inspectors", "/inspectors"), ("product", f"/product?gtin={gtin}"),
             ("product-photos", f"/product?gtin={with_photos or gtin}"),
             ("history", f"/history?gtin={gtin}"), ("search", "/search?q=" + urllib.parse.quote(word)),
             ("categories", "/categories"), ("rules", "/rules")]
    if batch:
        pages.append(("batch", f"/batch?batch={urllib.parse.quote(batch)}"))
    else:
        failures.append("the demo made no batch to show")
    # Every page of the navigation bar is checked, a page added later too, without a subject.
    listed = tab.evaluate("[...document.querySelectorAll('nav[aria-label=Pages] a')]"
                          ".map(a => new URL(a.href).pathname)") or []
    checked = {urllib.parse.urlsplit(path).path for _, path in pages}
    pages += [(path.strip("/"), path) for path in listed if path not in checked]
    if not listed:
        failures.append("the dashboard has no navigation bar")
    # The session cookie as the browser keeps it: HttpOnly (no page script can read it), Strict, Path=/.
    session = [c for c in tab.send("Network.getCookies", {"urls": [base + "/"]})["cookies"]
               if c["name"] == "itemaudit_session"]
    if not session:
        failures.append("the browser holds no itemaudit_session cookie after logging in")
    elif not (session[0]["httpOnly"] and session[0].get("sameSite") == "Strict" and session[0]["path"] == "/"):
        failures.append(f"the session cookie's flags are wrong: {session[0]}")
    if "itemaudit_session" in (tab.evaluate("document.cookie") or ""):
        failures.append("the page can read the session cookie (document.cookie)")
    cookies = cookie_header(tab, base)
    for name, path in pages:
        tab.goto(base + path)
        failures += [f"{path}: {p}" for p in tab.problems()]
        size = tab.document_bytes()
        if size > MAX_PAGE_BYTES:
            failures.append(f"{path}: the page is {size} bytes, over 1 MB")
        report = tab.evaluate(A11Y_SCRIPT)
        if report["path"] != path and not (name == "dashboard" and report["path"] == "/"):
            failures.append(f"{path}: landed on {report['path']}")
        failures += [f"{path}: {p}" for p in report["problems"]]
        page = name.split("-")[0]
        if page in CHART_PAGES and report["charts"] == 0:
            failures.append(f"{path}: no chart (svg role=img)")
        if name == "product-photos":
            sources = tab.evaluate("[...document.querySelectorAll('.photos img')].map(i => i.src)")
            if not sources:
                failures.append(f"{path}: no photo thumbnail")
            else:
                failures += [f"{path}: {p}" for p in check_photo_route(base, cookies, sources[0])]
        fetched = 0
        for link in report["csv"][:4]:
            request = urllib.request.Request(link, headers={"Cookie": cookies})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    kind = answer.headers.get("Content-Type", "")
                    if answer.status != 200 or not kind.startswith("text/csv"):
                        failures.append(f"{path}: CSV link {link} answered {answer.status} {kind}")
                    elif len(answer.read().splitlines()) < 1:
                        failures.append(f"{path}: CSV link {link} gave no header line")
                    fetched += 1
            except OSError as error:
                failures.append(f"{path}: CSV link {link} failed: {error}")
        if screenshot:
            target = os.path.join(shots, f"{name}.png")
            tab.screenshot(target)
            print(f"browser-test: {target}")
        print(f"browser-test: {path}: {report['charts']} chart(s), {report['tables']} table(s), {size} bytes, "
              f"{fetched} CSV link(s) fetched")

    # The rules page's upload form: a supplier file from the demo, posted with its CSRF token.
    supplier = os.path.join(data, "imports", "supplier-datasheets.jsonl")
    tab.goto(base + "/rules")
    document = tab.send("DOM.getDocument")["root"]["nodeId"]
    node = tab.send("DOM.querySelector", {"nodeId": document, "selector": 'form[action="/rules"] input[type=file]'})
    if not node.get("nodeId"):
        failures.append("/rules: no file field in a form posting to /rules")
    else:
        tab.send("DOM.setFileInputFiles", {"nodeId": node["nodeId"], "files": [supplier]})
        tab.wait_loaded(lambda: tab.evaluate(
            "document.querySelector('form[action=\"/rules\"] button, form[action=\"/rules\"] input[type=submit]').click()"))
        failures += [f"POST /rules: {p}" for p in tab.problems()]
        report = tab.evaluate(A11Y_SCRIPT)
        failures += [f"POST /rules: {p}" for p in report["problems"]]
        if screenshot:
            tab.screenshot(os.path.join(shots, "rules-findings.png"))
            print(f"browser-test: {os.path.join(shots, 'rules-findings.png')}")

    # Log out with the page's own form.
    tab.goto(base + "/")
    tab.wait_loaded(lambda: tab.evaluate(
        "document.querySelector('form[action=\"/logout\"] button, form[action=\"/logout\"] input[type=submit]').click()"))
    if tab.evaluate("location.pathname") != "/login":
        failures.append("logging out did not return to the login form")
    tab.goto(base + "/coverage")
    if tab.evaluate("location.pathname") != "/login":
        failures.append("after logging out, /coverage did not go back to the login form")
    return failures
