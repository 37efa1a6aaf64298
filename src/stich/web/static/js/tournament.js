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

/**
 * A round started and you sit at one of its tables: the page shows it where it showed
 * your place and the next round, the first thing on it, without loading again (the 75
 * players of a tournament of 25 tables would load it at the same moment; the rest of
 * the page changes when you come back). Whether it did.
 * @param {any} got the look's answer
 */
function yourNextTable(got) {
  const link = got.you.table;
  const box = document.getElementById("tn-you");
  const shown = document.getElementById("tn-table");
  if (got.status !== "running" || got.paused || !link || !box
      || shown?.getAttribute("href") === link) {
    return false;
  }
  const round = got.rounds_played.find((/** @type {any} */ r) => r.round === got.round);
  const table = round?.tables.find((/** @type {any} */ x) => x.link === link);
  if (!table) return false;
  const status = document.getElementById("tn-status");
  if (status) status.textContent = _("Round {n} is being played", { n: got.round });
  const of = document.getElementById("tn-round");
  if (of) of.textContent = _("round {n} of {m}", { n: got.round, m: got.rounds });
  document.getElementById("tn-next")?.remove();
  const names = table.seats.filter((/** @type {any} */ x) => !x.you)
    .map((/** @type {any} */ x) => (x.bot ? _("bot") : x.name)).join(", ");
  const go = h("a", { class: "button tn-go", id: "tn-table", href: link }, _("Go to your table"));
  shown?.closest("p")?.remove();
  document.getElementById("tn-new-table")?.remove();
  box.prepend(h("p", { class: "row" }, go),
    h("p", { id: "tn-new-table" }, _("Round {n}: table {table}, with {names}",
      { n: got.round, table: table.number, names })));
  return true;
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
    // What only a new page can show (the look's "watch", which the page carries as it
    // was made, so it need not look at once): at once when a round starts or ends, the
    // tournament pauses or goes on, or your table changes; when only the standings
    // moved (a table done, your place, a player came or went), at most every 30 s (a
    // tournament of 25 tables has 75 pages open, docs/speed.md). The games played at
    // each table are put in place.
    const loaded = Date.now();
    /** @type {string[]|null} */
    let seen = null;
    try {
      seen = JSON.parse(root.dataset.watch || "null");
    } catch {
      // the first look takes what it sees
    }
    const look = async () => {
      try {
        const got = (await api(base + (invite ? `?invite=${encodeURIComponent(invite)}` : ""))).tournament;
        /** @type {string[]} */
        const now = got.watch;
        if (seen !== null && now[0] !== seen[0] && yourNextTable(got)) {
          seen = now; // your table of the round that started is on the page
        } else if (seen !== null && (now[0] !== seen[0]
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
