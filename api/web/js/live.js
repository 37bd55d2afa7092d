// Live updates: the game's event stream as Server-Sent Events. An EventSource cannot send a credential,
// and a credential never goes in a URL, so a seat (or a spectator holding a private game's invitation
// code) follows the game with a single-use stream ticket (POST /stream-tickets). A ticket is spent by
// the request that opens the stream, so every reconnection asks for a fresh one and resumes after the
// last version received (`after`).

import { api } from "./api.js";

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 8000;

/**
 * An EventSource kept open until `stop()`: each connection asks `connect` for its URL (with a fresh
 * single-use ticket: the browser's own retry would send the spent one again), `listen` attaches the
 * handlers to it, and a failed connection is tried again with a doubling wait. `connect` may answer
 * null to give up for good; `wake` reconnects at once (the browser is back online).
 * @param {() => Promise<string | null>} connect
 * @param {(source: EventSource, stop: () => void) => void} listen
 * @param {(connected: boolean) => void} onStatus
 * @param {{first: number, last: number}} [retries] the first and the longest wait, in ms
 */
export function reconnecting(connect, listen, onStatus, retries = { first: FIRST_RETRY_MS, last: LAST_RETRY_MS }) {
  let stopped = false;
  let retry = retries.first;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  async function open() {
    if (stopped) return;
    let url;
    try {
      url = await connect();
    } catch {
      again();
      return;
    }
    if (stopped || url === null) return;
    source = new EventSource(url);
    source.onopen = () => {
      retry = retries.first;
      onStatus(true);
    };
    listen(source, stop);
    source.onerror = () => {
      source?.close();
      source = null;
      onStatus(false);
      again();
    };
  }

  function again() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      open();
    }, retry);
    retry = Math.min(retry * 2, retries.last);
  }

  function wake() {
    if (stopped || source || timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    retry = retries.first;
    open();
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  }

  open();
  return { stop, wake };
}

/**
 * Follow a game's events from `after` on until `stop()` or its GameFinished.
 * @param {string} gameId
 * @param {string | null} token the seat's token or an invitation code, or null to follow a public game as a spectator
 * @param {number} after the last version already known
 * @param {(event: import("./types.js").GameEvent) => void} onEvent
 * @param {(connected: boolean) => void} [onStatus]
 */
export function follow(gameId, token, after, onEvent, onStatus = () => {}) {
  let last = after;
  return reconnecting(
    async () =>
      token
        ? api.streamUrl(gameId, { ticket: (await api.streamTicket(gameId, token)).ticket, after: last })
        : api.streamUrl(gameId, { after: last }),
    (source, stop) => {
      source.onmessage = (message) => {
        /** @type {import("./types.js").GameEvent} */
        const event = JSON.parse(message.data);
        if (event.version <= last) return;
        last = event.version;
        onEvent(event);
        // The stream ends after GameFinished: close it here so the browser does not reconnect.
        if (event.type === "GameFinished") stop();
      };
    },
    onStatus,
  );
}
