// The page's router: each `#/...` address is one screen (screens/*.js). A screen draws into <main>
// and may return a function that stops what it started (a live stream, a timer).

import { serverAuth } from "./api.js";
import { h, replace } from "./dom.js";
import { unreadable } from "./notice.js";
import { createScreen } from "./screens/create.js";
import { findScreen } from "./screens/find.js";
import { historyScreen } from "./screens/history.js";
import { joinScreen } from "./screens/join.js";
import { lobbyScreen } from "./screens/lobby.js";
import { yourGamesScreen } from "./screens/mine.js";
import { playerScreen } from "./screens/player.js";
import { replayScreen } from "./screens/replay.js";
import { statsScreen } from "./screens/stats.js";
import { seatLinkScreen, tableScreen } from "./screens/table.js";

/** @typedef {(main: HTMLElement, ...params: string[]) => Promise<(() => void) | void>} Screen */

/** @type {[RegExp, Screen][]} */
const ROUTES = [
  [/^#?\/?$/, lobbyScreen],
  [/^#\/new\/([\w-]+)$/, createScreen],
  [/^#\/find\/([\w-]+)$/, findScreen],
  [/^#\/games$/, yourGamesScreen],
  [/^#\/games\/([\w-]+)\/join(?:\/(\d+))?(?:\?invitation=([^&]+))?$/, joinScreen],
  [/^#\/games\/([\w-]+)\/replay(?:\/(\d+))?$/, replayScreen],
  // A seat link an app hands out: the seat's token rides in the fragment, which no browser sends.
  [/^#\/games\/([\w-]+)\/seat\/(\d+)\?token=([^&]+)(?:&.*)?$/, seatLinkScreen],
  [/^#\/games\/([\w-]+)(?:\/seat\/(\d+)|\/(watch))?$/, tableScreen],
  [/^#\/history(?:\?(.*))?$/, historyScreen],
  [/^#\/stats(?:\/([\w-]+))?$/, statsScreen],
  [/^#\/players\/(.+)$/, playerScreen],
];

/** @type {(() => void) | void} */
let leave;
/** Counts navigations: a screen still loading when the next one starts is stopped as soon as it is ready. */
let navigation = 0;

/**
 * Draws the screen of the address.
 * @param {boolean} [moved] whether the player went to another screen (then the focus moves to its
 *   heading); on the page's first screen it stays at the top, where the first Tab finds "Skip to content"
 */
async function route(moved = false) {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const current = (navigation += 1);
  if (leave) leave();
  leave = undefined;
  const hash = location.hash || "#/";
  for (const [pattern, screen] of ROUTES) {
    const match = pattern.exec(hash);
    if (!match) continue;
    main.replaceChildren();
    try {
      const stop = await screen(main, ...match.slice(1).map((part) => (part === undefined ? "" : decodeURIComponent(part))));
      if (current === navigation) leave = stop;
      else if (stop) stop();
    } catch (error) {
      // Never a blank page: what could not be shown, in words, and a way on.
      const sentence = unreadable(error);
      if (current === navigation) {
        replace(
          main,
          h("h1", {}, sentence.title),
          h("p", { class: "unreadable", dataset: { zone: "unreadable" } }, sentence.text),
          h("p", { class: "links" }, h("button", { type: "button", onclick: () => route(true) }, "Try again"), h("a", { href: "#/" }, "Back to the lobby")),
        );
      }
    }
    if (current !== navigation) return;
    // Screen readers start reading the new screen at its heading.
    const heading = main.querySelector("h1");
    if (moved && heading instanceof HTMLElement) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    return;
  }
  location.hash = "#/";
}

window.addEventListener("hashchange", () => route(true));
// "Skip to content" moves the focus to the screen, not the address to "#main" (which is no screen).
document.querySelector("a.skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  const main = document.getElementById("main");
  const heading = main?.querySelector("h1");
  const target = heading instanceof HTMLElement ? heading : main;
  if (target) {
    target.tabIndex = -1;
    target.focus();
  }
});
// Whether this server lets a browser create games: asked once, while the first screen loads.
serverAuth();
route();
