// The catalog, read once per page: the games, their bots and options, and what each card is called,
// how it scores and which colour family it belongs to (for the card faces).

import { api } from "./api.js";
import { learnBotNames } from "./names.js";

/**
 * The parts of a catalog entry's `details` the client reads (the document leaves `details` open:
 * each game has its own).
 * @typedef {{slug: string, name: string, scoring?: string, colour?: string, type?: string, group?: string,
 *   icons?: number, dish?: string | null, cart?: string, portions?: number, fruit?: Record<string, number>}} CatalogCard
 * @typedef {{id: string, name: string, roll: string, appetizers: string[], specials: string[], dessert: string,
 *   players: {min: number, max: number}, description: string}} SuggestedMenu
 * @typedef {{cards?: CatalogCard[], menus?: SuggestedMenu[], menu_modes?: string[],
 *   menu_shape?: Record<string, number>, restrictions?: Record<string, number[]>,
 *   face_down?: {slug: string, points: number, scoring: string},
 *   dishes?: {dish: string, name: string, cards: string[]}[],
 *   special_plates?: {slug: string, name: string, dishes: string[]}[],
 *   carts?: {slug: string, name: string}[],
 *   derby_cards?: {slug: string, name: string, effect: string}[], note?: string, rounds?: number}} CatalogDetails
 * @typedef {{slug: string, name: string, scoring: string, family: string, facts: {icons?: number, cart?: string,
 *   portions?: number}, plate?: string[]}} CardInfo
 */

/** @type {Promise<import("./types.js").CatalogGame[]> | null} */
let games = null;
/** @type {Map<string, Promise<Deck>>} */
const decks = new Map();

/** Every game of the catalog. */
export function catalogGames() {
  games ??= api.catalog().then(
    (catalog) => {
      for (const game of catalog.games) learnBotNames(game.bots);
      return catalog.games;
    },
    (error) => {
      // A catalog that could not be read is asked for again by the next screen.
      games = null;
      throw error;
    },
  );
  return games;
}

/** @param {string} id */
export async function catalogGame(id) {
  const game = (await catalogGames()).find((entry) => entry.id === id);
  if (!game) throw new Error(`no game ${id} in the catalog`);
  return game;
}

/**
 * The catalog entry of one game, with its cards looked up by slug.
 * @param {string} id
 */
export function deckOf(id) {
  let deck = decks.get(id);
  if (!deck) {
    deck = api.catalogGame(id).then((entry) => new Deck(entry));
    decks.set(id, deck);
  }
  return deck;
}

/** Sushi Go! names no colours: its cards take the families Sushi Go Party! gives the same cards. */
const SUSHI_GO_FAMILIES = /** @type {Record<string, string>} */ ({ wasabi: "nigiri", "egg-nigiri": "nigiri", "salmon-nigiri": "nigiri", "squid-nigiri": "nigiri" });

export class Deck {
  /** @param {import("./types.js").CatalogEntry} entry */
  constructor(entry) {
    this.entry = entry;
    this.id = entry.id;
    /** @type {CatalogDetails} */
    this.details = /** @type {CatalogDetails} */ (entry.details ?? {});
    /** @type {Map<string, CardInfo>} */
    this.cards = new Map();
    for (const card of this.details.cards ?? []) this.cards.set(card.slug, this.describe(card));
    const faceDown = this.details.face_down;
    if (faceDown) this.cards.set(faceDown.slug, { slug: faceDown.slug, name: "Face down", scoring: faceDown.scoring, family: "face-down", facts: {} });
    for (const plate of this.details.special_plates ?? []) {
      const known = this.cards.get(plate.slug);
      if (known) known.plate = plate.dishes;
    }
    for (const card of this.details.derby_cards ?? []) {
      this.cards.set(`derby:${card.slug}`, { slug: card.slug, name: card.name, scoring: card.effect, family: "derby", facts: {} });
    }
  }

  /** @param {CatalogCard} card @returns {CardInfo} */
  describe(card) {
    const base = { slug: card.slug, name: card.name, scoring: card.scoring ?? "", facts: {} };
    if (this.id === "dim-sum-derby") return { ...base, family: card.cart ?? "derby", facts: { cart: card.cart, portions: card.portions } };
    if (this.id === "spin-some-for-dim-sum") return { ...base, family: card.dish ?? "plate" };
    if (this.id === "sushi-go-party") return { ...base, family: card.colour ?? card.type ?? card.slug, facts: { icons: card.icons } };
    const family = SUSHI_GO_FAMILIES[card.slug] ?? card.slug.replace(/-\d$/, "");
    return { ...base, family };
  }

  /**
   * What the catalog says about a card (a Dim Sum Derby card is looked up with `kind: "derby"`).
   * @param {string} slug
   * @param {"derby"} [kind]
   * @returns {CardInfo}
   */
  info(slug, kind) {
    const known = this.cards.get(kind ? `${kind}:${slug}` : slug);
    return known ?? { slug, name: slug.replace(/-/g, " "), scoring: "", family: "face-down", facts: {} };
  }

  /** @param {string} slug */
  name(slug) {
    return this.info(slug).name;
  }
}
