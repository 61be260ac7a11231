// "Deal verified" (docs/fair-play.md): this browser's part of fair play at the table. It draws the
// entropy a person sends when they sit (kept per table, so a retry sends the same), checks each
// card the seat is dealt against the deck's commitment made before it was dealt (the seat's own
// `CardsOpened` openings, against `DeckCommitted`), and at the end checks the revealed seed against
// the hash the table opened with and every salt of the seat's openings against the key the seed and
// every seat's entropy give. Web Crypto only; the same construction as the TypeScript client's fair.ts
// (the web table has no build step to share it), both checked against the server's deals in tests.

const encoder = new TextEncoder();
const ENTROPY_BYTES = 32;

// The entropy this browser sends for its seat at `gameId`: drawn once, then the same on every retry.
export function entropyFor(gameId) {
  const kept = localStorage.getItem(`ludoteca.entropy.${gameId}`);
  if (kept) return kept;
  const drawn = newEntropy();
  keepEntropy(gameId, drawn);
  return drawn;
}

// 32 bytes from the device, in hex.
export function newEntropy() {
  return hex(crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES)));
}

export function keepEntropy(gameId, entropy) {
  localStorage.setItem(`ludoteca.entropy.${gameId}`, entropy);
}

export class DealTracker {
  constructor() {
    this.reset();
  }

  reset() {
    this.seat = null;
    this.seedHash = null;
    this.players = 0;
    this.entropies = [];
    this.commitments = new Map(); // version -> {count, root}
    this.openings = []; // this seat's, in order
    this.verified = new Set(); // items whose opening checked
    this.failed = []; // items whose opening did not
    this.ended = null; // null, or {seed: bool, salts: bool} once the seed is revealed and checked
    this.pending = Promise.resolve();
  }

  // One event of the seat's feed, in order; `changed` is called when a check finishes.
  see(version, ev, seat, changed) {
    this.seat = seat;
    if (ev.type === "TableOpened") {
      this.seedHash = ev.seed_hash || null;
      this.players = ev.players || 0;
      this.entropies = Array.from({ length: this.players }, () => "");
    } else if (ev.type === "SeatTaken") {
      this.entropies[ev.seat] = ev.entropy || "";
    } else if (ev.type === "DeckCommitted") {
      this.commitments.set(version, { count: ev.count, root: ev.root });
    } else if (ev.type === "CardsOpened") {
      const mine = (ev.openings || []).filter((o) => o.seat === seat);
      for (const opening of mine) {
        this.openings.push(opening);
        const made = this.commitments.get(opening.commitment);
        this.after(async () => {
          if (made && (await opens(opening, made))) this.verified.add(opening.item);
          else this.failed.push(opening.item);
        }, changed);
      }
    } else if (ev.type === "SeedRevealed") {
      this.after(async () => {
        const seed = this.seedHash !== null && hex(await sha256(fromHex(ev.seed))) === this.seedHash;
        const key = await tableKey(ev.seed, this.entropies);
        let salts = true;
        for (const o of this.openings) salts = salts && (await salt(key, o.commitment, o.position)) === o.salt;
        this.ended = { seed, salts };
      }, changed);
    }
  }

  after(check, changed) {
    this.pending = this.pending.then(check).catch(() => { this.ended = this.ended || { seed: false, salts: false }; }).then(changed);
  }

  // Whether the table dealt with fair play at all (a table opened by an older server did not).
  get sealed() {
    return this.seedHash !== null;
  }
}

async function opens(opening, committed) {
  try {
    let here = await leaf(fromHex(opening.salt), opening.position, opening.item);
    let position = opening.position;
    let count = committed.count;
    let used = 0;
    if (position < 0 || position >= count) return false;
    while (count > 1) {
      if ((position ^ 1) < count) {
        if (used >= opening.path.length) return false;
        const other = fromHex(opening.path[used++]);
        here = position % 2 === 0 ? await node(here, other) : await node(other, here);
      }
      position = Math.floor(position / 2);
      count = Math.ceil(count / 2);
    }
    return used === opening.path.length && hex(here) === committed.root;
  } catch {
    return false;
  }
}

async function tableKey(seed, entropies) {
  const parts = [encoder.encode("ludoteca table key")];
  for (const entropy of entropies) {
    const bytes = encoder.encode(entropy);
    parts.push(new Uint8Array([bytes.length >> 8, bytes.length & 255]), bytes);
  }
  return hmac(fromHex(seed), concat(...parts));
}

async function salt(key, commitment, position) {
  return hex((await hmac(key, concat(encoder.encode("ludoteca salt"), uint(commitment, 8), uint(position, 4)))).slice(0, 16));
}

function leaf(saltBytes, position, item) {
  return sha256(concat(new Uint8Array([0]), saltBytes, uint(position, 4), encoder.encode(item)));
}

function node(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

async function sha256(data) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

async function hmac(key, data) {
  const made = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", made, data));
}

function uint(value, bytes) {
  const out = new Uint8Array(bytes);
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = value % 256;
    value = Math.floor(value / 256);
  }
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  if (!/^([0-9a-f]{2})*$/.test(text)) throw new Error("not hex");
  return new Uint8Array((text.match(/../g) || []).map((pair) => parseInt(pair, 16)));
}
