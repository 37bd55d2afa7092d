// Card faces: a colour per family, a picture (icons.js), the card's name and its scoring hint, all
// from the catalog. A face is a button when it can be played, and always says what it is to a
// screen reader.

import { h } from "./dom.js";
import { picture, platePicture } from "./icons.js";

/** @typedef {import("./catalog.js").CardInfo} CardInfo */

/** The colour of each family: Sushi Go Party!'s background colours, Spin Some's dishes, Derby's carts. */
const COLOURS = /** @type {Record<string, string>} */ ({
  nigiri: "#f4c542",
  maki: "#e25b57",
  temaki: "#f08a3c",
  uramaki: "#8e6bbf",
  tempura: "#b58bd6",
  sashimi: "#4caf7d",
  dumpling: "#5b8de0",
  eel: "#8d6e63",
  tofu: "#9fb8a0",
  onigiri: "#78909c",
  edamame: "#8bc34a",
  "miso-soup": "#d4a373",
  chopsticks: "#26a6a6",
  spoon: "#9aa7b0",
  menu: "#bcaaa4",
  "takeout-box": "#a1887f",
  "special-order": "#ec5f9a",
  tea: "#6b9b37",
  "soy-sauce": "#795548",
  pudding: "#f7a1c4",
  "green-tea-ice-cream": "#81c784",
  fruit: "#ffb74d",
  "face-down": "#9e9e9e",
  sesame: "#c8a165",
  turnip: "#d9c48f",
  tart: "#f2b134",
  shumai: "#e57373",
  shrimp: "#f48fb1",
  chive: "#66bb6a",
  bun: "#d7ccc8",
  plate: "#7e57c2",
  "steam-cart": "#90a4ae",
  "side-dish": "#9ccc65",
  "main-dish": "#ef8a62",
  dessert: "#f06292",
  derby: "#5c6bc0",
  yen: "#ffca28",
});

/** @param {string} family */
function colourOf(family) {
  return COLOURS[family] ?? "#9e9e9e";
}

/** @param {CardInfo} info */
function svgOf(info) {
  const drawing = info.plate ? platePicture(info.plate.map(colourOf)) : picture(info.family === "derby" ? "derby" : info.slug, info.facts);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 48 48");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "picture");
  // The markup is the client's own drawings (icons.js), never text from the server.
  svg.innerHTML = drawing;
  return svg;
}

/**
 * A card face.
 * @param {CardInfo} info
 * @param {{id?: number, onclick?: () => void, pressed?: boolean, note?: string, label?: string, focus?: string, small?: boolean, yen?: boolean, command?: string}} [options]
 */
export function cardFace(info, options = {}) {
  const family = options.yen ? "yen" : info.family;
  const label = [options.yen ? `Yen card: ${info.name}` : info.name, options.note, info.scoring].filter(Boolean).join(". ");
  const parts = [
    options.yen ? svgYen() : svgOf(info),
    h("span", { class: "card-name" }, info.name),
    // Spaces between the words' parts (a flex column draws none): their text reads "Name note hint".
    options.note ? [" ", h("span", { class: "card-note" }, options.note)] : null,
    options.small ? null : [" ", h("span", { class: "card-hint" }, info.scoring)],
  ];
  const attrs = {
    class: `card${options.small ? " small" : ""}`,
    style: `--c: ${colourOf(family)}`,
    title: label,
    dataset: { slug: info.slug, ...(options.id === undefined ? {} : { cardId: String(options.id) }), ...(options.focus ? { focus: options.focus } : {}), ...(options.command ? { command: options.command } : {}) },
  };
  if (options.onclick) {
    // A button's name holds its visible words, in their order ("Play Salmon Nigiri. 2 points..."), so
    // a voice user who says what they see reaches it.
    const visible = [info.name, options.note, options.small ? null : info.scoring].filter(Boolean).join(". ");
    const action = options.label && options.label.includes(info.name) ? options.label.replace(info.name, visible) : options.label ? `${options.label}: ${visible}` : label;
    return h("button", { ...attrs, type: "button", "aria-label": action, "aria-pressed": options.pressed === undefined ? null : String(options.pressed), onclick: options.onclick }, ...parts);
  }
  return h("div", { ...attrs, role: "img", "aria-label": label }, ...parts);
}

function svgYen() {
  return svgOf({ slug: "yen", name: "", scoring: "", family: "yen", facts: {} });
}
