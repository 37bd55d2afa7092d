// A game's table, as a seat held in this browser sees it (or as a spectator): the board, whose turn
// it is, every legal command as something to click, live updates, and the result at the end. A seat
// link an app hands out (`#/games/{id}/seat/{seat}?token=...`) brings its token into this browser.

import { api } from "../api.js";
import { catalogGame, deckOf } from "../catalog.js";
import { h, replace } from "../dom.js";
import { BOARDS, tableSize } from "../games/boards.js";
import { resultPanel } from "../games/result.js";
import { follow } from "../live.js";
import { describeEvent, seatNames } from "../names.js";
import { showProblem } from "../notice.js";
import { holdSeats, invitationHeld, seatsHeld } from "../storage.js";

/** Events kept in the "latest events" list. */
const RECENT = 8;

/**
 * A seat link: the token is kept in this browser for that game and seat, and taken out of the address
 * (and so out of the history and of anything that copies the address) before the table shows as that
 * seat.
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} seat the seat the link was made for
 * @param {string} token the seat's token
 */
export async function seatLinkScreen(main, gameId, seat, token) {
  const address = (/** @type {string} */ at) => `${location.pathname}${location.search}#/games/${encodeURIComponent(gameId)}/seat/${at}`;
  history.replaceState(history.state, "", address(seat));
  const table = await api.table(gameId, token);
  // The token says which seat it holds (a link with the wrong number still plays the token's seat).
  const held = table.viewer.seat;
  if (held === null) {
    replace(
      main,
      h("h1", {}, "This link holds no seat"),
      h("p", { class: "unreadable" }, "The code in this link holds no seat of this game: ask whoever sent it for your seat link."),
      h("p", { class: "links" }, h("a", { href: `#/games/${gameId}` }, "Watch the game"), h("a", { href: "#/" }, "Back to the lobby")),
    );
    return;
  }
  holdSeats(gameId, table.game, { [String(held)]: token });
  if (String(held) !== seat) history.replaceState(history.state, "", address(String(held)));
  return tableScreen(main, gameId, String(held));
}

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} asSeat the held seat to play as, when this browser holds several ("" for the first)
 */
export async function tableScreen(main, gameId, asSeat) {
  const held = seatsHeld(gameId);
  const mine = held.find((entry) => String(entry.seat) === asSeat) ?? held[0] ?? null;
  const token = mine?.token ?? null;
  // Without a seat here, the invitation code of a link opened here shows the game (private too) as a spectator.
  const reader = token ?? invitationHeld(gameId);
  let table = await api.table(gameId, reader);
  const [game, deck, players] = await Promise.all([catalogGame(table.game), deckOf(table.game), tableSize(table, () => api.events(gameId, reader, 0, 1))]);
  /** @type {import("../types.js").Command[]} */
  let commands = [];
  /** @type {import("../types.js").GameEvent[]} */
  const recent = [];
  /** @type {Record<string, any>} */
  let ui = {};
  let sending = false;
  let connected = false;
  /** A private game's invitation, asked for once by a seated person while seats are open. */
  /** @type {import("../types.js").Invitation | null} */
  let invitation = null;

  const root = h("section", { class: "table", dataset: { game: table.game } });
  // Outside the redrawn part: a live region is read out when its text changes, not when it is replaced.
  const turn = h("p", { class: "turn", role: "status", dataset: { zone: "turn" } });
  // Redrawn every second, apart from the table: the time each awaited seat has left.
  const clocks = h("ul", { class: "clocks", "aria-label": "Time left", dataset: { zone: "clocks" } });
  replace(main, h("h1", {}, game.name), turn, clocks, root);
  const tickClocks = () => replace(clocks, clockLines(table, seatNames(table, players), Date.now()));
  const ticking = setInterval(tickClocks, 1000);

  const draw = () => {
    const names = seatNames(table, players);
    const seat = table.viewer.seat ?? null;
    root.dataset.version = String(table.version);
    root.dataset.status = table.status;
    root.setAttribute("aria-busy", String(sending));
    turn.textContent = turnLine(table, names, seat, commands.length > 0);
    tickClocks();
    const board = BOARDS[table.game];
    const canResign = token !== null && seat !== null && table.status === "active" && !table.seats[seat]?.resigned;
    replace(
      root,
      seatSwitch(gameId, held, seat),
      canResign
        ? h("p", { class: "links" }, h("button", { type: "button", class: "resign", dataset: { action: "resign" }, disabled: sending, onclick: resign }, "Resign (a bot plays on for you)"))
        : null,
      table.status === "open" ? shareLinks(gameId, table, players, invitation) : null,
      table.result ? resultPanel(/** @type {import("../types.js").Result} */ (table.result), names) : null,
      table.status === "finished" || table.status === "abandoned" ? rematchPanel(table, token) : null,
      table.state
        ? board({
            view: table.state,
            table,
            deck,
            names,
            seat,
            commands: sending ? [] : commands,
            send,
            ui,
            redraw: draw,
          })
        : null,
      h(
        "section",
        { class: "log", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title" }, "Latest events"),
        h("p", { class: "quiet" }, isOver(table) ? "The game is over." : connected ? "Live." : "Connecting…"),
        h("ol", { reversed: true }, recent.map((event) => h("li", { value: event.version }, describeEvent(event, names)))),
        h("p", { class: "links" }, h("a", { href: `#/games/${gameId}/replay` }, "Replay this game"), h("a", { href: `#/history` }, "Match history")),
      ),
    );
  };

  const load = async () => {
    let fresh = await api.table(gameId, reader);
    if (fresh.visibility === "private" && fresh.status === "open" && token && !invitation) invitation = await api.invite(gameId, token);
    let legal = null;
    // The table and its commands are read one after the other: read again when the game moved on between.
    for (let attempt = 0; attempt < 3 && token && fresh.status === "active" && fresh.viewer.seat !== null && fresh.awaiting.includes(fresh.viewer.seat); attempt += 1) {
      legal = await api.legal(gameId, token);
      if (legal.version === fresh.version) break;
      fresh = await api.table(gameId, token);
      legal = null;
    }
    table = fresh;
    commands = legal ? legal.commands : [];
    draw();
  };

  /** @type {Promise<void> | null} */
  let loading = null;
  let stale = false;
  /** Reload, once more after the current load when asked during it (a burst of events, one reload). */
  const refresh = () => {
    if (loading) {
      stale = true;
      return loading;
    }
    loading = (async () => {
      do {
        stale = false;
        try {
          await load();
        } catch (error) {
          showProblem(error);
        }
      } while (stale);
      loading = null;
    })();
    return loading;
  };

  /** @param {import("../types.js").Command} command */
  async function send(command) {
    if (!token || sending) return;
    sending = true;
    draw();
    try {
      await api.send(gameId, token, command);
      ui = {};
    } catch (error) {
      showProblem(error);
    } finally {
      sending = false;
    }
    await refresh();
  }

  async function resign() {
    if (!token || sending) return;
    sending = true;
    draw();
    try {
      await api.resign(gameId, token);
    } catch (error) {
      showProblem(error);
    } finally {
      sending = false;
    }
    await refresh();
  }

  await refresh();
  if (isOver(table)) {
    clearInterval(ticking);
    return;
  }
  /** @param {import("../types.js").GameEvent} event */
  const onEvent = (event) => {
    recent.unshift(event);
    recent.length = Math.min(recent.length, RECENT);
    refresh();
  };
  /** @param {boolean} open */
  const onStatus = (open) => {
    connected = open;
    draw();
  };
  // An EventSource sends no Authorization header: a seat (or a private game's invitee) follows the
  // stream with a ticket, anybody a public game's without one.
  const stream = follow(gameId, reader, table.version, onEvent, onStatus);
  return () => {
    clearInterval(ticking);
    stream.stop();
  };
}

/** @param {import("../types.js").TableView} table */
function isOver(table) {
  return table.status === "finished" || table.status === "abandoned";
}

/**
 * One line per awaited seat of a game with a clock: whose time it is and how much is left.
 * @param {import("../types.js").TableView} table
 * @param {string[]} names
 * @param {number} now milliseconds since the epoch
 */
function clockLines(table, names, now) {
  if (!table.awaiting_until || table.status !== "active") return [];
  return Object.entries(table.awaiting_until).map(([seat, until]) =>
    h("li", { dataset: { seat } }, `${names[Number(seat)]}: ${timeLeft(new Date(until).getTime() - now)}`),
  );
}

/** "2d 3h", "1h 05m", "4:09", or "time is up" @param {number} milliseconds */
export function timeLeft(milliseconds) {
  if (milliseconds <= 0) return "time is up";
  const seconds = Math.ceil(milliseconds / 1000);
  const [days, hours, minutes] = [Math.floor(seconds / 86400), Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60];
  if (days) return `${days}d ${hours}h left`;
  if (hours) return `${hours}h ${String(minutes).padStart(2, "0")}m left`;
  return `${minutes}:${String(seconds % 60).padStart(2, "0")} left`;
}

/**
 * @param {import("../types.js").TableView} table
 * @param {string[]} names
 * @param {number | null} seat
 * @param {boolean} canAct
 */
function turnLine(table, names, seat, canAct) {
  if (table.status === "open") return `Waiting for players: ${table.seats.length} of ${names.length} seats taken.`;
  if (table.status === "finished") return "The game is over.";
  if (table.status === "abandoned") return "This game was abandoned.";
  const others = table.awaiting.filter((awaited) => awaited !== seat).map((awaited) => names[awaited]);
  if (seat !== null && canAct) return `Your turn${others.length ? ` (also waiting for ${others.join(", ")})` : ""}.`;
  if (seat === null) return `Watching. Waiting for ${others.join(", ") || "nobody"}.`;
  return `Waiting for ${others.join(", ") || "the game"}.`;
}

/**
 * @param {string} gameId
 * @param {import("../types.js").TableView} table
 * @param {number} players
 * @param {import("../types.js").Invitation | null} invitation a private game's, when this page may invite
 */
function shareLinks(gameId, table, players, invitation) {
  const base = `${location.origin}${location.pathname}${location.search}`;
  const open = [];
  for (let seat = table.seats.length; seat < players; seat += 1) open.push(seat);
  const heading = h("h2", { id: "share-title" }, "Invite players");
  if (table.visibility === "private" && !invitation) {
    return h("section", { class: "share", "aria-labelledby": "share-title" }, heading, h("p", {}, "This game is private: a seated person invites the others."));
  }
  const code = invitation ? `?invitation=${encodeURIComponent(invitation.code)}` : "";
  return h(
    "section",
    { class: "share", "aria-labelledby": "share-title" },
    heading,
    h("p", {}, "Send each person one link: opening it takes the next open seat."),
    h(
      "ul",
      { class: "list" },
      open.map((seat) => {
        const url = `${base}#/games/${gameId}/join/${seat}${code}`;
        return h(
          "li",
          {},
          h("label", { for: `share-${seat}` }, `Seat ${seat + 1}`),
          h("input", { id: `share-${seat}`, readonly: true, value: url, class: "share-link", onfocus: (/** @type {FocusEvent} */ event) => /** @type {HTMLInputElement} */ (event.target).select() }),
        );
      }),
    ),
  );
}

/**
 * A finished or abandoned game offers its seated people a rematch: the same game and seats, a new token each.
 * @param {import("../types.js").TableView} table
 * @param {string | null} token
 */
function rematchPanel(table, token) {
  const existing = table.rematch ? h("a", { href: `#/games/${table.rematch}` }, "Go to the rematch") : null;
  if (!token || (table.rematch && seatsHeld(table.rematch).length)) return existing ? h("p", { class: "links" }, existing) : null;
  const button = h(
    "button",
    {
      type: "button",
      id: "rematch",
      class: "primary",
      onclick: async () => {
        button.disabled = true;
        try {
          const created = await api.rematch(table.id, token);
          holdSeats(created.id, created.game, created.tokens);
          location.hash = `#/games/${created.id}`;
        } catch (error) {
          showProblem(error);
          button.disabled = false;
        }
      },
    },
    table.rematch ? "Join the rematch" : "Rematch",
  );
  return h("p", { class: "links" }, button);
}

/**
 * @param {string} gameId
 * @param {{seat: number}[]} held
 * @param {number | null} seat
 */
function seatSwitch(gameId, held, seat) {
  if (held.length < 2) return null;
  return h(
    "nav",
    { class: "links", "aria-label": "Play as" },
    "Play as: ",
    held.map((entry) => h("a", { href: `#/games/${gameId}/seat/${entry.seat}`, "aria-current": entry.seat === seat ? "page" : null }, `seat ${entry.seat + 1}`)),
  );
}
