// A batch: collection (start, scan with a keyboard wedge or typing, skip with a reason, finish),
// then its tasks to inspect, then submission with a confirmation.
import { t } from "./i18n.js";
import { h, show, announce } from "./dom.js";
import { read, call, Offline, SessionEnded } from "./api.js";
import { enqueue, unsent } from "./outbox.js";
import { batchWith, isInspected } from "./model.js";
import { gtinOf } from "./gs1.js";
import { thumbnail } from "./photos.js";
import { feedback } from "./feedback.js";

export async function batchScreen(app, batchID) {
  const path = `/v1/batches/${encodeURIComponent(batchID)}`;
  // The unsent work first: what is sent while the batch is read is in the server's answer.
  const commands = await unsent();
  let stored;
  try {
    stored = await read(app.user.username, path);
  } catch (error) {
    if (error instanceof Offline) return show(t("collection"), h("p", { class: "notice warn" }, t("needsNetwork")), back());
    throw error;
  }
  const batch = batchWith(stored, commands);
  const notice = h("p", { id: "notice", class: "notice", role: "status", "aria-live": "polite" });
  const parts = [h("p", { class: "meta" }, t("mode" + batch.mode), " · ", t("status" + batch.status), " · ", batch.batchID), notice];
  const pending = batch.tasks.filter((task) => task.collectionStatus === 1);

  if (batch.status === 0 || (batch.status === 1 && batch.collectionPaused)) {
    parts.push(h("button", { type: "button", class: "primary", onclick: async () => {
      await enqueue({ type: "StartCollection", batchID });
      app.render();
    } }, batch.status === 0 ? t("startCollection") : "▶ " + t("resumeCollection")));
  }
  if (batch.status === 1 && !batch.collectionPaused) {
    parts.push(scanForm(app, batch, pending, notice));
  }
  parts.push(h("ul", { class: "tasks" }, batch.tasks.map((task) => taskRow(app, batch, task))));
  if (batch.status === 1 && !batch.collectionPaused) {
    parts.push(h("div", { class: "row" },
      h("button", { type: "button", class: "primary", disabled: pending.length > 0, onclick: async () => {
        await enqueue({ type: "FinishCollection", batchID });
        app.render();
      } }, t("finishCollection")),
      h("button", { type: "button", onclick: async () => {
        await enqueue({ type: "PauseCollection", batchID });
        app.render();
      } }, "⏸ " + t("pauseCollection"))));
  }
  if (batch.status === 5) parts.push(submitButton(app, batch));
  parts.push(back());
  const title = batch.status <= 1 ? t("collection") : batch.status === 6 ? t("submitted") : batch.status === 7 ? t("cancelled") : t("inspection");
  show(title, ...parts, skipDialog());
}

function back() { return h("p", {}, h("a", { href: "#/" }, t("back"))); }

function scanForm(app, batch, pending, notice) {
  const input = h("input", { id: "scan", name: "scan", autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "go" });
  const form = h("form", { class: "scan", onsubmit: async (event) => {
    event.preventDefault();
    const code = input.value.trim();
    input.value = "";
    if (!code) return;
    let task = pending.find((candidate) => candidate.gtin === gtinOf(code));
    if (!task && !gtinOf(code)) {
      // A form only the server reads (a Digital Link, say): needs the network.
      try {
        const items = (await (await call("GET", `/v1/tasks?scan=${encodeURIComponent(code)}`)).json()).items;
        task = pending.find((candidate) => items.some((item) => item.taskID === candidate.taskID));
      } catch (error) {
        if (error instanceof SessionEnded) throw error;
        if (error instanceof Offline) { notice.textContent = t("needsNetwork"); return; }
      }
    }
    if (!task) {
      notice.textContent = t("scanNoMatch", { code });
      notice.className = "notice error";
      feedback(false);
      return;
    }
    await enqueue({ type: "CollectProduct", batchID: batch.batchID, scanned: code, taskID: task.taskID });
    feedback(true);
    await app.render();
    announce(t("scanMatched", { name: task.name }), "ok");
    document.getElementById("scan")?.focus();
  } },
    h("label", { for: "scan" }, t("scan")), input,
    "BarcodeDetector" in window ? null : h("p", { class: "hint" }, t("scanHelp")));
  queueMicrotask(() => input.focus());
  return form;
}

function taskRow(app, batch, task) {
  const state = task.collectionStatus === 3 ? "skipped" : task.collectionStatus === 2 ? "collected" : "pending";
  const where = [task.shelf ? t("shelf", { shelf: task.shelf }) : null, task.aisle || null].filter(Boolean).join(" · ");
  const actions = [];
  if (batch.status === 1 && state === "pending") {
    actions.push(h("button", { type: "button", "data-task": task.taskID, onclick: () => askSkip(app, task) }, t("skip"), h("span", { class: "visually-hidden" }, " ", task.name)));
  }
  if (batch.status >= 2 && batch.status <= 5 && state === "collected" && !isInspected(task) && task.inspectionStatus !== 4) {
    actions.push(h("a", { class: "button", href: `#/task/${encodeURIComponent(batch.batchID)}/${encodeURIComponent(task.taskID)}` }, t("inspect"), h("span", { class: "visually-hidden" }, " ", task.name)));
  }
  const marks = { pending: "○ " + t("pending"), collected: "● " + t("collected"), skipped: "⊘ " + t("skipped") };
  return h("li", { class: "task " + state, "data-gtin": task.gtin },
    thumbnail(task.referenceImage?.sha256),
    h("div", { class: "what" },
      h("strong", {}, task.name || task.gtin),
      h("div", {}, "GTIN ", task.gtin, task.packageSize ? ` · ${t("packageSize")} ${task.packageSize}` : ""),
      where ? h("div", {}, where) : null),
    h("div", { class: "state" }, marks[state],
      isInspected(task) ? h("div", {}, "✓ " + t("inspected")) : null,
      task.collectionStatus === 3 && task.skipReason !== undefined ? h("div", {}, t("skip" + task.skipReason)) : null),
    h("div", { class: "actions" }, actions));
}

function skipDialog() {
  return h("dialog", { id: "skip-dialog", "aria-labelledby": "skip-title" },
    h("form", { method: "dialog", class: "stack" },
      h("h2", { id: "skip-title" }, t("skipReason")),
      h("p", { id: "skip-name" }),
      h("fieldset", {}, h("legend", { class: "visually-hidden" }, t("skipReason")),
        [0, 1, 2].map((reason) => h("div", { class: "choice" },
          h("input", { type: "radio", name: "reason", id: `reason-${reason}`, value: reason, checked: reason === 1 }),
          h("label", { for: `reason-${reason}` }, t("skip" + reason))))),
      h("div", { class: "row" },
        h("button", { type: "submit", value: "cancel" }, t("cancel")),
        h("button", { type: "submit", value: "skip", class: "primary" }, t("confirm")))));
}

function askSkip(app, task) {
  const dialog = document.getElementById("skip-dialog");
  dialog.querySelector("#skip-name").textContent = task.name;
  dialog.onclose = async () => {
    if (dialog.returnValue !== "skip") return;
    const reason = Number(dialog.querySelector("input[name=reason]:checked").value);
    await enqueue({ type: "SkipCollection", taskID: task.taskID, reason });
    app.render();
  };
  dialog.showModal();
}

function submitButton(app, batch) {
  const dialog = h("dialog", { id: "submit-dialog", "aria-labelledby": "submit-title" },
    h("form", { method: "dialog", class: "stack" },
      h("h2", { id: "submit-title" }, t("submit")),
      h("p", {}, t("submitConfirm")),
      h("div", { class: "row" },
        h("button", { type: "submit", value: "cancel" }, t("cancel")),
        h("button", { type: "submit", value: "submit", class: "primary" }, t("confirm")))));
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "submit") return;
    await enqueue({ type: "SubmitBatch", batchID: batch.batchID });
    app.render();
  });
  return [h("button", { type: "button", class: "primary", id: "submit", onclick: () => dialog.showModal() }, t("submit")), dialog];
}
