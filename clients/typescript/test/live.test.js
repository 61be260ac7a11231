// The live subscription against a real server: catch-up and live updates, commands with acks, moves over
// the socket, refusals as typed errors, and resuming (with `after` and `check`) after the line is cut.
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { Client, Reset, RuleViolation, Unauthorized, Unreachable } from "../dist/index.js";
import { URL, awaited, started } from "../support/server.js";

/** A TCP proxy to the server whose connections the test can cut at once (no close frame: 1006). */
async function proxy() {
  const target = new globalThis.URL(URL);
  const sockets = new Set();
  let connections = 0;
  const server = net.createServer((client) => {
    connections += 1;
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    get connections() {
      return connections;
    },
    cut() {
      for (const s of sockets) s.destroy();
    },
    close() {
      this.cut();
      server.close();
    },
  };
}

/** The next update that satisfies `wanted`. */
async function until(iterator, wanted) {
  for (;;) {
    const { value, done } = await iterator.next();
    assert.ok(!done, "the updates ended");
    if (wanted(value)) return value;
  }
}

test("catch-up, live updates, commands with acks and moves over the socket", async () => {
  const { gameId, lobby, seats } = await started();
  const { seat, client } = await awaited(lobby, gameId, seats);
  const live = client.watch(gameId);
  const updates = live[Symbol.asyncIterator]();
  const first = await until(updates, (u) => u.view !== null);
  assert.ok(first.step && first.step.options.length, "the awaited seat's update carries its first step");
  assert.equal(first.status, "active");
  let move = live.move(first);
  move = await move.pick("type", "DrawFromDeck");
  assert.deepEqual(move.command, { type: "DrawFromDeck" });
  const ack = await move.send({ commandId: "ws-draw-1" });
  assert.equal(ack.type, "ack");
  assert.equal(ack.version, first.version + 2, "the draw, and the seat's opening of its card (docs/fair-play.md)");
  const next = await until(updates, (u) => u.version >= ack.version);
  assert.deepEqual(next.events.slice(-2).map((e) => e.event.type), ["CardDrawn", "CardsOpened"]);
  const refused = await live.send({ type: "DrawFromCentre", card: "no-such-card" }).catch((e) => e);
  assert.ok(refused instanceof RuleViolation, String(refused));
  const notOffered = await live.moves([{ field: "type", value: "Pass" }]).catch((e) => e);
  assert.equal(notOffered.code, "not_offered");
  const other = seats[1 - seat].watch(gameId);
  const theirs = other[Symbol.asyncIterator]();
  const seen = await until(theirs, (u) => u.view !== null);
  assert.equal(seen.step, null, "a seat the game does not await has no step");
  const wrong = await other.send({ type: "DrawFromDeck" }).catch((e) => e);
  assert.equal(wrong.code, "not_your_turn");
  live.close();
  other.close();
  assert.deepEqual(await updates.next(), { value: undefined, done: true });
});

test("a cut line is resumed from the last version and its check, with no version twice", async () => {
  const line = await proxy();
  try {
    const { gameId, lobby, seats } = await started();
    const { client } = await awaited(lobby, gameId, seats);
    const watcher = new Client(line.url).watch(gameId, { firstDelayMs: 20 });
    const updates = watcher[Symbol.asyncIterator]();
    const first = await until(updates, (u) => u.view !== null);
    line.cut();
    await client.send(gameId, { type: "DrawFromDeck" });
    const versions = [];
    const after = await until(updates, (u) => {
      versions.push(u.version);
      return u.version > first.version;
    });
    assert.ok(watcher.resumes >= 1 && line.connections >= 2, "it reconnected");
    assert.ok(after.version > first.version);
    assert.ok(versions.every((v, i) => i === 0 || v >= versions[i - 1]), "versions in order");
    assert.ok(after.events.every((e) => e.version > first.version), "no version twice");
    watcher.close();
  } finally {
    line.close();
  }
});

test("resuming with after and check; a check of other events resets", async () => {
  const { gameId, lobby } = await started();
  const table = await lobby.table(gameId);
  const one = lobby.watch(gameId);
  const updates = one[Symbol.asyncIterator]();
  const last = await until(updates, (u) => u.version === table.version && u.view !== null);
  one.close();
  const again = lobby.watch(gameId, { after: last.version, check: last.check });
  const resumed = await until(again[Symbol.asyncIterator](), (u) => u.view !== null);
  assert.equal(resumed.version, last.version);
  assert.deepEqual(resumed.events, []);
  again.close();
  const beyond = lobby.watch(gameId, { after: table.version + 50 });
  const reset = await beyond[Symbol.asyncIterator]().next().catch((e) => e);
  assert.ok(reset instanceof Reset && reset.code === "reset" && reset.details.version === table.version, String(reset));
  const other = lobby.watch(gameId, { after: 3, check: "0".repeat(32) });
  const otherReset = await other[Symbol.asyncIterator]().next().catch((e) => e);
  assert.ok(otherReset instanceof Reset);
});

test("a refused hello is the error of its code; a server that is gone is given up on", async () => {
  const { gameId, lobby } = await started();
  const denied = await lobby.asSeat(`${gameId}.forged`).watch(gameId)[Symbol.asyncIterator]().next().catch((e) => e);
  assert.ok(denied instanceof Unauthorized && denied.code === "unknown_token", String(denied));
  const gone = new Client("http://127.0.0.1:9").watch(gameId, { maxReconnects: 2, firstDelayMs: 5 });
  const error = await gone[Symbol.asyncIterator]().next().catch((e) => e);
  assert.ok(error instanceof Unreachable, String(error));
  assert.equal(gone.resumes, 2);
  await assert.rejects(gone.send({ type: "Resign" }), (e) => e.code === "unreachable");
});
