// Building moves against a real server: from legal-commands and from updates, pick by pick over REST and the
// socket, walking every command of a step, and a random complete move.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Move, RuleViolation } from "../dist/index.js";
import { awaited, started } from "../support/server.js";

test("a move of two picks, built over REST from legal-commands, then sent", async () => {
  const { gameId, lobby, seats } = await started();
  const { client } = await awaited(lobby, gameId, seats);
  await client.send(gameId, { type: "DrawFromDeck" });
  await client.send(gameId, { type: "DrawFromDeck" });
  let move = client.move(gameId, await client.legal(gameId));
  assert.throws(() => move.ready(), /pick type next/);
  await assert.rejects(move.pick("type"), TypeError);
  move = await move.pick("type", "PlaceCards");
  assert.ok(move.options.every((o) => o.field === "centre" && o.kind === "card"));
  assert.equal(move.complete, false);
  const before = move;
  move = await move.pick(move.options[0]);
  assert.deepEqual(before.picks.length, 1, "a move is a value: picking leaves it as it was");
  const last = move.options.find((o) => o.command);
  assert.ok(last && last.field === "personal");
  move = await move.pick(last); // ends the move: no request
  assert.deepEqual(move.command, last.command);
  assert.equal(move.picks.length, 3);
  const answer = await move.send();
  assert.deepEqual(answer.events.map((e) => e.event.type).slice(0, 1), ["CardsPlaced"]);
  await assert.rejects(
    client.move(gameId, { version: answer.version, step: { options: [] }, picks: [] }).pick("type", "Pass"),
    (e) => e instanceof RuleViolation && e.code === "not_offered",
  );
});

test("walking a step finds every command legal-commands lists", async () => {
  const { gameId, lobby, seats } = await started("vilar-de-mouros", 3);
  const { client } = await awaited(lobby, gameId, seats);
  const legal = await client.legal(gameId);
  const walked = await client.move(gameId, legal).commands();
  const key = (c) => JSON.stringify(c);
  assert.deepEqual(new Set(walked.map(key)), new Set(legal.commands.map(key)));
  assert.equal(await client.move(gameId, legal).commands(1), null, "more than the limit: null");
  assert.ok(new Move(client, gameId, legal.version, {}).empty);
});

test("random complete moves over the socket, a few turns of Miss Liz's parks", async () => {
  const { gameId, lobby, seats } = await started("miss-liz-parks", 2);
  const lives = seats.map((seat) => seat.watch(gameId));
  const iterators = lives.map((live) => live[Symbol.asyncIterator]());
  let sent = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  while (sent < 12) {
    const table = await lobby.table(gameId);
    const seat = table.awaiting[0].seat;
    let update;
    do update = (await iterators[seat].next()).value;
    while (update.version < table.version || !update.step);
    const move = await lives[seat].move(update).random(random);
    assert.ok(move && move.complete, "a seat the game awaits always has a complete command");
    const ack = await move.send();
    assert.equal(ack.type, "ack");
    sent += 1;
  }
  for (const live of lives) live.close();
});
