// The lobby: who plays here, the catalog's games to start (on a server a browser may create games
// on), open games to join, and the games this browser holds seats in.

import { api, serverAuth } from "../api.js";
import { catalogGames } from "../catalog.js";
import { h, replace } from "../dom.js";
import { seatName, when } from "../names.js";
import { explain } from "../notice.js";
import { gamesHeld, profile, saveProfile } from "../storage.js";
import { closedToBrowsers } from "./create.js";

/** @param {HTMLElement} main */
export async function lobbyScreen(main) {
  const [games, auth] = await Promise.all([catalogGames(), serverAuth()]);
  /** @type {Map<string, string>} */
  const names = new Map(games.map((game) => [game.id, game.name]));
  const open = h("section", { "aria-labelledby": "open-games" }, h("h2", { id: "open-games" }, "Open games"), h("p", {}, "Loading…"));
  const mine = h("section", { "aria-labelledby": "your-games" }, h("h2", { id: "your-games" }, "Your games"));
  replace(
    main,
    h("h1", {}, "Play sushi card games"),
    profileForm(),
    h(
      "section",
      { "aria-labelledby": "new-game" },
      h("h2", { id: "new-game" }, auth === "keys" ? "The games" : "Start a game"),
      auth === "keys" ? closedToBrowsers() : null,
      h(
        "ul",
        { class: "tiles" },
        games.map((game) =>
          h(
            "li",
            { class: "tile" },
            h("h3", {}, game.name),
            h("p", {}, `${game.min_players}–${game.max_players} players · rules version ${game.rules_version}`),
            h(
              "p",
              { class: "links" },
              auth === "keys" ? null : h("a", { class: "button", href: `#/new/${game.id}` }, `New ${game.name} game`),
              auth === "keys" ? null : h("a", { href: `#/find/${game.id}` }, `Find a ${game.name} game`),
              h("a", { href: `#/stats/${game.id}` }, "Statistics"),
            ),
          ),
        ),
      ),
    ),
    open,
    mine,
  );
  yourGames(mine, names);
  openGames(open, names).catch((error) => replace(open, h("h2", { id: "open-games" }, "Open games"), h("p", { class: "problem", role: "alert" }, `The open games could not be read. ${explain(error)}`)));
}

function profileForm() {
  const me = profile();
  const name = h("input", { id: "profile-name", name: "name", value: me.name, maxlength: 100, autocomplete: "nickname", required: true });
  const player = h("input", { id: "profile-id", name: "player_id", value: me.player_id, maxlength: 200, required: true });
  const saved = h("span", { role: "status", class: "quiet" });
  const form = h(
    "form",
    {
      class: "profile",
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        saveProfile({ name: name.value.trim(), player_id: player.value.trim() });
        saved.textContent = "Saved.";
      },
    },
    h("h2", {}, "You"),
    h("label", { for: "profile-name" }, "Your name at the table"),
    name,
    h("label", { for: "profile-id" }, "Player id (your statistics and ratings are kept under it)"),
    player,
    h("p", { class: "links" }, h("button", { type: "submit" }, "Save"), h("a", { href: `#/players/${encodeURIComponent(me.player_id)}` }, "Your statistics"), saved),
  );
  return form;
}

/**
 * @param {HTMLElement} section
 * @param {Map<string, string>} names
 */
async function openGames(section, names) {
  const page = await api.matches({ status: "open", limit: 20 });
  const rows = page.items.map((game) => {
    const taken = game.seats.length;
    return h(
      "li",
      {},
      h("a", { href: `#/games/${game.id}/join/${taken}` }, `${names.get(game.game) ?? game.game}: ${taken} of ${game.players} seats taken (${game.seats.map(seatName).join(", ") || "nobody yet"}) — join`),
      h("span", { class: "quiet" }, ` created ${when(game.created_at)}`),
    );
  });
  replace(section, h("h2", { id: "open-games" }, "Open games"), rows.length ? h("ul", { class: "list" }, rows) : h("p", {}, "No game is waiting for players."));
}

/**
 * @param {HTMLElement} section
 * @param {Map<string, string>} names
 */
function yourGames(section, names) {
  const held = gamesHeld();
  const heading = h("h2", { id: "your-games" }, "Your games");
  if (!held.length) {
    replace(section, heading, h("p", {}, "Games you create or join appear here (this browser keeps their seats)."));
    return;
  }
  replace(
    section,
    heading,
    h("p", {}, h("a", { href: "#/games", id: "your-games-link" }, "Your games: whose turn it is, live")),
    h(
      "ul",
      { class: "list" },
      held.slice(0, 30).map((game) =>
        h(
          "li",
          {},
          h("a", { href: `#/games/${game.id}` }, `${names.get(game.game) ?? game.game}, seat ${game.seats.map((seat) => seat + 1).join(" and ")}`),
          h("span", { class: "quiet" }, ` since ${when(game.added)} · `),
          h("a", { href: `#/games/${game.id}/replay` }, "replay"),
        ),
      ),
    ),
  );
}
