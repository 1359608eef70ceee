// <sync-status>: what is not yet sent, whether the server is reachable, and every refused
// command with the server's reason and remedy until the inspector dismisses it.
import { onChange, status, dismiss } from "./outbox.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";

class SyncStatus extends HTMLElement {
  connectedCallback() {
    this.setAttribute("role", "status");
    this.setAttribute("aria-live", "polite");
    onChange(() => this.draw());
    this.draw();
  }

  draw() {
    const waiting = status.pending + status.photos;
    const parts = [];
    if (status.offline) parts.push(h("span", { class: "badge offline" }, "⚠ " + t("offline")));
    parts.push(h("span", { class: waiting ? "badge unsent" : "badge sent", "data-unsent": waiting },
      waiting ? "↑ " + t("unsent", { n: waiting }) : "✓ " + t("allSent")));
    this.replaceChildren(...parts);
    this.drawRefused();
  }

  drawRefused() {
    let panel = document.getElementById("refused");
    if (!status.refused.length) { panel?.remove(); return; }
    if (!panel) {
      panel = h("section", { id: "refused", class: "refused", "aria-labelledby": "refused-title" });
      document.querySelector("header").after(panel);
    }
    panel.replaceChildren(
      h("h2", { id: "refused-title" }, "✗ " + t("refused")),
      h("p", {}, t("refusedHelp")),
      h("ul", {}, status.refused.map((r) => h("li", {},
        h("strong", {}, r.command.type), " ",
        r.refusal?.message || r.refusal?.code || "", " ",
        r.refusal?.remedy ? h("em", {}, r.refusal.remedy) : "",
        " ", h("button", { type: "button", onclick: () => dismiss(r.seq) }, t("dismiss"))))));
  }
}

customElements.define("sync-status", SyncStatus);
