// Inspection of one task, attribute by attribute in the datasheet's group order: the supplier's
// value, the instruction, pass / warning / fail / unable (each a word and a symbol) advancing to
// the next, a measured value with its unit, a note, progress per group and in total; photos
// from the camera; finishing when every attribute has a verdict.
import { t } from "./i18n.js";
import { h, show } from "./dom.js";
import { read, Offline } from "./api.js";
import { enqueue, enqueuePhoto, unsent } from "./outbox.js";
import { getMeta, setMeta } from "./db.js";
import { batchWith, datasheetWith, inspectionOrder } from "./model.js";
import { prepare, remember, thumbnail } from "./photos.js";

const VERDICTS = [[1, "✓"], [2, "!"], [3, "✗"], [0, "?"]];
const cursors = new Map();
const drafts = new Map();

export async function inspectScreen(app, batchID, taskID) {
  const user = app.user.username;
  if (!(await getMeta("started " + taskID))) {
    await enqueue({ type: "StartInspection", taskID });
    await setMeta("started " + taskID, true);
  }
  const commands = await unsent();
  let stored, sheetStored;
  try {
    stored = await read(user, `/v1/batches/${encodeURIComponent(batchID)}`);
    sheetStored = await read(user, `/v1/tasks/${encodeURIComponent(taskID)}/datasheet`);
  } catch (error) {
    if (error instanceof Offline) return show(t("inspection"), h("p", { class: "notice warn" }, t("noDatasheet")), backLink(batchID));
    throw error;
  }
  const batch = batchWith(stored, commands);
  const task = batch.tasks.find((candidate) => candidate.taskID === taskID);
  const sheet = datasheetWith(sheetStored, commands);
  const order = inspectionOrder(sheet);
  const groups = new Map((sheet.groups || []).map((g) => [g.id, g.name]));
  const doneCount = order.filter((a) => a.verdict !== undefined && a.verdict !== null).length;
  let index = cursors.get(taskID);
  if (index === undefined || index >= order.length) {
    index = order.findIndex((a) => a.verdict === undefined || a.verdict === null);
    if (index < 0) index = order.length;
  }
  cursors.set(taskID, index);
  const attribute = order[index];
  const parts = [
    h("p", { class: "meta" }, task?.name || sheet.gtin, " · GTIN ", sheet.gtin, sheet.packageSize ? ` · ${sheet.packageSize}` : ""),
    h("p", { id: "progress-total" }, t("progressTotal", { done: doneCount, all: order.length })),
    h("progress", { max: order.length, value: doneCount, "aria-labelledby": "progress-total" }),
  ];
  parts.push(attribute ? attributeCard(app, taskID, attribute, order, index, groups) : h("p", { class: "notice ok" }, "✓ " + t("allDone")));
  parts.push(photoSection(app, task, taskID));
  parts.push(h("button", { type: "button", class: "primary", id: "finish", disabled: doneCount < order.length || task?.finished,
    onclick: async () => {
      await enqueue({ type: "FinishInspection", taskID });
      app.go(`#/batch/${encodeURIComponent(batchID)}`);
    } }, t("finishInspection")));
  parts.push(backLink(batchID));
  show(t("inspection"), ...parts);
}

function backLink(batchID) { return h("p", {}, h("a", { href: `#/batch/${encodeURIComponent(batchID)}` }, t("back"))); }

function attributeCard(app, taskID, attribute, order, index, groups) {
  const inGroup = order.filter((a) => a.group === attribute.group);
  const groupDone = inGroup.filter((a) => a.verdict !== undefined && a.verdict !== null).length;
  const key = taskID + " " + attribute.path;
  const draft = drafts.get(key) || {};
  const measured = attribute.measured
    ? h("input", { id: "measured", type: "text", inputmode: "decimal", autocomplete: "off", value: draft.measured ?? attribute.measuredValue ?? "",
        oninput: (e) => drafts.set(key, { ...drafts.get(key), measured: e.target.value }) })
    : null;
  const note = h("textarea", { id: "note", rows: 2, oninput: (e) => drafts.set(key, { ...drafts.get(key), note: e.target.value }) });
  note.value = draft.note ?? attribute.note ?? "";
  const decide = async (verdict) => {
    const entry = { path: attribute.path, verdict };
    if (measured && measured.value.trim()) entry.measuredValue = measured.value.trim();
    if (note.value.trim()) entry.note = note.value.trim();
    await enqueue({ type: "RecordVerdicts", taskID, verdicts: [entry] });
    drafts.delete(key);
    const next = order.findIndex((a, i) => i > index && (a.verdict === undefined || a.verdict === null));
    cursors.set(taskID, next < 0 ? order.length : next);
    await app.render();
    document.getElementById("attribute-name")?.focus();
  };
  const value = [attribute.value, attribute.valueLabel && attribute.valueLabel !== attribute.value ? `(${attribute.valueLabel})` : ""].filter(Boolean).join(" ");
  return h("section", { class: "attribute", "aria-labelledby": "attribute-name", "data-path": attribute.path },
    h("p", { class: "group" }, t("progressGroup", { group: groups.get(attribute.group) || attribute.group, done: groupDone, all: inGroup.length })),
    h("h2", { id: "attribute-name", tabindex: -1 }, attribute.name || attribute.path),
    h("dl", {},
      h("dt", {}, t("supplierValue")), h("dd", { id: "supplier-value" }, value || "—"),
      attribute.instruction ? [h("dt", {}, t("instruction")), h("dd", {}, attribute.instruction)] : null,
      attribute.verdict !== undefined && attribute.verdict !== null ? [h("dt", {}, t("verdictGiven", { v: "" })), h("dd", {}, t("verdict" + attribute.verdict))] : null),
    measured ? h("div", { class: "measure" }, h("label", { for: "measured" }, t("measured"), attribute.unit ? ` (${attribute.unit})` : ""), measured) : null,
    h("label", { for: "note" }, t("note")), note,
    h("div", { class: "verdicts" }, VERDICTS.map(([code, mark]) =>
      h("button", { type: "button", class: `verdict v${code}`, "data-verdict": code, onclick: () => decide(code) },
        h("span", { "aria-hidden": "true" }, mark), " ", t("verdict" + code)))),
    h("div", { class: "row" },
      h("button", { type: "button", disabled: index === 0, onclick: () => { cursors.set(taskID, index - 1); app.render(); } }, t("previous")),
      h("button", { type: "button", disabled: index >= order.length - 1, onclick: () => { cursors.set(taskID, index + 1); app.render(); } }, t("next"))));
}

function photoSection(app, task, taskID) {
  const input = h("input", { id: "photo", type: "file", accept: "image/*", capture: "environment", class: "visually-hidden",
    onchange: async () => {
      const file = input.files?.[0];
      if (!file) return;
      const { blob, sha256 } = await prepare(file);
      remember(sha256, blob);
      await enqueuePhoto(sha256, blob, "image/jpeg", taskID);
      await enqueue({ type: "AttachPhoto", taskID, sha256, byteCount: blob.size, contentType: "image/jpeg" });
      app.render();
    } });
  const photos = task?.photos || [];
  return h("section", { class: "photos", "aria-labelledby": "photos-title" },
    h("h2", { id: "photos-title" }, t("photos"), ` (${photos.length})`),
    h("ul", { class: "photo-list" }, photos.map((sha, i) => h("li", {},
      thumbnail(sha, `${t("photos")} ${i + 1}`),
      h("button", { type: "button", onclick: async () => { await enqueue({ type: "DetachPhoto", taskID, sha256: sha }); app.render(); } },
        t("detach"), h("span", { class: "visually-hidden" }, ` ${i + 1}`))))),
    input, h("label", { for: "photo", class: "button" }, "+ " + t("takePhoto")));
}
