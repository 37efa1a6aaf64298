// @ts-check
/**
 * Card faces for the stich browser table, drawn here as inline SVG strings.
 *
 * One plain ES module, no imports, no build step.  Every function returns a string of
 * markup (or text) for the caller to put into the page, e.g. `el.innerHTML = cardSvg("CJ")`.
 *
 * Card codes (as the server sends them):
 * - Skat and Rommé: suit letter C S H D + rank 2..9, T (ten), J, Q, K, A ("CJ", "ST", "HA");
 *   the joker of the double Rommé deck is "JK".
 * - Elfer raus: colour letter R Y G B + number 1..20 ("R1", "B20").
 *
 * Layout of a face (viewBox 0 0 100 150, ratio 2:3): a big index (rank over suit mark) in
 * the left 40 % of the top, so it stays readable in a fanned hand, and one large pip or a
 * simple figure (J/Q/K) in the lower right.  The SVG has width and height 100 %, so the
 * surrounding element sizes it (give that element a width and `aspect-ratio: 2 / 3`).
 *
 * No element ids are used, so any number of cards can sit in one page.
 */

/** @typedef {"german"|"french4"|"french2"} SkatStyle */
/** @typedef {{style?: SkatStyle, lang?: "de"|"en"}} CardOpts */
/** @typedef {{label?: string, lang?: "de"|"en"}} BackOpts */

const W = 100;
const H = 150;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, "
  + "'Liberation Sans', 'DejaVu Sans', sans-serif";

// ---- names -------------------------------------------------------------------------------

/** @type {Record<string, string>} */
const SUIT_GERMAN = { C: "Eichel", S: "Grün", H: "Herz", D: "Schellen" };
/** @type {Record<string, string>} */
const SUIT_FRENCH = { C: "Kreuz", S: "Pik", H: "Herz", D: "Karo" };
/** @type {Record<string, string>} */
const SUIT_ENGLISH = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };

/** @type {Record<string, string>} */
const RANK_GERMAN = {
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", T: "10",
  J: "Unter", Q: "Ober", K: "König", A: "Daus",
};
/** @type {Record<string, string>} */
const RANK_FRENCH = {
  2: "Zwei", 3: "Drei", 4: "Vier", 5: "Fünf", 6: "Sechs", 7: "Sieben", 8: "Acht",
  9: "Neun", T: "Zehn", J: "Bube", Q: "Dame", K: "König", A: "As",
};
/** @type {Record<string, string>} */
const RANK_ENGLISH = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};

/** Index text per style family. @type {Record<string, Record<string, string>>} */
const INDEX = {
  german: { T: "10", J: "U", Q: "O", K: "K", A: "A" },
  de: { T: "10", J: "B", Q: "D", K: "K", A: "A" },
  en: { T: "10", J: "J", Q: "Q", K: "K", A: "A" },
};

/** @type {Record<string, string>} */
const COLOUR_DE = { R: "Rot", Y: "Gelb", G: "Grün", B: "Blau" };
/** @type {Record<string, string>} */
const COLOUR_EN = { R: "red", Y: "yellow", G: "green", B: "blue" };

// ---- parsing -----------------------------------------------------------------------------

/**
 * @typedef {{kind: "suit", suit: string, rank: string}
 *   | {kind: "colour", colour: string, n: number}
 *   | {kind: "joker"}} Parsed
 */

/**
 * Read a card code; throws an Error for anything that is not a card code.
 * @param {string} code
 * @returns {Parsed}
 */
function parse(code) {
  if (code === "JK") return { kind: "joker" };
  if (typeof code === "string") {
    let m = /^([CSHD])([2-9TJQKA])$/.exec(code);
    if (m) return { kind: "suit", suit: m[1], rank: m[2] };
    m = /^([RYGB])([1-9]|1[0-9]|20)$/.exec(code);
    if (m) return { kind: "colour", colour: m[1], n: Number(m[2]) };
  }
  throw new Error(`cards.js: unknown card code ${JSON.stringify(code)}`);
}

/** @param {CardOpts | undefined} opts @returns {SkatStyle} */
function styleOf(opts) {
  const s = opts && opts.style;
  return s === "french4" || s === "french2" ? s : "german";
}

/** @param {CardOpts | BackOpts | undefined} opts @returns {"de"|"en"} */
function langOf(opts) {
  return opts && opts.lang === "en" ? "en" : "de";
}

/** @param {string} s */
function esc(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** @param {number} x */
function r1(x) {
  return String(Math.round(x * 100) / 100);
}

// ---- labels ------------------------------------------------------------------------------

/**
 * The screen-reader name of a card.
 *
 * - German style, de: "Eichel Unter", "Grün 10", "Herz Daus", "Schellen 7".
 * - French styles, de: "Kreuz Bube", "Pik Zehn", "Karo As", "Herz Sieben".
 * - en (any style; English-speaking Skat players name German-suited cards by the French
 *   names too): "jack of clubs", "ten of spades"; the server names cards in English
 *   refusals the same way (`stich.present.styles.english_card`).
 * - Elfer raus: de "Rot 11", en "red 11".  Joker: "Joker".
 *
 * @param {string} code a card code such as "CJ", "ST", "R11" or "JK"
 * @param {CardOpts} [opts] style (default "german") and language (default "de")
 * @returns {string}
 */
export function cardLabel(code, opts) {
  const c = parse(code);
  const lang = langOf(opts);
  if (c.kind === "joker") return "Joker";
  if (c.kind === "colour") {
    return `${(lang === "en" ? COLOUR_EN : COLOUR_DE)[c.colour]} ${c.n}`;
  }
  if (lang === "en") return `${RANK_ENGLISH[c.rank]} of ${SUIT_ENGLISH[c.suit]}`;
  if (styleOf(opts) === "german") return `${SUIT_GERMAN[c.suit]} ${RANK_GERMAN[c.rank]}`;
  return `${SUIT_FRENCH[c.suit]} ${RANK_FRENCH[c.rank]}`;
}

// ---- colours -----------------------------------------------------------------------------

/**
 * fill: the pip's fill; edge: its outline; ink: the index text; tint: face-card panel.
 * @typedef {{fill: string, edge: string, ink: string, tint: string}} Paint
 */

const BLACK = { fill: "#141414", edge: "#141414", ink: "#141414", tint: "#ececec" };
const RED = { fill: "#d0161f", edge: "#7a0810", ink: "#c0121b", tint: "#fbe3e3" };

/** @type {Record<SkatStyle, Record<string, Paint>>} */
const PAINT = {
  german: {
    C: { fill: "#8a5a22", edge: "#3a220a", ink: "#5a3710", tint: "#f3e6d2" },
    S: { fill: "#2f9a2f", edge: "#0f4d12", ink: "#17701b", tint: "#e0f2dc" },
    H: RED,
    D: { fill: "#f3b80c", edge: "#6b4300", ink: "#a34f00", tint: "#fdf0c8" },
  },
  french4: {
    C: BLACK,
    S: { fill: "#1c8a26", edge: "#0b4a12", ink: "#157020", tint: "#e0f2dc" },
    H: RED,
    D: { fill: "#f29a00", edge: "#7a4300", ink: "#b45400", tint: "#fdecc8" },
  },
  french2: { C: BLACK, S: BLACK, H: RED, D: RED },
};

/**
 * Elfer raus colours with a shape each (colour is never the only cue):
 * red circle, yellow triangle, green square, blue star.
 * @type {Record<string, Paint & {text: string, shape: string}>}
 */
const COLOUR = {
  R: { fill: "#d32626", edge: "#6e0c0c", ink: "#b71c1c", tint: "#fde4e4", text: "#fff",
    shape: "circle" },
  Y: { fill: "#f7c600", edge: "#6b5200", ink: "#7a5c00", tint: "#fff6cc", text: "#141414",
    shape: "triangle" },
  G: { fill: "#23883a", edge: "#0b4217", ink: "#1b6e2e", tint: "#dff2e3", text: "#fff",
    shape: "square" },
  B: { fill: "#1f5fd0", edge: "#0c2a66", ink: "#1a4fb0", tint: "#e1eafc", text: "#fff",
    shape: "star" },
};

// ---- shapes (drawn in a box from -50 to 50, centre 0 0) ----------------------------------

/** @param {number} cx @param {number} cy @param {number} r @param {number} n
 *  @param {number} inner @returns {string} */
function starPath(cx, cy, r, n, inner) {
  let d = "";
  for (let i = 0; i < 2 * n; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const rr = i % 2 ? r * inner : r;
    d += `${i ? "L" : "M"}${r1(cx + rr * Math.cos(a))} ${r1(cy + rr * Math.sin(a))}`;
  }
  return `${d}Z`;
}

const HEART = "M0 46C-12 30-48 10-48-14C-48-34-32-46-18-46C-8-46-2-40 0-30"
  + "C2-40 8-46 18-46C32-46 48-34 48-14C48 10 12 30 0 46Z";
const DIAMOND = "M0-50Q14-22 38 0Q14 22 0 50Q-14 22-38 0Q-14-22 0-50Z";
const SPADE = "M0-48C-10-30-46-14-46 8C-46 25-32 33-20 33C-11 33-5 28-3 24"
  + "C-4 34-9 42-18 48L18 48C9 42 4 34 3 24C5 28 11 33 20 33C32 33 46 25 46 8"
  + "C46-14 10-30 0-48Z";
const CLUB = "M-6 4C-14 22-38 26-40 6C-42-12-22-18-10-8C-24-18-20-46 0-46"
  + "C20-46 24-18 10-8C22-18 42-12 40 6C38 26 14 22 6 4"
  + "C7 24 11 38 20 48L-20 48C-11 38-7 24-6 4Z";
// German suits
const ACORN_NUT = "M-25-6C-27 20-13 42 0 48C13 42 27 20 25-6Z";
const ACORN_CAP = "M-33-2C-35-24-18-36 0-36C18-36 35-24 33-2C20 5-20 5-33-2Z";
const ACORN_STEM = "M-5-34C-6-42-2-49 5-51L10-46C5-43 4-40 4-34Z";
const LEAF = "M0-50C10-40 20-36 26-34C24-28 30-22 38-18C32-12 34-4 42 2"
  + "C34 8 36 18 40 26C26 28 14 38 0 38C-14 38-26 28-40 26C-36 18-34 8-42 2"
  + "C-34-4-32-12-38-18C-30-22-24-28-26-34C-20-36-10-40 0-50Z";
const LEAF_STEM = "M-4 34L-5 50L5 50L4 34Z";
const LEAF_VEINS = "M0-40L0 40M0-14L-17-26M0-14L17-26M0 8L-24-6M0 8L24-6M0 28L-22 16"
  + "M0 28L22 16";
const BELL_SLOT = "M-4 14L-4 36L4 36L4 14Z";

/**
 * A pip as SVG markup, centred at (cx, cy), `size` viewBox units across, with an outer
 * outline of about `edge` units (drawn as a wide stroke under the fill, so inner joins of
 * overlapping parts show no lines).
 * @param {string} suit C S H D (or a colour letter R Y G B)
 * @param {SkatStyle} style
 * @param {number} cx @param {number} cy @param {number} size @param {number} edge
 * @returns {string}
 */
function pip(suit, style, cx, cy, size, edge) {
  const k = size / 100;
  const sw = r1((2 * edge) / k);
  const t = `transform="translate(${r1(cx)} ${r1(cy)}) scale(${Math.round(k * 1000) / 1000})"`;
  /** @param {string} shapes @param {string} fill @param {string} line */
  const two = (shapes, fill, line) => `<g fill="${line}" stroke="${line}" stroke-width="${sw}" `
    + `stroke-linejoin="round">${shapes}</g><g fill="${fill}">${shapes}</g>`;
  if (suit in COLOUR) {
    const p = COLOUR[suit];
    return `<g ${t}>${two(shapeMarkup(p.shape), p.fill, p.edge)}</g>`;
  }
  const p = PAINT[style][suit];
  if (style !== "german") {
    const d = { C: CLUB, S: SPADE, H: HEART, D: DIAMOND }[suit];
    return `<g ${t}>${two(`<path d="${d}"/>`, p.fill, p.edge)}</g>`;
  }
  const thin = r1(Math.max(3, (1.6 * edge) / k));
  if (suit === "C") {
    return `<g ${t}>${two(`<path d="${ACORN_NUT}"/><path d="${ACORN_CAP}"/>`
      + `<path d="${ACORN_STEM}"/>`, p.fill, p.edge)}`
      + `<path d="${ACORN_CAP}" fill="#4a2c0c"/><path d="${ACORN_STEM}" fill="#4a2c0c"/>`
      + `<path d="M-20-14L-8-26M-6-12L8-28M8-10L22-24" stroke="#a9783c" stroke-width="${thin}"`
      + ` stroke-linecap="round"/>`
      + `<ellipse cx="-10" cy="14" rx="5" ry="11" fill="#e9c48e"/></g>`;
  }
  if (suit === "S") {
    return `<g ${t}>${two(`<path d="${LEAF}"/><path d="${LEAF_STEM}"/>`, p.fill, p.edge)}`
      + `<path d="${LEAF_VEINS}" fill="none" stroke="#0f4d12" stroke-width="${thin}"`
      + ` stroke-linecap="round"/></g>`;
  }
  if (suit === "H") {
    return `<g ${t}>${two(`<path d="${HEART}"/>`, p.fill, p.edge)}`
      + `<ellipse cx="-22" cy="-22" rx="8" ry="12" fill="#ff8a8a" transform="rotate(-35 -22 -22)"/>`
      + `</g>`;
  }
  // Schellen: a round sleigh bell with a band, a slot below and a ring on top
  return `<g ${t}>${two(`<circle cx="0" cy="6" r="40"/>`
    + `<circle cx="0" cy="-38" r="10" fill="none" stroke-width="8"/>`, p.fill, p.edge)}`
    + `<circle cx="0" cy="-38" r="10" fill="none" stroke="${p.fill}" stroke-width="5"/>`
    + `<path d="M-40 -6H40V8H-40Z" fill="#c0321f"/>`
    + `<path d="${BELL_SLOT}" fill="#3a2400"/><circle cx="0" cy="14" r="8" fill="#3a2400"/>`
    + `<ellipse cx="-18" cy="-18" rx="7" ry="5" fill="#fff3c2"/></g>`;
}

/** @param {string} shape @returns {string} */
function shapeMarkup(shape) {
  switch (shape) {
    case "circle": return `<circle cx="0" cy="0" r="44"/>`;
    case "triangle": return `<path d="M0-48L48 40L-48 40Z"/>`;
    case "square": return `<rect x="-40" y="-40" width="80" height="80" rx="4"/>`;
    default: return `<path d="${starPath(0, 4, 52, 5, 0.48)}"/>`;
  }
}

// ---- faces -------------------------------------------------------------------------------

/** @param {string} label @param {string} body */
function svg(label, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" `
    + `height="100%" role="img" aria-label="${esc(label)}" class="card-face">`
    + `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="8" fill="#fff" `
    + `stroke="#2a2a2a" stroke-width="3"/>${body}</svg>`;
}

/**
 * Index text, centred on x=21 in the left column; squeezed to the column for two digits.
 * @param {string} text @param {string} colour @param {number} y baseline
 * @param {number} size font size
 */
function indexText(text, colour, y, size) {
  const squeeze = text.length > 1 ? ` textLength="38" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="21" y="${y}" text-anchor="middle" font-family="${FONT}" font-weight="700" `
    + `font-size="${size}" fill="${colour}" class="index"${squeeze}>${esc(text)}</text>`;
}

/** @param {string} rank @param {SkatStyle} style @param {"de"|"en"} lang */
function indexOf(rank, style, lang) {
  const table = style === "german" ? INDEX.german : INDEX[lang];
  return table[rank] || rank;
}

/**
 * A simple court figure (head, shoulders, head-gear by rank) in a tinted panel.
 * @param {string} suit @param {string} rank @param {SkatStyle} style
 */
function figure(suit, rank, style) {
  const p = PAINT[style][suit];
  let hat = "";
  if (rank === "K") {
    hat = `<path d="M52 91L51 72L59 80L66 68L73 80L81 72L80 91Z" fill="#f2c12e" stroke="#5a3d00" `
      + `stroke-width="3" stroke-linejoin="round"/>`;
  } else if (rank === "Q") {
    hat = `<path d="M48 91C50 84 56 82 62 82L63 75C66 72 70 72 71 75L72 82C78 82 84 84 86 91Z" `
      + `fill="${p.edge}" stroke="#1a1a1a" stroke-width="2.5" stroke-linejoin="round"/>`
      + `<path d="M70 79C74 68 86 64 92 68C86 70 80 74 75 82Z" fill="#f2c12e" stroke="#5a3d00" `
      + `stroke-width="2.5" stroke-linejoin="round"/>`;
  } else {
    hat = `<path d="M54 92C53 80 60 76 67 76C74 76 81 80 80 92Z" fill="#f2c12e" stroke="#5a3d00" `
      + `stroke-width="3" stroke-linejoin="round"/><circle cx="67" cy="74" r="4.5" fill="#5a3d00"/>`;
  }
  return `<rect x="38" y="66" width="56" height="78" rx="7" fill="${p.tint}" stroke="${p.edge}" `
    + `stroke-width="3"/>`
    + `<path d="M42 142V132C42 118 53 112 67 112C81 112 90 118 90 132V142Z" fill="${p.fill}" `
    + `stroke="${p.edge}" stroke-width="3" stroke-linejoin="round"/>`
    + `<circle cx="67" cy="99" r="12" fill="#f7d9b5" stroke="#3a2a1a" stroke-width="3"/>`
    + hat
    + `<circle cx="67" cy="128" r="11" fill="#fff" stroke="${p.edge}" stroke-width="2.5"/>`
    + pip(suit, style, 67, 128, 15, 1);
}

/** @param {Parsed & {kind: "suit"}} c @param {SkatStyle} style @param {"de"|"en"} lang */
function suitFace(c, style, lang) {
  const p = PAINT[style][c.suit];
  const idx = indexOf(c.rank, style, lang);
  let body = indexText(idx, p.ink, 41, idx.length > 1 ? 40 : 45)
    + pip(c.suit, style, 21, 64, 34, 1.6);
  if (c.rank === "J" || c.rank === "Q" || c.rank === "K") {
    body += figure(c.suit, c.rank, style);
  } else if (c.rank === "A") {
    body += `<circle cx="64" cy="108" r="33" fill="${p.tint}"/>`
      + pip(c.suit, style, 64, 108, 62, 2);
  } else {
    body += pip(c.suit, style, 65, 110, 58, 2);
  }
  return body;
}

/** @param {Parsed & {kind: "colour"}} c */
function colourFace(c) {
  const p = COLOUR[c.colour];
  const n = String(c.n);
  /** @param {number} len */
  const squeeze = (len) => (n.length > 1
    ? ` textLength="${len}" lengthAdjust="spacingAndGlyphs"` : "");
  // index: the number on a badge of the colour, the colour's shape below it
  let body = `<rect x="3.5" y="3.5" width="36" height="44" rx="6" fill="${p.fill}" `
    + `stroke="${p.edge}" stroke-width="2.5"/>`
    + `<text x="21.5" y="40" text-anchor="middle" font-family="${FONT}" font-weight="700" `
    + `font-size="${n.length > 1 ? 36 : 40}" fill="${p.text}" class="index"${squeeze(33)}>`
    + `${n}</text>`
    + pip(c.colour, "german", 21, 69, 32, 1.6);
  // centre: the colour's shape, large, with the number in it
  const narrow = p.shape === "triangle" || p.shape === "star";
  const cy = p.shape === "triangle" ? 106 : 110;
  const ty = p.shape === "triangle" ? 132 : p.shape === "star" ? 124 : 123;
  const fs = narrow ? 27 : 36;
  body += pip(c.colour, "german", 65, cy, 58, 2)
    + `<text x="65" y="${ty}" text-anchor="middle" font-family="${FONT}" font-weight="700" `
    + `font-size="${fs}" fill="${p.text}"${squeeze(narrow ? 28 : 40)}>${n}</text>`;
  return body;
}

function jokerFace() {
  // index: a star (no rank letter, so it cannot be read as a jack); centre: a jester's cap
  const cap = `<path d="M40 126C40 104 46 88 38 72C52 78 58 92 64 104C66 88 62 76 66 64`
    + `C74 78 74 92 70 106C78 94 86 86 98 84C90 98 88 112 88 126Z" fill="#7b2fa6" `
    + `stroke="#2a0c3d" stroke-width="3" stroke-linejoin="round"/>`
    + `<path d="M64 104C66 88 62 76 66 64C74 78 74 92 70 106Z" fill="#d0161f"/>`
    + `<path d="M40 126C40 116 42 110 44 106L88 108C88 116 88 120 88 126Z" fill="#f2c12e" `
    + `stroke="#5a3d00" stroke-width="3" stroke-linejoin="round"/>`
    + `<circle cx="38" cy="72" r="6" fill="#f2c12e" stroke="#5a3d00" stroke-width="2.5"/>`
    + `<circle cx="66" cy="63" r="6" fill="#f2c12e" stroke="#5a3d00" stroke-width="2.5"/>`
    + `<circle cx="97" cy="84" r="6" fill="#f2c12e" stroke="#5a3d00" stroke-width="2.5"/>`;
  return `<path d="${starPath(21, 25, 18, 5, 0.46)}" fill="#7b2fa6" stroke="#2a0c3d" `
    + `stroke-width="3" stroke-linejoin="round" class="index"/>`
    + `<text x="21" y="64" text-anchor="middle" font-family="${FONT}" font-weight="700" `
    + `font-size="15" fill="#2a0c3d" textLength="34" lengthAdjust="spacingAndGlyphs">`
    + `JOKER</text>`
    + `<g transform="translate(62 102) scale(0.88) translate(-64 -100)">${cap}</g>`
    + `<text x="64" y="142" text-anchor="middle" font-family="${FONT}" font-weight="700" `
    + `font-size="14" fill="#2a0c3d">JOKER</text>`;
}

/**
 * The face of a card as one `<svg>` element (viewBox 0 0 100 150, width and height 100 %,
 * role="img", aria-label = cardLabel(code, opts)).  Throws an Error for an unknown code.
 *
 * @param {string} code a card code such as "CJ", "ST", "R11" or "JK"
 * @param {CardOpts} [opts] style (default "german"; Elfer raus and the joker ignore it) and
 *   language (default "de"; it changes the French indices: B D K A or J Q K A)
 * @returns {string}
 */
export function cardSvg(code, opts) {
  const c = parse(code);
  const label = cardLabel(code, opts);
  if (c.kind === "joker") return svg(label, jokerFace());
  if (c.kind === "colour") return svg(label, colourFace(c));
  return svg(label, suitFace(c, styleOf(opts), langOf(opts)));
}

/** @type {string | null} */
let backCache = null;

/**
 * The card back as one `<svg>` (same size rules as a face): a calm blue lattice.
 * @param {BackOpts} [opts] label (the aria-label; default "Karte", or "card" for lang "en")
 * @returns {string}
 */
export function backSvg(opts) {
  const label = (opts && opts.label) || (langOf(opts) === "en" ? "card" : "Karte");
  if (backCache === null) {
    let dots = "";
    for (let row = 0; row < 13; row++) {
      for (let col = 0; col < 8; col++) {
        const x = 15 + col * 10 + (row % 2 ? 5 : 0);
        const y = 15 + row * 10;
        if (x > 86) continue;
        dots += `M${x} ${y - 4}L${x + 4} ${y}L${x} ${y + 4}L${x - 4} ${y}Z`;
      }
    }
    backCache = `<rect x="7" y="7" width="86" height="136" rx="5" fill="#1d3b6e"/>`
      + `<path d="${dots}" fill="#3d64a8"/>`
      + `<rect x="7" y="7" width="86" height="136" rx="5" fill="none" stroke="#fff" `
      + `stroke-width="3"/>`
      + `<circle cx="50" cy="75" r="17" fill="#1d3b6e" stroke="#fff" stroke-width="3"/>`
      + `<path d="${starPath(50, 76, 11, 4, 0.42)}" fill="#fff"/>`;
  }
  return svg(label, backCache);
}

/**
 * A short mark for a suit in labels and buttons.
 *
 * - "french4" and "french2": a text glyph ♣ ♠ ♥ ♦ (colour it with CSS if wanted).
 * - "german" (the default): a small inline `<svg>` string (1em high, role="img",
 *   aria-label = the German suit name) drawing the acorn, leaf, heart or bell pip.
 * - Elfer raus colour letters R Y G B (any style): a small inline `<svg>` of the colour's
 *   shape (red circle, yellow triangle, green square, blue star), aria-label = the colour.
 *
 * Insert the result as HTML (it is markup for the German style; the page's CSS sets
 * `svg.suit { vertical-align: -0.125em }`: no style attributes under the site's CSP).
 * @param {string} suit one of C S H D R Y G B
 * @param {SkatStyle} [style]
 * @returns {string}
 */
export function suitSymbol(suit, style) {
  const st = style === "french4" || style === "french2" ? style : "german";
  if (suit in COLOUR) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-50 -50 100 100" width="1em" `
      + `height="1em" role="img" aria-label="${COLOUR_DE[suit]}" class="suit" `
      + `>${pip(suit, "german", 0, 0, 86, 4)}</svg>`;
  }
  if (!(suit in SUIT_FRENCH)) throw new Error(`cards.js: unknown suit ${JSON.stringify(suit)}`);
  if (st !== "german") return { C: "♣", S: "♠", H: "♥", D: "♦" }[suit] || "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-50 -50 100 100" width="1em" `
    + `height="1em" role="img" aria-label="${SUIT_GERMAN[suit]}" class="suit" `
    + `>${pip(suit, "german", 0, 0, 86, 3)}</svg>`;
}
