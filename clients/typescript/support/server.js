// What the Node tests share: the server under test (LUDOTECA_URL, started by tests/clients/test_typescript.py),
// and small helpers to open tables on it.
import { Client } from "../dist/index.js";

export const URL = process.env.LUDOTECA_URL ?? "http://127.0.0.1:8000";
export const ADMIN = process.env.LUDOTECA_ADMIN_TOKEN ?? null;

/** A started table of `game` with `players` people seated: its id and their clients, seat 0 first. */
export async function started(game = "vilar-de-mouros", players = 2) {
  const lobby = new Client(URL);
  const created = await lobby.create(game, players);
  const seats = [];
  for (let i = 0; i < players; i++) {
    const joined = await lobby.join(created.game_id, { name: `P${i}` });
    seats.push(lobby.asSeat(joined.token));
  }
  return { gameId: created.game_id, lobby, seats };
}

/** The client of the seat the game awaits first. */
export async function awaited(lobby, gameId, seats) {
  const table = await lobby.table(gameId);
  return { seat: table.awaiting[0].seat, client: seats[table.awaiting[0].seat], table };
}
