// Fair play from a seat's side (docs/fair-play.md): the entropy a seat sends, its cards' "deal verified"
// checks during play, its own export, and the whole game's commitments checked in the browser's way.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, dealChecks, newEntropy, readExport, seedMatches, verifyExport } from "../dist/index.js";
import { URL } from "../support/server.js";

test("a seat's entropy is sent, kept, and mixed in; each of its cards checks against its commitment", async () => {
  const lobby = new Client(URL);
  const created = await lobby.create("vilar-de-mouros", 2);
  const mine = newEntropy();
  assert.match(mine, /^[0-9a-f]{64}$/);
  const joined = await lobby.join(created.game_id, { name: "Ana", entropy: mine });
  assert.equal(joined.entropy, mine);
  const bot = await lobby.join(created.game_id, { bot: "greedy" });
  assert.equal(bot.entropy, "");
  const ana = lobby.asSeat(joined.token);
  const feed = [];
  for await (const event of ana.allEvents(created.game_id)) feed.push(event);
  const taken = feed.find((e) => e.event.type === "SeatTaken" && e.event.seat === joined.seat);
  assert.equal(taken.event.entropy, mine);
  const checks = await dealChecks(feed, joined.seat);
  assert.ok(checks.length >= 6, `${checks.length} cards checked`);
  assert.ok(checks.every((c) => c.verified));
  // a card swapped in an opening no longer checks
  const forged = feed.map((e) =>
    e.event.type === "CardsOpened"
      ? { ...e, event: { ...e.event, openings: e.event.openings.map((o) => ({ ...o, item: checks[1].item })) } }
      : e,
  );
  assert.ok((await dealChecks(forged, joined.seat)).some((c) => !c.verified));

  const own = await ana.exportText(created.game_id, "seat");
  const { header } = readExport(own);
  assert.equal(header.viewpoint, "seat");
  assert.equal(header.commitments.entropies[joined.seat], mine);
  const report = await verifyExport(own);
  assert.ok(report.fair, report.problems.join("; "));

  await ana.send(created.game_id, { type: "Resign" }); // too few remain: the game is over, the seed revealed
  const all = await lobby.exportText(created.game_id);
  const whole = readExport(all);
  const revealed = whole.lines.find((l) => l.event.type === "SeedRevealed");
  assert.ok(await seedMatches(revealed.event.seed, whole.header.commitments.seed_hash));
  const final = await verifyExport(all);
  assert.ok(final.fair, final.problems.join("; "));
  assert.ok(final.checked.some((line) => line.includes("commitments rebuilt")));
  const tampered = all.replace(/"root":"([0-9a-f])/, (_, c) => `"root":"${c === "0" ? "1" : "0"}`);
  assert.equal((await verifyExport(tampered)).fair, false);
});
