// A TypeScript app playing a game of Sushi Go! through kaiten's REST API, with openapi-fetch over
// the types openapi-typescript generates from openapi/openapi.json. The test suite type-checks it
// (tsc --noEmit): the `@ts-expect-error` lines must fail to type-check, or tsc reports them unused.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Command = components["schemas"]["SushiGoPick"];
type Table = components["schemas"]["SushiGoTableView"];
type Card = components["schemas"]["Card"];

const kaiten = createClient<paths>({ baseUrl: "http://127.0.0.1:8000" });

export async function playSushiGo(): Promise<Table> {
  const { data: created, error } = await kaiten.POST("/v1/games", {
    body: {
      game: "sushi-go",
      players: 2,
      seed: 7,
      seats: [{ name: "Alice", player_id: "app-user-17" }, { bot: "greedy" }],
    },
  });
  if (error) throw new Error(`${error.code}: ${error.detail}`);
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
  return table;
}

export async function mistakesTheTypesCatch(game_id: string): Promise<void> {
  // @ts-expect-error: a misspelled command type is no command of any game
  await kaiten.POST("/v1/games/{game_id}/commands", { params: { path: { game_id } }, body: { tpye: "pcik" } });
  // @ts-expect-error: no game of the catalog is called "sushigo"
  await kaiten.POST("/v1/games", { body: { game: "sushigo", players: 2 } });
  const read = await kaiten.GET("/v1/games/{game_id}", { params: { path: { game_id } } });
  // @ts-expect-error: "finishd" is not a status
  if (read.data?.status === "finishd") return;
}
