// The server's API as the app calls it: the browser session (cookie) with its CSRF token in
// `X-CSRF-Token`, JSON in and out, problems (RFC 9457) turned into errors a person can read.
import { get, put } from "./db.js";

/** The network (or the server) cannot be reached. */
export class Offline extends Error {}
/** The session ended (expired, server restarted, signed out elsewhere): sign in again. */
export class SessionEnded extends Error {}
/** The server answered with a problem: `problem.detail` and `problem.remedy` say what and what to do. */
export class Refused extends Error {
  constructor(status, problem) {
    super(problem?.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

/** The session's CSRF token, set at sign-in as a cookie this origin's scripts can read. */
export function csrfToken() {
  const found = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("itemaudit_csrf="));
  return found ? decodeURIComponent(found.slice("itemaudit_csrf=".length)) : "";
}

/** One call to `/v1`; resolves with the response, throws Offline, SessionEnded or Refused. */
export async function call(method, path, { json, body, contentType } = {}) {
  const headers = { "X-CSRF-Token": csrfToken(), Accept: "application/json" };
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (contentType) {
    headers["Content-Type"] = contentType;
  }
  headers["Accept-Language"] = document.documentElement.lang || "en";
  let response;
  try {
    response = await fetch(path, { method, headers, body, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new Offline("network");
  }
  if (response.ok) return response;
  let problem = null;
  try { problem = await response.json(); } catch { /* not JSON */ }
  if (response.status === 401 || (response.status === 403 && /CSRF|session/i.test(problem?.detail || ""))) {
    throw new SessionEnded(problem?.detail || "session");
  }
  if (response.status >= 500 || response.status === 421) throw new Offline(`HTTP ${response.status}`);
  throw new Refused(response.status, problem);
}

/** A JSON read, network first; when offline, the copy kept from the last time this user read it.
 *  With `waitFor` (a log position), the server answers once its reports have reached it; with
 *  `csv`, a report page's CSV table, read as one object per row keyed by the header's names. */
export async function read(user, path, { waitFor, csv } = {}) {
  const key = user + " " + path;
  const asked = waitFor ? `${path}${path.includes("?") ? "&" : "?"}waitFor=${waitFor}` : path;
  try {
    const response = await call("GET", asked);
    const data = csv ? rowsOf(await response.text()) : await response.json();
    await put("cache", { key, data, at: Date.now() });
    return data;
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    const kept = await get("cache", key);
    if (kept) return kept.data;
    throw error;
  }
}

/** The rows of CSV `text` (RFC 4180: quoted fields, doubled quotes, CRLF or LF) as objects. */
export function rowsOf(text) {
  const records = [];
  let record = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { record.push(field); field = ""; }
    else if (c === "\n") { record.push(field); records.push(record); record = []; field = ""; }
    else if (c !== "\r") field += c;
  }
  if (field || record.length) { record.push(field); records.push(record); }
  const [header = [], ...rows] = records.map((r) => r.map((f) => f.replace(/^\uFEFF/, "")));
  return rows.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i] ?? ""])));
}

/** Sign-in as the login form does: its form token (page and cookie), then the post; the server
 *  answers with the session cookie and the CSRF cookie. Resolves true, or throws Refused/Offline. */
export async function signIn(username, password) {
  let page;
  try {
    page = await fetch("/login?next=/app/", { credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new Offline("network");
  }
  // The form's hidden token field (read as text: parsing the page would apply its inline styles,
  // which the app's CSP refuses).
  const token = (await page.text()).match(/name="csrf" value="([^"]+)"/)?.[1];
  if (!token) {
    if (csrfToken()) return true; // already signed in: the form redirected to the app
    throw new Offline("no login form");
  }
  const fields = new URLSearchParams({ csrf: token, username, password, next: "/app/" });
  let response;
  try {
    response = await fetch("/login", { method: "POST", body: fields, credentials: "same-origin", cache: "no-store" });
  } catch {
    throw new Offline("network");
  }
  if (response.ok && response.redirected && csrfToken()) return true;
  throw new Refused(response.status, { code: response.status === 429 ? "throttled" : response.status === 403 ? "expired" : "wrong" });
}

/** Ends the browser session on the server (the logout form's post, with the CSRF token). */
export async function signOut() {
  const fields = new URLSearchParams({ csrf: csrfToken() });
  try { await fetch("/logout", { method: "POST", body: fields, credentials: "same-origin" }); } catch { /* offline: the cookie expires */ }
}
