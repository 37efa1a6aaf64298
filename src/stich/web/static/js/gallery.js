/** The card gallery (static/cards.html): every card of every deck and style. */
import { cardSvg, backSvg, cardLabel, suitSymbol } from "./cards.js";

const lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "de";
document.documentElement.lang = lang;
const SUITS = ["C", "S", "H", "D"];
const SKAT = ["7", "8", "9", "T", "J", "Q", "K", "A"];
const ROMME = ["2", "3", "4", "5", "6", ...SKAT];
const deck = (ranks) => SUITS.flatMap((s) => ranks.map((r) => s + r));
const elfer = ["R", "Y", "G", "B"].flatMap((c) =>
  Array.from({ length: 20 }, (_, i) => c + (i + 1)));
const STYLES = ["german", "french4", "french2"];
const GROUPS = [];
for (const style of STYLES) {
  GROUPS.push({ id: `skat-${style}`, title: `Skat (32), ${style}`, style, codes: deck(SKAT) });
}
for (const style of STYLES) {
  GROUPS.push({ id: `romme-${style}`, title: `Rommé (52 + Joker), ${style}`, style,
                codes: [...deck(ROMME), "JK"] });
}
GROUPS.push({ id: "elferraus", title: "Elfer raus (80)", style: "german", codes: elfer });

function card(code, style) {
  const div = document.createElement("div");
  div.className = "c";
  div.dataset.code = code;
  div.dataset.style = style;
  div.dataset.lang = lang;
  div.dataset.label = cardLabel(code, { style, lang });
  div.innerHTML = code === "back" ? backSvg({ lang }) : cardSvg(code, { style, lang });
  return div;
}

const main = document.getElementById("gallery");
for (const size of [40, 80]) {
  const sec = document.createElement("section");
  sec.className = `s${size}`;
  sec.id = `s${size}`;
  sec.innerHTML = `<h2>${size} px</h2>`;
  for (const g of GROUPS) {
    const h = document.createElement("h3");
    h.textContent = g.title;
    const row = document.createElement("div");
    row.className = "row";
    row.dataset.group = g.id;
    for (const code of g.codes) row.append(card(code, g.style));
    sec.append(h, row);
  }
  const h = document.createElement("h3");
  h.textContent = lang === "en" ? "Back" : "Rückseite";
  const row = document.createElement("div");
  row.className = "row";
  const back = document.createElement("div");
  back.className = "c back";
  back.innerHTML = backSvg({ lang });
  row.append(back);
  sec.append(h, row);
  // a fanned hand as at the table: only the left 40 % of each card shows
  const fh = document.createElement("h3");
  fh.textContent = lang === "en" ? "Fanned hands" : "Aufgefächerte Hände";
  sec.append(fh);
  for (const style of STYLES) {
    const fan = document.createElement("div");
    fan.className = size === 80 ? "fan fan80" : "fan";
    fan.dataset.style = style;
    for (const code of ["CJ", "SJ", "HA", "HT", "HK", "SQ", "S9", "D8", "D7", "CA"]) {
      const c = card(code, style);
      c.classList.add("fanned");
      fan.append(c);
    }
    sec.append(fan);
  }
  const fan = document.createElement("div");
  fan.className = size === 80 ? "fan fan80" : "fan";
  for (const code of ["R1", "R11", "Y7", "Y20", "G3", "G12", "B3", "B12", "JK"]) {
    const c = card(code, "german");
    c.classList.add("fanned");
    fan.append(c);
  }
  sec.append(fan);
  main.append(sec);
}
document.getElementById("suits").innerHTML = STYLES.map((st) =>
  ["C", "S", "H", "D"].map((s) => suitSymbol(s, st)).join(" ")).join(" · ")
  + " · " + ["R", "Y", "G", "B"].map((c) => suitSymbol(c)).join(" ");
document.body.dataset.ready = "1";
