// Each game's board, by the game's id.

import { derbyBoard } from "./derby.js";
import { partyBoard } from "./party.js";
import { spinBoard } from "./spin-some.js";
import { sushiGoBoard } from "./sushi-go.js";

/** @type {Record<string, (board: import("./common.js").Board) => import("../dom.js").Child[]>} */
export const BOARDS = {
  "sushi-go": sushiGoBoard,
  "sushi-go-party": partyBoard,
  "spin-some-for-dim-sum": spinBoard,
  "dim-sum-derby": derbyBoard,
};

/**
 * How many seats a table has: from its state once the game runs, else from its first event.
 * @param {import("../types.js").TableView} table
 * @param {() => Promise<{events: {data: unknown}[]}>} firstEvent
 */
export async function tableSize(table, firstEvent) {
  const state = table.state;
  if (state) return Array.isArray(state.players) ? state.players.length : state.players;
  const page = await firstEvent();
  const created = /** @type {{players?: number}} */ (page.events[0]?.data ?? {});
  return created.players ?? table.seats.length;
}
