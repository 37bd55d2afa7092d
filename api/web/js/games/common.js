// What the four games' boards share: the context a board is drawn from, zones of cards, and the
// players' names and scores.

import { h } from "../dom.js";
import { cardFace } from "../faces.js";
import { points } from "../names.js";

/**
 * What a board is drawn from. `commands` are the seat's legal commands now (none in a replay or for a
 * spectator); `ui` holds the choices a player is in the middle of (kept across redraws, cleared
 * after each command sent).
 * @template [View=any]
 * @typedef {{
 *   view: View,
 *   table: import("../types.js").TableView,
 *   deck: import("../catalog.js").Deck,
 *   names: string[],
 *   seat: number | null,
 *   commands: any[],
 *   send: (command: any) => void,
 *   ui: Record<string, any>,
 *   redraw: () => void,
 * }} Board
 */

/**
 * A titled part of the board.
 * @param {string} title
 * @param {Record<string, string>} dataset
 * @param {...import("../dom.js").Child} children
 */
export function zone(title, dataset, ...children) {
  return h("section", { class: "zone", dataset }, h("h2", {}, title), ...children);
}

/**
 * A row of cards; `faces` are card faces already made.
 * @param {HTMLElement[]} faces
 * @param {string} [empty] what to say when there is none
 */
export function cardRow(faces, empty = "none") {
  if (!faces.length) return h("p", { class: "quiet" }, empty);
  return h("ul", { class: "cards" }, faces.map((face) => h("li", {}, face)));
}

/**
 * What an empty tableau says: a game that is over scored and cleared its last round's cards.
 * @param {Board} board
 */
export function emptyTableau(board) {
  return board.table.status === "finished" ? "No cards on the table: the last round is scored." : "No cards yet this round.";
}

/**
 * Faces for plain cards ({id, slug}), none of them playable.
 * @param {Board} board
 * @param {import("../types.js").Card[]} cards
 * @param {{small?: boolean}} [options]
 */
export function faces(board, cards, options = {}) {
  return cards.map((card) => cardFace(board.deck.info(card.slug), { id: card.id, small: options.small }));
}

/**
 * A seat's heading: its name, "you", whether the game waits for it, and its score so far.
 * @param {Board} board
 * @param {number} seat
 * @param {number | undefined} total
 */
export function seatTitle(board, seat, total) {
  const awaited = board.table.awaiting.includes(seat);
  return [board.names[seat], seat === board.seat ? " (you)" : "", total === undefined ? "" : ` · ${points(total)}`, awaited ? " · to play" : ""].join("");
}

/**
 * A prompt in the form of buttons, one per choice.
 * @param {string} title
 * @param {{label: string, onclick: () => void, command?: string, pressed?: boolean, focus?: string}[]} choices
 */
export function buttons(title, choices) {
  return h(
    "div",
    { class: "choices", role: "group", "aria-label": title },
    choices.map((choice) =>
      h(
        "button",
        {
          type: "button",
          onclick: choice.onclick,
          "aria-pressed": choice.pressed === undefined ? null : String(choice.pressed),
          dataset: { ...(choice.command ? { command: choice.command } : {}), ...(choice.focus ? { focus: choice.focus } : {}) },
        },
        choice.label,
      ),
    ),
  );
}

/**
 * Round-by-round scores as a table: one row per seat; what is scored after the last round (desserts)
 * is the "Game end" column.
 * @param {Board} board
 * @param {{seat: number, total: number}[][]} rounds
 * @param {number} count how many rounds the game has
 */
export function roundScores(board, rounds, count) {
  if (!rounds.length) return null;
  const head = h("tr", {}, h("th", { scope: "col" }, "Player"), rounds.map((_, round) => h("th", { scope: "col" }, round < count ? `Round ${round + 1}` : "Game end")));
  const rows = board.names.map((name, seat) => h("tr", {}, h("th", { scope: "row" }, name), rounds.map((scores) => h("td", {}, String(scores.find((score) => score.seat === seat)?.total ?? 0)))));
  // A table wider than a phone (many seats, long names) scrolls on its own, never the page.
  return h("div", { class: "scroll" }, h("table", { class: "scores" }, h("caption", {}, "Points scored each round"), h("thead", {}, head), h("tbody", {}, rows)));
}
