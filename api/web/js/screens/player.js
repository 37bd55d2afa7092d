// A player's statistics, per game, and their latest games.

import { api } from "../api.js";
import { catalogGames } from "../catalog.js";
import { h, replace } from "../dom.js";
import { table } from "./stats.js";

/**
 * @param {HTMLElement} main
 * @param {string} playerId
 */
export async function playerScreen(main, playerId) {
  const [stats, games] = await Promise.all([api.playerStats(playerId), catalogGames()]);
  /** @type {Map<string, string>} */
  const names = new Map(games.map((game) => [game.id, game.name]));
  replace(
    main,
    h("h1", {}, `Player ${playerId}`),
    stats.games.length
      ? table(
          ["Game", "Played", "Wins", "Win rate", "Average", "Best", "Rating"],
          stats.games.map((entry) => [
            names.get(entry.game) ?? entry.game,
            String(entry.played),
            String(entry.wins),
            `${(entry.win_rate * 100).toFixed(0)}%`,
            entry.mean_score.toFixed(1),
            String(entry.best_score),
            entry.rating.toFixed(2),
          ]),
        )
      : h("p", {}, "No finished game yet."),
    h("p", { class: "links" }, h("a", { href: `#/history?player_id=${encodeURIComponent(playerId)}` }, "Their games")),
  );
}
