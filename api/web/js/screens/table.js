// A game's table, as a seat held in this browser sees it (or as a spectator): the board, whose turn
// it is, every legal command as something to click, live updates, and the result at the end. A seat
// link an app hands out (`#/games/{id}/seat/{seat}?token=...`) brings its token into this browser.

import { api, ApiError, idempotencyKey } from "../api.js";
import { catalogGame, deckOf } from "../catalog.js";
import { focusable, h, replace } from "../dom.js";
import { BOARDS, tableSize } from "../games/boards.js";
import { resultPanel } from "../games/result.js";
import { follow } from "../live.js";
import { describeEvent, seatNames } from "../names.js";
import { passing, problemSlot } from "../notice.js";
import { forgetGame, forgetSeat, holdSeats, invitationHeld, seatsHeld } from "../storage.js";

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

/** Waits between tries of a read or a command that got no answer: doubling from the first to the last. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 4000;

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} asSeat the held seat to play as, when this browser holds several ("" for the first)
 * @param {string} [watch] "watch": as a spectator, whatever seat this browser holds
 */
export async function tableScreen(main, gameId, asSeat, watch = "") {
  const held = watch ? [] : seatsHeld(gameId);
  const mine = held.find((entry) => String(entry.seat) === asSeat) ?? held[0] ?? null;
  const token = mine?.token ?? null;
  // Without a seat here, the invitation code of a link opened here shows the game (private too) as a spectator.
  const reader = token ?? (watch ? null : invitationHeld(gameId));
  /** @type {import("../types.js").TableView} */
  let table;
  try {
    table = await api.table(gameId, reader);
  } catch (error) {
    // A seat or invitation this browser keeps that no longer works (revoked, or a game gone): say so.
    if (reader && error instanceof ApiError && [401, 403, 404, 422].includes(error.status)) return heldCodeFails(main, gameId, error, token !== null);
    throw error;
  }
  const [game, deck, players] = await Promise.all([catalogGame(table.game), deckOf(table.game), tableSize(table, () => api.events(gameId, reader, 0, 1))]);
  /** @type {import("../types.js").Command[]} */
  let commands = [];
  /** @type {import("../types.js").GameEvent[]} */
  const recent = [];
  /** @type {Record<string, any>} */
  let ui = {};
  let sending = false;
  let connected = false;
  /** Whether the last read or command got no answer: the page is offline until one does. */
  let offline = navigator.onLine === false;
  /** Whether "Resign" was pressed once and waits for its confirmation. */
  let confirming = false;
  let left = false;
  /** A private game's invitation, asked for once by a seated person while seats are open. */
  /** @type {import("../types.js").Invitation | null} */
  let invitation = null;
  /** The `data-focus` key of the last control of the table the player was on (kept across redraws). */
  /** @type {string | undefined} */
  let focusKey;

  const root = h("section", { class: "table", tabindex: -1, dataset: { game: table.game } });
  root.addEventListener("focusin", (event) => {
    const key = event.target instanceof HTMLElement ? event.target.dataset.focus : undefined;
    if (key) focusKey = key;
  });
  // Outside the redrawn part: a live region is read out when its text changes, not when it is replaced.
  const turn = h("p", { class: "turn", role: "status", dataset: { zone: "turn" } });
  const connection = h("p", { class: "connection quiet", role: "status", dataset: { zone: "connection" } });
  // A refused or unsent command, next to the board it came from.
  const problem = problemSlot();
  // Redrawn every second, apart from the table: the time each awaited seat has left.
  const clocks = h("ul", { class: "clocks", "aria-label": "Time left", dataset: { zone: "clocks" } });
  replace(main, h("h1", {}, game.name), turn, connection, clocks, root);
  const tickClocks = () => replace(clocks, clockLines(table, seatNames(table, players), Date.now()));
  const ticking = setInterval(tickClocks, 1000);

  /** After a redraw, a player whose control went away (a card played, buttons gone while a command is sent) keeps the focus in the table. */
  const keepFocus = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || active === root || !document.contains(active);
    if (!lost || !focusKey) return;
    const again = focusable(root, focusKey) ?? focusable(root, "hand");
    if (again) again.focus();
    else if (active !== root) root.focus({ preventScroll: true });
  };

  const connectionLine = () => {
    if (isOver(table)) return ["over", "The game is over."];
    if (offline && sending) return ["offline", "Offline: your move is sent as soon as the connection is back."];
    if (offline) return ["offline", "Offline: the table may be behind. Trying again…"];
    return connected ? ["live", "Live."] : ["connecting", "Connecting…"];
  };

  const draw = () => {
    const names = seatNames(table, players);
    const seat = table.viewer.seat ?? null;
    root.dataset.version = String(table.version);
    root.dataset.status = table.status;
    root.setAttribute("aria-busy", String(sending));
    turn.textContent = turnLine(table, names, seat, commands.length > 0);
    const [state, line] = connectionLine();
    connection.dataset.state = state;
    if (connection.textContent !== line) connection.textContent = line;
    tickClocks();
    const board = BOARDS[table.game];
    const canResign = token !== null && seat !== null && table.status === "active" && !table.seats[seat]?.resigned;
    if (!canResign) confirming = false;
    replace(
      root,
      seatSwitch(gameId, held, seat),
      table.status === "open" ? shareLinks(gameId, table, players, invitation) : null,
      table.status === "open" && token !== null && seat !== null ? leavePart(sending, leave) : null,
      table.result ? resultPanel(/** @type {import("../types.js").Result} */ (table.result), names) : null,
      table.status === "finished" || table.status === "abandoned" ? rematchPanel(table, token) : null,
      problem.element,
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
        h("ol", { reversed: true }, recent.map((event) => h("li", { value: event.version }, describeEvent(event, names)))),
        h("p", { class: "links" }, h("a", { href: `#/games/${gameId}/replay` }, "Replay this game"), h("a", { href: `#/history` }, "Match history")),
      ),
      // Far from the hand, and never in one tap: resigning hands the seat to a bot for good.
      canResign ? resignPart(confirming, sending, { ask: () => setConfirming(true), cancel: () => setConfirming(false), confirm: resign }) : null,
    );
    keepFocus();
  };

  /** @param {boolean} value */
  const setConfirming = (value) => {
    confirming = value;
    draw();
    const next = root.querySelector(value ? '[data-action="cancel-resign"]' : '[data-action="resign"]');
    if (next instanceof HTMLElement) next.focus();
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

  /** Waits before the next try: `ms`, or less when the browser says it is back online (or the screen is left). */
  /** @type {(() => void) | null} */
  let wake = null;
  /** @param {number} ms */
  const pause = (ms) =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener("online", done);
        wake = null;
        resolve(undefined);
      };
      const timer = setTimeout(done, ms);
      window.addEventListener("online", done);
      wake = done;
    });

  /** @type {Promise<void> | null} */
  let loading = null;
  let giving = false;
  let stale = false;
  /**
   * Reload, once more after the current load when asked during it (a burst of events, one reload).
   * A read that gets no answer (offline, or the server busy) is tried again, waiting longer each time,
   * and at once when the browser is back online.
   */
  const refresh = () => {
    // The seat is being given back: its token is about to hold nothing, and the screen to close.
    if (giving) return Promise.resolve();
    if (loading) {
      stale = true;
      return loading;
    }
    loading = (async () => {
      let wait = FIRST_RETRY_MS;
      do {
        stale = false;
        try {
          await load();
          if (offline) {
            offline = false;
            draw();
          }
        } catch (error) {
          if (left) break;
          if (!passing(error)) {
            problem.show(error);
            break;
          }
          offline = true;
          draw();
          await pause(wait);
          wait = Math.min(wait * 2, LAST_RETRY_MS);
          stale = true;
        }
      } while (stale && !left);
      loading = null;
    })();
    return loading;
  };

  /**
   * Sends a command (or a resignation) until an answer comes: each try carries the same idempotency
   * key, so a try whose answer was lost is never played twice.
   * @param {(key: string) => Promise<unknown>} request
   */
  async function sendUntilAnswered(request) {
    const key = idempotencyKey();
    let wait = FIRST_RETRY_MS;
    for (;;) {
      try {
        await request(key);
        problem.clear();
        return true;
      } catch (error) {
        if (left) return false;
        if (!passing(error)) {
          problem.show(error);
          return false;
        }
        offline = true;
        draw();
        await pause(wait);
        wait = Math.min(wait * 2, LAST_RETRY_MS);
      }
    }
  }

  /** @param {import("../types.js").Command} command */
  async function send(command) {
    if (!token || sending) return;
    sending = true;
    problem.clear();
    draw();
    if (await sendUntilAnswered((key) => api.send(gameId, token, command, key))) ui = {};
    sending = false;
    if (!left) await refresh();
  }

  async function resign() {
    if (!token || sending) return;
    sending = true;
    confirming = false;
    problem.clear();
    draw();
    await sendUntilAnswered((key) => api.resign(gameId, token, key));
    sending = false;
    if (!left) await refresh();
  }

  /** Gives the seat back while the game waits for players: this browser forgets it, and goes to the lobby. */
  async function leave() {
    if (!token || sending) return;
    const seat = table.viewer.seat;
    sending = true;
    giving = true;
    problem.clear();
    draw();
    try {
      if (loading) await loading; // a read already sent with the token gets its answer first
      await api.leave(gameId, token);
    } catch (error) {
      sending = false;
      giving = false;
      problem.show(error);
      draw();
      return;
    }
    sending = false;
    if (seat !== null && seat !== undefined) forgetSeat(gameId, seat);
    location.hash = "#/";
  }

  const onOnline = () => {
    stream?.wake();
    refresh();
  };
  const onOffline = () => {
    offline = true;
    draw();
  };
  /** @type {{stop: () => void, wake: () => void} | null} */
  let stream = null;
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);
  const stop = () => {
    left = true;
    clearInterval(ticking);
    stream?.stop();
    wake?.();
    window.removeEventListener("online", onOnline);
    window.removeEventListener("offline", onOffline);
  };

  await refresh();
  if (isOver(table)) {
    stop();
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
    // Back after a cut: what was missed is read at once.
    if (open) refresh();
    else draw();
  };
  // An EventSource sends no Authorization header: a seat (or a private game's invitee) follows the
  // stream with a ticket, anybody a public game's without one.
  stream = follow(gameId, reader, table.version, onEvent, onStatus);
  return stop;
}

/**
 * While the game waits for players, the seat may be given back (anyone may take it then).
 * @param {boolean} sending
 * @param {() => void} leave
 */
function leavePart(sending, leave) {
  return h(
    "section",
    { class: "leave", "aria-labelledby": "give-back-title" },
    h("h2", { id: "give-back-title" }, "Not playing after all?"),
    h("p", {}, h("button", { type: "button", dataset: { action: "leave-seat" }, disabled: sending, onclick: leave }, "Leave this seat")),
  );
}

/**
 * "Resign…", then its confirmation: a question and two buttons, the safe one first.
 * @param {boolean} confirming
 * @param {boolean} sending
 * @param {{ask: () => void, cancel: () => void, confirm: () => void}} actions
 */
function resignPart(confirming, sending, actions) {
  const heading = h("h2", { id: "leave-title" }, "Leave the game");
  if (!confirming) {
    return h(
      "section",
      { class: "leave", "aria-labelledby": "leave-title" },
      heading,
      h("p", {}, h("button", { type: "button", class: "resign", dataset: { action: "resign", focus: "leave-ask" }, disabled: sending, "aria-haspopup": "true", onclick: actions.ask }, "Resign…")),
    );
  }
  return h(
    "section",
    { class: "leave", "aria-labelledby": "leave-title" },
    heading,
    h(
      "div",
      { class: "confirm", role: "group", "aria-labelledby": "resign-question", dataset: { zone: "confirm-resign" } },
      h("p", { id: "resign-question" }, "Resign this game? A bot plays your seat to the end, and you cannot take it back."),
      h(
        "p",
        { class: "links" },
        h("button", { type: "button", dataset: { action: "cancel-resign", focus: "leave-cancel" }, onclick: actions.cancel }, "Keep playing"),
        h("button", { type: "button", class: "primary", dataset: { action: "confirm-resign", focus: "leave-confirm" }, disabled: sending, onclick: actions.confirm }, "Yes, resign"),
      ),
    ),
  );
}

/**
 * A seat or invitation kept here whose code fails (revoked, for a game that is gone): what happened,
 * and the ways on: watch the game without it (when it can be watched), or forget it here.
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {ApiError} error
 * @param {boolean} seat whether the code is a seat's (else an invitation's)
 */
async function heldCodeFails(main, gameId, error, seat) {
  const gone = error.status === 404 || error.status === 422;
  /** @type {import("../types.js").TableView | null} */
  let watchable = null;
  if (!gone) watchable = await api.table(gameId, null).catch(() => null);
  const what = seat ? "your seat" : "the invitation";
  const text = gone
    ? `This browser keeps ${what} in a game the server does not know: the game no longer exists here (or never did, if the link was cut short).`
    : `The code this browser keeps for ${what} in this game no longer works: it was revoked, or the seat was given to someone else.${watchable ? " You can still watch the game." : " The game is private: ask one of its players for a new link."}`;
  const forget = h(
    "button",
    {
      type: "button",
      dataset: { action: "forget" },
      onclick: () => {
        forgetGame(gameId);
        location.hash = watchable ? `#/games/${gameId}/watch` : "#/";
      },
    },
    seat ? "Forget this seat" : "Forget this invitation",
  );
  replace(
    main,
    h("h1", {}, gone ? "Game not found" : seat ? "Your seat here no longer works" : "This invitation no longer works"),
    h("p", { class: "unreadable", dataset: { zone: "unreadable" } }, text),
    h("p", { class: "links" }, watchable ? h("a", { class: "button", href: `#/games/${gameId}/watch` }, "Watch the game") : null, forget, h("a", { href: "#/" }, "Back to the lobby")),
  );
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
  const problem = problemSlot();
  const button = h(
    "button",
    {
      type: "button",
      id: "rematch",
      class: "primary",
      onclick: async () => {
        button.disabled = true;
        problem.clear();
        try {
          const created = await api.rematch(table.id, token);
          holdSeats(created.id, created.game, created.tokens);
          location.hash = `#/games/${created.id}`;
        } catch (error) {
          problem.show(error);
          button.disabled = false;
        }
      },
    },
    table.rematch ? "Join the rematch" : "Rematch",
  );
  return h("div", {}, h("p", { class: "links" }, button), problem.element);
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
