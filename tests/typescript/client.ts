// A TypeScript app playing a game of Sushi Go! through kaiten's REST API, with openapi-fetch over
// the types openapi-typescript generates from openapi/openapi.json. The test suite type-checks it
// (tsc --noEmit): the `@ts-expect-error` lines must fail to type-check, or tsc reports them unused.
// On a server that needs app keys (KAITEN_AUTH=keys), the app creates the game with its key
// (`kaiten apps create`, sent as a Bearer token) and each seat plays with the token the answer gives.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Command = components["schemas"]["SushiGoPick"];
type Table = components["schemas"]["SushiGoTableView"];
type Card = components["schemas"]["Card"];

const kaiten = createClient<paths>({ baseUrl: "http://127.0.0.1:8000" });

/** The app's requests: its key as the Bearer token. */
function asApp(appKey: string) {
  return { headers: { Authorization: `Bearer ${appKey}` } };
}

export async function playSushiGo(appKey: string): Promise<Table> {
  const app = asApp(appKey);
  const { data: created, error } = await kaiten.POST("/v1/games", {
    body: {
      game: "sushi-go",
      players: 2,
      seed: 7,
      seats: [{ name: "Alice", player_id: "app-user-17" }, { bot: "greedy" }],
    },
    ...app,
  });
  // Without a working key: 401 app-key-required (or invalid-app-key), as a typed Problem.
  if (error) throw new Error(`${error.status} ${error.code}: ${error.detail}`);
  if (created.game !== "sushi-go") throw new Error("asked for Sushi Go!");
  const token = created.seat_tokens[0].token;
  const seat = { headers: { Authorization: `Bearer ${token}` } };
  const game_id = created.id;

  let table: Table = created;
  while (table.status !== "finished") {
    const legal = await kaiten.GET("/v1/games/{game_id}/legal-commands", { params: { path: { game_id } }, ...seat });
    if (legal.error) throw new Error(legal.error.code);
    if (legal.data.game !== "sushi-go") throw new Error("the game changed");
    const command: Command = legal.data.commands[0];
    const sent = await kaiten.POST("/v1/games/{game_id}/commands", {
      params: { path: { game_id } },
      body: command,
      ...seat,
    });
    if (sent.error) throw new Error(`${sent.error.status} ${sent.error.code}`);
    const read = await kaiten.GET("/v1/games/{game_id}", { params: { path: { game_id } }, ...seat });
    if (read.error || read.data === undefined || read.data.game !== "sushi-go") throw new Error("no table");
    table = read.data;
    const hand: Card[] = table.state?.hand ?? [];
    console.log(`round ${table.state?.round}, in hand: ${hand.map((card) => card.slug).join(", ")}`);
  }
  for (const score of table.result?.scores ?? []) console.log(`seat ${score.seat}: ${score.total}`);
  // The app reads its own records with its key: its games' statistics and its players'.
  const stats = await kaiten.GET("/v1/stats/{game}", { params: { path: { game: "sushi-go" } }, ...app });
  if (stats.data) console.log(`${stats.data.games} games of Sushi Go! in this app`);
  const player = await kaiten.GET("/v1/players/{player_id}/stats", { params: { path: { player_id: "app-user-17" } }, ...app });
  for (const entry of player.data?.games ?? []) console.log(`app-user-17 at ${entry.game}: rated ${entry.rating}`);
  return table;
}

export async function mistakesTheTypesCatch(game_id: string, appKey: string): Promise<void> {
  const app = asApp(appKey);
  // @ts-expect-error: a misspelled command type is no command of any game
  await kaiten.POST("/v1/games/{game_id}/commands", { params: { path: { game_id } }, body: { tpye: "pcik" } });
  // @ts-expect-error: no game of the catalog is called "sushigo"
  await kaiten.POST("/v1/games", { body: { game: "sushigo", players: 2 }, ...app });
  // @ts-expect-error: the app's key is a Bearer token, in the Authorization header, never a field of the body
  await kaiten.POST("/v1/games", { body: { game: "sushi-go", players: 2, app_key: appKey }, ...app });
  // @ts-expect-error: a seat names a bot or a person, and its player_id is a string of the app's
  await kaiten.POST("/v1/games", { body: { game: "sushi-go", players: 2, seats: [{ name: "Bob", player_id: 17 }] }, ...app });
  const read = await kaiten.GET("/v1/games/{game_id}", { params: { path: { game_id } } });
  // @ts-expect-error: "finishd" is not a status
  if (read.data?.status === "finishd") return;
}
