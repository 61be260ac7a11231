// Every REST route of the API (docs/API.md, "Routes"), as one method each, answering the generated types.
import { apiError, LudotecaError, Unreachable } from "./errors.js";
import type {
  Catalog,
  Clock,
  Command,
  CommandAnswer,
  EventPage,
  GameComponents,
  GameId,
  GameList,
  Health,
  Imported,
  Joined,
  LegalCommands,
  LobbyEntry,
  LogLine,
  MoveStep,
  NewGame,
  Pick,
  Rematch,
  Languages,
  TableView,
  VersionedEvent,
  Words,
} from "./generated/types.js";
import { newCommandId } from "./ids.js";
import { Live, type LiveOptions, type WebSocketClass } from "./live.js";
import { Move, type Start } from "./moves.js";

export const DEFAULT_URL = "http://127.0.0.1:8000";

/** (method and path as /openapi.json writes them) -> the method of `Client` that calls it. */
export const ROUTES = {
  "GET /api/v1/words": "languages",
  "GET /api/v1/words/{lang}": "words",
  "GET /api/v1/games/catalog": "catalog",
  "GET /api/v1/games/catalog/{game}": "components",
  "POST /api/v1/games": "create",
  "DELETE /api/v1/games/{game_id}": "callOff",
  "POST /api/v1/games/{game_id}/rematch": "rematch",
  "GET /api/v1/games": "games",
  "POST /api/v1/games/import": "importLog",
  "POST /api/v1/games/{game_id}/seats": "join",
  "GET /api/v1/games/{game_id}": "table",
  "GET /api/v1/games/{game_id}/legal-commands": "legal",
  "POST /api/v1/games/{game_id}/moves": "moves",
  "POST /api/v1/games/{game_id}/commands": "send",
  "GET /api/v1/games/{game_id}/events": "events",
  "GET /api/v1/games/{game_id}/replay": "replay",
  "GET /api/v1/games/{game_id}/export": "exportLog",
  "GET /api/v1/games/{game_id}/ws": "watch",
  "GET /healthz": "health",
  "GET /readyz": "ready",
} as const;

export interface ClientOptions {
  /** A seat token (or the admin's, or a table's creator token); none: a spectator. */
  token?: string | null;
  /** How long one request may take, in milliseconds (10 s). */
  timeoutMs?: number;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
  /** The WebSocket class for `watch` (the global one; on Node 20, the `ws` package's). */
  WebSocket?: WebSocketClass;
  /** The language of the server's error messages (pt, gl, es, en): sent as Accept-Language and in the hello.
   * None: the server's default (English), or what the browser's own Accept-Language asks for. */
  lang?: string;
}

export interface SendOptions {
  /** Makes the command safe to retry: the same id and body is answered as the first time (a fresh one by default). */
  commandId?: string;
  /** The version the command was decided at; another is refused with 409 version_conflict. */
  expectedVersion?: number | null;
}

type Query = Record<string, string | number | null | undefined>;

interface Call {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Query;
  body?: unknown;
  text?: string; // a body already written (JSON lines)
}

const game = (gameId: string, rest = "") => `/api/v1/games/${encodeURIComponent(gameId)}${rest}`;

/** One caller of one server: a spectator without a token, else the seat (or the admin) its token names. */
export class Client {
  readonly baseUrl: string;
  readonly token: string | null;
  readonly options: ClientOptions;

  constructor(baseUrl: string = DEFAULT_URL, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? null;
    this.options = options;
  }

  /** Another client of the same server, for what `token` holds (null: a spectator). */
  asSeat(token: string | null): Client {
    return new Client(this.baseUrl, { ...this.options, token });
  }

  // -- words ------------------------------------------------------------------------------------------

  /** The languages the server's messages are written in, and its default. */
  languages(): Promise<Languages> {
    return this.json({ method: "GET", path: "/api/v1/words" });
  }

  /** Every message catalog in `lang` (this client's, else English), to render codes and events (docs/i18n.md). */
  words(lang?: string): Promise<Words> {
    const which = lang ?? this.options.lang ?? "en";
    return this.json({ method: "GET", path: `/api/v1/words/${encodeURIComponent(which)}` });
  }

  // -- the lobby --------------------------------------------------------------------------------------

  /** The games this server hosts, with their options and defaults. */
  catalog(): Promise<Catalog> {
    return this.json({ method: "GET", path: "/api/v1/games/catalog" });
  }

  /** A game's printed parts as data (cards, map, tiles), to draw it. */
  components(gameKind: GameId): Promise<GameComponents> {
    return this.json({ method: "GET", path: `/api/v1/games/catalog/${encodeURIComponent(gameKind)}` });
  }

  /** Open a table; it starts when its last seat is taken. Keep `creator_token` to call it off. */
  create<G extends GameId>(
    gameKind: G,
    players: number,
    options: Record<string, unknown> = {},
    clock: Clock | null = null,
  ): Promise<NewGame> {
    const body = { game: gameKind, players, options, ...(clock ? { clock } : {}) };
    return this.json({ method: "POST", path: "/api/v1/games", body });
  }

  /** Call off a table that has not started (this client's token must be its creator token). */
  callOff(gameId: string): Promise<LobbyEntry> {
    return this.json({ method: "DELETE", path: game(gameId) });
  }

  /** Sit at the finished game's rematch, in the same seat (this client's token must be a seat's). */
  rematch(gameId: string): Promise<Rematch> {
    return this.json({ method: "POST", path: game(gameId, "/rematch") });
  }

  /** One page of tables by status, oldest first; `next_cursor` is the next page's cursor (null: the last). */
  games(query: { status?: "open" | "active" | "finished"; limit?: number; cursor?: number | null } = {}): Promise<GameList> {
    return this.json({ method: "GET", path: "/api/v1/games", query });
  }

  /** Take a seat (the first free one without `seat`); `bot`: a bot the server plays takes it (token null). */
  join(gameId: string, seat: { name?: string; seat?: number | null; bot?: "random" | "greedy" | null } = {}): Promise<Joined> {
    return this.json({ method: "POST", path: game(gameId, "/seats"), body: seat });
  }

  // -- one game ---------------------------------------------------------------------------------------

  /** The table as this caller may see it. */
  table(gameId: string): Promise<TableView> {
    return this.json({ method: "GET", path: game(gameId) });
  }

  /** The first step of every move this seat may make now, the commands of the moves that are few, and undo. */
  legal(gameId: string): Promise<LegalCommands> {
    return this.json({ method: "GET", path: game(gameId, "/legal-commands") });
  }

  /** The next step of a move after `picks` (the command's type first). */
  moves(gameId: string, picks: Pick[]): Promise<MoveStep> {
    const body = { picks: picks.map(({ field, value }) => ({ field, value })) };
    return this.json({ method: "POST", path: game(gameId, "/moves"), body });
  }

  /** Send a command for this client's seat; its events as the seat may see them. */
  send(gameId: string, command: Command, options: SendOptions = {}): Promise<CommandAnswer> {
    const body = {
      command,
      command_id: options.commandId ?? newCommandId(),
      ...(options.expectedVersion != null ? { expected_version: options.expectedVersion } : {}),
    };
    return this.json({ method: "POST", path: game(gameId, "/commands"), body });
  }

  /** This caller's feed of events with versions in (after, after + limit]. */
  events(gameId: string, query: { after?: number; limit?: number } = {}): Promise<EventPage> {
    return this.json({ method: "GET", path: game(gameId, "/events"), query });
  }

  /** Every event of this caller's feed after `after`, page by page. */
  async *allEvents(gameId: string, after = 0, limit = 1000): AsyncGenerator<VersionedEvent> {
    for (;;) {
      const page = await this.events(gameId, { after, limit });
      yield* page.events;
      if (after + limit >= page.version) return;
      after += limit;
    }
  }

  /** The table as it was at `version`; `as`: a seat's view, or "full", once the game is finished. */
  replay(gameId: string, query: { version?: number; as?: number | "full" } = {}): Promise<TableView> {
    return this.json({ method: "GET", path: game(gameId, "/replay"), query });
  }

  /** The whole log (anyone once the game is finished; before, the admin). */
  async exportLog(gameId: string): Promise<LogLine[]> {
    const text = await this.text({ method: "GET", path: game(gameId, "/export") });
    return parseLog(text);
  }

  /** A finished game from an exported log (the admin's token); its new id. */
  importLog(log: string | LogLine[]): Promise<Imported> {
    const text = typeof log === "string" ? log : log.map((line) => JSON.stringify(line)).join("\n") + "\n";
    return this.json({ method: "POST", path: "/api/v1/games/import", text });
  }

  // -- the server -------------------------------------------------------------------------------------

  health(): Promise<Health> {
    return this.json({ method: "GET", path: "/healthz" });
  }

  ready(): Promise<Health> {
    return this.json({ method: "GET", path: "/readyz" });
  }

  /** The OpenAPI document the server serves. */
  openapi(): Promise<Record<string, unknown>> {
    return this.json({ method: "GET", path: "/openapi.json" });
  }

  // -- live -------------------------------------------------------------------------------------------

  /** Follow a game on its WebSocket: every update in order, resuming by itself (docs/API.md, "WebSocket"). */
  watch(gameId: string, options: LiveOptions = {}): Live {
    return new Live(this, gameId, options);
  }

  /** A move to build from `start` (legal-commands, an update, or a step the server answered). */
  move(gameId: string, start: Start, live?: Live): Move {
    return Move.from(this, gameId, start, live);
  }

  /** The socket URL of a game. */
  socketUrl(gameId: string): string {
    return this.baseUrl.replace(/^http/, "ws") + game(gameId, "/ws");
  }

  // -- the wire ---------------------------------------------------------------------------------------

  private async json<T>(call: Call): Promise<T> {
    return JSON.parse(await this.text(call)) as T;
  }

  private async text(call: Call): Promise<string> {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (this.options.lang) headers["Accept-Language"] = this.options.lang;
    let body: string | undefined;
    if (call.text !== undefined) {
      body = call.text;
      headers["Content-Type"] = "application/x-ndjson";
    } else if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers["Content-Type"] = "application/json";
    }
    const fetcher = this.options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      const signal = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
      response = await fetcher(url, { method: call.method, headers, body, signal });
    } catch (cause) {
      throw new Unreachable(503, "unreachable", `${call.method} ${url.pathname}: ${String(cause)}`);
    }
    const text = await response.text();
    if (!response.ok) throw errorFrom(response.status, text, response.statusText);
    return text;
  }
}

/** The error envelope of an answer as the error of its status (`http_error` when it is not one). */
export function errorFrom(status: number, body: string, reason = ""): LudotecaError {
  try {
    const error = JSON.parse(body) as { error?: unknown; message?: unknown; details?: unknown };
    if (typeof error.error === "string") {
      const details = (error.details ?? {}) as Record<string, unknown>;
      return apiError(status, error.error, String(error.message ?? ""), details);
    }
  } catch {
    // not JSON: below
  }
  return apiError(status, "http_error", body.slice(0, 200) || reason);
}

/** An export's lines (JSON lines). */
export function parseLog(text: string): LogLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as LogLine);
}
