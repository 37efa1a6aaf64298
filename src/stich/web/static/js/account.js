// @ts-check
/**
 * The account page: a guest registers, a new password, logging out everywhere, deleting
 * the account.
 * Everything goes through the HTTP API (`/api/register`, `/api/me/…`).
 */
import { _, api, h } from "./site.js";

/** @param {Element|null} box @param {string} text @param {boolean} [error] */
function say(box, text, error = false) {
  box?.replaceChildren(h("p", { class: error ? "error" : "ok", role: error ? "alert" : "status" }, text));
}

// a guest registers here: the account (and its games) becomes a registered one
const register = /** @type {HTMLFormElement|null} */ (document.getElementById("register"));
register?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(register);
  try {
    await api("/api/register", { name: String(data.get("name") || "").trim(), password: String(data.get("password") || "") });
    location.reload();
  } catch (x) { say(register.querySelector(".result"), /** @type {Error} */ (x).message, true); }
});

const password = /** @type {HTMLFormElement|null} */ (document.getElementById("password"));
password?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(password);
  const out = password.querySelector(".result");
  try {
    await api("/api/me/password", { old: String(data.get("old") || ""), new: String(data.get("new") || "") });
    password.reset();
    say(out, _("The password is changed; every other device is logged out."));
  } catch (x) { say(out, /** @type {Error} */ (x).message, true); }
});

const everywhere = document.getElementById("everywhere");
everywhere?.querySelector("button")?.addEventListener("click", async () => {
  try {
    await api("/api/me/logout-all", {});
    location.href = "/";
  } catch (x) { say(everywhere.querySelector(".result"), /** @type {Error} */ (x).message, true); }
});

const del = /** @type {HTMLFormElement|null} */ (document.getElementById("delete"));
del?.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(del);
  const body = data.has("password") ? { password: String(data.get("password") || "") } : {};
  try {
    await api("/api/me/delete", body);
    location.href = "/";
  } catch (x) { say(del.querySelector(".result"), /** @type {Error} */ (x).message, true); }
});
