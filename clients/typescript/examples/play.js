// A whole game of Vilar de Mouros: one seat played here, the other by a bot the server plays.
import { Client } from "ludoteca-client";

const lobby = new Client(process.env.LUDOTECA_URL ?? "http://127.0.0.1:8000");
const table = await lobby.create("vilar-de-mouros", 2);
console.log(`table ${table.game_id}`);
const me = await lobby.join(table.game_id, { name: "Ana" });
await lobby.join(table.game_id, { bot: "random" }); // the last seat: the game starts

const seat = lobby.asSeat(me.token);
const live = seat.watch(table.game_id); // every update, in order; resumes by itself
for await (const update of live) {
  if (update.status === "finished") {
    console.log(`finished: scores ${update.outcome.scores.join(", ")}, winners ${update.outcome.winners}`);
    break; // leaving the loop closes the socket
  }
  if (!update.step) continue; // the game does not await this seat now
  // Build a move from the update's first step: a random option each time, until the picks make a
  // command (each next step comes over the socket), then send it there and wait for its ack.
  const move = await live.move(update).random();
  if (!move) continue;
  try {
    await move.send();
  } catch (error) {
    if (error.code !== "version_conflict") throw error; // the table moved on: the next update says how
  }
}
