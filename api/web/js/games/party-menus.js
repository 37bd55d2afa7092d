// Sushi Go Party!'s menus: the suggested ones (by id) and a builder for a custom menu, used when a
// game is created and when its players choose or propose a menu at the table.

import { h } from "../dom.js";

/**
 * @typedef {import("../catalog.js").Deck} Deck
 * @typedef {{roll: string, appetizers: string[], specials: string[], dessert: string}} CustomMenu
 */

/**
 * The card types of each part of a menu, from the catalog's cards (a type with several variants,
 * like maki, appears once).
 * @param {Deck} deck
 */
export function menuParts(deck) {
  /** @type {Record<string, string[]>} */
  const parts = { roll: [], appetizer: [], special: [], dessert: [] };
  for (const card of deck.details.cards ?? []) {
    const list = parts[card.group ?? ""];
    if (list && card.type && !list.includes(card.type)) list.push(card.type);
  }
  return parts;
}

/**
 * A type's name for people: "maki" -> "Maki", "miso-soup" -> "Miso soup".
 * @param {string} type
 */
export function typeName(type) {
  const spaced = type.replace(/-/g, " ");
  return spaced[0].toUpperCase() + spaced.slice(1);
}

/**
 * One line saying what a menu holds.
 * @param {{roll: string, appetizers: string[], specials: string[], dessert: string, id?: string | null}} menu
 * @param {Deck} deck
 */
export function menuLine(menu, deck) {
  const suggested = (deck.details.menus ?? []).find((entry) => entry.id === menu.id);
  const types = [menu.roll, ...menu.appetizers, ...menu.specials, menu.dessert].map(typeName).join(", ");
  return suggested ? `${suggested.name}: ${types}` : `Custom menu: ${types}`;
}

/**
 * The suggested menus that fit a table of `players`.
 * @param {Deck} deck
 * @param {number} players
 */
export function suggestedMenus(deck, players) {
  return (deck.details.menus ?? []).filter((menu) => menu.players.min <= players && players <= menu.players.max);
}

/**
 * Fields to build a custom menu: one roll, three appetizers, two specials and one dessert.
 * @param {Deck} deck
 * @param {string} prefix ids of the fields start with it (a page may hold two builders)
 * @returns {{fields: HTMLElement, read: () => CustomMenu | null}} `read` answers null while incomplete
 */
export function menuBuilder(deck, prefix) {
  const parts = menuParts(deck);
  const shape = deck.details.menu_shape ?? { roll: 1, appetizers: 3, specials: 2, dessert: 1 };
  /** @param {string} name @param {string[]} types */
  const choice = (name, types) => {
    const select = h("select", { id: `${prefix}-${name}`, name }, types.map((type) => h("option", { value: type }, typeName(type))));
    return { select, field: h("p", {}, h("label", { for: `${prefix}-${name}` }, typeName(name)), select) };
  };
  /** @param {string} name @param {string[]} types @param {number} count */
  const several = (name, types, count) => {
    const boxes = types.map((type, index) => h("input", { type: "checkbox", id: `${prefix}-${name}-${type}`, value: type, checked: index < count }));
    const field = h(
      "fieldset",
      { class: "choices" },
      h("legend", {}, `${typeName(name)} (choose ${count})`),
      boxes.map((box) => h("label", { for: box.id }, box, ` ${typeName(box.value)}`)),
    );
    return { boxes, field };
  };
  const roll = choice("roll", parts.roll);
  const appetizers = several("appetizers", parts.appetizer, shape.appetizers ?? 3);
  const specials = several("specials", parts.special, shape.specials ?? 2);
  const dessert = choice("dessert", parts.dessert);
  const fields = h("div", { class: "menu-builder" }, roll.field, appetizers.field, specials.field, dessert.field);
  return {
    fields,
    read: () => {
      const picked = (/** @type {HTMLInputElement[]} */ boxes) => boxes.filter((box) => box.checked).map((box) => box.value);
      const menu = { roll: roll.select.value, appetizers: picked(appetizers.boxes), specials: picked(specials.boxes), dessert: dessert.select.value };
      return menu.appetizers.length === (shape.appetizers ?? 3) && menu.specials.length === (shape.specials ?? 2) ? menu : null;
    },
  };
}
