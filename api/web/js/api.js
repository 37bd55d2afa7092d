// kaiten's public REST API, as any app would call it. The page talks to the server it came from,
// or to the one named by `?api=http://host:port` (a client served from another origin, with that
// origin listed in the server's KAITEN_CORS_ORIGINS).

/** @typedef {import("./types.js").Problem} Problem */

export const API_BASE = (new URLSearchParams(location.search).get("api") ?? "").replace(/\/$/, "");

/** A refusal of the API: its problem+json answer, whose `code` says what went wrong. */
export class ApiError extends Error {
  /** @param {Problem} problem */
  constructor(problem) {
    super(problem.detail || problem.title);
    this.problem = problem;
    this.code = problem.code;
    this.status = problem.status;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{token?: string | null, body?: unknown, headers?: Record<string, string>}} [options]
 * @returns {Promise<any>} the JSON answer, or null for 204
 */
async function call(method, path, { token, body, headers = {} } = {}) {
  /** @type {Record<string, string>} */
  const sent = { accept: "application/json", ...headers };
  if (token) sent.authorization = `Bearer ${token}`;
  if (body !== undefined) sent["content-type"] = "application/json";
  const answer = await fetch(API_BASE + path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    // Every read must show the game as it is now, never a copy the browser kept.
    cache: "no-store",
  });
  if (answer.status === 204) return null;
  const json = await answer.json().catch(() => null);
  if (!answer.ok) {
    throw new ApiError(
      json && typeof json.code === "string"
        ? json
        : { type: "about:blank", title: answer.statusText, status: answer.status, detail: "", code: "http-error", instance: path },
    );
  }
  return json;
}

/**
 * A fresh key per command: the same command sent again with its key (after a lost answer, or while
 * offline) answers the first answer and is never played twice.
 */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** @param {Record<string, string | number | null | undefined>} query */
function search(query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== null && value !== undefined && value !== "") params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

const games = "/v1/games";
/** @param {string} id */
const game = (id) => `${games}/${encodeURIComponent(id)}`;

export const api = {
  /** @returns {Promise<import("./types.js").Health>} */
  ready: () => call("GET", "/ready"),
  /** @returns {Promise<import("./types.js").Schemas["Catalog"]>} */
  catalog: () => call("GET", "/v1/catalog"),
  /** @param {string} id @returns {Promise<import("./types.js").CatalogEntry>} */
  catalogGame: (id) => call("GET", `/v1/catalog/${encodeURIComponent(id)}`),
  /** @param {unknown} body @returns {Promise<import("./types.js").CreatedGame>} */
  create: (body) => call("POST", games, { body }),
  /** @param {string} id @param {import("./types.js").TakeSeatRequest} body @returns {Promise<import("./types.js").SeatGranted>} */
  takeSeat: (id, body) => call("POST", `${game(id)}/seats`, { body }),
  /** Gives the token's seat back while the game waits for players. @param {string} id @param {string} token @returns {Promise<null>} */
  leave: (id, token) => call("POST", `${game(id)}/leave`, { token }),
  /** @param {string} id @param {string} token @returns {Promise<import("./types.js").Invitation>} */
  invite: (id, token) => call("POST", `${game(id)}/invitations`, { token }),
  /** @param {string} id @param {string} token @returns {Promise<import("./types.js").CreatedGame>} */
  rematch: (id, token) => call("POST", `${game(id)}/rematch`, { token }),
  /** @param {string} id @param {string | null} token @returns {Promise<import("./types.js").TableView>} */
  table: (id, token) => call("GET", game(id), { token }),
  /** @param {string} id @param {string} token @returns {Promise<import("./types.js").LegalCommands>} */
  legal: (id, token) => call("GET", `${game(id)}/legal-commands`, { token }),
  /** @param {string} id @param {string} token @param {import("./types.js").Command} command @param {string} [key] the command's idempotency key, the same for each try */
  send: (id, token, command, key = idempotencyKey()) => call("POST", `${game(id)}/commands`, { token, body: command, headers: { "idempotency-key": key } }),
  /** @param {string} id @param {string} token @param {string} [key] the same for each try */
  resign: (id, token, key = idempotencyKey()) => call("POST", `${game(id)}/resign`, { token, headers: { "idempotency-key": key } }),
  /** @param {string} id @param {string | null} token @param {number} after @param {number} [limit] @returns {Promise<import("./types.js").EventPage>} */
  events: (id, token, after, limit = 500) => call("GET", `${game(id)}/events${search({ after, limit })}`, { token }),
  /** @param {string} id @param {string | null} token @param {number} at @param {number | null} [asSeat] @returns {Promise<import("./types.js").TableView>} */
  replay: (id, token, at, asSeat = null) => call("GET", `${game(id)}/replay${search({ at, as_seat: asSeat })}`, { token }),
  /** @param {string} id @param {string} token @returns {Promise<import("./types.js").StreamTicket>} */
  streamTicket: (id, token) => call("POST", `${game(id)}/stream-tickets`, { token }),
  /** @param {string} id @param {{after?: number, ticket?: string}} query */
  streamUrl: (id, query) => `${API_BASE}${game(id)}/events/stream${search(query)}`,
  /** @param {{game?: string, status?: string, player_id?: string, limit?: number, cursor?: string | null}} query @returns {Promise<import("./types.js").MatchPage>} */
  matches: (query) => call("GET", `${games}${search(query)}`),
  /** @param {string} playerId @returns {Promise<import("./types.js").PlayerStats>} */
  playerStats: (playerId) => call("GET", `/v1/players/${encodeURIComponent(playerId)}/stats`),
  /** @param {string} id @returns {Promise<import("./types.js").GameStats>} */
  gameStats: (id) => call("GET", `/v1/stats/${encodeURIComponent(id)}`),
  /** @param {string} id @param {import("./types.js").JoinQueueRequest} body @param {string} key the same for each try @returns {Promise<import("./types.js").QueueEntry>} */
  joinQueue: (id, body, key) => call("POST", `/v1/queues/${encodeURIComponent(id)}/entries`, { body, headers: { "idempotency-key": key } }),
  /** @param {string} id @param {string} entry @returns {Promise<import("./types.js").QueueEntry>} */
  queueEntry: (id, entry) => call("GET", `/v1/queues/${encodeURIComponent(id)}/entries/${encodeURIComponent(entry)}`),
  /** @param {string} id @param {string} entry @returns {Promise<null>} */
  leaveQueue: (id, entry) => call("DELETE", `/v1/queues/${encodeURIComponent(id)}/entries/${encodeURIComponent(entry)}`),
  /** A player token for this browser's player (on an open server nobody needs a key for it). @param {string} playerId @returns {Promise<import("./types.js").PlayerToken>} */
  playerToken: (playerId) => call("POST", `/v1/players/${encodeURIComponent(playerId)}/tokens`, { body: {} }),
  /** @param {string} playerId @param {string} token a player token @returns {Promise<import("./types.js").StreamTicket>} */
  playerStreamTicket: (playerId, token) => call("POST", `/v1/players/${encodeURIComponent(playerId)}/stream-tickets`, { token }),
  /** @param {string} playerId @param {{after?: number, ticket?: string}} query */
  playerStreamUrl: (playerId, query) => `${API_BASE}/v1/players/${encodeURIComponent(playerId)}/stream${search(query)}`,
  /** @param {string} id @param {number} limit @returns {Promise<import("./types.js").Leaderboard>} */
  leaderboard: (id, limit) => call("GET", `/v1/leaderboard/${encodeURIComponent(id)}${search({ limit })}`),
};

/** @type {Promise<"open" | "keys"> | undefined} */
let auth;

/**
 * Whether a browser, which holds no app key, may create games and take seats on this server ("open")
 * or not ("keys": an app creates the games and hands out seat links). Asked once (`GET /ready`); a
 * server that does not say is open, and a failed answer is asked again by the next screen.
 * @returns {Promise<"open" | "keys">}
 */
export function serverAuth() {
  auth ??= api.ready().then(
    (health) => (health.auth === "keys" ? "keys" : "open"),
    () => {
      auth = undefined;
      return "open";
    },
  );
  return auth;
}
