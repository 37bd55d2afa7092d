// One place to tell the player that something went wrong (read out by screen readers).

import { ApiError } from "./api.js";

/** @param {unknown} error */
export function explain(error) {
  if (error instanceof ApiError) return `${error.problem.title}: ${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** @param {unknown} error */
export function showProblem(error) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = explain(error);
  notice.hidden = false;
}

export function clearProblem() {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = "";
  notice.hidden = true;
}

/**
 * What a screen shows in place of what it could not read: a plain sentence for a game that is not
 * found (or private, with no seat or invitation of it held here) and for a code that does not work;
 * null for any other problem (told in the notice).
 * @param {unknown} error
 * @returns {{title: string, text: string} | null}
 */
export function unreadable(error) {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 404 && error.code === "game-not-found") {
    return {
      title: "Game not found",
      text: "This game cannot be found: it does not exist, or it is private. A private game opens only with the seat link or invitation link its players were sent.",
    };
  }
  if (error.status === 404) return { title: "Not found", text: `This cannot be found (${error.message}).` };
  if (error.status === 401) {
    return {
      title: "This link does not work",
      text: "The seat or invitation code this link gave for the game does not work: it was revoked, is for another game, or was cut short. Ask whoever sent the link for a new one.",
    };
  }
  return null;
}
