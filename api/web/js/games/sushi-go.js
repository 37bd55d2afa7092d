// Sushi Go!: your hand to pick from (one card, or two with chopsticks), everyone's tableau and
// puddings, and the scores round by round.

import { h } from "../dom.js";
import { cardFace } from "../faces.js";
import { buttons, cardRow, emptyTableau, faces, roundScores, seatTitle, zone } from "./common.js";

/**
 * @typedef {import("../types.js").Schemas["SushiGoView"]} SushiGoView
 * @typedef {import("../types.js").Schemas["SushiGoPick"]} SushiGoPick
 */

/** @param {import("./common.js").Board<SushiGoView>} board */
export function sushiGoBoard(board) {
  const view = board.view;
  const rounds = board.deck.details.rounds ?? 3;
  return [
    h("p", { class: "facts" }, `Round ${view.round} of ${rounds} · turn ${view.turn} · ${view.deck_size} cards in the deck · hands pass left`),
    board.seat === null || board.table.status === "finished" ? null : hand(board),
    h(
      "div",
      { class: "players" },
      view.tableaus.map((cards, seat) =>
        zone(
          seatTitle(board, seat, view.totals[seat]),
          { zone: "tableau", seat: String(seat) },
          cardRow(faces(board, cards), emptyTableau(board)),
          view.puddings[seat].length ? h("p", {}, `Puddings kept: ${view.puddings[seat].length}`) : null,
        ),
      ),
    ),
    roundScores(board, view.scored, rounds),
  ];
}

/**
 * The hand: a click plays a card; with chopsticks, "Use chopsticks" then two clicks play two.
 * @param {import("./common.js").Board<SushiGoView>} board
 */
function hand(board) {
  const view = board.view;
  /** @type {SushiGoPick[]} */
  const picks = board.commands;
  const singles = new Map(picks.filter((pick) => pick.cards.length === 1).map((pick) => [pick.cards[0], pick]));
  const pairs = picks.filter((pick) => pick.cards.length === 2);
  const chopsticks = board.ui.chopsticks === true && pairs.length > 0;
  /** @type {number | undefined} */
  const first = chopsticks ? board.ui.first : undefined;

  /** @param {number} id */
  const choose = (id) => {
    if (!chopsticks) {
      const pick = singles.get(id);
      if (pick) board.send(pick);
      return;
    }
    if (first === undefined || first === id) {
      board.ui.first = first === id ? undefined : id;
      board.redraw();
      return;
    }
    const pair = pairs.find((pick) => pick.cards[0] === first && pick.cards[1] === id);
    if (pair) board.send(pair);
  };

  const playable = picks.length > 0;
  const cards = view.hand.map((card) =>
    cardFace(board.deck.info(card.slug), {
      id: card.id,
      focus: `hand-${card.id}`,
      command: "pick",
      pressed: chopsticks ? first === card.id : undefined,
      label: chopsticks ? `${first === undefined ? "First" : "Second"} card: ${board.deck.name(card.slug)}` : `Play ${board.deck.name(card.slug)}`,
      onclick: playable ? () => choose(card.id) : undefined,
    }),
  );
  const picked = view.pick.length ? h("p", {}, `Your pick, hidden until everyone has picked: ${view.pick.map((card) => board.deck.name(card.slug)).join(" then ")}.`) : null;
  return zone(
    "Your hand",
    { zone: "hand" },
    pairs.length
      ? buttons("Chopsticks", [
          {
            label: chopsticks ? "Play one card instead" : "Use chopsticks: play two cards",
            pressed: chopsticks,
            focus: "chopsticks",
            onclick: () => {
              board.ui.chopsticks = !chopsticks;
              board.ui.first = undefined;
              board.redraw();
            },
          },
        ])
      : null,
    chopsticks ? h("p", {}, first === undefined ? "Choose the first card." : "Choose the second card.") : null,
    picked,
    cardRow(cards, "Your hand is empty."),
  );
}
