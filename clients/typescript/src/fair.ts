// Fair play from a seat's side, in a browser or Node (docs/fair-play.md): the entropy a device draws when
// it sits, the "deal verified" check of each of the seat's cards against the commitment made before it was
// dealt, and, once a game is over, the checks of its export that need no rules (the seed against its hash,
// the table key, every commitment rebuilt from its items and salts, every opening). Web Crypto only.
import type { ExportHeader, LogLine, Opening } from "./generated/types.js";

const ENTROPY_BYTES = 32;
const encoder = new TextEncoder();

/** 32 random bytes from the device, in hex: what a seat sends as `entropy` when it sits (keep it). */
export function newEntropy(): string {
  return hex(globalThis.crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES)));
}

/** A commitment as its `DeckCommitted` fact gives it. */
export interface Committed {
  count: number;
  root: string;
  items?: string[] | null;
}

/** One of a seat's cards, checked against its commitment. */
export interface DealCheck {
  item: string;
  commitment: number;
  position: number;
  verified: boolean;
}

/** Whether `opening` shows its item at its place under `committed.root`. */
export async function opens(opening: Opening, committed: Committed): Promise<boolean> {
  try {
    const made = await leaf(fromHex(opening.salt), opening.position, opening.item);
    const top = await rootFrom(made, opening.position, committed.count, opening.path);
    return top !== null && top === committed.root;
  } catch {
    return false;
  }
}

/** Every opening the seat was sent in its feed (version and event pairs, in order), each checked against the
 * commitment made before it: one "deal verified" mark a card. */
export async function dealChecks(
  feed: Iterable<{ version: number; event: { type: string; [field: string]: unknown } }>,
  seat: number,
): Promise<DealCheck[]> {
  const commitments = new Map<number, Committed>();
  const checks: DealCheck[] = [];
  for (const { version, event } of feed) {
    if (event.type === "DeckCommitted") commitments.set(version, event as unknown as Committed);
    if (event.type !== "CardsOpened") continue;
    for (const opening of (event.openings as Opening[] | null) ?? []) {
      if (opening.seat !== seat) continue;
      const made = commitments.get(opening.commitment);
      const verified = made !== undefined && (await opens(opening, made));
      checks.push({ item: opening.item, commitment: opening.commitment, position: opening.position, verified });
    }
  }
  return checks;
}

/** Whether a revealed seed is the one `TableOpened.seed_hash` committed to. */
export async function seedMatches(seed: string, seedHash: string): Promise<boolean> {
  try {
    return hex(await sha256(fromHex(seed))) === seedHash;
  } catch {
    return false;
  }
}

/** The table key: HMAC-SHA256 of the seed over every seat's entropy in seat order, each after its length. */
export async function tableKey(seed: string, entropies: string[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [encoder.encode("ludoteca table key")];
  for (const entropy of entropies) {
    const bytes = encoder.encode(entropy);
    parts.push(new Uint8Array([bytes.length >> 8, bytes.length & 255]), bytes);
  }
  return hmac(fromHex(seed), concat(...parts));
}

/** The salt of item `position` of the commitment at version `commitment`, in hex. */
export async function salt(key: Uint8Array, commitment: number, position: number): Promise<string> {
  const message = concat(encoder.encode("ludoteca salt"), uint(commitment, 8), uint(position, 4));
  return hex((await hmac(key, message)).slice(0, 16));
}

/** The top of a commitment of `items` (its `DeckCommitted` at version `commitment`). */
export async function root(key: Uint8Array, commitment: number, items: string[]): Promise<string> {
  if (items.length === 0) return hex(await sha256(new Uint8Array()));
  let level: Uint8Array[] = [];
  for (let p = 0; p < items.length; p++) level.push(await leaf(fromHex(await salt(key, commitment, p)), p, items[p]));
  while (level.length > 1) {
    const up: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) up.push(await node(level[i], level[i + 1]));
    if (level.length % 2) up.push(level[level.length - 1]);
    level = up;
  }
  return hex(level[0]);
}

/** What a browser can check of an export without the game's rules (`ludoteca verify` also decides every step
 * again): the seed against its hash, every commitment rebuilt from its items and the salts the key gives,
 * every opening against its commitment, and in a seat's export, each opened card among the facts it was sent. */
export async function verifyExport(text: string): Promise<{ fair: boolean; checked: string[]; problems: string[] }> {
  const { header, lines } = readExport(text);
  const checked: string[] = [];
  const problems: string[] = [];
  const done = () => ({ fair: problems.length === 0 && checked.length > 0, checked, problems });
  if (header === null) {
    problems.push("a log of the first export format: no header, no commitments");
    return done();
  }
  const events = lines.map((line) => ({ version: line.version, event: line.event as { type: string; [f: string]: unknown } }));
  const opened = events.find((e) => e.event.type === "TableOpened")?.event;
  const seedHash = opened?.seed_hash as string | null | undefined;
  if (!seedHash) {
    problems.push("the table opened before fair play: it committed to no seed");
    return done();
  }
  const revealed = (events.find((e) => e.event.type === "SeedRevealed")?.event.seed as string | undefined) ?? (opened?.seed as string | null | undefined);
  let key: Uint8Array | null = null;
  if (revealed) {
    if (!(await seedMatches(revealed, seedHash))) {
      problems.push("the revealed seed's SHA-256 is not the hash TableOpened committed to");
      return done();
    }
    const entropies = Array.from({ length: header.players }, () => "");
    for (const { event } of events) if (event.type === "SeatTaken") entropies[event.seat as number] = (event.entropy as string) ?? "";
    key = await tableKey(revealed, entropies);
    checked.push("the server seed: its SHA-256 is the hash committed to when the table opened");
  }
  const commitments = new Map<number, Committed>();
  const seen = new Set<string>();
  let rebuilt = 0;
  let openings = 0;
  for (const { version, event } of events) {
    if (event.type === "DeckCommitted") {
      const made = event as unknown as Committed;
      commitments.set(version, made);
      if (key && made.items) {
        if (made.items.length !== made.count || (await root(key, version, made.items)) !== made.root) {
          problems.push(`version ${version}: the commitment's top is not its items' and salts'`);
          return done();
        }
        rebuilt++;
      }
    } else if (event.type === "CardsOpened") {
      for (const opening of (event.openings as Opening[] | null) ?? []) {
        const made = commitments.get(opening.commitment);
        if (!made || !(await opens(opening, made)) || (key && (await salt(key, opening.commitment, opening.position)) !== opening.salt)) {
          problems.push(`version ${version}: the opening of ${opening.item} for seat ${opening.seat} does not open`);
          return done();
        }
        if (header.viewpoint === "seat" && !seen.has(opening.item)) {
          problems.push(`version ${version}: ${opening.item} was opened, but no fact sent it`);
          return done();
        }
        openings++;
      }
    }
    for (const value of strings(event)) seen.add(value);
  }
  checked.push(`${openings} openings open their commitment` + (key ? `; ${rebuilt} commitments rebuilt from their items and salts` : ""));
  const decks = [...commitments].map(([version, made]) => ({ version, count: made.count, root: made.root }));
  const said = header.commitments;
  if (said.seed_hash !== seedHash || JSON.stringify(said.decks) !== JSON.stringify(decks)) {
    problems.push("the header's commitments are not the ones the facts make");
  }
  return done();
}

/** An export's header (null for a log of the first format) and its fact lines. */
export function readExport(text: string): { header: ExportHeader | null; lines: LogLine[] } {
  const rows = text.split("\n").filter((line) => line.trim());
  const first = rows.length ? (JSON.parse(rows[0]) as { format?: string }) : {};
  const header = first.format === "ludoteca-export" ? (JSON.parse(rows.shift() as string) as ExportHeader) : null;
  return { header, lines: rows.map((row) => JSON.parse(row) as LogLine) };
}

// -- the hashes ---------------------------------------------------------------------------------------------

async function leaf(saltBytes: Uint8Array, position: number, item: string): Promise<Uint8Array> {
  return sha256(concat(new Uint8Array([0]), saltBytes, uint(position, 4), encoder.encode(item)));
}

async function node(left: Uint8Array, right: Uint8Array): Promise<Uint8Array> {
  return sha256(concat(new Uint8Array([1]), left, right));
}

async function rootFrom(made: Uint8Array, position: number, count: number, path: string[]): Promise<string | null> {
  if (position < 0 || position >= count) return null;
  let here = made;
  let used = 0;
  while (count > 1) {
    if ((position ^ 1) < count) {
      if (used >= path.length) return null;
      const other = fromHex(path[used++]);
      here = position % 2 === 0 ? await node(here, other) : await node(other, here);
    }
    position = Math.floor(position / 2);
    count = Math.ceil(count / 2);
  }
  return used === path.length ? hex(here) : null;
}

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", data as BufferSource));
}

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const subtle = globalThis.crypto.subtle;
  const made = await subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", made, data as BufferSource));
}

function uint(value: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = bytes - 1; i >= 0; i--) {
    out[i] = value % 256;
    value = Math.floor(value / 256);
  }
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/.test(text)) throw new Error("not hex");
  return new Uint8Array(text.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? []);
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}
