// Sushi Go! Spin Some for Dim Sum: the spin table's six baskets (top card, cards left, chopsticks
// tokens lying in them, who they face), each player's menu, tokens and the squishy bun. A basket
// you can reach is a button: it takes from it, turning the table if needed (paying tokens, or
// spending the squishy bun when you hold it).

import { h } from "../dom.js";
import { cardFace } from "../faces.js";
import { buttons, cardRow, faces, seatTitle, zone } from "./common.js";

const BASKETS = 6;

/**
 * @typedef {import("../types.js").Schemas["SpinView"]} SpinView
 * @typedef {import("./common.js").Board<SpinView>} SpinBoard
 * @typedef {{command: any, label: string, short: string, cost: number}} Way what reaches a basket; `short` is
 *   its price on the basket's button
 */

/** @param {SpinBoard} board */
export function spinBoard(board) {
  const view = board.view;
  const ways = reachable(board);
  const bunHolder = view.squishy_bun === null ? "in the middle" : `held by ${board.names[view.squishy_bun]}`;
  return [
    h("p", { class: "facts" }, `${view.current === null ? "The game is over" : `${board.names[view.current]} to play`} · squishy bun ${bunHolder}`),
    spinTable(board, ways),
    ways.size ? wayChoice(board, ways) : null,
    h(
      "div",
      { class: "players" },
      view.players.map((player) =>
        zone(
          seatTitle(board, player.seat, undefined),
          { zone: "tableau", seat: String(player.seat) },
          h("p", {}, `${player.tokens} chopsticks token${player.tokens === 1 ? "" : "s"}${player.squishy_bun ? " · holds the squishy bun" : ""} · ${player.menu.length} of 12 dishes`),
          cardRow(faces(board, player.menu, { small: true }), "no dishes yet"),
        ),
      ),
    ),
  ];
}

/**
 * Every basket the seat may take from now, with the ways to reach it, cheapest first.
 * @param {SpinBoard} board
 * @returns {Map<number, Way[]>}
 */
function reachable(board) {
  /** @type {Map<number, Way[]>} */
  const ways = new Map();
  const me = board.view.players.find((player) => player.seat === board.seat);
  if (!me) return ways;
  /** @param {number} basket @param {Way} way */
  const add = (basket, way) => ways.set(basket, [...(ways.get(basket) ?? []), way].sort((a, b) => a.cost - b.cost));
  for (const command of board.commands) {
    if (command.type === "take") {
      const here = board.view.baskets[me.basket];
      if (here.top) add(me.basket, { command, label: "Take it (no turning)", short: "", cost: 0 });
      // An empty basket in front of you and no way to pay: the table turns for free to the nearest dish.
      else ways.set(-1, [{ command, label: "Turn for free to the nearest basket with a dish, and take it", short: "", cost: 0 }]);
    } else {
      const target = (((me.basket + command.steps) % BASKETS) + BASKETS) % BASKETS;
      const direction = command.steps > 0 ? "clockwise" : "counter-clockwise";
      const steps = Math.abs(command.steps);
      const price = `${steps} token${steps === 1 ? "" : "s"}`;
      if (command.type === "rotate") add(target, { command, label: `Turn ${steps} ${direction}, paying ${price}`, short: ` · ${price}`, cost: steps });
      else add(target, { command, label: `Return the squishy bun and turn ${steps} ${direction} for free`, short: " · bun", cost: 0.5 });
    }
  }
  return ways;
}

/**
 * @param {SpinBoard} board
 * @param {Map<number, Way[]>} ways
 */
function spinTable(board, ways) {
  const view = board.view;
  const mine = view.players.find((player) => player.seat === board.seat)?.basket;
  return h(
    "section",
    { class: "spin-table", "aria-label": "The spin table", dataset: { zone: "spin-table" } },
    h(
      "ol",
      { class: "baskets" },
      view.baskets.map((basket) => {
        const facing = basket.facing === null ? "faces nobody" : `in front of ${board.names[basket.facing]}`;
        const details = `Basket ${basket.basket + 1}, ${facing}: ${basket.cards} card${basket.cards === 1 ? "" : "s"}, ${basket.tokens} token${basket.tokens === 1 ? "" : "s"}`;
        const top = basket.top ? cardFace(board.deck.info(basket.top.slug), { id: basket.top.id, small: true }) : h("p", { class: "quiet" }, "empty");
        const reach = ways.get(basket.basket);
        const chosen = board.ui.basket === basket.basket;
        return h(
          "li",
          { class: `basket${basket.basket === mine ? " mine" : ""}`, style: `--turn: ${basket.basket}`, dataset: { basket: String(basket.basket) } },
          top,
          h("p", { class: "basket-facts" }, `${basket.cards} left · ${basket.tokens} token${basket.tokens === 1 ? "" : "s"}`),
          h("p", { class: "basket-facts" }, basket.facing === null ? "—" : board.names[basket.facing]),
          reach
            ? h(
                "button",
                {
                  type: "button",
                  // One way to reach it: the button sends it. Several: it offers them (wayChoice).
                  dataset: { ...(reach.length === 1 ? { command: "take-basket" } : { choose: "basket" }), focus: `basket-${basket.basket}` },
                  "aria-pressed": chosen ? "true" : null,
                  // The name starts with the button's words, as a voice user says them.
                  "aria-label": `${reach.length === 1 ? `Take${reach[0].short}` : "Take…"} from basket ${basket.basket + 1}${reach.length === 1 ? `: ${reach[0].label}` : ""} (${details})`,
                  onclick: () => {
                    if (reach.length === 1) board.send(reach[0].command);
                    else {
                      board.ui.basket = chosen ? undefined : basket.basket;
                      board.redraw();
                    }
                  },
                },
                reach.length === 1 ? `Take${reach[0].short}` : "Take…",
              )
            : h("span", { class: "visually-hidden" }, details),
        );
      }),
    ),
  );
}

/**
 * The ways to reach the basket chosen (when there are several), or the forced free turn.
 * @param {SpinBoard} board
 * @param {Map<number, Way[]>} ways
 */
function wayChoice(board, ways) {
  const forced = ways.get(-1);
  const chosen = forced ?? (board.ui.basket === undefined ? undefined : ways.get(board.ui.basket));
  if (!chosen) return h("p", { class: "quiet" }, "Choose a basket to take its top dish (and the tokens in it).");
  const basket = forced ? "" : ` basket ${board.ui.basket + 1}`;
  return buttons(`How to reach${basket}`, chosen.map((way) => ({ label: way.label, command: way.command.type, onclick: () => board.send(way.command) })));
}
