// The inspector's app: signs in, then draws the screen named by the address's hash from the
// device's store and the server's answers. Screens: #/ (front page), #/allocate/MODE,
// #/batch/ID (collection, then the batch's tasks), #/task/BATCH/TASK (inspection), #/receive and
// #/receptions (the receiver's), #/analytics (the inspector's own results).
import { t, language, setLanguage } from "./i18n.js";
import { call, csrfToken, Offline, Refused, SessionEnded, signOut } from "./api.js";
import { getMeta, setMeta } from "./db.js";
import { setUser, onChange, pause } from "./outbox.js";
import { announce, h, show } from "./dom.js";
import "./sync-status.js";
import { loginScreen } from "./screen-login.js";
import { homeScreen } from "./screen-home.js";
import { allocateScreen } from "./screen-allocate.js";
import { batchScreen } from "./screen-batch.js";
import { inspectScreen } from "./screen-inspect.js";
import { receiveScreen, receptionsScreen } from "./screen-receive.js";
import { analyticsScreen } from "./screen-analytics.js";
import { keepData } from "./storage.js";

const app = {
  user: null,
  /** Goes to a screen (a hash such as #/batch/B1). */
  go(hash) {
    if (location.hash === hash) render(); else location.hash = hash;
  },
  render: () => render(),
  async signedIn(user) {
    app.user = user;
    await setMeta("user", user);
    setUser(user.username);
    keepData();
    header();
    render();
  },
};

function header() {
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("lang").value = language();
  const who = document.getElementById("who");
  who.textContent = app.user ? app.user.name || app.user.username : "";
  const out = document.getElementById("signout");
  out.textContent = t("signOut");
  out.hidden = !app.user;
  document.querySelector(".skip").textContent = t("skipToContent");
}

async function render() {
  if (!app.user) return loginScreen(app);
  const [, screen, a, b] = (location.hash || "#/").split("/");
  try {
    if (screen === "allocate") return await allocateScreen(app, Number(a));
    if (screen === "batch") return await batchScreen(app, decodeURIComponent(a));
    if (screen === "receive") return await receiveScreen(app);
    if (screen === "receptions") return await receptionsScreen(app);
    if (screen === "analytics") return await analyticsScreen(app);
    if (screen === "task") return await inspectScreen(app, decodeURIComponent(a), decodeURIComponent(b));
    return await homeScreen(app);
  } catch (error) {
    if (error instanceof SessionEnded) return sessionEnded();
    // Another user's batch after switching users, say: the server's reason, and the way back.
    if (error instanceof Refused) {
      return show(t("refused"), h("p", { class: "notice error" }, error.message, " ", error.problem.remedy || ""),
        h("p", {}, h("a", { href: "#/" }, t("back"))));
    }
    throw error;
  }
}

function sessionEnded() {
  const name = app.user?.username;
  app.user = null;
  pause();
  header();
  loginScreen(app, { message: t("sessionEnded"), username: name });
}

async function start() {
  setLanguage(language());
  document.getElementById("lang").addEventListener("change", (event) => {
    setLanguage(event.target.value);
    document.getElementById("sync").draw();
    header();
    render();
  });
  document.getElementById("signout").addEventListener("click", async () => {
    await signOut();
    app.user = null;
    setUser(null);
    header();
    render();
  });
  onChange((status) => { if (status.sessionEnded && app.user) sessionEnded(); });
  addEventListener("hashchange", render);
  // The front page and the receptions list redraw from the server's answer once work is sent
  // (statuses, expiry, receptions); the other screens already show the unsent work as done, and a
  // redraw would take a tap away.
  addEventListener("itemaudit-sent", () => {
    if (["#/", "#/receptions"].includes(location.hash || "#/") && app.user) render();
  });
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" }).catch(() => {});
  const kept = await getMeta("user");
  if (csrfToken()) {
    try {
      const me = await (await call("GET", "/v1/me")).json();
      return app.signedIn(me);
    } catch (error) {
      // Offline: work on as the user who signed in last; their session is checked when the server is back.
      if (error instanceof Offline && kept) return app.signedIn(kept);
    }
  }
  header();
  render();
}

start().catch((error) => announce(String(error), "error"));
