// @ts-check
/**
 * The Tagesskat page: the button that opens one's own table of the day
 * (`POST /api/daily/play`) and goes there.
 */
import { api, h } from "./site.js";

const button = /** @type {HTMLButtonElement|null} */ (document.getElementById("daily-play"));
button?.addEventListener("click", async () => {
  button.disabled = true;
  try {
    const got = await api("/api/daily/play", {});
    location.href = got.path;
  } catch (x) {
    button.disabled = false;
    document.querySelector("#daily-set .result")?.replaceChildren(
      h("p", { class: "error", role: "alert" }, /** @type {Error} */ (x).message));
  }
});
