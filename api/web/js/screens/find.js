// Finding a game: the player joins the game's matchmaking queue with the player counts they accept,
// waits (the entry is asked every second), and is taken to their seat once a game formed; they may
// leave the queue while they wait. The entry is kept in this browser, so a reload waits on.

import { api, idempotencyKey, serverAuth } from "../api.js";
import { catalogGame } from "../catalog.js";
import { h, replace } from "../dom.js";
import { problemSlot } from "../notice.js";
import { holdSeats, profile, saveProfile } from "../storage.js";
import { closedToBrowsers } from "./create.js";

const QUEUED_KEY = "kaiten.queued";
const POLL_MS = 1000;

/** @returns {Record<string, string>} game -> the entry this browser waits with */
function queued() {
  try {
    return JSON.parse(localStorage.getItem(QUEUED_KEY) ?? "{}");
  } catch {
    return {};
  }
}

/** @param {string} game @param {string | null} entry */
function keepQueued(game, entry) {
  const all = queued();
  if (entry === null) delete all[game];
  else all[game] = entry;
  localStorage.setItem(QUEUED_KEY, JSON.stringify(all));
}

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 */
export async function findScreen(main, gameId) {
  const [game, auth] = await Promise.all([catalogGame(gameId), serverAuth()]);
  if (auth === "keys") {
    replace(main, h("h1", {}, `Find a game of ${game.name}`), closedToBrowsers(), h("p", { class: "links" }, h("a", { href: "#/" }, "Back to the lobby")));
    return;
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const waiting = queued()[gameId];
  if (waiting) waitFor(waiting);
  else form();
  return stop;

  function form() {
    const me = profile();
    const problem = problemSlot();
    /** @type {number[]} */
    const counts = [];
    for (let players = game.min_players; players <= game.max_players; players += 1) counts.push(players);
    /** @param {string} id @param {number} chosen */
    const select = (id, chosen) => h("select", { id }, counts.map((players) => h("option", { value: String(players), selected: players === chosen }, String(players))));
    const name = h("input", { id: "find-name", value: me.name, required: true, maxlength: 100, autocomplete: "nickname" });
    const low = select("find-min", game.min_players);
    const high = select("find-max", game.max_players);
    const bots = h("input", { id: "find-bots", type: "checkbox" });
    const key = idempotencyKey();
    replace(
      main,
      h("h1", {}, `Find a game of ${game.name}`),
      h("p", {}, "Wait with other players for a game: it starts as soon as enough of you wait who accept the same number of players."),
      h(
        "form",
        {
          onsubmit: async (/** @type {SubmitEvent} */ event) => {
            event.preventDefault();
            problem.clear();
            try {
              saveProfile({ ...me, name: name.value.trim() });
              /** @type {import("../types.js").JoinQueueRequest} */
              const body = {
                player_id: me.player_id,
                name: name.value.trim(),
                min_players: Number(low.value),
                max_players: Number(high.value),
              };
              if (bots.checked) Object.assign(body, { bot: "greedy", bots_after_seconds: 30 });
              const entry = await api.joinQueue(gameId, body, key);
              keepQueued(gameId, entry.id);
              shown(entry);
            } catch (error) {
              problem.show(error);
            }
          },
          oninput: problem.clear,
        },
        h("p", {}, h("label", { for: "find-name" }, "Your name"), name),
        h("p", {}, h("label", { for: "find-min" }, "At least this many players"), low),
        h("p", {}, h("label", { for: "find-max" }, "At most this many players"), high),
        h("p", {}, h("label", { for: "find-bots", class: "check" }, bots, "Fill my game with bots after 30 seconds")),
        h("p", {}, h("button", { type: "submit", class: "primary", id: "find-join" }, "Find a game")),
        problem.element,
      ),
      h("p", { class: "links" }, h("a", { href: "#/" }, "Back to the lobby")),
    );
  }

  /** @param {string} entryId */
  async function waitFor(entryId) {
    try {
      shown(await api.queueEntry(gameId, entryId));
    } catch {
      // An entry this server does not know (another server, a new database): join again.
      keepQueued(gameId, null);
      if (!stopped) form();
    }
  }

  /** @param {import("../types.js").QueueEntry} entry */
  function shown(entry) {
    if (stopped) return;
    if (entry.status === "matched" && entry.game_id && entry.token !== null && entry.token !== undefined && entry.seat !== null && entry.seat !== undefined) {
      holdSeats(entry.game_id, gameId, { [String(entry.seat)]: entry.token });
      keepQueued(gameId, null);
      location.hash = `#/games/${entry.game_id}`;
      return;
    }
    if (entry.status !== "waiting") {
      keepQueued(gameId, null);
      form();
      return;
    }
    const problem = problemSlot();
    replace(
      main,
      h("h1", {}, `Finding a game of ${game.name}`),
      h("p", { role: "status", id: "find-waiting" }, `Waiting for players: ${entry.min_players}–${entry.max_players} players, since ${new Date(entry.joined_at).toLocaleTimeString()}.`),
      h(
        "p",
        {},
        h(
          "button",
          {
            type: "button",
            id: "find-leave",
            onclick: async () => {
              problem.clear();
              try {
                await api.leaveQueue(gameId, entry.id);
                keepQueued(gameId, null);
                stop();
                stopped = false;
                form();
              } catch (error) {
                problem.show(error);
              }
            },
          },
          "Leave the queue",
        ),
      ),
      problem.element,
    );
    timer = setTimeout(() => waitFor(entry.id), POLL_MS);
  }
}
