// @ts-check
/**
 * The tournaments' pages: join and withdraw, the organiser's buttons (start a round,
 * pause, resume, end, replace a player by a bot), the form that creates a tournament,
 * printing; until the tournament is over the page looks every 10 s whether it moved on
 * (a table done, the next round, a new player) and then loads again; the games played
 * at each table it puts in place.
 */
import { _, api, h, siteHref } from "./site.js";

const root = document.getElementById("tournament");

/**
 * @param {Element|null} box
 * @param {string} text
 */
function fail(box, text) {
  box?.querySelector(".result")?.replaceChildren(h("p", { class: "error", role: "alert" }, text));
}

if (root) {
  const id = root.dataset.id || "";
  const invite = root.dataset.invite;
  const base = `/api/tournaments/${encodeURIComponent(id)}`;
  for (const button of root.querySelectorAll("button[data-action]")) {
    const b = /** @type {HTMLButtonElement} */ (button);
    b.addEventListener("click", async () => {
      const action = b.dataset.action || "";
      if (b.dataset.confirm && !confirm(b.dataset.confirm)) return;
      /** @type {Record<string, unknown>} */
      let body = {};
      if (action === "register") body = invite ? { invite } : {};
      if (action === "replace") {
        const who = /** @type {HTMLSelectElement|null} */ (document.getElementById("tn-replace-who"));
        body = { user: Number(who?.value) };
      }
      b.disabled = true;
      try {
        await api(`${base}/${action}`, body);
        location.reload();
      } catch (x) {
        b.disabled = false;
        fail(b.closest("section"), /** @type {Error} */ (x).message);
      }
    });
  }
  document.getElementById("tn-print")?.addEventListener("click", () => print());
  const status = root.dataset.status;
  if (status !== "over") {
    // What only a new page can show: at once when a round starts or ends, the
    // tournament pauses or goes on, or your table changes; when only the standings
    // moved (a table done, your place, a player came or went), at most every 30 s (a
    // tournament of 25 tables has 75 pages open, docs/speed.md). The games played at
    // each table are put in place.
    const loaded = Date.now();
    /** @type {[string, string]|null} */
    let seen = null;
    const look = async () => {
      try {
        const got = (await api(base + (invite ? `?invite=${encodeURIComponent(invite)}` : ""))).tournament;
        const now = /** @type {[string, string]} */ ([
          JSON.stringify([got.status, got.round, got.paused, got.you.table, got.you.status]),
          JSON.stringify([got.players.length, got.you.place,
            got.rounds_played.map((/** @type {any} */ r) => r.tables.map((/** @type {any} */ x) => x.done))])]);
        if (seen !== null && (now[0] !== seen[0]
            || (now[1] !== seen[1] && Date.now() - loaded >= 30000))) {
          location.reload();
          return;
        }
        if (seen === null || now[0] === seen[0] && now[1] === seen[1]) seen = now;
        for (const r of got.rounds_played) {
          for (const x of r.tables) {
            const el = root.querySelector(`[data-played="${r.round}-${x.number}"]`);
            if (el) el.textContent = String(x.games_played);
          }
        }
      } catch {
        // the next look tries again
      }
    };
    look();
    setInterval(look, 10000);
  }
}

const form = /** @type {HTMLFormElement|null} */ (document.getElementById("tn-create"));
form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = new FormData(form);
  const body = {
    name: String(f.get("name") || ""), preset: String(f.get("preset") || "isko"),
    scoring: String(f.get("scoring") || "seeger"), rounds: Number(f.get("rounds")),
    games_three: Number(f.get("games_three")), games_four: Number(f.get("games_four")),
    seating: String(f.get("seating") || "results"), bots: f.get("bots") === "on",
    public: f.get("public") === "on", duplicate: f.get("duplicate") === "on",
  };
  const button = form.querySelector("button");
  if (button) button.disabled = true;
  try {
    const got = (await api("/api/tournaments", body)).tournament;
    location.href = siteHref(got.invite_path || `/tournaments/${got.id}`);
  } catch (x) {
    if (button) button.disabled = false;
    fail(form, /** @type {Error} */ (x).message || _("Something went wrong"));
  }
});
