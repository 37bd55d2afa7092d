"""`picks`: every portion a seat eats and every Derby card it plays, for the pick-rate statistics."""

from __future__ import annotations

from kaiten.domain.dim_sum_derby.cards import COPIES, DERBY_COPIES, DERBY_KINDS, DISH_BY_SLUG, MARKERS
from kaiten.domain.dim_sum_derby.events import DerbyDrawn, DerbyPlayed, PortionEaten
from kaiten.domain.dim_sum_derby.game import DIM_SUM_DERBY
from tests.unit.bot_games import bot_game, catalog_slugs


def test_eating_picks_the_dish_and_playing_picks_the_derby_card():
    har_gow = DISH_BY_SLUG["har-gow"] * COPIES + 1
    assert DIM_SUM_DERBY.picks(PortionEaten(seat=1, dish=har_gow)) == ((1, "har-gow"),)
    lazy_susan = [k.slug for k in DERBY_KINDS].index("lazy-susan") * DERBY_COPIES
    assert DIM_SUM_DERBY.picks(DerbyPlayed(seat=0, card=lazy_susan)) == ((0, "lazy-susan"),)
    assert DIM_SUM_DERBY.picks(DerbyDrawn(seat=0, card=lazy_susan)) == ()


def test_a_seat_picks_one_dish_per_marker_it_placed():
    table, log = bot_game(DIM_SUM_DERBY, 4, seed=6)
    derby_slugs = {kind.slug for kind in DERBY_KINDS}
    dishes = catalog_slugs(DIM_SUM_DERBY)
    for seat in range(4):
        picked = [slug for s, slug in (p for e in log for p in DIM_SUM_DERBY.picks(e)) if s == seat]
        assert sum(slug in dishes for slug in picked) == MARKERS - table.state.supply[seat]
        assert set(picked) <= dishes | derby_slugs
