// A game's WebSocket (docs/API.md, "WebSocket"; docs/asyncapi.yaml): every update in order, resumed after a
// dropped connection from the last version held and its `check`, with back-off; commands answered by their
// acks, moves requests by their steps. The rules of the close codes are those of the Python SDK
// (clients/python/stream.py): resume, start again (4009), or give up with the server's reason.
import type { Client, SendOptions } from "./client.js";
import { newCommandId } from "./ids.js";
import { apiError, Forbidden, LudotecaError, Reset, socketError, Unavailable, Unreachable } from "./errors.js";
import type {
  AckMessage,
  Command,
  ErrorMessage,
  Pick,
  Presence,
  ResetMessage,
  StepMessage,
  UpdateMessage,
} from "./generated/types.js";
import { Move, type Start } from "./moves.js";

/** What this client uses of a WebSocket: the browsers', Node 22's, or the `ws` package's. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketClass = new (url: string) => WebSocketLike;

export interface LiveOptions {
  /** The last version already held (0: everything); the server sends what comes after it. */
  after?: number;
  /** The `check` of the update that brought version `after`, so that a server whose history changed resets. */
  check?: string | null;
  /** Also be told who is at the table (`onPresence`). */
  presence?: boolean;
  onPresence?: (presence: Presence) => void;
  /** Failed reconnections in a row before giving up (`Unreachable`): 8. */
  maxReconnects?: number;
  /** The first back-off delay, doubled on each failure up to `maxDelayMs`: 100 ms, 5 s. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

const OPEN = 1;
const CLOSE_NORMAL = 1000;
const CLOSE_DENIED = 4003; // the hello was refused: never retry with the same token
const CLOSE_RESET = 4009; // the history is shorter than (or other than) what is held: start again from 0
// A close that says "come back": going away, cut (1005: no code, 1006: no close frame), the store down,
// the server restarting, too slow, flooded.
const RESUME_CODES = new Set([1001, 1005, 1006, 1011, 1012, 4008, 4029]);

interface Pending<T> {
  message: string;
  resolve: (value: T) => void;
  reject: (error: LudotecaError) => void;
  throttled: number; // times the server answered it too_many
}

// A message the socket's rate limit refused (too_many: 20 a second, bursts of 40) is sent again after a
// pause, doubled each time, before its refusal is given up to the caller.
const THROTTLE_DELAY_MS = 100;
const THROTTLE_TRIES = 6;

type ServerMessage = UpdateMessage | AckMessage | StepMessage | ErrorMessage | ResetMessage | Presence;

async function webSocketClass(given?: WebSocketClass): Promise<WebSocketClass> {
  if (given) return given;
  const global = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (typeof global === "function") return global as WebSocketClass;
  const name = "ws"; // Node 20 has no WebSocket of its own: the `ws` package's (not bundled for browsers)
  const module = (await import(/* @vite-ignore */ name)) as { WebSocket?: WebSocketClass; default?: WebSocketClass };
  const found = module.WebSocket ?? module.default;
  if (!found) throw new Unavailable(503, "unreachable", "No WebSocket: pass options.WebSocket, or install ws.");
  return found;
}

/** One game's live updates: `for await (const update of live)`; `send` and `moves` ride the same socket. */
export class Live implements AsyncIterable<UpdateMessage> {
  readonly client: Client;
  readonly gameId: string;
  /** The last version received, and that update's check (what a resume sends). */
  version: number;
  check: string | null;
  /** Reconnections so far. */
  resumes = 0;
  private failures = 0;
  private readonly options: LiveOptions;
  private socket: WebSocketLike | null = null;
  private greeted = false;
  private stopping = false;
  private ended: { error: LudotecaError | null } | null = null;
  private refusal: ErrorMessage | ResetMessage | null = null;
  private readonly queue: UpdateMessage[] = [];
  private waiter: { resolve: () => void } | null = null;
  private readonly commands = new Map<string, Pending<AckMessage>>();
  private readonly requests = new Map<string, Pending<StepMessage>>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(client: Client, gameId: string, options: LiveOptions = {}) {
    this.client = client;
    this.gameId = gameId;
    this.options = options;
    this.version = options.after ?? 0;
    this.check = options.check ?? null;
    void this.connect();
  }

  // -- what a caller does -----------------------------------------------------------------------------

  /** Send a command on the socket; its ack (or the refusal, as the error of its code). Resent after a
   * reconnection under the same id, which the server answers as the first time. */
  send(command: Command, options: SendOptions = {}): Promise<AckMessage> {
    const commandId = options.commandId ?? newCommandId();
    const message = { type: "command", command, command_id: commandId, expected_version: options.expectedVersion ?? null };
    return this.ask(this.commands, commandId, message);
  }

  /** The next step of a move after `picks`, over the socket (as `Client.moves`). */
  moves(picks: Pick[]): Promise<StepMessage> {
    const requestId = newCommandId();
    const message = { type: "moves", picks: picks.map(({ field, value }) => ({ field, value })), request_id: requestId };
    return this.ask(this.requests, requestId, message);
  }

  /** A move to build from `start` (an update's step...), its next steps asked on this socket. */
  move(start: Start): Move {
    return Move.from(this.client, this.gameId, start, this);
  }

  /** Close the socket; the updates end. */
  close(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(CLOSE_NORMAL);
    this.finish(null);
  }

  [Symbol.asyncIterator](): AsyncIterator<UpdateMessage> {
    return {
      next: async () => {
        for (;;) {
          const update = this.queue.shift();
          if (update) return { value: update, done: false };
          if (this.ended) {
            if (this.ended.error) throw this.ended.error;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (this.waiter = { resolve }));
        }
      },
      return: async () => {
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  // -- the socket -------------------------------------------------------------------------------------

  private async connect(): Promise<void> {
    this.timer = null;
    if (this.ended) return;
    let socket: WebSocketLike;
    try {
      const WS = await webSocketClass(this.client.options.WebSocket);
      socket = new WS(this.client.socketUrl(this.gameId));
    } catch (error) {
      this.finish(error instanceof LudotecaError ? error : new Unavailable(503, "unreachable", String(error)));
      return;
    }
    this.socket = socket;
    this.greeted = false;
    this.refusal = null;
    socket.onopen = () => {
      const hello = {
        type: "hello",
        token: this.client.token,
        after: this.version,
        check: this.check || null,
        presence: this.options.presence ?? false,
        ...(this.client.options.lang ? { lang: this.client.options.lang } : {}),
      };
      socket.send(JSON.stringify(hello));
      this.greeted = true;
      for (const pending of [...this.commands.values(), ...this.requests.values()]) socket.send(pending.message);
    };
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onerror = () => {}; // a close follows, with its code
    socket.onclose = (event) => {
      if (this.socket === socket) this.closed(event.code, event.reason);
    };
  }

  private ask<T>(pending: Map<string, Pending<T>>, id: string, message: unknown): Promise<T> {
    if (this.ended) return Promise.reject(this.ended.error ?? ENDED());
    return new Promise<T>((resolve, reject) => {
      const text = JSON.stringify(message);
      pending.set(id, { message: text, resolve, reject, throttled: 0 });
      if (this.socket && this.socket.readyState === OPEN && this.greeted) this.socket.send(text);
    });
  }

  private receive(raw: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(raw) as ServerMessage;
    } catch {
      return;
    }
    switch (message.type) {
      case "update":
        if (message.version < this.version) return; // never a version twice
        this.failures = 0;
        this.version = message.version;
        this.check = message.check ?? null;
        this.queue.push(message);
        this.wake();
        return;
      case "ack":
        return settle(this.commands, message.command_id, (p) => p.resolve(message));
      case "step":
        return settle(this.requests, message.request_id, (p) => p.resolve(message));
      case "error":
        if (message.error === "too_many" && this.again(message.command_id ?? message.request_id)) return;
        if (message.command_id != null && this.commands.has(message.command_id)) {
          return settle(this.commands, message.command_id, (p) => p.reject(socketError(message)));
        }
        if (message.request_id != null && this.requests.has(message.request_id)) {
          return settle(this.requests, message.request_id, (p) => p.reject(socketError(message)));
        }
        this.refusal = message; // it explains the close that follows
        return;
      case "reset":
        this.refusal = message;
        return;
      case "presence":
        this.options.onPresence?.(message);
        return;
      default:
        return; // a message type this client does not know: ignore it, as the API asks
    }
  }

  /** Send a throttled command or moves request again after a pause; false once it was tried enough. */
  private again(id: string | null | undefined): boolean {
    const pending = id == null ? undefined : (this.commands.get(id) ?? this.requests.get(id));
    if (!pending || pending.throttled >= THROTTLE_TRIES) return false;
    const delay = THROTTLE_DELAY_MS * 2 ** pending.throttled;
    pending.throttled += 1;
    setTimeout(() => {
      if (this.socket && this.socket.readyState === OPEN && this.greeted && !this.ended) this.socket.send(pending.message);
    }, delay);
    return true;
  }

  private closed(code: number, reason: string): void {
    this.socket = null;
    if (this.stopping || this.ended) return this.finish(null);
    const refusal = this.refusal;
    if (code === CLOSE_RESET) {
      const version = refusal?.type === "reset" ? refusal.version : null;
      return this.finish(new Reset(409, "reset", "The game's history is shorter than what was held.", { version }));
    }
    if (code === CLOSE_DENIED) {
      if (refusal?.type === "error") return this.finish(socketError(refusal));
      return this.finish(new Forbidden(403, reason || "denied", "The server refused the hello."));
    }
    if (code === CLOSE_NORMAL) return this.finish(null);
    if (!RESUME_CODES.has(code)) {
      const error = refusal?.type === "error" ? refusal.error : reason || "closed";
      const text = refusal?.type === "error" ? refusal.message : `The socket closed with ${code}.`;
      return this.finish(apiError(400, error, text, { close: code }));
    }
    const most = this.options.maxReconnects ?? 8;
    if (this.failures >= most) {
      return this.finish(new Unreachable(503, "unreachable", `Gave up after ${this.failures} reconnects.`, { close: code }));
    }
    const delay = Math.min(this.options.maxDelayMs ?? 5000, (this.options.firstDelayMs ?? 100) * 2 ** this.failures);
    this.failures += 1;
    this.resumes += 1;
    this.timer = setTimeout(() => void this.connect(), delay);
  }

  private finish(error: LudotecaError | null): void {
    if (this.ended) return;
    this.ended = { error };
    const why = error ?? ENDED();
    for (const pending of [...this.commands.values(), ...this.requests.values()]) pending.reject(why);
    this.commands.clear();
    this.requests.clear();
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve();
  }
}

const ENDED = () => new Unavailable(503, "closed", "The game's socket was closed: watch it again.");

function settle<T>(pending: Map<string, Pending<T>>, id: string | null | undefined, act: (p: Pending<T>) => void): void {
  if (id == null) return;
  const found = pending.get(id);
  if (!found) return;
  pending.delete(id);
  act(found);
}
