// Joining a game by its share link: take the next open seat (seats are taken in order). A private
// game's links carry an invitation code (in the address's fragment, never sent to a server but in an
// Authorization header): it reads the game and seats a guest. On a server that needs app keys, a
// seat without an invitation is the app's to hand out (a seat link).

import { api, serverAuth } from "../api.js";
import { catalogGame } from "../catalog.js";
import { h, replace } from "../dom.js";
import { tableSize } from "../games/boards.js";
import { seatName } from "../names.js";
import { problemSlot } from "../notice.js";
import { holdInvitation, holdSeats, profile, saveProfile, seatsHeld } from "../storage.js";

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} seat the open seat the link was made for ("" for the next one)
 * @param {string} invitation the code of a private game's invitation ("" for none)
 */
export async function joinScreen(main, gameId, seat, invitation) {
  const code = invitation || null;
  const [table, auth] = await Promise.all([api.table(gameId, code), serverAuth()]);
  // Kept for a private game: with it this browser watches the game (its table, its replay).
  if (code && table.visibility === "private") holdInvitation(gameId, code);
  const [game, players] = await Promise.all([catalogGame(table.game), tableSize(table, () => api.events(gameId, code, 0, 1))]);
  const held = seatsHeld(gameId);
  const who = h("ul", { class: "list" }, table.seats.map((taken) => h("li", {}, `Seat ${taken.seat + 1}: ${seatName(taken)}`)));
  const watch = h("a", { href: `#/games/${gameId}` }, "Watch the game without a seat");
  if (table.status !== "open") {
    replace(
      main,
      h("h1", {}, `Join ${game.name}`),
      h("p", {}, `This game is ${table.status}: every seat is taken.`),
      who,
      h("p", {}, h("a", { class: "button", href: `#/games/${gameId}` }, held.length ? "Back to your seat" : "Watch it")),
    );
    return;
  }
  if (!code && auth === "keys") {
    replace(
      main,
      h("h1", {}, `Join ${game.name}`),
      h("p", { class: "closed" }, "This server needs an app key to seat people: the app that made this game hands out seat links (or invitation links). Open the link you were sent to play."),
      h("p", {}, `${table.seats.length} of ${players} seats are taken:`),
      who,
      h("p", { class: "links" }, watch),
    );
    return;
  }
  const me = profile();
  const problem = problemSlot();
  const name = h("input", { id: "join-name", value: me.name, required: true, maxlength: 100, autocomplete: "nickname" });
  const form = h(
    "form",
    {
      onsubmit: async (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        problem.clear();
        try {
          saveProfile({ ...me, name: name.value.trim() });
          // A guest, with an invitation: only the game's app names a player_id.
          const body = code ? { name: name.value.trim(), invitation: code } : { name: name.value.trim(), player_id: me.player_id };
          const granted = await api.takeSeat(gameId, body);
          if (granted.token) holdSeats(gameId, table.game, { [String(granted.seat)]: granted.token });
          location.hash = `#/games/${gameId}`;
        } catch (error) {
          problem.show(error);
        }
      },
      oninput: problem.clear,
    },
    h("p", {}, h("label", { for: "join-name" }, "Your name"), name),
    h("p", {}, h("button", { type: "submit", class: "primary" }, `Take seat ${Number(seat || table.seats.length) + 1}`)),
    problem.element,
  );
  replace(
    main,
    h("h1", {}, `Join ${game.name}`),
    h("p", {}, `${table.seats.length} of ${players} seats are taken:`),
    who,
    held.length ? h("p", {}, `You already hold seat ${held.map((entry) => entry.seat + 1).join(" and ")} here: joining again takes one more.`) : null,
    form,
    h("p", { class: "links" }, watch),
  );
}
