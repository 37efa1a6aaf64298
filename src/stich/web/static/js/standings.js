// @ts-check
/** The standings pages: the print button of the Skat list and the Anschreibezettel. */

for (const b of document.querySelectorAll("[data-print]")) {
  b.addEventListener("click", () => window.print());
}
