// How seats, games and events are named on screen. Seats are numbered from 1 for people (the API
// numbers them from 0).

/** Each bot's name by its id ("mcts:strong" -> "MCTS (strong)"), learnt from the catalog (catalog.js). */
const BOT_NAMES = new Map();

/** @param {{id: string, name: string}[]} bots */
export function learnBotNames(bots) {
  for (const bot of bots) BOT_NAMES.set(bot.id, bot.name);
}

/** A bot's name: the catalog's, else its id in words ("mcts:strong" -> "Mcts strong"). @param {string} id */
export function botName(id) {
  return BOT_NAMES.get(id) ?? slugWords(id.replace(/[:_]/g, " "));
}

/**
 * A bot's description for a player: the catalog's first paragraph of its docstring, without the
 * asides that name code ("(its `cpu_ms`)") or code's marks.
 * @param {string} text
 */
export function plainDescription(text) {
  return text
    .replace(/\s*\([^()]*`[^()]*\)/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .trim();
}

/** "1 point", "0 points", "12 points" @param {number} count */
export function points(count) {
  return `${count} ${count === 1 ? "point" : "points"}`;
}

/** @param {import("./types.js").Seat} seat */
export function seatName(seat) {
  if (seat.name && seat.resigned) return `${seat.name} (resigned; ${seat.taken_over_by ? `the ${botName(seat.taken_over_by)}` : "a"} bot plays)`;
  if (seat.name) return seat.name;
  if (seat.bot) return `${botName(seat.bot)} bot ${seat.seat + 1}`;
  return `Seat ${seat.seat + 1} (open)`;
}

/**
 * Names for every seat of a table, open seats included.
 * @param {{seats: import("./types.js").Seat[]}} table
 * @param {number} players
 */
export function seatNames(table, players) {
  const names = [];
  for (let seat = 0; seat < players; seat += 1) {
    const taken = table.seats.find((entry) => entry.seat === seat);
    names.push(taken ? seatName(taken) : `Seat ${seat + 1} (open)`);
  }
  return names;
}

/** "CardsRevealed" -> "Cards revealed" @param {string} type */
export function words(type) {
  const spaced = type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced[0].toUpperCase() + spaced.slice(1);
}

/**
 * One line about an event for the logs: its type, and the seat it concerns.
 * @param {import("./types.js").GameEvent} event
 * @param {string[]} names
 */
export function describeEvent(event, names) {
  const data = /** @type {Record<string, unknown>} */ (event.data);
  const seat = typeof data.seat === "number" ? names[data.seat] ?? `Seat ${data.seat + 1}` : null;
  return `${words(event.type)}${seat ? `: ${seat}` : ""}`;
}

/** "green-tea-ice-cream" -> "Green tea ice cream" @param {string} slug */
export function slugWords(slug) {
  const spaced = slug.replace(/-/g, " ");
  return spaced[0].toUpperCase() + spaced.slice(1);
}

/** @param {string} iso */
export function when(iso) {
  return new Date(iso).toLocaleString();
}
