// Telling the player that something went wrong: in words, next to what caused it (a form's button,
// the table), read out by screen readers, and cleared once it no longer holds.

import { ApiError } from "./api.js";
import { h } from "./dom.js";

/**
 * Whether a request failed before any answer came: the browser is offline or the server out of reach
 * (fetch rejects with a TypeError, "Failed to fetch").
 * @param {unknown} error
 */
export function unreachable(error) {
  return !(error instanceof ApiError) && error instanceof TypeError;
}

/**
 * Whether the same request may work if sent again later: no answer came, or the server was busy.
 * @param {unknown} error
 */
export function passing(error) {
  return unreachable(error) || (error instanceof ApiError && (error.status === 429 || error.status >= 500));
}

/**
 * What went wrong, in words a player reads (never "Failed to fetch" or a problem's code).
 * @param {unknown} error
 */
export function explain(error) {
  if (unreachable(error)) {
    return navigator.onLine === false
      ? "You are offline: this page tries again as soon as the connection is back."
      : "The server could not be reached: check your connection and try again.";
  }
  if (error instanceof ApiError) {
    if (error.status === 429) return "The server is busy with many requests: wait a moment and try again.";
    if (error.status >= 500) return "The server could not answer just now: try again in a moment.";
    if (error.status === 401) return "The code this browser holds for the game no longer works.";
    if (error.status === 403) return "That is not yours to do in this game.";
    if (error.status === 404) return "This game cannot be found (it does not exist, or it is private).";
    if (error.status === 409) return "The game moved on before this arrived: the table now shows where it is.";
    // The API's own sentence for a refused request (a bad option, a move that is not allowed).
    const said = error.message || error.problem.title || "The server refused this";
    return `${said[0].toUpperCase()}${said.slice(1)}${/[.!?]$/.test(said) ? "" : "."}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * A place for a problem, to put next to what may cause it: hidden until `show`, emptied by `clear`.
 * A problem of the connection clears itself once the browser is back online.
 */
export function problemSlot() {
  const element = h("p", { class: "problem", role: "alert", hidden: true, dataset: { zone: "problem" } });
  const clear = () => {
    element.textContent = "";
    element.hidden = true;
    delete element.dataset.kind;
    window.removeEventListener("online", clear);
  };
  /** @param {unknown} error */
  const show = (error) => {
    element.textContent = explain(error);
    element.hidden = false;
    element.dataset.kind = unreachable(error) ? "offline" : "refused";
    window.removeEventListener("online", clear);
    if (unreachable(error)) window.addEventListener("online", clear);
    // In view: a form scrolled past its top still shows what went wrong, beside its button.
    element.scrollIntoView({ block: "nearest" });
  };
  return { element, show, clear };
}

/**
 * What a screen shows in place of what it could not read: a plain sentence for a game that is not
 * found (or private, with no seat or invitation of it held here), a code that does not work, and a
 * server out of reach.
 * @param {unknown} error
 * @returns {{title: string, text: string}}
 */
export function unreadable(error) {
  if (error instanceof ApiError && (error.code === "game-not-found" || (error.status === 422 && error.problem.instance?.startsWith("/v1/games/")))) {
    return {
      title: "Game not found",
      text: "This game cannot be found: it does not exist, or it is private. A private game opens only with the seat link or invitation link its players were sent.",
    };
  }
  if (error instanceof ApiError && error.status === 404) return { title: "Not found", text: `This cannot be found (${error.message}).` };
  if (error instanceof ApiError && error.status === 401) {
    return {
      title: "This link does not work",
      text: "The seat or invitation code this link gave for the game does not work: it was revoked, is for another game, or was cut short. Ask whoever sent the link for a new one.",
    };
  }
  if (unreachable(error)) return { title: "Not connected", text: explain(error) };
  return { title: "This page could not be shown", text: explain(error) };
}
