// Dim Sum Derby: the carts around the table (and the Kitchen), the dishes on the table with the
// markers on them, the three actions of a turn, the Derby cards, and every seat's yen cards,
// markers and scored portions.

import { h } from "../dom.js";
import { cardFace } from "../faces.js";
import { slugWords } from "../names.js";
import { buttons, cardRow, seatTitle, zone } from "./common.js";

/**
 * @typedef {import("../types.js").Schemas["DerbyView"]} DerbyView
 * @typedef {import("./common.js").Board<DerbyView>} DerbyBoard
 */

const ACTIONS = /** @type {Record<string, string>} */ ({
  rotate: "Rotate the carts clockwise (1 action)",
  serve: "Serve the top dish of your cart to the table (1 action)",
  cycle: "Send the top dish of your cart to its bottom (1 action)",
  "draw-derby": "Draw a Derby card (2 actions)",
});

/** The parameters a Derby card may need, in the order they are asked. */
const PARAMETERS = ["dish", "to", "target", "yen"];

/** @param {DerbyBoard} board */
export function derbyBoard(board) {
  const view = board.view;
  const turn = view.over ? "The game is over" : `${board.names[view.turn_seat]} to play, ${view.actions_left} action${view.actions_left === 1 ? "" : "s"} left`;
  return [
    h("p", { class: "facts" }, `Turn ${view.turn} of at most ${view.turn_limit} · ${turn} · ${view.derby_deck} Derby cards in the deck`),
    carts(board),
    table(board),
    board.commands.length ? actions(board) : null,
    board.seat === null ? null : derbyHand(board),
    h("div", { class: "players" }, view.seats.map((seat) => seatZone(board, seat))),
  ];
}

/** @param {DerbyBoard} board */
function carts(board) {
  const view = board.view;
  return zone(
    "Carts",
    { zone: "carts" },
    h(
      "ul",
      { class: "cards" },
      [...view.carts]
        .sort((a, b) => a.slot - b.slot)
        .map((cart) =>
          h(
            "li",
            { class: "cart" },
            h("p", { class: "cart-where" }, `${slugWords(cart.name)} · ${cart.seat === null ? "in the Kitchen" : `in front of ${board.names[cart.seat]}`} · ${cart.size} card${cart.size === 1 ? "" : "s"}`),
            cart.top ? cardFace(board.deck.info(cart.top.slug), { id: cart.top.id, small: true }) : h("p", { class: "quiet" }, "empty"),
          ),
        ),
    ),
  );
}

/** The dishes on the table: whose markers are on each, and an "Eat" button where you may eat. @param {DerbyBoard} board */
function table(board) {
  const view = board.view;
  const choosing = board.ui.card === undefined ? null : stage(board);
  const dishes = view.table.map((dish) => {
    const eat = board.commands.find((command) => command.type === "eat" && command.dish === dish.card.id);
    const markers = dish.markers.map((seat) => board.names[seat]);
    const pick = choosing && (choosing.parameter === "dish" || choosing.parameter === "to") ? choosing.values.includes(dish.card.id) : false;
    return h(
      "li",
      { class: "dish" },
      cardFace(board.deck.info(dish.card.slug), { id: dish.card.id, note: `${dish.markers.length} of ${dish.portions} portions eaten`, small: true }),
      h("p", {}, markers.length ? `Markers: ${markers.join(", ")}` : "No marker yet"),
      eat
        ? h("button", { type: "button", dataset: { command: "eat", focus: `eat-${dish.card.id}` }, onclick: () => board.send(eat), "aria-label": `Eat ${board.deck.name(dish.card.slug)}` }, "Eat")
        : null,
      pick && choosing
        ? h(
            "button",
            { type: "button", dataset: { focus: `choose-${dish.card.id}` }, onclick: () => choosing.choose(dish.card.id) },
            `${choosing.parameter === "to" ? "Move to" : "Choose"} ${board.deck.name(dish.card.slug)}`,
          )
        : null,
    );
  });
  return zone("The table (at most 5 dishes)", { zone: "table" }, dishes.length ? h("ul", { class: "cards" }, dishes) : h("p", { class: "quiet" }, "No dish is on the table."));
}

/** The actions that need no choice, and the arrangement after Peek in the Kitchen. @param {DerbyBoard} board */
function actions(board) {
  const arrangements = board.commands.filter((command) => command.type === "arrange");
  if (arrangements.length) {
    return zone(
      "Put the peeked dishes back",
      { zone: "actions" },
      buttons(
        "Order, top first",
        arrangements.map((command) => ({
          label: command.cards.map((/** @type {number} */ id) => board.deck.name(board.view.peek.find((card) => card.id === id)?.slug ?? "")).join(", then "),
          command: "arrange",
          onclick: () => board.send(command),
        })),
      ),
    );
  }
  const simple = board.commands.filter((command) => ACTIONS[command.type]);
  return zone(
    "Your actions",
    { zone: "actions" },
    buttons(
      "Actions",
      simple.map((command) => ({ label: ACTIONS[command.type], command: command.type, focus: `action-${command.type}`, onclick: () => board.send(command) })),
    ),
  );
}

/**
 * Where playing the chosen Derby card stands: the commands still possible for it, and the next
 * parameter to ask for (the first on which they differ).
 * @param {DerbyBoard} board
 */
function stage(board) {
  /** @type {Record<string, number>} */
  const given = board.ui.given ?? {};
  const candidates = board.commands.filter(
    (command) => command.type === "play-derby" && command.card === board.ui.card && Object.entries(given).every(([name, value]) => command[name] === value),
  );
  const parameter = PARAMETERS.find((name) => new Set(candidates.map((command) => command[name])).size > 1) ?? null;
  const values = parameter ? [...new Set(candidates.map((command) => command[parameter]))] : [];
  return {
    candidates,
    parameter,
    values,
    /** @param {number} value */
    choose: (value) => {
      if (!parameter) return;
      const next = { ...given, [parameter]: value };
      const left = candidates.filter((command) => command[parameter] === value);
      if (left.length === 1) board.send(left[0]);
      else {
        board.ui.given = next;
        board.redraw();
      }
    },
  };
}

/** The viewer's Derby cards: play (choosing what the card needs) or discard. @param {DerbyBoard} board */
function derbyHand(board) {
  const view = board.view;
  const cards = view.hand.map((card) => {
    const info = board.deck.info(card.slug, "derby");
    const plays = board.commands.filter((command) => command.type === "play-derby" && command.card === card.id);
    const discard = board.commands.find((command) => command.type === "discard-derby" && command.card === card.id);
    const choosing = board.ui.card === card.id;
    return h(
      "li",
      {},
      cardFace(info, { id: card.id }),
      plays.length
        ? h(
            "button",
            {
              type: "button",
              dataset: { command: "play-derby", focus: `play-${card.id}` },
              "aria-pressed": plays.length > 1 ? String(choosing) : null,
              onclick: () => {
                if (plays.length === 1) board.send(plays[0]);
                else {
                  board.ui.card = choosing ? undefined : card.id;
                  board.ui.given = {};
                  board.redraw();
                }
              },
            },
            `Play ${info.name}${plays.length > 1 ? "…" : ""}`,
          )
        : null,
      discard ? h("button", { type: "button", dataset: { command: "discard-derby" }, onclick: () => board.send(discard) }, `Discard ${info.name}`) : null,
    );
  });
  return zone("Your Derby cards", { zone: "hand" }, cards.length ? h("ul", { class: "cards" }, cards) : h("p", { class: "quiet" }, "No Derby card."), board.ui.card === undefined ? null : derbyChoice(board));
}

/** What the Derby card being played still needs: a seat or a yen card (dishes are chosen on the table). @param {DerbyBoard} board */
function derbyChoice(board) {
  const now = stage(board);
  if (!now.parameter) return null;
  const me = board.view.seats.find((seat) => seat.seat === board.seat);
  if (now.parameter === "target") {
    return buttons("Whose marker", now.values.map((seat) => ({ label: `Knock off a marker of ${board.names[seat]}`, onclick: () => now.choose(seat) })));
  }
  if (now.parameter === "yen") {
    return buttons("Which yen card", now.values.map((id) => ({ label: `Swap your ${board.deck.name(me?.yen.find((card) => card?.id === id)?.slug ?? "")} yen card`, onclick: () => now.choose(id) })));
  }
  return h("p", {}, now.parameter === "to" ? "Choose on the table the dish to move your marker to." : "Choose a dish on the table.");
}

/**
 * @param {DerbyBoard} board
 * @param {import("../types.js").Schemas["DerbySeatView"]} seat
 */
function seatZone(board, seat) {
  const scored = seat.portions.reduce((sum, count) => sum + count, 0);
  const yen = seat.yen.map((card, index) => {
    const portions = seat.portions[index];
    if (!card) return h("div", { class: "card small hidden-card", role: "img", "aria-label": `A hidden yen card, ${portions} portions` }, "¥ ?");
    return cardFace(board.deck.info(card.slug), { id: card.id, yen: true, small: true, note: `${portions} portion${portions === 1 ? "" : "s"}` });
  });
  return zone(
    seatTitle(board, seat.seat, undefined),
    { zone: "tableau", seat: String(seat.seat) },
    h("p", {}, `${seat.markers} markers left · ${seat.lost} lost · ${scored} portions scored · ${seat.derby} Derby card${seat.derby === 1 ? "" : "s"}`),
    cardRow(yen),
  );
}
