// The front page: one entry per inspection mode, and the inspector's batches (in progress,
// completed, cancelled; those expiring within a day marked).
import { t, language } from "./i18n.js";
import { h, show } from "./dom.js";
import { read, SessionEnded } from "./api.js";
import { unsent } from "./outbox.js";
import { batchWith } from "./model.js";
import { readAhead, usage } from "./storage.js";

const MODES = [0, 1, 2, 3];

/** The roles of the signed-in user (a user may hold several). */
export function rolesOf(user) { return user.roles || [user.role]; }

export async function homeScreen(app) {
  const notice = h("p", { id: "notice", class: "notice", role: "status" });
  const roles = rolesOf(app.user);
  const receiving = roles.includes("receiver") ? [
    h("h2", {}, t("receiving")),
    h("ul", { class: "modes" },
      h("li", {}, h("a", { class: "button", href: "#/receive" }, h("span", {}, t("receiveTitle")))),
      h("li", {}, h("a", { class: "button", href: "#/receptions" }, h("span", {}, t("receptions"))))),
  ] : [];
  // A receiver who does not inspect has no batches: the receiving screens are theirs.
  if (!roles.includes("inspector")) return show(t("receiving"), notice, receiving.slice(1));
  const commands = await unsent();
  let batches = [];
  let online = true;
  try {
    batches = (await read(app.user.username, "/v1/batches")).batches;
  } catch (error) {
    if (error instanceof SessionEnded) throw error;
    notice.textContent = t("needsNetwork");
    online = false;
  }
  const storage = h("p", { id: "storage", class: "hint" });
  drawStorage(app, storage, online ? batches : []);
  batches = batches.map((b) => batchWith({ tasks: [], ...b }, commands));
  const groups = [
    ["inProgress", batches.filter((b) => b.status <= 5)],
    ["completed", batches.filter((b) => b.status === 6)],
    ["cancelled", batches.filter((b) => b.status === 7)],
  ];
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  show(t("modes"), notice,
    h("ul", { class: "modes" }, MODES.map((mode) => h("li", {},
      h("a", { class: "button", href: `#/allocate/${mode}` }, h("span", {}, t("mode" + mode)), h("small", {}, t("addTask")))))),
    h("p", {}, h("a", { class: "button", href: "#/analytics" }, t("analytics"))), storage,
    h("h2", {}, t("batches")),
    groups.map(([key, list]) => h("section", { "aria-labelledby": "h-" + key },
      h("h3", { id: "h-" + key }, t(key), " (", list.length, ")"),
      list.length === 0 ? h("p", {}, t("none")) :
        h("ul", { class: "cards" }, list.map((b) => h("li", { class: "card" + (b.expiresSoon ? " soon" : "") },
          h("a", { href: `#/batch/${encodeURIComponent(b.batchID)}` },
            h("strong", {}, t("mode" + b.mode)), " · ", t("status" + b.status)),
          h("div", {}, b.batchID, " · ", t("tasks", { n: b.taskCount })),
          b.status <= 5 ? h("div", {}, t("expires", { time: when.format(new Date(b.expiresAt)) })) : null,
          b.expiresSoon && b.status <= 5 ? h("span", { class: "badge warn" }, "⏰ " + t("expiresSoon")) : null))))),
    receiving);
}

/** The open batches read ahead, then what the app stores on the device of the browser's quota;
 *  `data-read-ahead` says how many answers were kept, for whoever checks. */
async function drawStorage(app, line, batches) {
  const kept = await readAhead(app.user.username, batches).catch(() => 0);
  const use = await usage();
  line.dataset.readAhead = String(kept);
  if (!use || !use.quota) return;
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  line.textContent = t("storage", { used: mb(use.used), quota: mb(use.quota) }) + " " + t(use.kept ? "storageKept" : "storageMayGo");
  if (use.used > use.quota * 0.8) {
    line.className = "notice warn";
    line.append(" ", t("storageFull"));
  }
}
