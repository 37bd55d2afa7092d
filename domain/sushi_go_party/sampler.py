"""Determinizations for the search bots (`domain.mcts`): full Sushi Go Party! states consistent with a view.

A seat cannot see the deck, the dessert pile, nor the hands that have not passed through its own hands
this round (`PartyView.known_hands` holds those that have). The menu's cards it has not seen (not in a
known hand, a tableau, a fridge, this round's discard or the cards its own menu drew) are dealt
uniformly among those places, the dessert pile taking only desserts (it holds those never shuffled in).

Other seats' hidden picks of the turn are not made in a sample: those seats are awaited again, so the
search treats their picks as simultaneous with the seat's own instead of drawing them at random.

A bot is asked only when its seat is awaited: while a bonus action waits for another seat, that seat
alone is awaited, so a sample never has to invent the options of another seat's prompt.
"""

from __future__ import annotations

from collections.abc import Hashable

import msgspec

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go_party.cards import SLUG
from kaiten.domain.sushi_go_party.commands import Chopsticks, Command, Copy, Flip, Give, MenuPick, Pick
from kaiten.domain.sushi_go_party.options import menu_cards
from kaiten.domain.sushi_go_party.state import Cards, PartyState, Prompt, initial_state
from kaiten.domain.sushi_go_party.view import PartyView


def seat(view: PartyView) -> int:
    assert view.seat is not None, "a spectator has no seat to search for"
    return view.seat


def sample(view: PartyView, chance: Chance) -> PartyState:
    own = seat(view)
    players = view.players
    memory = _Memory(view)
    start = initial_state(players, memory.pass_both_ways, memory.two_player_variant, None)
    if view.menu is None:
        # The menu is being chosen: nothing is dealt, nothing is hidden.
        return msgspec.structs.replace(start, phase=view.phase, awaiting=view.awaiting, selection=view.selection)
    prompt = _prompt(view, own)
    drawn = prompt.options if prompt is not None and prompt.kind == "menu" else ()
    main, desserts = menu_cards(view.menu)
    seen: set[int] = {*memory.discard, *drawn}
    for hand in memory.known_hands:
        if hand is not None:
            seen.update(hand)
    for tableau in view.tableaus:
        seen.update([entry[0] for entry in tableau])
    for fridge in view.fridges:
        seen.update([card for card, _ in fridge])
    unseen_desserts = [card for card in desserts if card not in seen]
    pile = chance.sample(unseen_desserts, view.dessert_pile_size)
    in_pile = set(pile)
    pool = [card for card in main if card not in seen]
    pool.extend([card for card in unseen_desserts if card not in in_pile])
    pool = chance.shuffled(pool)
    hands: list[Cards] = []
    at = 0
    for hand in memory.known_hands:
        if hand is None:
            hand = tuple(pool[at : at + view.hand_size])
            at += view.hand_size
        hands.append(hand)
    picks = [-1] * players
    calls = [-1] * players
    picks[own] = -1 if view.pick is None else view.pick
    calls[own] = -1 if view.call is None else view.call
    awaiting = view.awaiting
    if view.phase == "pick":
        awaiting = tuple([other for other in range(players) if other != own or own in view.awaiting])
    return PartyState(
        players=players,
        pass_both_ways=memory.pass_both_ways,
        two_player_variant=memory.two_player_variant,
        phase=view.phase,
        awaiting=awaiting,
        menu=view.menu,
        round=view.round,
        turn=view.turn,
        deck=tuple(sorted(pool[at:])),
        dessert_pile=tuple(sorted(pile)),
        hands=tuple(hands),
        tableaus=view.tableaus,
        fridges=view.fridges,
        discard=memory.discard,
        drawn=drawn,
        picks=tuple(picks),
        calls=tuple(calls),
        queue=view.queue,
        immediate=memory.special_orders,
        prompt=prompt,
        misos=memory.misos,
        uramaki_icons=view.uramaki_icons,
        uramaki_claimed=view.uramaki_claimed,
        uramaki_points=view.uramaki_points,
        totals=view.totals,
        scored=view.scored,
        result=view.result,
    )


class _Memory:
    """The fields only a seat's view holds (a spectator's leaves them out)."""

    __slots__ = ("discard", "known_hands", "misos", "pass_both_ways", "special_orders", "two_player_variant")

    def __init__(self, view: PartyView) -> None:
        assert (
            view.pass_both_ways is not None
            and view.two_player_variant is not None
            and view.known_hands is not None
            and view.discard is not None
            and view.misos is not None
            and view.special_orders is not None
        ), "a spectator has no seat to search for"
        self.pass_both_ways = view.pass_both_ways
        self.two_player_variant = view.two_player_variant
        self.known_hands = view.known_hands
        self.discard = view.discard
        self.misos = view.misos
        self.special_orders = view.special_orders


def _prompt(view: PartyView, own: int) -> Prompt | None:
    shown = view.prompt
    if shown is None:
        return None
    assert shown.seat == own, "a bonus action waits for another seat: only that seat is asked"
    return Prompt(
        kind=shown.kind,
        seat=shown.seat,
        card=shown.card,
        options=shown.options or (),
        request=shown.request,
        owner=-1 if shown.owner is None else shown.owner,
    )


def move_key(command: Command) -> Hashable:
    """Commands that differ only in which copy of a card they name are one move (cards by slug)."""
    if isinstance(command, Pick):
        return ("pick", SLUG[command.card], None if command.call is None else SLUG[command.call])
    if isinstance(command, Copy | Chopsticks | Give | MenuPick):
        return (type(command).__name__, SLUG[command.card])
    if isinstance(command, Flip):
        return ("flip", tuple(sorted([SLUG[card] for card in command.cards])))
    return command
