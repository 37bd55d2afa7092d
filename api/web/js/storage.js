// What this browser remembers: the seat tokens it holds, per game, the invitation codes it was sent,
// and who is playing here. Tokens and codes stay in this browser's local storage and only ever travel
// in an Authorization header.

const GAMES_KEY = "kaiten.games";
const INVITATIONS_KEY = "kaiten.invitations";
const PROFILE_KEY = "kaiten.profile";

/**
 * @typedef {{game: string, seats: Record<string, string>, added: string}} HeldGame
 * @typedef {{name: string, player_id: string}} Profile
 */

/** @returns {Record<string, HeldGame>} */
function heldGames() {
  try {
    return JSON.parse(localStorage.getItem(GAMES_KEY) ?? "{}");
  } catch {
    return {};
  }
}

/**
 * Remember the tokens of seats taken here (added to those already held for that game).
 * @param {string} id
 * @param {string} game
 * @param {Record<string, string>} tokens seat number -> token
 */
export function holdSeats(id, game, tokens) {
  const all = heldGames();
  const held = all[id] ?? { game, seats: {}, added: new Date().toISOString() };
  held.seats = { ...held.seats, ...tokens };
  all[id] = held;
  localStorage.setItem(GAMES_KEY, JSON.stringify(all));
}

/**
 * The seats this browser holds in a game, lowest first.
 * @param {string} id
 * @returns {{seat: number, token: string}[]}
 */
export function seatsHeld(id) {
  const held = heldGames()[id];
  if (!held) return [];
  return Object.entries(held.seats)
    .map(([seat, token]) => ({ seat: Number(seat), token }))
    .sort((a, b) => a.seat - b.seat);
}

/**
 * Forget one seat held here in a game (given back): the game too when no other seat of it is held.
 * @param {string} id
 * @param {number} seat
 */
export function forgetSeat(id, seat) {
  const all = heldGames();
  const held = all[id];
  if (!held) return;
  delete held.seats[String(seat)];
  if (Object.keys(held.seats).length === 0) {
    forgetGame(id);
    return;
  }
  localStorage.setItem(GAMES_KEY, JSON.stringify(all));
}

/**
 * Forget a game: the seats held in it here and the invitation kept for it (their codes no longer work).
 * @param {string} id
 */
export function forgetGame(id) {
  const all = heldGames();
  delete all[id];
  localStorage.setItem(GAMES_KEY, JSON.stringify(all));
  const invitations = heldInvitations();
  delete invitations[id];
  localStorage.setItem(INVITATIONS_KEY, JSON.stringify(invitations));
}

/** @returns {{id: string, game: string, added: string, seats: number[]}[]} newest first */
export function gamesHeld() {
  return Object.entries(heldGames())
    .map(([id, held]) => ({ id, game: held.game, added: held.added, seats: Object.keys(held.seats).map(Number) }))
    .sort((a, b) => b.added.localeCompare(a.added));
}

/** @returns {Record<string, string>} game id -> invitation code */
function heldInvitations() {
  try {
    return JSON.parse(localStorage.getItem(INVITATIONS_KEY) ?? "{}");
  } catch {
    return {};
  }
}

/**
 * Remember the invitation code of a game's link: with it, this browser watches the game even when
 * it is private and no seat is held here.
 * @param {string} id
 * @param {string} code
 */
export function holdInvitation(id, code) {
  localStorage.setItem(INVITATIONS_KEY, JSON.stringify({ ...heldInvitations(), [id]: code }));
}

/**
 * The invitation code this browser was sent for a game, or null.
 * @param {string} id
 * @returns {string | null}
 */
export function invitationHeld(id) {
  return heldInvitations()[id] ?? null;
}

/** @returns {Profile} */
export function profile() {
  try {
    const stored = JSON.parse(localStorage.getItem(PROFILE_KEY) ?? "null");
    if (stored && typeof stored.name === "string" && typeof stored.player_id === "string") return stored;
  } catch {
    // A damaged entry is replaced below.
  }
  const fresh = { name: "", player_id: `web-${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}` };
  localStorage.setItem(PROFILE_KEY, JSON.stringify(fresh));
  return fresh;
}

/** @param {Profile} value */
export function saveProfile(value) {
  localStorage.setItem(PROFILE_KEY, JSON.stringify(value));
}
