// Replay: step or slide through a game's versions; the table right after version N is the API's
// replay?at=N (as this browser's seat saw it then, or as a spectator), beside the event list. Once the
// game is over, it can be seen as any seat saw it (replay?as_seat=S): that seat's hand at each version.

import { api } from "../api.js";
import { catalogGame, deckOf } from "../catalog.js";
import { h, replace } from "../dom.js";
import { BOARDS, tableSize } from "../games/boards.js";
import { resultPanel } from "../games/result.js";
import { describeEvent, seatNames } from "../names.js";
import { problemSlot } from "../notice.js";
import { invitationHeld, seatsHeld } from "../storage.js";

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} at the version to show first ("" for the last)
 */
export async function replayScreen(main, gameId, at) {
  // A seat held here, else the invitation code of a link opened here (a private game shows to either).
  const token = seatsHeld(gameId)[0]?.token ?? invitationHeld(gameId);
  const events = await allEvents(gameId, token);
  const last = events.at(-1)?.version ?? 1;
  const latest = await api.table(gameId, token);
  const [game, deck, players] = await Promise.all([catalogGame(latest.game), deckOf(latest.game), tableSize(latest, async () => ({ events: events.slice(0, 1) }))]);
  const names = seatNames(latest, players);
  let version = Math.min(Math.max(Number(at) || last, 1), last);
  let shown = 0;
  const over = latest.status === "finished" || latest.status === "abandoned";
  /** @type {number | null} the seat whose view is shown (a game that is over), else this browser's */
  let asSeat = null;
  const seatChoice = over
    ? h(
        "select",
        {
          id: "replay-seat",
          onchange: (/** @type {Event} */ event) => {
            const value = /** @type {HTMLSelectElement} */ (event.target).value;
            asSeat = value === "" ? null : Number(value);
            show();
          },
        },
        h("option", { value: "" }, "A spectator"),
        names.map((name, seat) => h("option", { value: String(seat) }, name)),
      )
    : null;

  const slider = h("input", { type: "range", id: "replay-version", min: 1, max: last, value: version, step: 1, "aria-valuetext": "" });
  const label = h("label", { for: "replay-version" }, "Version");
  const stage = h("section", { class: "table replay-board", "aria-live": "polite", "aria-busy": "true" });
  const list = h("ol", { class: "events" });
  const problem = problemSlot();
  /** @param {number} next */
  const go = (next) => {
    version = Math.min(Math.max(next, 1), last);
    slider.value = String(version);
    show();
  };
  // The arrows are drawn, not read: each button's name starts with its word ("First version").
  const step = (/** @type {string} */ text, /** @type {() => number} */ target, /** @type {string} */ name) => {
    const [before, word, after] = /** @type {[string, string, string]} */ (text.match(/^([«‹]?\s*)(\w+)(\s*[›»]?)$/)?.slice(1) ?? ["", text, ""]);
    return h("button", { type: "button", "aria-label": name, onclick: () => go(target()) }, before ? h("span", { "aria-hidden": "true" }, before) : null, word, after ? h("span", { "aria-hidden": "true" }, after) : null);
  };

  const show = async () => {
    const wanted = version;
    const event = events.find((entry) => entry.version === wanted);
    slider.setAttribute("aria-valuetext", `Version ${wanted} of ${last}${event ? `: ${describeEvent(event, names)}` : ""}`);
    label.textContent = `Version ${wanted} of ${last}`;
    for (const item of list.children) {
      const current = item instanceof HTMLElement && item.dataset.version === String(wanted);
      if (current) {
        item.setAttribute("aria-current", "step");
        // Scrolls the list alone (scrollIntoView would move the whole page on a phone).
        const box = item.closest(".event-list");
        if (box && item instanceof HTMLElement) box.scrollTop = item.offsetTop - box.clientHeight / 2;
      }
      else item.removeAttribute("aria-current");
    }
    stage.setAttribute("aria-busy", "true");
    const seat = asSeat;
    try {
      const table = await api.replay(gameId, token, wanted, seat);
      problem.clear();
      // A slower answer for a version (or seat) the controls already left is not shown.
      if (wanted !== version || seat !== asSeat) return;
      shown = wanted;
      stage.dataset.version = String(shown);
      stage.dataset.seat = seat === null ? "" : String(seat);
      const board = BOARDS[table.game];
      const view = table.state ? board({ view: table.state, table, deck, names, seat: table.viewer.seat ?? null, commands: [], send: () => {}, ui: {}, redraw: () => {} }) : [h("p", {}, "The game has not started at this version.")];
      replace(stage, view, table.result ? resultPanel(/** @type {import("../types.js").Result} */ (table.result), names) : null);
      stage.setAttribute("aria-busy", "false");
    } catch (error) {
      problem.show(error);
    }
  };

  slider.addEventListener("input", () => go(Number(slider.value)));
  replace(
    list,
    events.map((event) =>
      h("li", { dataset: { version: String(event.version) } }, h("button", { type: "button", class: "link", onclick: () => go(event.version) }, `${event.version}. ${describeEvent(event, names)}`)),
    ),
  );
  replace(
    main,
    h("h1", {}, `Replay of ${game.name}`),
    h("p", {}, over ? "This game is over: everything is public now. See the table as any seat saw it:" : "A game still being played: you see what your seat saw at each version."),
    seatChoice ? h("p", {}, h("label", { for: "replay-seat" }, "See the table as "), seatChoice) : null,
    h(
      "div",
      { class: "replay-controls" },
      label,
      slider,
      h(
        "div",
        { class: "choices", role: "group", "aria-label": "Step" },
        step("« First", () => 1, "First version"),
        step("‹ Previous", () => version - 1, "Previous version"),
        step("Next ›", () => version + 1, "Next version"),
        step("Last »", () => last, "Last version"),
      ),
    ),
    problem.element,
    h("div", { class: "replay" }, stage, h("section", { class: "event-list", "aria-label": "Events" }, h("h2", {}, "Events"), list)),
    h("p", { class: "links" }, h("a", { href: `#/games/${gameId}` }, "Back to the table")),
  );
  await show();
}

/**
 * The whole log as this browser may see it, page after page.
 * @param {string} gameId
 * @param {string | null} token
 */
async function allEvents(gameId, token) {
  /** @type {import("../types.js").GameEvent[]} */
  const events = [];
  for (;;) {
    const page = await api.events(gameId, token, events.at(-1)?.version ?? 0);
    events.push(...page.events);
    if (!page.events.length || events.at(-1)?.version === page.last_version) return events;
  }
}
