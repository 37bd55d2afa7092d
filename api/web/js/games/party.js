// Sushi Go Party!: choosing the menu (first player, build, vote), the hidden pick with a call of
// chopsticks or a spoon, the bonus actions of the reveal (chopsticks, spoon, menu, special order,
// takeout box), everyone's tableau and fridge, the uramaki race and the scores.

import { h } from "../dom.js";
import { cardFace } from "../faces.js";
import { buttons, cardRow, emptyTableau, roundScores, seatTitle, zone } from "./common.js";
import { menuBuilder, menuLine, typeName } from "./party-menus.js";

/**
 * @typedef {import("../types.js").Schemas["PartyView"]} PartyView
 * @typedef {import("./common.js").Board<PartyView>} PartyBoard
 * @typedef {import("../types.js").Schemas["PartyTableauCard"]} TableauCard
 */

/** What a seat asked by a bonus action is deciding. */
const PROMPTS = /** @type {Record<string, string>} */ ({
  copy: "choosing what the special order copies",
  chopsticks: "playing a second card with chopsticks",
  spoon: "naming a card for the spoon",
  give: "choosing which card to give to the spoon",
  menu: "ordering one card from the menu",
  flip: "choosing cards to flip with the takeout box",
});

/** @param {PartyBoard} board */
export function partyBoard(board) {
  const view = board.view;
  const rounds = board.deck.details.rounds ?? 3;
  return [
    h(
      "p",
      { class: "facts" },
      view.phase === "select"
        ? "Choosing the menu"
        : `Round ${view.round} of ${rounds} · turn ${view.turn} · hands pass ${view.passing} · ${view.deck_size} cards in the deck · ${view.dessert_pile_size} desserts left`,
    ),
    view.menu ? menuZone(board, view.menu) : null,
    view.phase === "select" ? selection(board) : null,
    view.phase === "pick" && board.seat !== null ? hand(board) : null,
    view.phase === "resolve" ? bonusAction(board) : null,
    view.phase === "resolve" && board.seat !== null && view.hand ? zone("Your hand", { zone: "hand" }, cardRow(plainFaces(board, view.hand))) : null,
    view.menu?.roll === "uramaki" ? uramaki(board) : null,
    h(
      "div",
      { class: "players" },
      view.tableaus.map((cards, seat) =>
        zone(
          seatTitle(board, seat, view.totals[seat]),
          { zone: "tableau", seat: String(seat) },
          cardRow(cards.map((entry) => tableauFace(board, entry)), emptyTableau(board)),
          view.fridges[seat].length
            ? h("div", { class: "fridge" }, h("h3", {}, "Fridge (desserts kept)"), cardRow(view.fridges[seat].map((entry) => cardFace(board.deck.info(entry.scores_as), { id: entry.card.id, small: true }))))
            : null,
        ),
      ),
    ),
    roundScores(board, view.scored, rounds),
  ];
}

/**
 * @param {PartyBoard} board
 * @param {import("../types.js").Card[]} cards
 */
function plainFaces(board, cards) {
  return cards.map((card) => cardFace(board.deck.info(card.slug), { id: card.id }));
}

/**
 * A tableau card as it scores: a special order's copy shows the copied card, a flipped card its back.
 * @param {PartyBoard} board
 * @param {TableauCard} entry
 */
function tableauFace(board, entry) {
  const notes = [];
  if (entry.scores_as === "face-down") notes.push("flipped by a takeout box");
  else if (entry.scores_as !== entry.card.slug) notes.push(`a ${board.deck.name(entry.card.slug)} copying it`);
  if (entry.wasabi >= 0) notes.push("on a wasabi");
  return cardFace(board.deck.info(entry.scores_as), { id: entry.card.id, note: notes.join(", ") || undefined });
}

/**
 * The menu of this game, with every card it brings and how each scores.
 * @param {PartyBoard} board
 * @param {import("../types.js").Schemas["PartyMenuSpec"]} menu
 */
function menuZone(board, menu) {
  const types = new Set(["nigiri", menu.roll, ...menu.appetizers, ...menu.specials, menu.dessert]);
  const cards = (board.deck.details.cards ?? []).filter((card) => types.has(card.type ?? ""));
  return h(
    "details",
    { class: "menu" },
    h("summary", {}, menuLine(menu, board.deck)),
    cardRow(cards.map((card) => cardFace(board.deck.info(card.slug), { small: false }))),
  );
}

/**
 * Choosing the menu before play: a suggested menu or a custom one, or a vote on a proposal.
 * @param {PartyBoard} board
 */
function selection(board) {
  const chosen = board.view.selection;
  if (!chosen) return null;
  const choose = board.commands.filter((command) => command.type === "choose-menu" || command.type === "propose-menu");
  const votes = board.commands.filter((command) => command.type === "vote");
  const type = choose[0]?.type;
  const proposal = chosen.proposals?.at(-1);
  const parts = [];
  if (chosen.mode === "vote") {
    parts.push(h("p", {}, `${board.names[chosen.proposer ?? 0]} proposes a menu; everyone votes on it.`));
    if (proposal) parts.push(h("p", {}, `Proposed: ${menuLine(proposal, board.deck)}`));
    const voted = (chosen.votes ?? []).map((vote, seat) => (vote >= 0 ? board.names[seat] : null)).filter(Boolean);
    if (voted.length) parts.push(h("p", {}, `Voted so far: ${voted.join(", ")}.`));
  } else {
    parts.push(h("p", {}, `${board.names[board.table.awaiting[0] ?? 0]} ${chosen.mode === "build" ? "builds the menu" : "picks a suggested menu"}.`));
  }
  if (type) {
    const verb = type === "choose-menu" ? "Choose" : "Propose";
    const suggested = choose.filter((command) => typeof command.menu === "string");
    parts.push(
      buttons(
        `${verb} a suggested menu`,
        suggested.map((command) => {
          const menu = (board.deck.details.menus ?? []).find((entry) => entry.id === command.menu);
          return { label: `${verb} ${menu ? menuLine(menu, board.deck) : command.menu}`, command: type, onclick: () => board.send(command) };
        }),
      ),
    );
    if (chosen.mode !== "first-player") {
      // Kept across redraws (live updates redraw the board): the player's half-built menu stays.
      /** @type {ReturnType<typeof menuBuilder>} */
      const builder = (board.ui.builder ??= menuBuilder(board.deck, "table-menu"));
      parts.push(
        h(
          "form",
          {
            class: "menu-form",
            onsubmit: (/** @type {SubmitEvent} */ event) => {
              event.preventDefault();
              const menu = builder.read();
              if (menu) board.send({ type, menu });
            },
          },
          h("h3", {}, `Or ${verb.toLowerCase()} a menu of your own`),
          builder.fields,
          h("button", { type: "submit" }, `${verb} this menu`),
        ),
      );
    }
  }
  if (votes.length) {
    parts.push(
      buttons(
        "Your vote",
        votes.map((command) => ({ label: command.approve ? "Approve" : "Disapprove", command: "vote", onclick: () => board.send(command) })),
      ),
    );
  }
  return zone("The menu", { zone: "selection" }, ...parts);
}

/**
 * The hidden pick: a card from the hand, maybe calling chopsticks or a spoon of the tableau.
 * @param {PartyBoard} board
 */
function hand(board) {
  const view = board.view;
  const picks = board.commands.filter((command) => command.type === "pick");
  /** @type {number[]} */
  const calls = [...new Set(picks.map((pick) => pick.call).filter((call) => call !== null && call !== undefined))];
  /** @type {number | null} */
  const call = calls.includes(board.ui.call) ? board.ui.call : null;
  const own = board.seat === null ? [] : view.tableaus[board.seat];
  /** @param {number} id */
  const calledName = (id) => board.deck.name(own.find((entry) => entry.card.id === id)?.card.slug ?? "");
  const cards = (view.hand ?? []).map((card) => {
    const pick = picks.find((command) => command.card === card.id && (command.call ?? null) === call);
    return cardFace(board.deck.info(card.slug), {
      id: card.id,
      focus: `hand-${card.id}`,
      command: "pick",
      label: `Play ${board.deck.name(card.slug)}${call === null ? "" : ` and call ${calledName(call)}`}`,
      onclick: pick ? () => board.send(pick) : undefined,
    });
  });
  return zone(
    "Your hand",
    { zone: "hand" },
    calls.length
      ? buttons("Call at the reveal", [
          { label: "Call nothing", pressed: call === null, focus: "call-none", onclick: () => redrawWith(board, "call", null) },
          ...calls.map((id) => ({ label: `Call ${calledName(id)}`, pressed: call === id, focus: `call-${id}`, onclick: () => redrawWith(board, "call", id) })),
        ])
      : null,
    view.pick ? h("p", {}, `Your pick, hidden until everyone has picked: ${board.deck.name(view.pick.slug)}${view.call ? `, calling ${board.deck.name(view.call.slug)}` : ""}.`) : null,
    cardRow(cards, "Your hand is empty."),
  );
}

/**
 * @param {PartyBoard} board
 * @param {string} key
 * @param {unknown} value
 */
function redrawWith(board, key, value) {
  board.ui[key] = value;
  board.redraw();
}

/**
 * The bonus action the reveal waits for: yours to decide, or whose it is.
 * @param {PartyBoard} board
 */
function bonusAction(board) {
  const view = board.view;
  const prompt = view.prompt;
  const queue = view.queue.length
    ? h("p", {}, `Still to resolve: ${view.queue.map((action) => `${board.deck.name(action.card.slug)} (${board.names[action.seat]})`).join(", ")}.`)
    : null;
  if (!prompt) return zone("The reveal", { zone: "prompt" }, queue);
  const title = `${board.deck.name(prompt.card.slug)}: ${board.names[prompt.seat]}`;
  if (prompt.seat !== board.seat || !board.commands.length) {
    const asked = prompt.kind === "give" && prompt.owner !== null ? ` (${board.names[prompt.owner]} asked for ${typeName(prompt.request ?? "")})` : "";
    return zone(title, { zone: "prompt" }, h("p", {}, `${board.names[prompt.seat]} is ${PROMPTS[prompt.kind] ?? prompt.kind}${asked}.`), queue);
  }
  return zone(title, { zone: "prompt" }, h("p", {}, `You are ${PROMPTS[prompt.kind] ?? prompt.kind}.`), choice(board, prompt), queue);
}

/**
 * @param {PartyBoard} board
 * @param {import("../types.js").Schemas["PartyPromptView"]} prompt
 */
function choice(board, prompt) {
  const options = prompt.options ?? [];
  if (prompt.kind === "spoon") {
    return buttons(
      "Name a card",
      board.commands.map((command) => ({
        label: board.deck.cards.has(command.request) ? board.deck.name(command.request) : `Any ${typeName(command.request)}`,
        command: "spoon",
        onclick: () => board.send(command),
      })),
    );
  }
  if (prompt.kind === "flip") {
    /** @type {number[]} */
    const flipped = board.ui.flip ?? [];
    const faces = options.map((card) =>
      cardFace(board.deck.info(card.slug), {
        id: card.id,
        focus: `flip-${card.id}`,
        pressed: flipped.includes(card.id),
        label: `Flip ${board.deck.name(card.slug)}`,
        onclick: () => redrawWith(board, "flip", flipped.includes(card.id) ? flipped.filter((id) => id !== card.id) : [...flipped, card.id]),
      }),
    );
    return h(
      "div",
      {},
      cardRow(faces, "No card to flip."),
      buttons("Takeout box", [{ label: `Flip ${flipped.length} card${flipped.length === 1 ? "" : "s"}`, command: "flip", onclick: () => board.send({ type: "flip", cards: flipped }) }]),
    );
  }
  // copy, chopsticks, give, menu: one of the offered cards.
  return cardRow(
    options.map((card) => {
      const command = board.commands.find((entry) => entry.card === card.id);
      return cardFace(board.deck.info(card.slug), {
        id: card.id,
        focus: `choice-${card.id}`,
        command: command?.type,
        label: `Choose ${board.deck.name(card.slug)}`,
        onclick: command ? () => board.send(command) : undefined,
      });
    }),
  );
}

/** @param {PartyBoard} board */
function uramaki(board) {
  const view = board.view;
  const icons = view.uramaki_icons.map((count, seat) => `${board.names[seat]} ${count}`).join(", ");
  return h("p", { class: "facts" }, `Uramaki icons: ${icons}. ${view.uramaki_next ? `The next to reach 10 scores ${view.uramaki_next}.` : "Every place is taken."}`);
}
