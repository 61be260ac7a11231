// Every REST route of the API (docs/API.md, "Routes"), as one method each, answering the generated types.
import { apiError, LudotecaError, TooMany, Unreachable } from "./errors.js";
import type {
  AdminTable,
  AdminTables,
  Catalog,
  Clock,
  Command,
  CheckAnswer,
  CommandAnswer,
  Dropped,
  Erased,
  EventPage,
  GameComponents,
  GameId,
  GameList,
  Health,
  Imported,
  Invite,
  Joined,
  Leaderboard,
  NotificationChanges,
  NotificationSettings,
  LegalCommands,
  LobbyEntry,
  LogLine,
  MoveStep,
  MyTables,
  NewGame,
  Passkey,
  PasskeyDeleted,
  QuickPlayed,
  PasskeyList,
  PasskeyOptions,
  Pick,
  Player,
  PlayerPage,
  Rematch,
  Languages,
  SignedIn,
  SignedOut,
  SignInCode,
  SignInMethods,
  TableView,
  Unsubscribed,
  Webhook,
  VersionedEvent,
  Words,
  OutboxFigures,
  QuotaFigures,
} from "./generated/types.js";
import { newEntropy, readExport } from "./fair.js";
import { newCommandId } from "./ids.js";
import { Live, type LiveOptions, type WebSocketClass } from "./live.js";
import { Move, type Start } from "./moves.js";

export const DEFAULT_URL = "http://127.0.0.1:8000";

/** (method and path as /openapi.json writes them) -> the method of `Client` that calls it. */
/** The lobby's filters, and what quick play asks for (docs/API.md): each left out for any. */
export interface Wanted {
  game?: GameId;
  players?: number;
  clock?: "live" | "one-day" | "three-days" | "custom" | "none";
  rated?: boolean;
  lang?: "pt" | "gl" | "es" | "en";
}

export const ROUTES = {
  "GET /api/v1/words": "languages",
  "GET /api/v1/words/{lang}": "words",
  "GET /api/v1/games/catalog": "catalog",
  "GET /api/v1/games/catalog/{game}": "components",
  "POST /api/v1/games": "create",
  "POST /api/v1/games/quick-play": "quickPlay",
  "DELETE /api/v1/games/{game_id}": "callOff",
  "POST /api/v1/games/{game_id}/rematch": "rematch",
  "GET /api/v1/games": "games",
  "POST /api/v1/games/import": "importLog",
  "POST /api/v1/games/{game_id}/seats": "join",
  "POST /api/v1/games/{game_id}/invites": "invite",
  "GET /api/v1/games/{game_id}": "table",
  "GET /api/v1/games/{game_id}/legal-commands": "legal",
  "POST /api/v1/games/{game_id}/moves": "moves",
  "POST /api/v1/games/{game_id}/commands": "send",
  "POST /api/v1/games/{game_id}/check": "check",
  "GET /api/v1/games/{game_id}/events": "events",
  "POST /api/v1/games/{game_id}/spectators/chat": "spectatorSay",
  "POST /api/v1/games/{game_id}/chat/hidden": "hideAsOperator",
  "GET /api/v1/admin/games": "adminGames",
  "POST /api/v1/admin/games/{game_id}/cancel": "adminCancel",
  "POST /api/v1/admin/games/{game_id}/seats/{seat}/remove": "adminRemove",
  "GET /api/v1/admin/outbox": "adminOutbox",
  "GET /api/v1/admin/quotas": "adminQuotas",
  "GET /api/v1/games/{game_id}/replay": "replay",
  "GET /api/v1/games/{game_id}/export": "exportLog",
  "GET /api/v1/games/{game_id}/ws": "watch",
  "GET /healthz": "health",
  "GET /readyz": "ready",
  "POST /api/v1/players": "makePlayer",
  "POST /api/v1/players/sign-in": "signIn",
  "GET /api/v1/players/me": "player",
  "PATCH /api/v1/players/me": "changePlayer",
  "DELETE /api/v1/players/me": "erasePlayer",
  "GET /api/v1/players/me/tables": "myTables",
  "POST /api/v1/players/me/codes": "signInCode",
  "POST /api/v1/players/me/sign-out": "signOut",
  "POST /api/v1/players/me/sign-out-everywhere": "signOutEverywhere",
  "GET /api/v1/players/me/webhook": "webhook",
  "PUT /api/v1/players/me/webhook": "setWebhook",
  "DELETE /api/v1/players/me/webhook": "dropWebhook",
  "GET /api/v1/players/me/notifications": "notifications",
  "PATCH /api/v1/players/me/notifications": "changeNotifications",
  "POST /api/v1/unsubscribe": "unsubscribe",
  "GET /api/v1/unsubscribe": "unsubscribePage",
  "GET /api/v1/players/{player_id}": "playerPage",
  "GET /api/v1/leaderboards/{game}": "leaderboard",
  "GET /api/v1/players/sign-in": "signInMethods",
  "POST /api/v1/players/me/passkeys/options": "passkeyOptions",
  "POST /api/v1/players/me/passkeys": "registerPasskey",
  "GET /api/v1/players/me/passkeys": "passkeys",
  "DELETE /api/v1/players/me/passkeys/{passkey_id}": "deletePasskey",
  "POST /api/v1/players/passkeys/options": "passkeySignInOptions",
  "POST /api/v1/players/passkeys/sign-in": "signInWithPasskey",
  "GET /api/v1/players/oidc/start": "oidcStartUrl",
  "GET /api/v1/players/oidc/callback": "oidcCallback",
} as const;

export interface ClientOptions {
  /** A seat token, a player's token (or the admin's, or a table's creator token); none: a spectator. */
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
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Query;
  body?: unknown;
  text?: string; // a body already written (JSON lines)
}

const RATE_RETRIES = 8; // times a request refused for the seat's rate is sent again before the refusal is thrown
const RATE_PAUSE_MOST_S = 2;
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
    clock: Clock | "live" | "one-day" | "three-days" | null = null,
    rated = false,
  ): Promise<NewGame> {
    const body = { game: gameKind, players, options, ...(clock ? { clock } : {}), ...(rated ? { rated } : {}) };
    return this.json({ method: "POST", path: "/api/v1/games", body });
  }

  /** Call off a table that has not started (this client's token must be its creator token). */
  callOff(gameId: string): Promise<LobbyEntry> {
    return this.json({ method: "DELETE", path: game(gameId) });
  }

  /** Sit at the finished game's rematch, in the same seat (this client's token must be a seat's). `entropy`:
   * this device's own randomness for the new table (drawn here unless given; kept in the answer: docs/fair-play.md). */
  async rematch(gameId: string, entropy: string = newEntropy()): Promise<Rematch & { entropy: string }> {
    const answer = await this.json<Rematch>({ method: "POST", path: game(gameId, "/rematch"), body: { entropy } });
    return { ...answer, entropy };
  }

  /** One page of tables by status, oldest first; `next_cursor` is the next page's cursor (null: the last). Filters
   * (each left out for any): `game`, `players`, `clock` (a preset's name, "custom" or "none"), `rated`, `lang`. */
  games(
    query: {
      status?: "open" | "active" | "finished";
      limit?: number;
      cursor?: number | null;
    } & Wanted = {},
  ): Promise<GameList> {
    const { rated, ...rest } = query;
    return this.json({ method: "GET", path: "/api/v1/games", query: rated === undefined ? rest : { ...rest, rated: String(rated) } });
  }

  /** A seat at the oldest open table that fits `wanted` (its `game` is needed), or at one opened for it (`opened`,
   * with that table's `creator_token`); keep the token. `entropy` as in `join`. */
  async quickPlay(
    wanted: Wanted & { game: GameId },
    seat: { name?: string; entropy?: string } = {},
  ): Promise<QuickPlayed & { entropy: string }> {
    const entropy = seat.entropy ?? newEntropy();
    const body = { ...wanted, ...(seat.name ? { name: seat.name } : {}), entropy };
    const answer = await this.json<QuickPlayed>({ method: "POST", path: "/api/v1/games/quick-play", body });
    return { ...answer, entropy };
  }

  /** Take a seat (the first free one without `seat`); `bot`: a bot the server plays takes it (token null); `invite`:
   * the vacated seat an invitation offers. A person's new seat sends `entropy`, this device's own randomness for the
   * table's chance (drawn here unless given), returned in the answer: keep it, and send the same again on a retry
   * (docs/fair-play.md). */
  async join(
    gameId: string,
    seat: {
      name?: string;
      seat?: number | null;
      bot?: "random" | "greedy" | null;
      invite?: string;
      entropy?: string;
    } = {},
  ): Promise<Joined & { entropy: string }> {
    const entropy = seat.bot || seat.invite ? "" : (seat.entropy ?? newEntropy());
    const body = entropy ? { ...seat, entropy } : seat;
    const answer = await this.json<Joined>({ method: "POST", path: game(gameId, "/seats"), body });
    return { ...answer, entropy };
  }

  /** Offer a seat a bot plays on for (its person left) to a newcomer: an invitation to hand on (this client's seat, still in the game). */
  invite(gameId: string, seat: number): Promise<Invite> {
    return this.json({ method: "POST", path: game(gameId, "/invites"), body: { seat } });
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

  /** Whether `command` would land now, without sending it: nothing is written; `refusal` is the rule's
   * refusal sending it would get (code, sentence, details). A command that cannot be read rejects. */
  check(gameId: string, command: Command): Promise<CheckAnswer> {
    return this.json({ method: "POST", path: game(gameId, "/check"), body: { command } });
  }

  // -- the table's chat: commands of the seat, sent like any other ------------------------------------

  /** Say `text` at the table as this client's seat; with `to`, on a private line only the two seats ever receive.
   * The answer holds the `MessageSaid` as the seat receives it. */
  say(gameId: string, text: string, to: number | null = null): Promise<CommandAnswer> {
    return this.send(gameId, to === null ? { type: "Say", text } : { type: "Say", text, to });
  }

  /** Ask to hide the message said to the table at `version`: hidden for everyone (`MessageHidden`) once most of
   * the other people at the table asked. */
  hideMessage(gameId: string, version: number): Promise<CommandAnswer> {
    return this.send(gameId, { type: "HideMessage", version });
  }

  /** Stop reading `seat`'s messages, for this client's seat alone (`muted` false: read them again). */
  mute(gameId: string, seat: number, muted = true): Promise<CommandAnswer> {
    return this.send(gameId, { type: "Mute", seat, muted });
  }

  /** Say `text` on the spectators' channel, as the player this client's token signs in, watching the table (the
   * seats read that channel once the game is over). */
  spectatorSay(gameId: string, text: string): Promise<CommandAnswer> {
    return this.json({ method: "POST", path: game(gameId, "/spectators/chat"), body: { text } });
  }

  /** Hide the message said at `version` for everyone, on any channel (the admin's token). */
  hideAsOperator(gameId: string, version: number): Promise<CommandAnswer> {
    return this.json({ method: "POST", path: game(gameId, "/chat/hidden"), body: { version } });
  }

  /** The tables with `status` as the server sees them: seats, who is connected, whose turn, clocks (the admin's token). */
  adminGames(query: { status?: "open" | "active" | "finished"; limit?: number; cursor?: number } = {}): Promise<AdminTables> {
    return this.json({ method: "GET", path: "/api/v1/admin/games", query });
  }

  /** End a table that has not finished, called off by the operator (the admin's token; `reason`: for the log). */
  adminCancel(gameId: string, reason = ""): Promise<AdminTable> {
    return this.json({ method: "POST", path: `/api/v1/admin/games/${encodeURIComponent(gameId)}/cancel`, body: { reason } });
  }

  /** Remove `seat`'s player from a game under way: the table's bot plays on (the admin's token). */
  adminRemove(gameId: string, seat: number): Promise<AdminTable> {
    return this.json({ method: "POST", path: `/api/v1/admin/games/${encodeURIComponent(gameId)}/seats/${seat}/remove` });
  }

  /** The notifications' outbox in counts (the admin's token). */
  adminOutbox(): Promise<OutboxFigures> {
    return this.json({ method: "GET", path: "/api/v1/admin/outbox" });
  }

  /** Requests refused by a quota this hour and the last, and the clients refused most (the admin's token). */
  adminQuotas(): Promise<QuotaFigures> {
    return this.json({ method: "GET", path: "/api/v1/admin/quotas" });
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

  /** The game as JSON lines, as one viewpoint saw it (docs/API.md, "Exports"): `as` "seat" (this client's own
   * seat, any time), "spectator", "everyone" (once over) or "server" (the admin); by default everyone's once
   * the game is over, the admin's before. `verifyExport` checks it. */
  exportText(gameId: string, as?: "seat" | "spectator" | "everyone" | "server"): Promise<string> {
    return this.text({ method: "GET", path: game(gameId, "/export"), query: as ? { as } : {} });
  }

  /** The export's facts, its header left out (`readExport` keeps it). */
  async exportLog(gameId: string, as?: "seat" | "spectator" | "everyone" | "server"): Promise<LogLine[]> {
    return parseLog(await this.exportText(gameId, as));
  }

  /** A finished game from an exported log (the admin's token); its new id. */
  importLog(log: string | LogLine[]): Promise<Imported> {
    const text = typeof log === "string" ? log : log.map((line) => JSON.stringify(line)).join("\n") + "\n";
    return this.json({ method: "POST", path: "/api/v1/games/import", text });
  }

  // -- players -----------------------------------------------------------------------------------------

  /** Make a player (a name, no password); its token is shown once: act as the player with `asSeat(token)`. */
  makePlayer(name: string, lang: "pt" | "gl" | "es" | "en" | null = null): Promise<SignedIn> {
    return this.json({ method: "POST", path: "/api/v1/players", body: { name, ...(lang ? { lang } : {}) } });
  }

  /** Sign in with a one-time code shown on a signed-in device: a new token of the same player. */
  signIn(code: string): Promise<SignedIn> {
    return this.json({ method: "POST", path: "/api/v1/players/sign-in", body: { code } });
  }

  /** The player this client's token signs in. */
  player(): Promise<Player> {
    return this.json({ method: "GET", path: "/api/v1/players/me" });
  }

  /** Rename the player, or choose its language. */
  changePlayer(changes: { name?: string; lang?: "pt" | "gl" | "es" | "en"; public?: boolean }): Promise<Player> {
    return this.json({ method: "PATCH", path: "/api/v1/players/me", body: changes });
  }

  /** The player's webhook (404 no_webhook when none is set). */
  webhook(): Promise<Webhook> {
    return this.json({ method: "GET", path: "/api/v1/players/me/webhook" });
  }

  /** Where the player's notices are posted (json, discord or slack bodies), signed with its secret. */
  setWebhook(url: string, format: "json" | "discord" | "slack" = "json", newSecret = false): Promise<Webhook> {
    return this.json({ method: "PUT", path: "/api/v1/players/me/webhook", body: { url, format, new_secret: newSecret } });
  }

  dropWebhook(): Promise<Dropped> {
    return this.json({ method: "DELETE", path: "/api/v1/players/me/webhook" });
  }

  /** What the player is told, how, and when not. */
  notifications(): Promise<NotificationSettings> {
    return this.json({ method: "GET", path: "/api/v1/players/me/notifications" });
  }

  changeNotifications(changes: Partial<NotificationChanges>): Promise<NotificationSettings> {
    return this.json({ method: "PATCH", path: "/api/v1/players/me/notifications", body: changes });
  }

  /** One-click unsubscribe, with the token of an email's link (RFC 8058). */
  unsubscribe(token: string): Promise<Unsubscribed> {
    return this.json({ method: "POST", path: "/api/v1/unsubscribe", query: { token } });
  }

  /** The page an email's unsubscribe link opens (HTML; opening it changes nothing). */
  unsubscribePage(token: string): Promise<string> {
    return this.text({ method: "GET", path: "/api/v1/unsubscribe", query: { token } });
  }

  /** A player's public page: its ratings, their history, games played and won (404 unless it made it public). */
  playerPage(playerId: string): Promise<PlayerPage> {
    return this.json({ method: "GET", path: `/api/v1/players/${encodeURIComponent(playerId)}` });
  }

  /** A game's best players by rating (past their provisional games), a page at a time. */
  leaderboard(gameKind: GameId, query: { limit?: number; cursor?: number | null } = {}): Promise<Leaderboard> {
    return this.json({ method: "GET", path: `/api/v1/leaderboards/${encodeURIComponent(gameKind)}`, query });
  }

  /** Erase the player: its name, tokens and list of seats (its games keep only its id). */
  erasePlayer(): Promise<Erased> {
    return this.json({ method: "DELETE", path: "/api/v1/players/me" });
  }

  /** The player's tables: those awaiting it first, then in play, open, finished. */
  myTables(query: { limit?: number; cursor?: number | null } = {}): Promise<MyTables> {
    return this.json({ method: "GET", path: "/api/v1/players/me/tables", query });
  }

  /** A one-time code to sign the same player in on another device (ten minutes). */
  signInCode(): Promise<SignInCode> {
    return this.json({ method: "POST", path: "/api/v1/players/me/codes" });
  }

  signOut(): Promise<SignedOut> {
    return this.json({ method: "POST", path: "/api/v1/players/me/sign-out" });
  }

  signOutEverywhere(): Promise<SignedOut> {
    return this.json({ method: "POST", path: "/api/v1/players/me/sign-out-everywhere" });
  }

  // -- signing in: passkeys, the identity provider ----------------------------------------------------

  /** How a player may sign in on this server (codes, passkeys, its identity provider). */
  signInMethods(): Promise<SignInMethods> {
    return this.json({ method: "GET", path: "/api/v1/players/sign-in" });
  }

  /** Options to register a passkey: `navigator.credentials.create({ publicKey:
   * PublicKeyCredential.parseCreationOptionsFromJSON(options) })`. */
  passkeyOptions(): Promise<PasskeyOptions> {
    return this.json({ method: "POST", path: "/api/v1/players/me/passkeys/options" });
  }

  /** Keep the passkey the browser made from those options (`credential.toJSON()`). */
  registerPasskey(credential: Record<string, unknown>, name: string | null = null): Promise<Passkey> {
    const body = { credential, ...(name === null ? {} : { name }) };
    return this.json({ method: "POST", path: "/api/v1/players/me/passkeys", body });
  }

  /** The player's passkeys. */
  passkeys(): Promise<PasskeyList> {
    return this.json({ method: "GET", path: "/api/v1/players/me/passkeys" });
  }

  deletePasskey(passkeyId: string): Promise<PasskeyDeleted> {
    return this.json({ method: "DELETE", path: `/api/v1/players/me/passkeys/${encodeURIComponent(passkeyId)}` });
  }

  /** Options to sign in with a passkey: `navigator.credentials.get({ publicKey:
   * PublicKeyCredential.parseRequestOptionsFromJSON(options) })`. */
  passkeySignInOptions(): Promise<PasskeyOptions> {
    return this.json({ method: "POST", path: "/api/v1/players/passkeys/options" });
  }

  /** Sign in with the browser's answer to those options (`credential.toJSON()`). */
  signInWithPasskey(credential: Record<string, unknown>): Promise<SignedIn> {
    return this.json({ method: "POST", path: "/api/v1/players/passkeys/sign-in", body: { credential } });
  }

  /** Where to send the browser to sign in through the server's identity provider (`location.assign(...)`);
   * with `then`, the provider's answer lands there signed in (the cookie set). No request is made here:
   * the state travels in a cookie of the browser that follows the redirects. */
  oidcStartUrl(then: string | null = null): string {
    const query = then === null ? "" : `?then=${encodeURIComponent(then)}`;
    return `${this.baseUrl}/api/v1/players/oidc/start${query}`;
  }

  /** Finish a sign-in with the provider's `code` and `state` (in the browser that began it: its cookie). */
  oidcCallback(code: string, state: string): Promise<SignedIn> {
    return this.json({ method: "GET", path: "/api/v1/players/oidc/callback", query: { code, state } });
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

  /** Sends a call; a refusal for the seat's rate (`429 too_many`) is sent again after the pause it asks for, a few times. */
  private async text(call: Call): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.textOnce(call);
      } catch (error) {
        const after = error instanceof TooMany && error.code === "too_many" ? error.details.retry_after : undefined;
        if (typeof after !== "number" || attempt >= RATE_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(after, RATE_PAUSE_MOST_S) * 1000));
      }
    }
  }

  private async textOnce(call: Call): Promise<string> {
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

/** An export's fact lines (JSON lines), its header left out. */
export function parseLog(text: string): LogLine[] {
  return readExport(text).lines;
}
