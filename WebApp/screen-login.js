// Sign-in inside the app (an installed app must not leave its window for /login).
import { t } from "./i18n.js";
import { h, show } from "./dom.js";
import { call, signIn, Offline, Refused } from "./api.js";

export function loginScreen(app, { message, username } = {}) {
  const notice = h("p", { id: "notice", class: message ? "notice warn" : "notice", role: "alert" }, message || "");
  const name = h("input", { id: "username", name: "username", autocomplete: "username", required: true, value: username || "" });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "stack", onsubmit: async (event) => {
    event.preventDefault();
    notice.textContent = "";
    try {
      await signIn(name.value, password.value);
      const me = await (await call("GET", "/v1/me")).json();
      await app.signedIn(me);
    } catch (error) {
      notice.className = "notice error";
      if (error instanceof Offline) notice.textContent = t("needsNetwork");
      else if (error instanceof Refused && error.problem.code === "throttled") notice.textContent = t("throttled");
      else if (error instanceof Refused && error.problem.code === "expired") notice.textContent = t("formExpired");
      else notice.textContent = t("wrongPassword");
    }
  } },
    h("label", { for: "username" }, t("username")), name,
    h("label", { for: "password" }, t("password")), password,
    h("button", { type: "submit", class: "primary" }, t("signIn")));
  show(t("signInTitle"), notice, form);
}
