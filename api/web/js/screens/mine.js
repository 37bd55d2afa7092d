// Your games: every game this browser holds a seat in, with whose turn it is, most urgent first.
//
// The seats this browser holds are the truth of "your games" (a seat may have come from a seat link,
// under a player id that is not this browser's), so each game's row is its table, read with the
// seat's own token. To stay current without a reload, the screen follows the player's stream: on an
// open server the browser mints a player token for its own player id (the one it creates games and
// joins queues under) and re-reads the table of a game the stream names (`your-turn`,
// `game-started`, `game-finished`...). The stream speaks of turns that come to the player, not of
// every move of the others, and a server that needs app keys gives a browser no player token: so the
// tables are also read again every 20 s, which alone keeps the list current there.

import { ApiError, api, serverAuth } from "../api.js";
import { catalogGames } from "../catalog.js";
import { h, replace } from "../dom.js";
import { reconnecting } from "../live.js";
import { seatName, when } from "../names.js";
import { explain, unreachable } from "../notice.js";
import { forgetGame, gamesHeld, profile, seatsHeld } from "../storage.js";

const POLL_MS = 20_000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 16_000;
const PLAYER_EVENTS = ["game-started", "your-turn", "game-finished", "invitation", "rematch-offered"];
/** Most urgent first: a turn to play, then a seat that needs the player's eye, then waiting, then over. */
const URGENCY = { "your-turn": 0, problem: 1, waiting: 2, open: 3, finished: 4, abandoned: 5, reading: 6 };

/**
 * @typedef {keyof typeof URGENCY} State
 * @typedef {{id: string, game: string, added: string, seats: number[], table: import("../types.js").TableView | null, error: unknown, row: HTMLLIElement}} Row
 */

/** @param {HTMLElement} main */
export async function yourGamesScreen(main) {
  const [games, auth] = await Promise.all([catalogGames(), serverAuth()]);
  /** @type {Map<string, string>} */
  const names = new Map(games.map((game) => [game.id, game.name]));
  /** @type {Map<string, Row>} */
  const rows = new Map();
  const list = h("ul", { class: "list your-games", dataset: { zone: "your-games" } });
  const empty = h("p", { hidden: true }, "Games you create, join or are matched into appear here (this browser keeps their seats). ", h("a", { href: "#/" }, "Start or find one in the lobby."));
  const live = h("p", { role: "status", class: "quiet", id: "games-live", dataset: { state: "polling" } }, "This list is read again every 20 seconds.");
  let stopped = false;

  for (const held of gamesHeld()) rows.set(held.id, { ...held, table: null, error: null, row: h("li", { dataset: { game: held.id } }) });
  replace(main, h("h1", {}, "Your games"), live, list, empty, h("p", { class: "links" }, h("a", { href: "#/" }, "Back to the lobby")));
  for (const row of rows.values()) draw(row);
  order();
  await Promise.all([...rows.keys()].map(read));

  const timer = setInterval(() => rows.forEach((_, id) => read(id)), POLL_MS);
  // A stream that starts from the player's first item names many games at once: each is read once.
  /** @type {Set<string>} */
  const named = new Set();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let batch;
  /** @param {string} id */
  const soon = (id) => {
    if (!rows.has(id)) return;
    named.add(id);
    batch ??= setTimeout(() => {
      batch = undefined;
      named.forEach(read);
      named.clear();
    }, 200);
  };
  const stream = auth === "open" ? followPlayer(profile().player_id, soon, showLive) : null;
  const online = () => {
    rows.forEach((_, id) => read(id));
    stream?.wake();
  };
  window.addEventListener("online", online);
  return () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(batch);
    stream?.stop();
    window.removeEventListener("online", online);
  };

  /** @param {"live" | "connecting" | "polling"} state */
  function showLive(state) {
    live.dataset.state = state;
    live.textContent =
      state === "live" ? "Live: this list changes as your games do." : state === "connecting" ? "Reconnecting to your games' updates… meanwhile this list is read again every 20 seconds." : "This list is read again every 20 seconds.";
  }

  /** Reads a held game's table with its seat's token, and redraws its row. @param {string} id */
  async function read(id) {
    const row = rows.get(id);
    const seat = seatsHeld(id)[0];
    if (!row || !seat || stopped) return;
    try {
      const table = await api.table(id, seat.token);
      // Reads may answer out of order: an older version never replaces a newer one.
      if (!row.table || table.version >= row.table.version) row.table = table;
      row.error = null;
    } catch (error) {
      row.error = error;
    }
    if (stopped || !rows.has(id)) return;
    draw(row);
    order();
  }

  /** @param {Row} row */
  function draw(row) {
    const { table } = row;
    const state = stateOf(row);
    const title = names.get(row.game) ?? row.game;
    const others = table ? table.seats.filter((seat) => !row.seats.includes(seat.seat)).map(seatName) : [];
    row.row.dataset.state = state;
    replace(
      row.row,
      h("a", { href: `#/games/${row.id}` }, others.length ? `${title} with ${others.join(", ")}` : title),
      " ",
      h("strong", { class: "state" }, table ? words(table, row.seats) : row.error ? "Could not be read" : "Reading…"),
      h("span", { class: "quiet" }, ` · since ${when(row.added)}`),
      row.error ? problem(row) : null,
    );
  }

  /** The problem of a row, in words, with what the player can do about it. @param {Row} row */
  function problem(row) {
    const gone = row.error instanceof ApiError && (row.error.status === 401 || row.error.status === 403 || row.error.status === 404);
    const text = !(row.error instanceof ApiError)
      ? explain(row.error)
      : row.error.status === 404
        ? "This game is not on this server any more (or it never was): this browser's seat in it leads nowhere."
        : row.error.status === 401 || row.error.status === 403
          ? "The seat this browser keeps for this game no longer works: it was revoked, or given to someone else."
          : explain(row.error);
    return h(
      "p",
      { class: "problem", role: "alert", dataset: { zone: "problem", kind: unreachable(row.error) ? "offline" : "refused" } },
      `${row.table ? "This game could not be read again just now. " : ""}${text} `,
      gone
        ? h(
            "button",
            {
              type: "button",
              class: "forget",
              onclick: () => {
                forgetGame(row.id);
                rows.delete(row.id);
                row.row.remove();
                order();
              },
            },
            "Forget this game",
          )
        : null,
    );
  }

  /** Puts the rows in order of urgency, moving none that is already in place (a focused link stays focused). */
  function order() {
    const sorted = [...rows.values()].sort((a, b) => URGENCY[stateOf(a)] - URGENCY[stateOf(b)] || b.added.localeCompare(a.added));
    sorted.forEach((row, index) => {
      if (list.children[index] !== row.row) list.insertBefore(row.row, list.children[index] ?? null);
    });
    empty.hidden = rows.size > 0;
    list.hidden = rows.size === 0;
  }
}

/** @param {Row} row @returns {State} */
function stateOf(row) {
  if (row.error && (!row.table || !unreachable(row.error))) return "problem";
  if (!row.table) return "reading";
  const { table } = row;
  if (table.status === "open") return "open";
  if (table.status === "finished") return "finished";
  if (table.status === "abandoned") return "abandoned";
  return row.seats.some((seat) => table.awaiting.includes(seat)) ? "your-turn" : "waiting";
}

/**
 * Where the game is for the player, in words: "Your turn", "Waiting for 1 player (Ben)", "Finished: you placed 2nd".
 * @param {import("../types.js").TableView} table
 * @param {number[]} seats the seats held here
 */
function words(table, seats) {
  if (table.status === "open") return `Waiting for players to join (${table.seats.length} seated)`;
  if (table.status === "abandoned") return "Abandoned";
  if (table.status === "finished") {
    const result = table.result;
    if (!result) return "Finished";
    const mine = seats.filter((seat) => result.ranking.includes(seat));
    if (seats.some((seat) => result.winners.includes(seat))) return result.winners.length > 1 ? "Finished: you shared the win" : "Finished: you won";
    if (!mine.length) return "Finished";
    return `Finished: you placed ${ordinal(Math.min(...mine.map((seat) => result.ranking.indexOf(seat))) + 1)}`;
  }
  if (seats.some((seat) => table.awaiting.includes(seat))) return "Your turn";
  const awaited = table.awaiting.map((seat) => table.seats.find((entry) => entry.seat === seat)).filter((seat) => seat !== undefined);
  if (!awaited.length) return "Waiting";
  return `Waiting for ${awaited.length} ${awaited.length === 1 ? "player" : "players"} (${awaited.map(seatName).join(", ")})`;
}

/** @param {number} place */
function ordinal(place) {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][place % 10] ?? "th";
  return `${place}${suffix}`;
}

/**
 * Follows the player's stream with a player token minted for them (an open server's), and calls
 * `onGame` with the id of each game an item names. An EventSource cannot send a credential: each
 * connection spends a fresh single-use ticket and resumes after the last item received.
 * @param {string} playerId
 * @param {(gameId: string) => void} onGame
 * @param {(state: "live" | "connecting" | "polling") => void} onStatus
 */
function followPlayer(playerId, onGame, onStatus) {
  let last = 0;
  /** @type {string | null} */
  let token = null;
  return reconnecting(
    async () => {
      try {
        token ??= (await api.playerToken(playerId)).token;
        return api.playerStreamUrl(playerId, { ticket: (await api.playerStreamTicket(playerId, token)).ticket, after: last });
      } catch (error) {
        // A token that expired is minted again; a server that gives none leaves the list to its reads.
        if (error instanceof ApiError && error.status === 401) token = null;
        if (error instanceof ApiError && (error.status === 403 || error.status === 400)) {
          onStatus("polling");
          return null;
        }
        throw error;
      }
    },
    (source) => {
      for (const type of PLAYER_EVENTS) {
        source.addEventListener(type, (message) => {
          const item = /** @type {import("../types.js").PlayerItem} */ (JSON.parse(/** @type {MessageEvent} */ (message).data));
          last = Math.max(last, Number(/** @type {MessageEvent} */ (message).lastEventId) || last);
          onGame(item.game_id);
        });
      }
    },
    (connected) => onStatus(connected ? "live" : "connecting"),
    { first: FIRST_RETRY_MS, last: LAST_RETRY_MS },
  );
}
