// Types only: JSDoc names for the schemas of openapi/openapi.json. The type check (tests/browser/
// test_types.py) maps "kaiten-schema" to the declarations openapi-typescript generates from it; the
// browser never loads this module (type imports vanish at run time).

/**
 * @typedef {import("kaiten-schema").components["schemas"]} Schemas
 * @typedef {Schemas["SushiGoTableView"] | Schemas["PartyTableView"] | Schemas["SpinTableView"] | Schemas["DerbyTableView"]} TableView
 * @typedef {Schemas["SushiGoCreatedGame"] | Schemas["PartyCreatedGame"] | Schemas["SpinCreatedGame"] | Schemas["DerbyCreatedGame"]} CreatedGame
 * @typedef {Schemas["SushiGoLegalCommands"] | Schemas["PartyLegalCommands"] | Schemas["SpinLegalCommands"] | Schemas["DerbyLegalCommands"]} LegalCommands
 * @typedef {LegalCommands["commands"][number]} Command
 * @typedef {Schemas["SushiGoEventPage"] | Schemas["PartyEventPage"] | Schemas["SpinEventPage"] | Schemas["DerbyEventPage"]} EventPage
 * @typedef {EventPage["events"][number]} GameEvent
 * @typedef {Schemas["SushiGoCatalogGame"] | Schemas["PartyCatalogGame"] | Schemas["SpinCatalogGame"] | Schemas["DerbyCatalogGame"]} CatalogGame
 * @typedef {Schemas["SushiGoCatalogEntry"] | Schemas["PartyCatalogEntry"] | Schemas["SpinCatalogEntry"] | Schemas["DerbyCatalogEntry"]} CatalogEntry
 * @typedef {Schemas["MatchPage"]} MatchPage
 * @typedef {MatchPage["items"][number]} MatchSummary
 * @typedef {Schemas["Card"]} Card
 * @typedef {Schemas["Seat"]} Seat
 * @typedef {Schemas["SeatRequest"]} SeatRequest
 * @typedef {Schemas["TakeSeatRequest"]} TakeSeatRequest
 * @typedef {Schemas["Invitation"]} Invitation
 * @typedef {Schemas["Problem"]} Problem
 * @typedef {Schemas["GameStats"]} GameStats
 * @typedef {Schemas["PlayerStats"]} PlayerStats
 * @typedef {Schemas["Leaderboard"]} Leaderboard
 * @typedef {Schemas["StreamTicket"]} StreamTicket
 * @typedef {Schemas["SeatGranted"]} SeatGranted
 * @typedef {Schemas["Health"]} Health
 * @typedef {Schemas["JoinQueueRequest"]} JoinQueueRequest
 * @typedef {Schemas["QueueEntry"]} QueueEntry
 * @typedef {Schemas["PlayerToken"]} PlayerToken
 * @typedef {Schemas["PlayerItem"]} PlayerItem
 * @typedef {"sushi-go" | "sushi-go-party" | "spin-some-for-dim-sum" | "dim-sum-derby"} GameId
 */

/**
 * A seat's score as every game's result lists it: the breakdown's categories differ by game.
 * @typedef {{seat: number, total: number, breakdown: {[category: string]: number | undefined}}} SeatScore
 * @typedef {{scores: SeatScore[], winners: number[], ranking: number[]}} Result
 */

export {};
