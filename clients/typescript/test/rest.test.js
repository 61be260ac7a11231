// Every REST route against a real server, and its refusals as typed errors with their codes.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BadRequest,
  Client,
  Conflict,
  Forbidden,
  LudotecaError,
  NotFound,
  ROUTES,
  RuleViolation,
  Unauthorized,
  Unreachable,
} from "../dist/index.js";
import { ADMIN, URL, awaited, started } from "../support/server.js";

test("every route of the OpenAPI document has a method", async () => {
  const doc = await new Client(URL).openapi();
  const routes = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  const missing = routes.filter((route) => !(route in ROUTES));
  assert.deepEqual(missing, []);
  for (const name of Object.values(ROUTES)) assert.equal(typeof Client.prototype[name], "function", name);
});

test("quick play seats the second newcomer at the table the first one opened; the lobby filters by language", async () => {
  const wanted = { game: "itchy-feet", players: 2, lang: "pt" };
  const first = await new Client(URL).quickPlay(wanted, { name: "Ana" });
  assert.equal(first.opened, true);
  assert.equal(first.entropy.length, 64);
  const second = await new Client(URL).quickPlay(wanted, { name: "Bo" });
  assert.deepEqual([second.game_id, second.seat, second.opened], [first.game_id, 1, false]);
  const page = await new Client(URL).games({ status: "active", game: "itchy-feet", lang: "pt", rated: false });
  assert.ok(page.games.some((g) => g.game_id === first.game_id && g.lang === "pt"));
});

test("the lobby: catalog, components, create, join, the list, health", async () => {
  const lobby = new Client(URL);
  assert.equal((await lobby.health()).status, "ok");
  assert.equal((await lobby.ready()).status, "ready");
  const catalog = await lobby.catalog();
  assert.ok(catalog.games.some((g) => g.game === "vilar-de-mouros" && g.min_players === 2));
  const parts = await lobby.components("i-love-portugal");
  assert.equal(parts.game, "i-love-portugal");
  const created = await lobby.create("vilar-de-mouros", 2);
  assert.equal(created.status, "open");
  assert.match(created.creator_token, new RegExp(`^${created.game_id}\\.`));
  const page = await lobby.games({ status: "open", limit: 200 });
  assert.ok(page.games.some((g) => g.game_id === created.game_id));
  const joined = await lobby.join(created.game_id, { name: "Ana", seat: 1 });
  assert.equal(joined.seat, 1);
  await assert.rejects(lobby.join(created.game_id, { seat: 1 }), (e) => e instanceof Conflict && e.code === "seat_taken");
  await assert.rejects(lobby.join(created.game_id, { bot: "clever" }), (e) => e instanceof RuleViolation && e.code === "no_such_bot");
  const bot = await lobby.join(created.game_id, { bot: "random" });
  assert.equal(bot.token, null);
  await assert.rejects(lobby.create("vilar-de-mouros", 9), (e) => e instanceof RuleViolation && e.code === "bad_players");
  await assert.rejects(lobby.create("chess", 2), (e) => e instanceof BadRequest && e.code === "unknown_game_type");
});

test("the creator calls a table off", async () => {
  const lobby = new Client(URL);
  const created = await lobby.create("itchy-feet", 3);
  await assert.rejects(lobby.callOff(created.game_id), (e) => e instanceof Unauthorized && e.code === "missing_token");
  const entry = await lobby.asSeat(created.creator_token).callOff(created.game_id);
  assert.equal(entry.status, "finished");
  const table = await lobby.table(created.game_id);
  assert.equal(table.outcome.type, "abandoned");
});

test("one game: table, legal commands, moves, checks, commands, events, replay, export and import", async () => {
  const { gameId, lobby, seats } = await started();
  const { seat, client, table } = await awaited(lobby, gameId, seats);
  assert.equal(table.status, "active");
  assert.equal((await client.table(gameId)).seat, seat);
  const legal = await client.legal(gameId);
  assert.equal(legal.complete, true);
  assert.ok(legal.step.options.some((o) => o.value === "DrawFromDeck"));
  const step = await client.moves(gameId, [{ field: "type", value: "DrawFromDeck" }]);
  assert.deepEqual(step.step.command, { type: "DrawFromDeck" });
  assert.deepEqual(await client.check(gameId, { type: "DrawFromDeck" }), { version: legal.version, lands: true, refusal: null });
  const refused = await seats[1 - seat].check(gameId, { type: "DrawFromDeck" });
  assert.equal(refused.lands, false);
  assert.equal(refused.refusal.error, "not_your_turn");
  const answer = await client.send(gameId, { type: "DrawFromDeck" }, { commandId: "draw-1", expectedVersion: legal.version });
  assert.equal(answer.version, legal.version + answer.events.length); // the draw, and its opening for this seat (docs/fair-play.md)
  assert.equal(answer.events[0].event.type, "CardDrawn");
  const again = await client.send(gameId, { type: "DrawFromDeck" }, { commandId: "draw-1", expectedVersion: legal.version });
  assert.deepEqual(again, answer, "the same id and body: the first answer again");
  await assert.rejects(
    client.send(gameId, { type: "DrawFromDeck" }, { expectedVersion: legal.version }),
    (e) => e instanceof Conflict && e.code === "version_conflict" && e.details.version === answer.version,
  );
  const other = seats[1 - seat];
  await assert.rejects(other.send(gameId, { type: "DrawFromDeck" }), (e) => e instanceof RuleViolation && e.code === "not_your_turn");
  await assert.rejects(lobby.send(gameId, { type: "DrawFromDeck" }), (e) => e instanceof Forbidden && e.code === "spectator");
  await assert.rejects(client.moves(gameId, [{ field: "type", value: "Pass" }]), (e) => e.code === "not_offered");
  const page = await lobby.events(gameId, { after: 0, limit: 3 });
  assert.deepEqual(page.events.map((e) => e.version), [1, 2, 3]);
  const all = [];
  for await (const event of lobby.allEvents(gameId, 0, 4)) all.push(event.version);
  assert.equal(all.at(-1), answer.version);
  const then = await client.replay(gameId, { version: 3 });
  assert.equal(then.version, 3);
  await assert.rejects(client.replay(gameId, { version: 3, as: "full" }), (e) => e.code === "game_not_finished");
  await assert.rejects(lobby.exportLog(gameId), (e) => e instanceof Unauthorized);
  await client.send(gameId, { type: "Resign" });
  const log = await lobby.exportLog(gameId);
  assert.equal(log[0].event.type, "TableOpened");
  if (ADMIN) {
    const imported = await lobby.asSeat(ADMIN).importLog(log);
    assert.equal((await lobby.table(imported.game_id)).status, "finished");
  }
  const rematch = await client.rematch(gameId);
  assert.equal(rematch.seat, seat);
  assert.match(rematch.token, new RegExp(`^${rematch.game_id}\\.`));
});

test("errors carry status, code, message and details", async () => {
  const lobby = new Client(URL);
  const error = await lobby.table("0123456789abcdef").catch((e) => e);
  assert.ok(error instanceof NotFound && error instanceof LudotecaError);
  assert.equal(error.status, 404);
  assert.equal(error.code, "unknown_game");
  assert.ok(error.message.length > 0);
  const { gameId } = await started();
  const forged = await lobby.asSeat(`${gameId}.forged`).table(gameId).catch((e) => e);
  assert.ok(forged instanceof Unauthorized && forged.code === "unknown_token");
  const far = await new Client("http://127.0.0.1:9", { timeoutMs: 2000 }).health().catch((e) => e);
  assert.ok(far instanceof Unreachable && far.code === "unreachable");
});
