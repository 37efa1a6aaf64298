// @ts-check
/**
 * Panels that open in view: one layer above the table (a drawer from the side on a
 * laptop, a sheet from the bottom on a phone) that scrolls within itself.  It closes with
 * its × button, Escape, or a tap outside it.  The table below may redraw as often as it
 * likes: the layer lives outside the table's root and its content is rebuilt only when
 * its `key` changes, so it never folds, scrolls back or moves because of a table update.
 */
import { _, h } from "./site.js";

/** @type {HTMLElement|null} */
let layer = null;
/** @type {string} */
let shownKey = "";
/** @type {(() => void)|null} */
let closing = null;

function ensure() {
  if (layer) return layer;
  layer = h("div", { class: "layer", hidden: true });
  layer.addEventListener("click", (e) => { if (e.target === layer) hidePanel(true); });
  document.body.append(layer);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && layer && !layer.hidden) { e.preventDefault(); hidePanel(true); }
  });
  return layer;
}

/**
 * Show a panel (or keep the one shown when `key` is unchanged).
 * @param {string} key  what is shown and the data it was built from ("list:12")
 * @param {string} title
 * @param {() => (Node|string|null)[]} build  the content, called only for a new key
 * @param {{onClose?: () => void, kind?: string, modal?: boolean}} [o]
 *   onClose: called when the person closes it; kind: a class for the box ("result");
 *   modal: the rest of the page is inert meanwhile (a result that waits for "Weiter")
 */
export function showPanel(key, title, build, o = {}) {
  const l = ensure();
  closing = o.onClose || null;
  if (key === shownKey && !l.hidden) return /** @type {HTMLElement} */ (l.firstElementChild);
  const close = h("button", { type: "button", class: "secondary close", "aria-label": _("Close"), onclick: () => hidePanel(true) }, "×");
  const box = h("section", { class: `drawer ${o.kind || ""}`, role: "dialog", "aria-modal": o.modal ? "true" : "false", "aria-label": title },
    h("header", { class: "drawer-head" }, h("h2", {}, title), close),
    h("div", { class: "drawer-body" }, ...build()));
  l.replaceChildren(box);
  l.className = `layer ${o.kind ? "layer-" + o.kind : ""}`;
  l.hidden = false;
  shownKey = key;
  return box;
}

/** Hide the panel; `byPerson`: the person closed it (calls its onClose). @param {boolean} [byPerson] */
export function hidePanel(byPerson = false) {
  if (!layer || layer.hidden) return;
  layer.hidden = true;
  layer.replaceChildren();
  shownKey = "";
  const f = closing;
  closing = null;
  if (byPerson && f) f();
}

/** The key of the panel shown now ("" when none). */
export function panelKey() { return layer && !layer.hidden ? shownKey : ""; }
