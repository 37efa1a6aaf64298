// @ts-check
/**
 * The standings pages: the print button of the Skat list and the Anschreibezettel, and
 * the cue of a sheet wider than the screen.
 */

for (const b of document.querySelectorAll("[data-print]")) {
  b.addEventListener("click", () => window.print());
}

/**
 * A sheet wider than its box (the Anschreibezettel on a phone) scrolls sideways within
 * it: a cue at the side where there is more (›, ‹; sheets.css) says so, above the box's
 * edge (a sibling: the box's own children scroll with the sheet).
 */
for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".sheet .scroll"))) {
  const cue = document.createElement("div");
  cue.className = "scroll-cue";
  cue.setAttribute("aria-hidden", "true");
  for (const [side, mark] of [["left", "‹"], ["right", "›"]]) {
    const c = document.createElement("span");
    c.className = `cue cue-${side}`;
    c.textContent = mark;
    cue.append(c);
  }
  box.before(cue);
  const look = () => {
    cue.classList.toggle("more-right", box.scrollLeft + box.clientWidth < box.scrollWidth - 2);
    cue.classList.toggle("more-left", box.scrollLeft > 2);
  };
  box.addEventListener("scroll", look, { passive: true });
  window.addEventListener("resize", look);
  look();
}
