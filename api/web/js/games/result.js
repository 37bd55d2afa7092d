// The final result of any game: the ranking, the winners, and each seat's total by scoring category.

import { h } from "../dom.js";
import { points, slugWords } from "../names.js";

/**
 * @param {import("../types.js").Result} result
 * @param {string[]} names
 */
export function resultPanel(result, names) {
  const winners = result.winners.map((seat) => names[seat]);
  return h(
    "section",
    { class: "result", "aria-labelledby": "result-title", dataset: { zone: "result" } },
    h("h2", { id: "result-title" }, "Result"),
    h("p", { class: "winners" }, winners.length > 1 ? `Shared victory: ${winners.join(" and ")}` : `${winners[0]} wins`),
    h(
      "ol",
      { class: "ranking" },
      result.ranking.map((seat) => {
        const score = result.scores.find((entry) => entry.seat === seat);
        const lines = Object.entries(score?.breakdown ?? {}).filter(([, points]) => points !== undefined);
        return h(
          "li",
          { dataset: { seat: String(seat), total: String(score?.total ?? 0) } },
          h("strong", {}, `${names[seat]}: ${points(score?.total ?? 0)}`),
          h("dl", { class: "breakdown" }, lines.map(([category, points]) => h("div", {}, h("dt", {}, slugWords(category)), h("dd", {}, String(points))))),
        );
      }),
    ),
  );
}
