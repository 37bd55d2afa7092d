// The page's router: each `#/...` address is one screen (screens/*.js). A screen draws into <main>
// and may return a function that stops what it started (a live stream, a timer).

import { clearProblem, showProblem } from "./notice.js";
import { createScreen } from "./screens/create.js";
import { historyScreen } from "./screens/history.js";
import { joinScreen } from "./screens/join.js";
import { lobbyScreen } from "./screens/lobby.js";
import { playerScreen } from "./screens/player.js";
import { replayScreen } from "./screens/replay.js";
import { statsScreen } from "./screens/stats.js";
import { tableScreen } from "./screens/table.js";

/** @typedef {(main: HTMLElement, ...params: string[]) => Promise<(() => void) | void>} Screen */

/** @type {[RegExp, Screen][]} */
const ROUTES = [
  [/^#?\/?$/, lobbyScreen],
  [/^#\/new\/([\w-]+)$/, createScreen],
  [/^#\/games\/([\w-]+)\/join(?:\/(\d+))?(?:\?invitation=([^&]+))?$/, joinScreen],
  [/^#\/games\/([\w-]+)\/replay(?:\/(\d+))?$/, replayScreen],
  [/^#\/games\/([\w-]+)(?:\/seat\/(\d+))?$/, tableScreen],
  [/^#\/history(?:\?(.*))?$/, historyScreen],
  [/^#\/stats(?:\/([\w-]+))?$/, statsScreen],
  [/^#\/players\/(.+)$/, playerScreen],
];

/** @type {(() => void) | void} */
let leave;
/** Counts navigations: a screen still loading when the next one starts is stopped as soon as it is ready. */
let navigation = 0;

async function route() {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const current = (navigation += 1);
  if (leave) leave();
  leave = undefined;
  clearProblem();
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
      if (current === navigation) showProblem(error);
    }
    if (current !== navigation) return;
    // Screen readers start reading the new screen at its heading.
    const heading = main.querySelector("h1");
    if (heading instanceof HTMLElement) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    return;
  }
  location.hash = "#/";
}

window.addEventListener("hashchange", route);
route();
