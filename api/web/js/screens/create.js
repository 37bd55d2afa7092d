// Creating a game: its size, who sits where (you, people on this device, bots, or seats left open
// for people to join by a link), and every option of the game. A server that needs app keys takes no
// game from a browser (which holds no key): the screen says so instead.

import { api, serverAuth } from "../api.js";
import { catalogGame, deckOf } from "../catalog.js";
import { h, replace } from "../dom.js";
import { menuBuilder, menuLine, suggestedMenus } from "../games/party-menus.js";
import { plainDescription } from "../names.js";
import { problemSlot } from "../notice.js";
import { holdSeats, profile } from "../storage.js";

/**
 * @typedef {{kind: "you" | "person" | "open" | "bot", bot?: string, name?: string}} SeatChoice
 */

const MENU_MODES = /** @type {Record<string, string>} */ ({
  random: "A suggested menu drawn at random",
  "first-player": "The first player picks a suggested menu",
  build: "The first player builds a menu",
  vote: "Everyone proposes menus and votes",
});

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 */
export async function createScreen(main, gameId) {
  const [game, deck, auth] = await Promise.all([catalogGame(gameId), deckOf(gameId), serverAuth()]);
  if (auth === "keys") {
    replace(main, h("h1", {}, `New game of ${game.name}`), closedToBrowsers(), h("p", { class: "links" }, h("a", { href: "#/" }, "Back to the lobby")));
    return;
  }
  const me = profile();
  /** @type {SeatChoice[]} */
  let seats = [];
  const count = h(
    "select",
    { id: "players", name: "players" },
    Array.from({ length: game.max_players - game.min_players + 1 }, (_, index) => {
      const players = game.min_players + index;
      return h("option", { value: players, selected: players === Math.max(game.min_players, 3) }, String(players));
    }),
  );
  const seatRows = h("ol", { class: "seats-form" });
  const options = h("div", { class: "options" });
  const seed = h("input", { id: "seed", name: "seed", type: "number", min: 0, inputmode: "numeric" });
  const privately = h("input", { id: "private", name: "private", type: "checkbox" });
  // Seconds per turn, and twice that as each seat's bank for the whole game.
  const clock = h(
    "select",
    { id: "clock", name: "clock" },
    [["", "No clock"], ["60", "1 minute a turn"], ["3600", "1 hour a turn"], ["86400", "1 day a turn"]].map(([value, label]) => h("option", { value }, label)),
  );
  const yourName = h("input", { id: "your-name", name: "your-name", value: me.name || "", required: true, maxlength: 100, autocomplete: "nickname" });
  /** @type {() => Record<string, unknown>} */
  let readOptions = () => ({});
  // Beside the button that sends the form; cleared as soon as the form changes.
  const problem = problemSlot();

  const resize = () => {
    const players = Number(count.value);
    seats = Array.from({ length: players }, (_, seat) => seats[seat] ?? (seat === 0 ? { kind: "you" } : { kind: "bot", bot: game.bots.at(-1)?.id }));
    drawSeats();
    readOptions = drawOptions(options, game.id, deck, players);
  };

  const drawSeats = () => {
    replace(
      seatRows,
      seats.map((choice, seat) => {
        const kind = h(
          "select",
          {
            id: `seat-${seat}`,
            "aria-label": `Seat ${seat + 1}`,
            onchange: (/** @type {Event} */ event) => {
              const value = /** @type {HTMLSelectElement} */ (event.target).value;
              seats[seat] = value.startsWith("bot:") ? { kind: "bot", bot: value.slice(4) } : { kind: /** @type {SeatChoice["kind"]} */ (value) };
              // Seats are taken in order, so the seats left open come after the ones filled now.
              seats = [...seats.filter((entry) => entry.kind !== "open"), ...seats.filter((entry) => entry.kind === "open")];
              drawSeats();
            },
          },
          h("option", { value: "you", selected: choice.kind === "you", disabled: choice.kind !== "you" && seats.some((entry) => entry.kind === "you") }, "You"),
          h("option", { value: "person", selected: choice.kind === "person" }, "Another person on this device"),
          h("option", { value: "open", selected: choice.kind === "open" }, "Open: invite someone with a link"),
          game.bots.map((bot) => h("option", { value: `bot:${bot.id}`, selected: choice.kind === "bot" && choice.bot === bot.id }, `${bot.name} bot`)),
        );
        const name =
          choice.kind === "person"
            ? h("input", {
                "aria-label": `Name at seat ${seat + 1}`,
                value: choice.name ?? `Player ${seat + 1}`,
                maxlength: 100,
                oninput: (/** @type {Event} */ event) => {
                  choice.name = /** @type {HTMLInputElement} */ (event.target).value;
                },
              })
            : null;
        return h("li", {}, h("label", { for: `seat-${seat}` }, `Seat ${seat + 1}`), kind, name);
      }),
    );
  };

  count.addEventListener("change", resize);
  const form = h(
    "form",
    {
      class: "create",
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
        button.disabled = true;
        problem.clear();
        try {
          const turnSeconds = Number(clock.value);
          const body = {
            game: game.id,
            players: seats.length,
            options: turnSeconds ? { ...readOptions(), clock: { turn_seconds: turnSeconds, bank_seconds: turnSeconds * 2 } } : readOptions(),
            seed: seed.value === "" ? null : Number(seed.value),
            visibility: privately.checked ? "private" : "public",
            seats: seats.filter((choice) => choice.kind !== "open").map((choice, seat) => seatRequest(choice, seat, yourName.value.trim(), me.player_id)),
          };
          const created = await api.create(body);
          holdSeats(created.id, created.game, created.tokens);
          location.hash = `#/games/${created.id}`;
        } catch (error) {
          problem.show(error);
          button.disabled = false;
        }
      },
      oninput: problem.clear,
      onchange: problem.clear,
    },
    h("p", {}, h("label", { for: "players" }, "Players"), count),
    h("p", {}, h("label", { for: "your-name" }, "Your name"), yourName),
    h(
      "fieldset",
      {},
      h("legend", {}, "Seats (taken in order; seats left open come last)"),
      seatRows,
      h("ul", { class: "quiet" }, game.bots.map((bot) => h("li", {}, `${bot.name} bot: ${plainDescription(bot.description)}`))),
    ),
    options,
    h("p", {}, h("label", { for: "private", class: "check" }, privately, "Private: not listed; open seats are taken only with an invitation link")),
    h("p", {}, h("label", { for: "clock" }, "Turn clock (when time runs out, the greedy bot moves for that seat)"), clock),
    h("details", {}, h("summary", {}, "Seed"), h("p", {}, h("label", { for: "seed" }, "A seed deals the same cards again (leave empty for a fresh deal)"), seed)),
    h("p", {}, h("button", { type: "submit", class: "primary" }, `Create the ${game.name} game`)),
    problem.element,
  );
  replace(main, h("h1", {}, `New game of ${game.name}`), form);
  resize();
}

/** Why a browser cannot create a game on a server that needs app keys, and how to play there. */
export function closedToBrowsers() {
  return h(
    "p",
    { class: "closed", dataset: { zone: "closed" } },
    "This server needs an app key to create games, and a browser holds none: an app creates the games and hands out seat links. Open the seat link you were sent to play.",
  );
}

/**
 * @param {SeatChoice} choice
 * @param {number} seat
 * @param {string} yourName
 * @param {string} playerId
 * @returns {import("../types.js").SeatRequest}
 */
function seatRequest(choice, seat, yourName, playerId) {
  if (choice.kind === "bot") return { bot: choice.bot };
  if (choice.kind === "you") return { name: yourName || "You", player_id: playerId };
  return { name: choice.name?.trim() || `Player ${seat + 1}` };
}

/**
 * Draws the game's own options and answers how to read them.
 * @param {HTMLElement} box
 * @param {string} gameId
 * @param {import("../catalog.js").Deck} deck
 * @param {number} players
 * @returns {() => Record<string, unknown>}
 */
function drawOptions(box, gameId, deck, players) {
  if (gameId === "sushi-go-party") return partyOptions(box, deck, players);
  if (gameId === "spin-some-for-dim-sum" || gameId === "dim-sum-derby") {
    const first = h(
      "select",
      { id: "first-player", name: "first_player" },
      Array.from({ length: players }, (_, seat) => h("option", { value: seat }, `Seat ${seat + 1}`)),
    );
    const question = gameId === "dim-sum-derby" ? "First player (whoever ate dim sum the longest ago)" : "First player (whoever ate dim sum most recently)";
    replace(box, h("fieldset", {}, h("legend", {}, "Options"), h("p", {}, h("label", { for: "first-player" }, question), first)));
    return () => ({ first_player: Number(first.value) });
  }
  replace(box);
  return () => ({});
}

/**
 * @param {HTMLElement} box
 * @param {import("../catalog.js").Deck} deck
 * @param {number} players
 */
function partyOptions(box, deck, players) {
  const builder = menuBuilder(deck, "custom-menu");
  builder.fields.hidden = true;
  const modes = deck.details.menu_modes ?? Object.keys(MENU_MODES);
  const menu = h(
    "select",
    {
      id: "menu",
      name: "menu",
      onchange: () => {
        builder.fields.hidden = menu.value !== "custom";
      },
    },
    h("optgroup", { label: "Chosen at the table" }, modes.map((mode) => h("option", { value: mode }, MENU_MODES[mode] ?? mode))),
    h("optgroup", { label: "Suggested menus" }, suggestedMenus(deck, players).map((entry) => h("option", { value: entry.id }, `${menuLine(entry, deck)} (${entry.description})`))),
    h("optgroup", { label: "Your own" }, h("option", { value: "custom" }, "A custom menu, built here")),
  );
  const bothWays = h("input", { type: "checkbox", id: "pass-both-ways", name: "pass_both_ways" });
  const twoPlayer = h("input", { type: "checkbox", id: "two-player-variant", name: "two_player_variant", disabled: players !== 2 });
  replace(
    box,
    h(
      "fieldset",
      {},
      h("legend", {}, "Options"),
      h("p", {}, h("label", { for: "menu" }, "Menu"), menu),
      builder.fields,
      h("p", {}, h("label", { for: "pass-both-ways", class: "check" }, bothWays, "Pass both ways (round 2 passes right)")),
      h("p", {}, h("label", { for: "two-player-variant", class: "check" }, twoPlayer, "Two-player variant (5 cards, then one drawn each turn)")),
    ),
  );
  return () => {
    /** @type {Record<string, unknown>} */
    const options = { pass_both_ways: bothWays.checked, two_player_variant: twoPlayer.checked && players === 2 };
    if (menu.value !== "custom") options.menu = menu.value;
    else {
      const custom = builder.read();
      if (!custom) throw new Error("A custom menu needs 3 appetizers and 2 specials.");
      options.menu = custom;
    }
    return options;
  };
}
