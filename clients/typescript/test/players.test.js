// Players over the API: made, signed in on another device with a code, seated, their tables listed, erased.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client, LudotecaError, Unauthorized } from "../dist/index.js";
import { URL } from "../support/server.js";

test("a player signs in on another device and finds its table there", async () => {
  const lobby = new Client(URL);
  const made = await lobby.makePlayer("Ana", "gl");
  assert.equal(made.player.name, "Ana");
  const phone = lobby.asSeat(made.token);
  const table = await lobby.create("itchy-feet", 2);
  const seat = await phone.join(table.game_id);
  assert.equal(seat.seat, 0);
  const { code } = await phone.signInCode();
  const laptop = lobby.asSeat((await lobby.signIn(code)).token);
  assert.equal((await laptop.player()).player_id, made.player.player_id);
  const mine = await laptop.myTables();
  assert.deepEqual(mine.tables.map((t) => [t.game_id, t.seat, t.status]), [[table.game_id, 0, "open"]]);
  assert.equal((await laptop.changePlayer({ name: "Ana Sousa" })).name, "Ana Sousa");
  await laptop.join(table.game_id).catch((e) => assert.equal(e.code, "seat_held"));
  await lobby.join(table.game_id, { name: "Rui" });
  assert.equal((await laptop.table(table.game_id)).seats[0].name, "Ana Sousa");
  assert.equal((await laptop.signOutEverywhere()).signed_out, 2);
  await assert.rejects(phone.player(), (e) => e instanceof Unauthorized && e.code === "unknown_token");
});

test("a player's passkeys: the ways in, registration options, the list, an unknown one refused", async () => {
  const lobby = new Client(URL);
  assert.deepEqual(await lobby.signInMethods(), { codes: true, passkeys: true, oidc: false });
  const ana = lobby.asSeat((await lobby.makePlayer("Ana")).token);
  const { options, expires_in } = await ana.passkeyOptions();
  assert.equal(options.user.name, "Ana");
  assert.equal(options.authenticatorSelection.residentKey, "required");
  assert.ok(expires_in > 0 && typeof options.challenge === "string");
  assert.deepEqual(await ana.passkeys(), { passkeys: [] });
  await assert.rejects(ana.deletePasskey("nope"), (e) => e instanceof LudotecaError && e.code === "no_such_passkey");
  const signIn = await lobby.passkeySignInOptions();
  assert.equal(typeof signIn.options.challenge, "string");
  assert.equal(lobby.oidcStartUrl("/"), `${URL.replace(/\/+$/, "")}/api/v1/players/oidc/start?then=%2F`);
});
