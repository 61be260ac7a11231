// The lobby: the catalog with a form per game built from its options, the open tables, the games
// this browser holds a seat in, the active games to watch.

import { get, post, catalog, keepSeat, mySeats } from "./api.js";
import { h, clear, errorMessage, humanize } from "./ui.js";
import { seatNamer, BOT_LEVELS } from "./names.js";

function optionInput(name, value, bounds) {
  const id = `opt-${name}`;
  if (typeof value === "boolean") {
    return h("label", { class: "option" }, h("input", { type: "checkbox", name, id, "data-option": name, checked: value }), " ", humanize(name));
  }
  if (typeof value === "number") {
    return h("label", { class: "option" }, humanize(name), " ", h("input", { type: "number", name, id, "data-option": name, value: String(value), step: "1", min: bounds ? bounds[0] : null, max: bounds ? bounds[1] : null }));
  }
  return h("label", { class: "option" }, humanize(name), " ",
    h("input", { type: "text", name, id, "data-option": name, "data-json": typeof value === "string" ? null : "1", value: typeof value === "string" ? value : JSON.stringify(value) }));
}

function readOptions(form, defaults) {
  const options = {};
  for (const input of form.querySelectorAll("[data-option]")) {
    const name = input.getAttribute("data-option");
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") value = Number(input.value);
    else if (input.hasAttribute("data-json")) value = JSON.parse(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(defaults[name])) options[name] = value;
  }
  return options;
}

export async function createAndSit(game, players, options, name, sit, clock = null, takeover = null) {
  const body = { game, players, options };
  if (clock) body.clock = clock;
  if (takeover) body.takeover = takeover;
  const created = await post("/games", body);
  // the creator may call the table off until it starts (docs/table-services.md)
  localStorage.setItem(`ludoteca.creator.${created.game_id}`, created.creator_token);
  if (sit) {
    const body = {};
    if (name) body.name = name;
    const seat = await post(`/games/${created.game_id}/seats`, body);
    keepSeat(created.game_id, { seat: seat.seat, token: seat.token, game });
  }
  return created.game_id;
}

export async function joinFirstFree(gameId, game, name) {
  const body = {};
  if (name) body.name = name;
  const seat = await post(`/games/${gameId}/seats`, body);
  keepSeat(gameId, { seat: seat.seat, token: seat.token, game });
  return seat;
}

function gameForm(entry, nameInput) {
  const players = h("input", { type: "number", min: entry.min_players, max: entry.max_players, value: String(entry.min_players), "data-field": "players", "aria-label": "players" });
  const sit = h("input", { type: "checkbox", checked: true, "data-field": "sit" });
  // a turn clock (docs/table-services.md): none, per move, or for the whole game
  const clock = h("select", { "data-field": "clock", "aria-label": "turn clock" },
    h("option", { value: "" }, "no clock"),
    h("option", { value: "move:60" }, "1 minute a move"),
    h("option", { value: "move:300" }, "5 minutes a move"),
    h("option", { value: "game:900" }, "15 minutes a game"));
  // who plays on for a seat whose player leaves (the server's default: greedy)
  const takeover = h("select", { "data-field": "takeover", "aria-label": "bot for a seat that leaves" },
    h("option", { value: "" }, "a casual bot"),
    BOT_LEVELS.filter(([value]) => value !== "casual").map(([value, label]) => h("option", { value }, `a ${label} bot`)));
  const form = h("form", { class: "game-form panel", "data-game": entry.game },
    h("h3", {}, entry.title),
    h("div", { class: "muted" }, `${entry.min_players}–${entry.max_players} players`),
    h("label", {}, "Players ", players),
    Object.keys(entry.options || {}).length ? h("fieldset", {}, h("legend", {}, "Options"),
      Object.entries(entry.options).map(([k, v]) => optionInput(k, v, (entry.bounds || {})[k]))) : null,
    h("label", {}, "Turn clock ", clock, " (out of time: a bot plays the move)"),
    h("label", {}, "If a player leaves, ", takeover, " plays on"),
    h("label", {}, sit, " take a seat myself"),
    h("button", { type: "submit", class: "primary", "data-testid": `create-${entry.game}` }, "Create table"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const options = readOptions(form, entry.options || {});
      const name = nameInput.value.trim();
      if (name) localStorage.setItem("ludoteca.name", name);
      const [per, seconds] = clock.value.split(":");
      const turnClock = clock.value ? { per, seconds: Number(seconds), on_timeout: "bot_move" } : null;
      const gameId = await createAndSit(entry.game, Number(players.value), options, name, sit.checked, turnClock, takeover.value);
      location.hash = `#/game/${gameId}`;
    } catch (err) {
      errorMessage(err, "Creating the table");
    }
  });
  return form;
}

function gameRow(g, titles, nameInput, held) {
  const mine = held.get(g.game_id);
  return h("tr", { "data-game-id": g.game_id },
    h("td", {}, titles.get(g.game) || "a game"),
    h("td", {}, g.status === "open" ? `${g.seats_taken} of ${g.players} seated` : `${g.players} players${g.bots.length ? `, ${g.bots.length} bot${g.bots.length === 1 ? "" : "s"}` : ""}`),
    h("td", {},
      mine ? h("a", { href: `#/game/${g.game_id}`, class: "button" }, `play (seat ${mine.seat + 1})`) : null,
      g.status === "open" && !mine ? h("button", {
        onclick: async () => {
          try {
            await joinFirstFree(g.game_id, g.game, nameInput.value.trim());
            location.hash = `#/game/${g.game_id}`;
          } catch (err) { errorMessage(err, "Joining"); }
        },
      }, "join") : null, " ",
      g.status === "finished" ? h("a", { href: `#/replay/${g.game_id}`, class: "button" }, "replay") : null, " ",
      h("a", { href: `#/watch/${g.game_id}`, class: "button" }, "watch")));
}

async function listGames(status, pages = 1) {
  try {
    let games = [];
    let cursor = null;
    for (let i = 0; i < pages; i++) {
      const answer = await get("/games", { params: { status, limit: 200, cursor } });
      games = games.concat(answer.games);
      cursor = answer.next_cursor;
      if (cursor === null || cursor === undefined) break;
    }
    return games;
  } catch (err) {
    errorMessage(err, `Listing ${status} games`);
    return [];
  }
}

export async function showLobby(root) {
  clear(root, h("p", {}, "Loading the lobby…"));
  let games;
  try {
    games = await catalog();
  } catch (err) {
    clear(root, h("p", { class: "message error" }, `The catalog could not be read: ${err.message}`));
    return;
  }
  const titles = new Map(games.map((g) => [g.game, g.title]));
  const nameInput = h("input", { type: "text", maxlength: 40, placeholder: "your name", value: localStorage.getItem("ludoteca.name") || "", "data-testid": "name", "aria-label": "your name" });
  const [open, active] = await Promise.all([listGames("open"), listGames("active")]);
  const held = new Map(mySeats().map((s) => [s.gameId, s]));
  const table = (rows, empty) => (rows.length ? h("table", { class: "games" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Seats"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Actions")))),
    h("tbody", {}, rows.map((g) => gameRow(g, titles, nameInput, held))))
    : h("p", { class: "muted" }, empty));
  clear(root, h("div", { class: "lobby" },
    h("div", { class: "lobby-head" }, h("h1", {}, "Lobby"), h("label", {}, "Your name ", nameInput),
      h("button", { onclick: () => showLobby(root) }, "refresh")),
    h("h2", {}, "New table"),
    h("div", { class: "game-forms" }, games.map((g) => gameForm(g, nameInput))),
    h("h2", {}, "Open tables"), h("div", { "data-testid": "open-games" }, table(open, "No open table: create one.")),
    held.size ? [h("h2", {}, "Your seats"), h("ul", { class: "my-seats" }, [...held.values()].slice(0, 12).map((s) =>
      h("li", {}, h("a", { href: `#/game/${s.gameId}` }, `${titles.get(s.game) || "a game"}, seat ${s.seat + 1}`))))] : null,
    h("h2", {}, "Being played"), h("div", { "data-testid": "active-games" }, table(active, "Nothing is being played right now."))));
}

// When a game ended, in the player's own language and time zone ("1 Dec 2026, 12:40").
const ended = (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

// The finished games, newest first: when, players, winner and scores (each game's table, read for it).
export async function showReplays(root) {
  clear(root, h("p", {}, "Loading…"));
  const games = await catalog().catch(() => []);
  const titles = new Map(games.map((g) => [g.game, g.title]));
  const finished = (await listGames("finished", 10)).slice(-100).reverse();
  const shown = finished.slice(0, 25);
  const tables = await Promise.all(shown.map((g) => get(`/games/${g.game_id}`).catch(() => null)));
  const idInput = h("input", { type: "text", placeholder: "game id", "aria-label": "game id", pattern: "[0-9a-f]{16}" });
  const row = (g, t) => {
    const seats = (t && t.seats) || [];
    const name = seatNamer(seats);
    const o = t && t.outcome;
    const scored = o && o.scores;
    return h("tr", { "data-game-id": g.game_id },
      h("td", { "data-testid": "finished" }, g.finished_ms ? h("time", { datetime: new Date(g.finished_ms).toISOString() }, ended(g.finished_ms)) : ""),
      h("td", {}, titles.get(g.game) || "a game"),
      h("td", {}, seats.map((s, i) => name(i)).join(", ")),
      h("td", { "data-testid": "winner" }, scored ? (o.winners || []).map(name).join(" and ") : o && o.reason === "cancelled" ? "called off" : "nobody"),
      h("td", { "data-testid": "scores" }, scored ? o.scores.map((s, i) => `${name(i)} ${s}`).join(", ") : ""),
      h("td", {}, h("a", { href: `#/replay/${g.game_id}`, class: "button" }, "replay")));
  };
  clear(root, h("div", { class: "lobby" },
    h("h1", {}, "Replays"),
    h("form", { onsubmit: (e) => { e.preventDefault(); location.hash = `#/replay/${idInput.value.trim()}`; } },
      "Open a game by id: ", idInput, " ", h("button", { type: "submit" }, "open")),
    h("h2", {}, "Finished games, newest first"),
    shown.length ? h("table", { class: "games", "data-testid": "replays" },
      h("thead", {}, h("tr", {}, ["Finished", "Game", "Players", "Winner", "Scores"].map((c) => h("th", { scope: "col" }, c)), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Replay")))),
      h("tbody", {}, shown.map((g, i) => row(g, tables[i]))))
      : h("p", { class: "muted" }, "No finished game yet."),
    finished.length > shown.length ? h("p", { class: "muted" }, `and ${finished.length - shown.length} older games`) : null));
}
