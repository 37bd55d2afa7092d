// A game's statistics and leaderboard (or, without a game, the list of games to choose from).

import { api } from "../api.js";
import { catalogGame, catalogGames, deckOf } from "../catalog.js";
import { barChart, columnChart } from "../charts.js";
import { h, replace } from "../dom.js";
import { slugWords } from "../names.js";

/** Pick rates shown in the chart: the most picked cards. */
const TOP_PICKS = 15;

/**
 * @param {HTMLElement} main
 * @param {string} gameId "" for the list of games
 */
export async function statsScreen(main, gameId) {
  if (!gameId) {
    const games = await catalogGames();
    replace(main, h("h1", {}, "Statistics"), h("ul", { class: "list" }, games.map((game) => h("li", {}, h("a", { href: `#/stats/${game.id}` }, game.name)))));
    return;
  }
  const [game, deck, stats, board] = await Promise.all([catalogGame(gameId), deckOf(gameId), api.gameStats(gameId), api.leaderboard(gameId, 20)]);
  const percent = (/** @type {number} */ share) => `${(share * 100).toFixed(1)}%`;
  const number = (/** @type {number | null} */ value) => (value === null ? "—" : value.toFixed(1));
  /** @param {string} slug */
  const cardName = (slug) => (deck.cards.has(slug) ? deck.name(slug) : deck.cards.has(`derby:${slug}`) ? deck.info(slug, "derby").name : slugWords(slug));
  replace(
    main,
    h("h1", {}, `${game.name}: statistics`),
    h(
      "dl",
      { class: "facts-list" },
      h("div", {}, h("dt", {}, "Finished games"), h("dd", {}, String(stats.games))),
      h("div", {}, h("dt", {}, "Seats played"), h("dd", {}, String(stats.player_games))),
      h("div", {}, h("dt", {}, "Average score"), h("dd", {}, number(stats.mean_score))),
      h("div", {}, h("dt", {}, "Average winning score"), h("dd", {}, number(stats.mean_winning_score))),
    ),
    stats.games === 0 ? h("p", {}, "No finished game yet: play one!") : null,
    h(
      "section",
      { "aria-labelledby": "distribution" },
      h("h2", { id: "distribution" }, "Final scores"),
      stats.score_distribution.length ? columnChart("Seats by final score", stats.score_distribution.map((entry) => ({ label: String(entry.score), value: entry.seats })), "seats") : h("p", {}, "None yet."),
    ),
    h(
      "section",
      { "aria-labelledby": "pick-rates" },
      h("h2", { id: "pick-rates" }, "Most picked cards"),
      stats.pick_rates.length
        ? barChart("Share of all picks", stats.pick_rates.slice(0, TOP_PICKS).map((entry) => ({ label: cardName(entry.slug), value: entry.pick_rate, text: percent(entry.pick_rate) })))
        : h("p", {}, "None yet."),
    ),
    h(
      "section",
      { "aria-labelledby": "categories" },
      h("h2", { id: "categories" }, "Points by category"),
      table(
        ["Category", "Points", "Per player and game"],
        stats.points_per_category.map((entry) => [slugWords(entry.category), String(entry.points), entry.mean_per_player.toFixed(2)]),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "seats" },
      h("h2", { id: "seats" }, "Wins by seat"),
      table(
        ["Table size", "Seat", "Games", "Wins", "Win rate"],
        stats.win_rate_by_seat.map((entry) => [String(entry.players), String(entry.seat + 1), String(entry.games), String(entry.wins), percent(entry.win_rate)]),
      ),
    ),
    h(
      "section",
      { "aria-labelledby": "leaderboard" },
      h("h2", { id: "leaderboard" }, "Leaderboard"),
      h("p", { class: "quiet" }, "Players ranked by rating; a game rates the players with a player id who met another one."),
      board.players.length
        ? table(
            ["Rank", "Player", "Rating", "Played", "Wins"],
            board.players.map((entry) => [String(entry.rank), h("a", { href: `#/players/${encodeURIComponent(entry.player_id)}` }, entry.name ?? entry.player_id), entry.rating.toFixed(2), String(entry.played), String(entry.wins)]),
          )
        : h("p", {}, "Nobody is rated yet."),
    ),
    h("p", { class: "links" }, h("a", { href: `#/history?game=${gameId}` }, "Match history"), h("a", { href: `#/new/${gameId}` }, "Start a game")),
  );
}

/**
 * A plain table: one header row, then the rows.
 * @param {string[]} columns
 * @param {(string | Node)[][]} rows
 */
export function table(columns, rows) {
  if (!rows.length) return h("p", {}, "None yet.");
  return h(
    "div",
    { class: "scroll" },
    h("table", {}, h("thead", {}, h("tr", {}, columns.map((column) => h("th", { scope: "col" }, column)))), h("tbody", {}, rows.map((row) => h("tr", {}, row.map((cell) => h("td", {}, cell)))))),
  );
}
