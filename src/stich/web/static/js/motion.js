// @ts-check
/**
 * Card movements (FLIP with the Web Animations API): before a redraw, remember where
 * each keyed element (`data-flip`) was; after it, play each one from its old place to its
 * new one.  Cards that were not there before fade in.  Nothing moves for people who ask
 * for reduced motion.
 */

/**
 * @param {Element|null} container
 * @returns {Map<string, DOMRect>}
 */
export function snapshotRects(container) {
  const m = new Map();
  if (!container) return m;
  for (const el of container.querySelectorAll("[data-flip]")) {
    const k = el.getAttribute("data-flip");
    if (k) m.set(k, el.getBoundingClientRect());
  }
  return m;
}

/**
 * @param {Element} container  the new drawing (in the document)
 * @param {Map<string, DOMRect>} before
 */
export function flip(container, before) {
  if (!before.size || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const el of container.querySelectorAll("[data-flip]")) {
    const k = el.getAttribute("data-flip");
    if (!k || !(el instanceof HTMLElement)) continue;
    const old = before.get(k);
    const now = el.getBoundingClientRect();
    if (!old) {
      el.animate([{ opacity: 0, transform: "scale(.92)" }, { opacity: 1, transform: "none" }], { duration: 180, easing: "ease-out" });
      continue;
    }
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const s = now.width ? old.width / now.width : 1;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${s})` },
      { transform: "none" },
    ], { duration: 260, easing: "cubic-bezier(.2,.7,.3,1)" });
  }
}
