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
