// The load driver of `ludoteca bench`'s peer and capacity phases: one design for both servers.
//
// Tables of four seats, one socket per seat, every seat receiving every update; the seat the
// game awaits chooses a random legal move from what its own socket showed it, and the next
// move of a table waits until every seat holds the last one. The driver speaks each server's
// own protocol: Ludoteca's HTTP API and WebSocket (`--server ludoteca`), boardgame.io's Lobby
// API and socket.io (`--server bgio`).
//
// `node drive.js --server KIND --port N [--local-address 127.0.0.x]` reads one JSON request a
// line on stdin and answers each with one JSON line on stdout:
//   {"op": "create", "tables": n}        create n tables, every seat joined (over HTTP)
//   {"op": "connect", "tables": n}       open the seats' sockets of n created tables, wait for each one's first state
//   {"op": "play", "seconds": s, "pace": p | null, "warmup": w}
//        play every connected table: as fast as the server answers (pace null), or one move every
//        p seconds a table on average (uniform in [p/2, 3p/2]); a table whose game ends takes a
//        created table not yet connected, if any. Moves sent in the w seconds of warm-up are not
//        recorded. Prints {"window": "start"} and {"window": "end"} as the recorded window opens
//        and closes, then the answer: moves, the delays (ms) from each move sent to its arrival
//        on each seat, and the driver's own CPU time.
//   {"op": "close"}                      close every socket
// A request that fails is answered {"error": "..."}. stdin closed: the driver exits.
'use strict';

const http = require('http');
const readline = require('readline');
const { monitorEventLoopDelay, performance } = require('perf_hooks');

const WebSocket = require('ws');
const { io } = require('socket.io-client');

const { bonusRequired, MAX_BONUS } = require('./vilar');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const KIND = option('--server');
const PORT = Number(option('--port'));
const LOCAL = option('--local-address', '127.0.0.1');
const PLAYERS = 4;
const GAME = 'vilar-de-mouros';
const ARRIVAL_TIMEOUT_MS = 10000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16, localAddress: LOCAL });

function request(method, path, body) {
  const data = body === undefined ? '' : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        method,
        path,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode >= 300) reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function bounded(jobs, concurrency) {
  const results = new Array(jobs.length);
  let next = 0;
  async function lane() {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
  return results;
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];

// -- what a seat sees, the same shape for both servers, and the random legal move from it --------

// {version, turn, over, drawn, hand, centre, bonusRow, bonus, turnsLeft, deck}
function choose(seen) {
  const { drawn, hand, centre } = seen;
  if (drawn === 2) {
    const centreCard = pick(hand);
    return ['PlaceCards', [centreCard, pick(hand.filter((c) => c !== centreCard))]];
  }
  const options = [];
  if (drawn === 0 && seen.bonus < MAX_BONUS && seen.bonusRow.length) options.push(['TakeBonus', seen.bonusRow]);
  if (drawn === 0 && bonusRequired({ personal: [seen.personal], players: PLAYERS }, 0)) {
    return ['TakeBonus', [pick(seen.bonusRow)]];
  }
  if (seen.deck > 0) options.push(['DrawFromDeck', null]);
  if (centre.length) options.push(['DrawFromCentre', centre]);
  const [type, cards] = pick(options);
  return [type, cards === null ? [] : [pick(cards)]];
}

// -- Ludoteca: HTTP API, WebSocket --------------------------------------------------------------

const DRAWN = { action: 0, draw: 1, place: 2 };

const ludoteca = {
  async create() {
    const created = await request('POST', '/api/v1/games', { game: GAME, players: PLAYERS });
    const seats = [];
    for (let i = 0; i < PLAYERS; i++) {
      const joined = await request('POST', `/api/v1/games/${created.game_id}/seats`, {});
      seats[joined.seat] = joined.token;
    }
    return { id: created.game_id, seats };
  },

  open(table, seat, onSeen) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${PORT}/api/v1/games/${table.id}/ws`, {
        localAddress: LOCAL,
        perMessageDeflate: false,
      });
      table.raw[seat] = ws;
      let opened = false;
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', token: table.seats[seat], after: 0 })));
      ws.on('message', (data) => {
        const message = JSON.parse(data);
        if (message.type === 'error') {
          table.errors += 1;
          problem(`error ${message.error}`);
        }
        if (message.type !== 'update' || !message.view) return;
        const view = message.view;
        const mine = view.seats[seat];
        onSeen({
          version: message.version,
          turn: view.turn,
          over: view.finished,
          drawn: DRAWN[view.phase] ?? 0,
          hand: mine.hand,
          personal: mine.personal,
          centre: view.centre,
          bonusRow: view.bonus_row,
          bonus: mine.bonus_cards,
          deck: view.deck_count,
        });
        if (!opened) {
          opened = true;
          resolve({ close: () => ws.terminate() });
        }
      });
      ws.on('error', (e) => (opened ? (table.errors += 1) : reject(e)));
      ws.on('close', (code) => {
        if (live.has(table)) problem(`closed ${code}`);
        if (!opened) reject(new Error('closed before its first update'));
      });
    });
  },

  send(table, seat, [type, args]) {
    const fields = {
      TakeBonus: () => ({ card: args[0] }),
      DrawFromDeck: () => ({}),
      DrawFromCentre: () => ({ card: args[0] }),
      PlaceCards: () => ({ centre: args[0], personal: args[1] }),
    }[type]();
    table.raw[seat].send(
      JSON.stringify({ type: 'command', command: { type, ...fields }, command_id: `d${table.id}-${table.moves++}` }),
    );
  },
};

// -- boardgame.io: Lobby API, socket.io -------------------------------------------------------------

const bgio = {
  async create() {
    const { matchID } = await request('POST', `/games/${GAME}/create`, { numPlayers: PLAYERS });
    const seats = [];
    for (let i = 0; i < PLAYERS; i++) {
      const joined = await request('POST', `/games/${GAME}/${matchID}/join`, { playerID: String(i), playerName: `p${i}` });
      seats[i] = joined.playerCredentials;
    }
    return { id: matchID, seats };
  },

  open(table, seat, onSeen) {
    return new Promise((resolve, reject) => {
      // One connection a seat (forceNew: socket.io would share one per server), straight to
      // WebSocket (no long-polling first), no reconnection: what the bench measures is one socket.
      const socket = io(`http://127.0.0.1:${PORT}/${GAME}`, {
        forceNew: true,
        reconnection: false,
        transports: ['websocket'],
        localAddress: LOCAL,
        perMessageDeflate: false,
      });
      let opened = false;
      const seen = (state) => {
        const G = state.G;
        onSeen({
          version: state._stateID,
          turn: Number(state.ctx.currentPlayer),
          over: state.ctx.gameover !== undefined,
          drawn: G.drawn,
          hand: G.hands[seat],
          personal: G.personal[seat],
          centre: G.centre,
          bonusRow: G.bonusRow,
          bonus: G.personal[seat].filter((c) => c.startsWith('bonus-')).length,
          deck: G.deck,
        });
      };
      socket.on('connect', () => socket.emit('sync', table.id, String(seat), table.seats[seat], PLAYERS));
      socket.on('sync', (_, info) => {
        seen(info.state);
        if (!opened) {
          opened = true;
          resolve({ close: () => socket.disconnect() });
        }
      });
      socket.on('update', (_, state) => seen(state));
      socket.on('connect_error', (e) => (opened ? (table.errors += 1) : reject(e)));
      socket.on('disconnect', (reason) => {
        if (live.has(table)) problem(`disconnected: ${reason}`);
        if (!opened) reject(new Error('closed before its first state'));
      });
      table.raw[seat] = socket;
    });
  },

  send(table, seat, [type, args]) {
    const action = { type: 'MAKE_MOVE', payload: { type, args, playerID: String(seat), credentials: table.seats[seat] } };
    table.raw[seat].emit('update', action, table.version, table.id, String(seat));
    table.moves += 1;
  },
};

const SERVER = { ludoteca, bgio }[KIND];

// -- tables --------------------------------------------------------------------------------------

const problems = {}; // what went wrong (an error message's code, a socket closed by the server), counted

function problem(what) {
  problems[what] = (problems[what] || 0) + 1;
}

const created = []; // tables created, not yet connected
const live = new Set(); // connected tables
let playing = null; // the play request under way: {record, delays, moves, pace, ...}

function newTable({ id, seats }) {
  return { id, seats, sockets: [], raw: [], seen: [], version: -1, errors: 0, moves: 0, pending: null, timer: null };
}

async function connect(table) {
  const jobs = [];
  for (let seat = 0; seat < PLAYERS; seat++) {
    jobs.push(
      SERVER.open(table, seat, (s) => arrived(table, seat, s)).then((handle) => {
        table.sockets[seat] = handle;
      }),
    );
  }
  const opened = await Promise.allSettled(jobs);
  const failed = opened.filter((o) => o.status === 'rejected');
  if (failed.length) throw failed[0].reason;
  live.add(table);
}

function closeTable(table) {
  clearTimeout(table.timer);
  live.delete(table);
  for (const s of table.sockets) if (s) s.close();
}

// A seat's socket showed it a state.
function arrived(table, seat, seen) {
  const previous = table.seen[seat];
  if (previous !== undefined && seen.version <= previous.version) return;
  table.seen[seat] = seen;
  const pending = table.pending;
  if (pending && seen.version > pending.version && !pending.arrived[seat]) {
    pending.arrived[seat] = true;
    pending.left -= 1;
    if (pending.record) {
      const delay = Math.round((performance.now() - pending.at) * 100) / 100;
      playing.delays.push(delay);
      // When the slow arrivals happened (s into the window), and on which table: where the tail comes from.
      if (delay > 50 && playing.slow.length < 1000) {
        playing.slow.push([Math.round(pending.at - playing.recordFrom) / 1000, delay, table.id]);
      }
    }
    if (pending.left === 0) settled(table);
  } else if (!pending && playing && playing.pace === null) {
    move(table); // a table connected during play: its awaited seat's first state starts it
  }
}

function settled(table) {
  clearTimeout(table.pending.timeout);
  table.pending = null;
  if (!playing) return;
  if (table.seen.some((s) => s.over)) {
    ended(table);
  } else if (playing.pace === null || performance.now() >= table.due) {
    move(table);
  }
}

function ended(table) {
  playing.ended += 1;
  closeTable(table);
  const next = created.shift();
  if (next && playing) {
    connect(next).then(
      () => playing && (playing.pace === null ? move(next) : schedule(next, performance.now())),
      () => (playing.refused += 1),
    );
  }
}

// The awaited seat sends its move; every seat must then show a later state.
function move(table) {
  if (!playing || table.pending || !live.has(table) || table.seen.filter(Boolean).length < PLAYERS) return;
  // Every seat holds the same state here (a table's move waits for every seat's arrival).
  const latest = Math.max(...table.seen.map((s) => s.version));
  const shown = table.seen.find((s) => s.version === latest);
  if (shown.over) return ended(table);
  const turn = shown.turn;
  const mine = table.seen[turn];
  if (mine.version !== latest) return; // the awaited seat has not seen it yet: its arrival settles the table
  table.version = latest;
  const now = performance.now();
  const record = now >= playing.recordFrom && now < playing.recordUntil;
  table.pending = { version: latest, at: now, arrived: [], left: PLAYERS, record };
  table.pending.timeout = setTimeout(() => {
    if (table.pending && table.pending.at === now) {
      if (record) playing.missed += table.pending.left;
      table.pending = null;
      ended(table);
    }
  }, ARRIVAL_TIMEOUT_MS);
  if (record) playing.moves += 1;
  if (playing.pace !== null) schedule(table, now);
  SERVER.send(table, turn, choose(mine));
}

function schedule(table, from) {
  table.due = from + playing.pace * 1000 * (0.5 + Math.random());
  clearTimeout(table.timer);
  table.timer = setTimeout(() => move(table), table.due - performance.now());
}

async function play({ seconds, pace = null, warmup = 0 }) {
  const start = performance.now();
  playing = {
    pace,
    recordFrom: start + warmup * 1000,
    recordUntil: start + (warmup + seconds) * 1000,
    delays: [],
    slow: [],
    moves: 0,
    missed: 0,
    ended: 0,
    refused: 0,
  };
  const state = playing;
  for (const table of live) {
    if (pace === null) move(table);
    else {
      // The tables' first moves are spread over one period, so that they do not all move at once.
      table.due = start + pace * 1000 * Math.random();
      table.timer = setTimeout(() => move(table), table.due - start);
    }
  }
  await sleep(warmup * 1000);
  const cpuBefore = process.cpuUsage();
  // How late the driver's own event loop ran (a driver short of CPU shows it here first).
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  say({ window: 'start' });
  await sleep(seconds * 1000);
  say({ window: 'end' });
  lag.disable();
  const cpu = process.cpuUsage(cpuBefore);
  // The moves of the window still on their way land (or time out) before the answer.
  const drain = performance.now() + ARRIVAL_TIMEOUT_MS + 1000;
  while ([...live].some((t) => t.pending && t.pending.record) && performance.now() < drain) await sleep(20);
  playing = null;
  for (const table of live) clearTimeout(table.timer);
  const errors = [...live].reduce((sum, t) => sum + t.errors, 0);
  return {
    moves: state.moves,
    seconds,
    delays: state.delays,
    slow: state.slow,
    missed: state.missed,
    ended: state.ended,
    refused: state.refused,
    errors,
    problems,
    tables: live.size,
    driver_cpu: (cpu.user + cpu.system) / 1e6,
    driver_lag_ms: { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
    driver_rss: process.memoryUsage().rss,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function say(answer) {
  process.stdout.write(JSON.stringify(answer) + '\n');
}

const OPS = {
  async create({ tables }) {
    const t0 = performance.now();
    const made = await bounded(Array.from({ length: tables }, () => () => SERVER.create()), 16);
    created.push(...made.map(newTable));
    return { created: tables, seconds: (performance.now() - t0) / 1000 };
  },
  async connect({ tables, concurrency = 40 }) {
    const t0 = performance.now();
    const batch = created.splice(0, tables);
    let refused = 0;
    await bounded(
      batch.map((table) => () => connect(table).catch(() => (refused += 1) && closeTable(table))),
      Math.max(1, Math.floor(concurrency / PLAYERS)),
    );
    return { connected: (batch.length - refused) * PLAYERS, refused: refused * PLAYERS, seconds: (performance.now() - t0) / 1000 };
  },
  play,
  async close() {
    const n = live.size;
    for (const table of [...live]) closeTable(table);
    return { closed: n * PLAYERS };
  },
};

const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  const req = JSON.parse(line);
  queue = queue.then(async () => {
    try {
      say(await OPS[req.op](req));
    } catch (e) {
      say({ error: String(e && e.stack ? e.stack : e) });
    }
  });
});
lines.on('close', () => queue.then(() => process.exit(0)));
