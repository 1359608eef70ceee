// The receiver's screens (seed 4.2.5): the reception form (product and shelf scanned with a
// keyboard wedge or typed, condition, priority, inspect-before date, decommission) saved through
// the outbox like every action, and the receiver's own receptions with their acknowledgements.
import { t, language } from "./i18n.js";
import { h, show } from "./dom.js";
import { read, Offline } from "./api.js";
import { enqueue, unsent, status } from "./outbox.js";

const CENTRE = 2;
const CHOICES = ["condition", "priority", "decommission"];

export async function receiveScreen(app) {
  const notice = h("p", { id: "notice", class: "notice", role: "status", "aria-live": "polite" });
  let codes = null;
  let centres = [];
  try {
    codes = await read(app.user.username, "/v1/codelists");
    centres = (await read(app.user.username, "/v1/locations")).locations.filter((l) => l.kind === CENTRE);
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    return show(t("receiveTitle"), h("p", { class: "notice warn" }, t("needsNetwork")), back());
  }
  const centreSelect = h("select", { id: "centre", required: true }, centres.map((l) => h("option", { value: l.locationID }, l.name)));
  const product = scanField("product", t("receiveProduct"));
  const shelf = scanField("shelf", t("receiveShelf"));
  // A wedge types the code and Enter: Enter moves on to the next field instead of sending the form.
  product.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); shelf.input.focus(); }
  });
  shelf.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); document.getElementById("condition").focus(); }
  });
  // Each choice defaults to the first code the server lists (good, normal, donate).
  const selects = Object.fromEntries(CHOICES.map((name) => [name,
    h("select", { id: name }, (codes[name] || []).map((c) => h("option", { value: c.code }, c.label)))]));
  const before = h("input", { id: "inspect-before", type: "date" });
  const submit = h("button", { type: "submit", class: "primary", disabled: centres.length === 0 }, t("receive"));
  const form = h("form", { class: "stack", onsubmit: async (event) => {
    event.preventDefault();
    const gtin = product.input.value.trim();
    const storageLocation = shelf.input.value.trim();
    if (!gtin || !storageLocation) {
      notice.className = "notice error";
      notice.textContent = t("receiveMissing");
      return;
    }
    const command = {
      type: "ReceiveProduct", receptionID: "RC-" + crypto.randomUUID(), gtin, locationID: centreSelect.value, storageLocation,
      condition: Number(selects.condition.value), priority: Number(selects.priority.value),
      decommission: Number(selects.decommission.value),
    };
    if (before.value) command.inspectBefore = before.value;
    await enqueue(command);
    // The next sample starts from the defaults again, at the same centre.
    form.reset();
    centreSelect.value = command.locationID;
    notice.className = "notice ok";
    notice.textContent = t("receivedSaved", { code: gtin });
    product.input.focus();
  } },
    h("label", { for: "centre" }, t("location")), centreSelect,
    centres.length === 0 ? h("p", {}, t("noLocations")) : null,
    product.label, product.input, shelf.label, shelf.input,
    CHOICES.map((name) => [h("label", { for: name }, t("receive_" + name)), selects[name]]),
    h("label", { for: "inspect-before" }, t("inspectBefore")), before,
    submit);
  show(t("receiveTitle"), notice, form,
    h("p", {}, h("a", { href: "#/receptions" }, t("receptions"))), back());
  product.input.focus();
}

export async function receptionsScreen(app) {
  const notice = h("p", { id: "notice", class: "notice", role: "status" });
  let items = [];
  try {
    // The list is a report: it waits until it holds what this device has sent.
    items = (await read(app.user.username, `/v1/receptions?receiver=${encodeURIComponent(app.user.username)}&limit=200`,
      { waitFor: status.position })).items;
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    notice.textContent = t("needsNetwork");
  }
  // Saved here but not yet accepted by the server: shown first, marked as not yet sent.
  const waiting = (await unsent()).filter((c) => c.type === "ReceiveProduct" && !items.some((r) => r.receptionID === c.receptionID));
  const day = new Intl.DateTimeFormat(language(), { dateStyle: "medium" });
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  const rows = [
    ...waiting.map((c) => h("li", { class: "card reception unsent", "data-reception": c.receptionID },
      h("strong", {}, c.gtin), " · ", h("span", { class: "badge warn" }, t("notSent")),
      h("div", {}, t("receiveShelf"), ": ", c.storageLocation))),
    ...items.map((r) => h("li", { class: "card reception" + (r.replacementRequested ? " soon" : ""), "data-reception": r.receptionID },
      h("strong", {}, r.productName || r.gtin), " · ", r.gtin,
      h("div", {}, when.format(new Date(r.receivedAt)), " · ", r.conditionLabel, " · ", r.priorityLabel, " · ", r.decommissionLabel),
      h("div", {}, t("receiveShelf"), ": ", r.storageLocation,
        r.inspectBefore ? [" · ", t("inspectBefore"), ": ", day.format(new Date(r.inspectBefore))] : null),
      r.replacementRequested ? h("span", { class: "badge warn replacement" }, t("replacementRequested")) : null,
      h("div", {}, h("a", { href: `/receptions?reception=${encodeURIComponent(r.receptionID)}`, target: "_blank", rel: "noopener" },
        t("acknowledgement"))))),
  ];
  show(t("receptions"), notice,
    h("p", {}, h("a", { class: "button", href: "#/receive" }, t("receiveTitle"))),
    rows.length === 0 ? h("p", {}, t("none")) : h("ul", { class: "cards" }, rows), back());
}

function scanField(id, text) {
  return {
    label: h("label", { for: id }, text),
    input: h("input", { id, name: id, autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "next", required: true }),
  };
}

function back() { return h("p", {}, h("a", { href: "#/" }, t("back"))); }
