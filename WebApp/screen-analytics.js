// The inspector's own results: the inspectors report (GET /inspectors, which shows an inspector
// only their own rows) read as its CSV tables, totals over the period and one row per day.
import { t } from "./i18n.js";
import { h, show } from "./dom.js";
import { read, Offline } from "./api.js";

const FIELDS = ["collected", "skipped", "inspected", "passed", "failed", "minutesPerTask"];

export async function analyticsScreen(app) {
  const notice = h("p", { id: "notice", class: "notice", role: "status" });
  const me = encodeURIComponent(app.user.username);
  let totals = [];
  let days = [];
  try {
    totals = await read(app.user.username, `/inspectors?inspector=${me}&format=csv&table=inspectors`, { csv: true });
    days = await read(app.user.username, `/inspectors?inspector=${me}&format=csv&table=inspector-days`, { csv: true });
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    notice.textContent = t("needsNetwork");
  }
  const total = totals.find((row) => row.inspectorID === app.user.username);
  const skipped = (row) => String(Number(row.skippedUnableToCollect) + Number(row.skippedOutOfStock) + Number(row.skippedNoLongerAvailable));
  show(t("analytics"), notice,
    total ? h("dl", { class: "totals" },
      h("dt", {}, t("daysWorked")), h("dd", { "data-field": "days" }, total.days),
      FIELDS.map((field) => [h("dt", {}, t("a_" + field)),
        h("dd", { "data-field": field }, field === "skipped" ? skipped(total) : total[field])])) : h("p", {}, t("none")),
    // The table scrolls on its own on a phone (a region that keyboards can reach) rather than the page.
    days.length ? h("div", { class: "scroll", tabindex: 0, role: "region", "aria-label": t("perDay") }, h("table", { class: "days" },
      h("caption", {}, t("perDay")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("day")), FIELDS.map((field) => h("th", { scope: "col" }, t("a_" + field))))),
      h("tbody", {}, days.map((row) => h("tr", { "data-day": row.period },
        h("th", { scope: "row" }, row.period), FIELDS.map((field) => h("td", {}, row[field]))))))) : null,
    h("p", {}, h("a", { href: "#/" }, t("back"))));
}
