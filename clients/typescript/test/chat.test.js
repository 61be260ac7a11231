// The table's chat: messages to the table and on a private line, a mute, and a message hidden by a majority.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, RuleViolation, chat } from "../dist/index.js";
import { ADMIN, URL, started } from "../support/server.js";

/** The messages of a reader's feed, by the version they were said at. */
async function messages(client, gameId) {
  const events = [];
  for await (const event of client.allEvents(gameId)) events.push(event);
  return new Map(chat(events).map(({ version, message }) => [version, message]));
}

test("a message to the table is read by every seat; a private line by its two seats alone", async () => {
  const { gameId, seats } = await started("vilar-de-mouros", 3);
  const [ana, bruno, carla] = seats;
  const said = await ana.say(gameId, "Boa sorte!");
  const [{ version, message }] = chat(said.events);
  assert.deepEqual(message, { type: "MessageSaid", text: "Boa sorte!", seat: 0 });
  const spectator = new Client(URL);
  for (const reader of [ana, bruno, carla, spectator]) assert.deepEqual((await messages(reader, gameId)).get(version), message);
  const line = await ana.say(gameId, "Só para ti", 2);
  const privately = line.events[0].version;
  assert.deepEqual((await messages(carla, gameId)).get(privately), { type: "MessageSaid", text: "Só para ti", seat: 0, to: 2 });
  for (const outsider of [bruno, spectator]) assert.deepEqual([...(await messages(outsider, gameId)).keys()], [version]);
  await assert.rejects(bruno.say(gameId, "  "), (e) => e instanceof RuleViolation && e.code === "empty_message");
  await assert.rejects(
    bruno.say(gameId, "a".repeat(501)),
    (e) => e instanceof RuleViolation && e.code === "message_too_long" && e.details.most === 500,
  );
});

test("a seat that mutes another reads it no more, until it unmutes", async () => {
  const { gameId, seats } = await started("vilar-de-mouros", 3);
  const [ana, bruno, carla] = seats;
  await ana.say(gameId, "Olá");
  const muted = await bruno.mute(gameId, 0);
  assert.deepEqual(muted.events.map((e) => e.event), [{ type: "SeatMuted", seat: 1, other: 0, muted: true }]);
  await ana.say(gameId, "Ouves-me?");
  const texts = async (reader) => [...(await messages(reader, gameId)).values()].map((m) => m.text);
  assert.equal((await texts(bruno)).includes("Ouves-me?"), false);
  assert.deepEqual(await texts(carla), ["Olá", "Ouves-me?"]);
  await bruno.mute(gameId, 0, false);
  await ana.say(gameId, "E agora?");
  assert.equal((await texts(bruno)).at(-1), "E agora?");
  await assert.rejects(bruno.mute(gameId, 1), (e) => e.code === "no_such_seat");
});

test("a message is hidden once most of the others at a table of three asked", async () => {
  const { gameId, seats } = await started("vilar-de-mouros", 3);
  const [ana, bruno, carla] = seats;
  const { version } = await ana.say(gameId, "Perdede todos!");
  await assert.rejects(ana.hideMessage(gameId, version), (e) => e instanceof RuleViolation && e.code === "own_message");
  const asked = await bruno.hideMessage(gameId, version);
  assert.deepEqual(asked.events.map((e) => e.event), [{ type: "HidingAsked", seat: 1, version }]);
  assert.equal((await messages(carla, gameId)).get(version).text, "Perdede todos!");
  const before = [];
  for await (const event of carla.allEvents(gameId)) before.push(event);
  const hidden = await carla.hideMessage(gameId, version);
  assert.deepEqual(hidden.events.map((e) => e.event.type), ["HidingAsked", "MessageHidden"]);
  const gone = { type: "MessageSaid", text: "", seat: 0, removed: "hidden" };
  assert.deepEqual(chat([...before, ...hidden.events]).find((line) => line.version === version).message, gone);
  for (const reader of [ana, bruno, carla]) assert.deepEqual((await messages(reader, gameId)).get(version), gone);
  await assert.rejects(
    bruno.hideMessage(gameId, 1),
    (e) => e.code === "no_such_message" && e.details.version === 1,
  );
});

test("a watching player speaks on the spectators' channel; an operator hides any message", async () => {
  const { gameId, lobby, seats } = await started("vilar-de-mouros", 2);
  const [ana, bruno] = seats;
  const signed = await lobby.makePlayer("Rita");
  const rita = lobby.asSeat(signed.token);
  const said = await rita.spectatorSay(gameId, "Força, Ana!");
  const [{ version, message }] = chat(said.events);
  assert.deepEqual(message, { type: "MessageSaid", text: "Força, Ana!", player: signed.player.player_id });
  assert.equal((await messages(ana, gameId)).has(version), false); // the seats read it once the game is over
  if (!ADMIN) return;
  const privately = (await ana.say(gameId, "Só para ti", 1)).version;
  const hidden = await lobby.asSeat(ADMIN).hideAsOperator(gameId, privately);
  assert.deepEqual(hidden.events.map((e) => e.event), [{ type: "MessageHidden", version: privately, by: "operator" }]);
  assert.deepEqual((await messages(bruno, gameId)).get(privately), { type: "MessageSaid", text: "", seat: 0, to: 1, removed: "hidden" });
});
