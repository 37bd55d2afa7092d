// Card icons drawn by kaiten itself: small SVG pictures made of plain shapes (no artwork of the
// published games). Each takes the card's slug and answers SVG markup for a 48x48 box.

const INK = "#2b2b2b";
const RICE = "#fbfaf4";

/** @param {number} count @param {string} colour */
function pips(count, colour) {
  let dots = "";
  for (let index = 0; index < count; index += 1) {
    dots += `<circle cx="${24 - (count - 1) * 4 + index * 8}" cy="44" r="2.6" fill="${colour}"/>`;
  }
  return dots;
}

/** @param {string} topping */
const nigiri = (topping) =>
  `<rect x="8" y="24" width="32" height="13" rx="6.5" fill="${RICE}" stroke="${INK}"/>` +
  `<path d="M5 26 Q24 8 43 26 Q24 22 5 26 Z" fill="${topping}" stroke="${INK}"/>`;

/** @param {number} icons @param {string} filling */
const roll = (icons, filling) =>
  `<circle cx="24" cy="22" r="15" fill="${INK}"/><circle cx="24" cy="22" r="11" fill="${RICE}"/>` +
  `<circle cx="24" cy="22" r="5" fill="${filling}"/>${pips(icons, INK)}`;

const ONIGIRI = {
  circle: `<circle cx="24" cy="24" r="15"/>`,
  triangle: `<path d="M24 7 L41 38 H7 Z"/>`,
  square: `<rect x="10" y="10" width="28" height="28" rx="3"/>`,
  rectangle: `<rect x="6" y="14" width="36" height="22" rx="3"/>`,
};

const FRUIT = { w: "#e53935", p: "#fbc02d", o: "#fb8c00" };

/** @param {string} slug */
function fruit(slug) {
  const [first, second] = slug.slice("fruit-".length).split("");
  /** @param {string} kind @param {number} x */
  const one = (kind, x) =>
    `<circle cx="${x}" cy="24" r="9" fill="${FRUIT[/** @type {"w" | "p" | "o"} */ (kind)]}" stroke="${INK}"/>` +
    `<path d="M${x} 15 l2 -5" stroke="#2e7d32" stroke-width="2"/>`;
  return one(first, 14) + one(second, 34);
}

/** Spin Some's plate: a dot of each of its four dishes' colours on a plate. @param {string[]} colours */
export function platePicture(colours) {
  const spots = [
    [17, 17],
    [31, 17],
    [17, 31],
    [31, 31],
  ];
  return (
    `<circle cx="24" cy="24" r="19" fill="#fff" stroke="${INK}"/><circle cx="24" cy="24" r="14" fill="none" stroke="#bbb"/>` +
    colours.map((colour, index) => `<circle cx="${spots[index][0]}" cy="${spots[index][1]}" r="5" fill="${colour}" stroke="${INK}"/>`).join("")
  );
}

/** @type {Record<string, string>} */
const PICTURES = {
  "egg-nigiri": nigiri("#ffd54f"),
  "salmon-nigiri": nigiri("#ff8a65"),
  "squid-nigiri": nigiri("#eceff1"),
  temaki: `<path d="M10 14 L38 14 L24 43 Z" fill="${INK}"/><ellipse cx="24" cy="14" rx="14" ry="5" fill="${RICE}" stroke="${INK}"/><circle cx="20" cy="12" r="2.5" fill="#ff8a65"/><circle cx="28" cy="12" r="2.5" fill="#81c784"/>`,
  tempura: `<path d="M9 38 Q11 12 33 10 Q42 12 37 19 Q22 19 17 39 Z" fill="#f0b429" stroke="${INK}"/><path d="M6 40 l5 -4 l2 5 Z" fill="#ff7043"/>`,
  sashimi: `<rect x="6" y="14" width="11" height="22" rx="3" fill="#ff8a65" stroke="${INK}"/><rect x="18.5" y="14" width="11" height="22" rx="3" fill="#ff7043" stroke="${INK}"/><rect x="31" y="14" width="11" height="22" rx="3" fill="#ff8a65" stroke="${INK}"/>`,
  dumpling: `<path d="M6 32 A18 17 0 0 1 42 32 Z" fill="#f5e6c8" stroke="${INK}"/><path d="M16 18 l2 6 M24 15 v7 M32 18 l-2 6" stroke="${INK}"/>`,
  eel: `<rect x="8" y="26" width="32" height="12" rx="6" fill="${RICE}" stroke="${INK}"/><path d="M6 24 Q15 14 24 22 T42 22" fill="none" stroke="#5d4037" stroke-width="6" stroke-linecap="round"/>`,
  tofu: `<path d="M10 18 L24 11 L38 18 L38 34 L24 41 L10 34 Z" fill="#fffde7" stroke="${INK}"/><path d="M10 18 L24 25 L38 18 M24 25 V41" fill="none" stroke="${INK}"/>`,
  edamame: `<path d="M6 30 Q12 12 42 16 Q38 34 6 30 Z" fill="#7cb342" stroke="${INK}"/><circle cx="16" cy="25" r="4" fill="#aed581"/><circle cx="25" cy="22" r="4" fill="#aed581"/><circle cx="34" cy="20" r="4" fill="#aed581"/>`,
  "miso-soup": `<path d="M6 20 H42 A18 16 0 0 1 6 20 Z" fill="#a1887f" stroke="${INK}"/><ellipse cx="24" cy="20" rx="18" ry="4" fill="#d7b98e" stroke="${INK}"/><rect x="18" y="17" width="5" height="4" fill="#fffde7"/><rect x="27" y="18" width="5" height="4" fill="#fffde7"/>`,
  chopsticks: `<path d="M12 42 L30 6 M20 42 L36 6" stroke="#8d6e63" stroke-width="4" stroke-linecap="round"/>`,
  spoon: `<ellipse cx="24" cy="14" rx="9" ry="8" fill="#eceff1" stroke="${INK}"/><path d="M24 22 V42" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>`,
  menu: `<rect x="11" y="6" width="26" height="36" rx="2" fill="#fffde7" stroke="${INK}"/><path d="M16 15 H32 M16 22 H32 M16 29 H32 M16 36 H26" stroke="${INK}"/>`,
  "takeout-box": `<path d="M9 18 H39 L35 42 H13 Z" fill="#fff" stroke="${INK}"/><path d="M14 18 Q24 2 34 18" fill="none" stroke="${INK}" stroke-width="2"/><path d="M15 24 H33" stroke="#e53935" stroke-width="3"/>`,
  "special-order": `<path d="M24 5 L29 18 L43 18 L32 27 L36 41 L24 33 L12 41 L16 27 L5 18 L19 18 Z" fill="#fff59d" stroke="${INK}"/>`,
  tea: `<path d="M9 16 H35 V30 A10 10 0 0 1 25 40 H19 A10 10 0 0 1 9 30 Z" fill="#c5e1a5" stroke="${INK}"/><path d="M35 20 H39 A4 4 0 0 1 39 28 H35" fill="none" stroke="${INK}" stroke-width="2"/><path d="M17 8 q3 3 0 6 M25 8 q3 3 0 6" fill="none" stroke="#888"/>`,
  wasabi: `<path d="M10 34 Q6 22 18 20 Q20 8 30 14 Q42 14 38 28 Q40 38 24 38 Q12 40 10 34 Z" fill="#9ccc65" stroke="${INK}"/>`,
  "soy-sauce": `<path d="M19 6 H29 V14 L35 22 V42 H13 V22 L19 14 Z" fill="#4e342e" stroke="${INK}"/><rect x="17" y="26" width="14" height="9" fill="#fff"/>`,
  pudding: `<path d="M12 40 L16 16 H32 L36 40 Z" fill="#ffe082" stroke="${INK}"/><path d="M16 16 H32 L31 22 H17 Z" fill="#8d6e63"/>`,
  "green-tea-ice-cream": `<circle cx="24" cy="18" r="11" fill="#a5d6a7" stroke="${INK}"/><path d="M14 22 L24 44 L34 22 Z" fill="#ffcc80" stroke="${INK}"/>`,
  "face-down": `<rect x="9" y="5" width="30" height="38" rx="4" fill="#9e9e9e" stroke="${INK}"/><path d="M14 12 L34 36 M34 12 L14 36" stroke="#e0e0e0" stroke-width="2"/>`,
  // Spin Some for Dim Sum.
  "small-sesame-ball": `<circle cx="24" cy="26" r="10" fill="#d4a15a" stroke="${INK}"/><path d="M20 22 h1 M26 24 h1 M22 29 h1 M28 30 h1" stroke="#fff" stroke-width="2"/>`,
  "large-sesame-ball": `<circle cx="24" cy="24" r="16" fill="#d4a15a" stroke="${INK}"/><path d="M17 18 h1 M27 16 h1 M31 26 h1 M20 28 h1 M25 33 h1 M24 23 h1" stroke="#fff" stroke-width="2"/>`,
  "turnip-cake": `<rect x="8" y="12" width="32" height="24" rx="3" fill="#efe0b9" stroke="${INK}"/><path d="M8 20 H40" stroke="#c9a86a" stroke-width="3"/>`,
  "egg-tart": `<circle cx="24" cy="24" r="17" fill="#d7a86e" stroke="${INK}"/><circle cx="24" cy="24" r="12" fill="#ffd54f"/>`,
  "shumai-dumpling": `<path d="M12 16 H36 L33 40 H15 Z" fill="#ffe0b2" stroke="${INK}"/><ellipse cx="24" cy="16" rx="12" ry="4" fill="#ef9a9a" stroke="${INK}"/>`,
  "shrimp-dumpling": `<path d="M6 30 A18 17 0 0 1 42 30 Z" fill="#fce4ec" stroke="${INK}"/><path d="M14 26 Q24 16 34 26" fill="none" stroke="#ff8a65" stroke-width="4"/>`,
  "chive-dumpling": `<path d="M6 30 A18 17 0 0 1 42 30 Z" fill="#dcedc8" stroke="${INK}"/><path d="M14 24 h4 M22 20 h4 M30 24 h4" stroke="#2e7d32" stroke-width="3"/>`,
  "steamed-bun": `<path d="M6 34 Q6 10 24 10 Q42 10 42 34 Z" fill="#fffaf0" stroke="${INK}"/><path d="M18 18 Q24 12 30 18" fill="none" stroke="#bbb" stroke-width="2"/>`,
  // Dim Sum Derby: yen cards and Derby cards.
  yen: `<circle cx="24" cy="24" r="17" fill="#ffe082" stroke="${INK}"/><text x="24" y="31" text-anchor="middle" font-size="20" font-family="sans-serif" fill="${INK}">¥</text>`,
  derby: `<rect x="7" y="10" width="34" height="28" rx="4" fill="#c5cae9" stroke="${INK}"/><path d="M24 14 V28 M24 32 V34" stroke="${INK}" stroke-width="4" stroke-linecap="round"/>`,
};

/** Dim Sum Derby's dishes, by cart. @type {Record<string, string>} */
const CARTS = {
  "steam-cart": `<rect x="8" y="16" width="32" height="22" rx="6" fill="#d7ccc8" stroke="${INK}"/><path d="M8 24 H40 M8 31 H40" stroke="#8d6e63"/><path d="M18 12 q3 -4 0 -8 M30 12 q3 -4 0 -8" fill="none" stroke="#999"/>`,
  "side-dish": `<ellipse cx="24" cy="30" rx="18" ry="8" fill="#fff" stroke="${INK}"/><path d="M14 28 q10 -10 20 0" fill="#aed581" stroke="${INK}"/>`,
  "main-dish": `<ellipse cx="24" cy="30" rx="20" ry="9" fill="#fff" stroke="${INK}"/><ellipse cx="24" cy="27" rx="12" ry="6" fill="#ef8a62" stroke="${INK}"/>`,
  dessert: `<path d="M12 22 H36 L32 40 H16 Z" fill="#fff" stroke="${INK}"/><circle cx="24" cy="18" r="8" fill="#f48fb1" stroke="${INK}"/>`,
};

/**
 * The picture of a card, by its slug (and for some cards a few facts from the catalog).
 * @param {string} slug
 * @param {{icons?: number, cart?: string, portions?: number}} [facts]
 */
export function picture(slug, facts = {}) {
  if (slug.startsWith("maki-")) return roll(facts.icons ?? Number(slug.slice(5)), "#e57373");
  if (slug.startsWith("uramaki-")) return roll(facts.icons ?? Number(slug.slice(8)), "#9575cd");
  if (slug.startsWith("onigiri-")) {
    const shape = ONIGIRI[/** @type {keyof typeof ONIGIRI} */ (slug.slice(8))] ?? ONIGIRI.circle;
    return `<g fill="${RICE}" stroke="${INK}" stroke-width="1.5">${shape}</g><rect x="18" y="30" width="12" height="10" fill="${INK}"/>`;
  }
  if (slug.startsWith("fruit-")) return fruit(slug);
  if (facts.cart && CARTS[facts.cart]) return CARTS[facts.cart] + pips(facts.portions ?? 0, INK);
  return PICTURES[slug] ?? PICTURES["face-down"];
}
