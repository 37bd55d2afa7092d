// Match history: games newest first, filtered by game, status and player, a page at a time.

import { api } from "../api.js";
import { catalogGames } from "../catalog.js";
import { h, replace } from "../dom.js";
import { seatNames, when } from "../names.js";
import { problemSlot } from "../notice.js";

const PAGE = 20;
const STATUSES = ["open", "active", "finished", "abandoned"];

/**
 * @param {HTMLElement} main
 * @param {string} query `game=...&status=...&player_id=...`
 */
export async function historyScreen(main, query) {
  const filters = new URLSearchParams(query);
  const games = await catalogGames();
  /** @type {Map<string, string>} */
  const names = new Map(games.map((game) => [game.id, game.name]));
  const game = h("select", { id: "filter-game", name: "game" }, h("option", { value: "" }, "All games"), games.map((entry) => h("option", { value: entry.id, selected: filters.get("game") === entry.id }, entry.name)));
  const status = h("select", { id: "filter-status", name: "status" }, h("option", { value: "" }, "Any status"), STATUSES.map((value) => h("option", { value, selected: filters.get("status") === value }, value)));
  const player = h("input", { id: "filter-player", name: "player_id", value: filters.get("player_id") ?? "", maxlength: 200 });
  const list = h("ol", { class: "list matches" });
  const more = h("button", { type: "button", hidden: true }, "Older games");
  const problem = problemSlot();
  /** @type {string | null} */
  let cursor = null;
  let loaded = false;

  const load = async () => {
    // Past the last page there is nothing older: never ask for the first page again.
    if (loaded && cursor === null) return;
    const page = await api.matches({ game: filters.get("game") ?? "", status: filters.get("status") ?? "", player_id: filters.get("player_id") ?? "", limit: PAGE, cursor });
    list.append(...page.items.map((match) => matchItem(match, names)));
    cursor = page.next_cursor;
    loaded = true;
    more.hidden = cursor === null;
    if (!list.children.length) list.append(h("li", {}, "No game matches."));
  };
  more.addEventListener("click", () => {
    // One page at a time: a second click while the page loads would append it twice.
    more.disabled = true;
    problem.clear();
    load()
      .catch(problem.show)
      .finally(() => {
        more.disabled = false;
      });
  });

  replace(
    main,
    h("h1", {}, "Match history"),
    h(
      "form",
      {
        class: "filters",
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const chosen = new URLSearchParams();
          for (const [name, value] of [["game", game.value], ["status", status.value], ["player_id", player.value.trim()]]) if (value) chosen.set(name, value);
          location.hash = `#/history${chosen.size ? `?${chosen}` : ""}`;
        },
      },
      h("label", { for: "filter-game" }, "Game"),
      game,
      h("label", { for: "filter-status" }, "Status"),
      status,
      h("label", { for: "filter-player" }, "Player id"),
      player,
      h("button", { type: "submit" }, "Show"),
    ),
    list,
    more,
    problem.element,
  );
  await load();
}

/**
 * @param {import("../types.js").MatchSummary} match
 * @param {Map<string, string>} names
 */
function matchItem(match, names) {
  const seats = seatNames(match, match.players);
  const scores = match.scores ? match.scores.map((score) => `${seats[score.seat]} ${score.total}`).join(", ") : seats.join(", ");
  const winners = match.winners?.length ? ` · won by ${match.winners.map((seat) => seats[seat]).join(" and ")}` : "";
  return h(
    "li",
    { dataset: { game: match.id } },
    h("a", { href: `#/games/${match.id}` }, `${names.get(match.game) ?? match.game}, ${match.status}`),
    ` · ${scores}${winners} · ${when(match.finished_at ?? match.created_at)} · `,
    h("a", { href: `#/games/${match.id}/replay` }, "replay"),
  );
}
