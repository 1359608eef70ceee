// "Add task": a location of the kind the mode allows, then a number of products or minutes.
// Allocation needs the network (the server chooses the products), so it is sent at once.
import { t } from "./i18n.js";
import { h, show } from "./dom.js";
import { read, call, Offline } from "./api.js";

const KINDS = { 0: [1], 1: [2], 2: [1, 0], 3: [0, 2] };

export async function allocateScreen(app, mode) {
  const notice = h("p", { id: "notice", class: "notice", role: "alert" });
  let locations = [];
  try {
    locations = (await read(app.user.username, "/v1/locations")).locations.filter((l) => KINDS[mode]?.includes(l.kind));
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    notice.textContent = t("needsNetwork");
  }
  const select = h("select", { id: "location", required: true },
    locations.map((l) => h("option", { value: l.locationID }, l.name)));
  const byQuantity = h("input", { type: "radio", name: "by", id: "by-quantity", value: "quantity", checked: true });
  const byMinutes = h("input", { type: "radio", name: "by", id: "by-minutes", value: "minutes" });
  const amount = h("input", { id: "amount", type: "number", min: 1, max: 10080, value: 5, inputmode: "numeric", required: true });
  const amountLabel = h("label", { for: "amount" }, t("quantity"));
  const relabel = () => { amountLabel.textContent = byMinutes.checked ? t("minutes") : t("quantity"); };
  byQuantity.addEventListener("change", relabel);
  byMinutes.addEventListener("change", relabel);
  const submit = h("button", { type: "submit", class: "primary", disabled: locations.length === 0 }, t("allocate"));
  const form = h("form", { class: "stack", onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const command = {
      commandID: crypto.randomUUID(), occurredAt: new Date().toISOString(), type: "AllocateBatch",
      inspectorID: app.user.username, locationID: select.value, mode,
      [byMinutes.checked ? "minutes" : "quantity"]: Number(amount.value),
    };
    try {
      const outcome = (await (await call("POST", "/v1/commands", { json: { commands: [command] } })).json()).outcomes[0];
      if (outcome.status === "refused") {
        notice.textContent = outcome.refusal.message;
      } else {
        return app.go(`#/batch/${encodeURIComponent(outcome.createdID)}`);
      }
    } catch (error) {
      if (error instanceof Offline) notice.textContent = t("needsNetwork");
      else if (error.problem) notice.textContent = `${error.message} ${error.problem.remedy || ""}`;
      else throw error;
    }
    submit.disabled = false;
  } },
    h("label", { for: "location" }, t("location")), select,
    locations.length === 0 ? h("p", {}, t("noLocations")) : null,
    h("fieldset", {}, h("legend", {}, t("amountBy")),
      h("div", { class: "choice" }, byQuantity, h("label", { for: "by-quantity" }, t("byQuantity"))),
      h("div", { class: "choice" }, byMinutes, h("label", { for: "by-minutes" }, t("byMinutes")))),
    amountLabel, amount, submit);
  show(t("allocateTitle", { mode: t("mode" + mode) }), notice, form, h("p", {}, h("a", { href: "#/" }, t("back"))));
}
