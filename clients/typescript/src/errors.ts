// The API's refusals as values: each carries the HTTP `status`, the stable `code` (the rule's code for a
// 422), the `message` (for people; it may change) and the `details` (docs/API.md, "Errors").

/** The codes of the envelope, the same for every game (docs/API.md, "Every code"). */
export const ENVELOPE_CODES = [
  "malformed",
  "unknown_game_type",
  "unfinished_log",
  "partial_log",
  "no_such_version",
  "bad_token",
  "missing_token",
  "unknown_token",
  "not_seated",
  "not_a_player_token",
  "unknown_code",
  "cross_site",
  "not_admin",
  "spectator",
  "game_not_finished",
  "resigned",
  "not_creator",
  "unknown_game",
  "not_found",
  "method_not_allowed",
  "version_conflict",
  "command_id_reused",
  "seat_taken",
  "seat_held",
  "rated_one_per_address",
  "rated_needs_players",
  "no_such_player",
  "unknown_invite",
  "seat_not_offered",
  "seat_not_vacated",
  "not_yours_to_offer",
  "seat_kept",
  "seats_kept",
  "game_started",
  "game_exists",
  "too_large",
  "unsupported_media_type",
  "too_many_games",
  "too_many_seats",
  "too_many_players",
  "too_many_codes",
  "too_many_open_games",
  "too_many",
  "too_many_sockets",
  "not_offered",
  "bad_players",
  "bad_options",
  "out_of_bounds",
  "no_such_seat",
  "no_such_bot",
  "no_such_level",
  "game_not_started",
  "game_over",
  "bad_clock",
  "not_out_of_time",
  "not_yours_to_choose",
  "game_not_active",
  "already_resigned",
  "seat_already_left",
  "nothing_to_undo",
  "cannot_undo",
  "undo_limit",
  "game_too_long",
  "not_the_clock",
  "not_yet",
  "no_default_move",
  "game_not_over",
  "empty_message",
  "message_too_long",
  "chat_full",
  "no_such_message",
  "own_message",
  "not_a_spectator",
  "store_unavailable",
  "bad_email",
  "bad_quiet_hours",
  "bad_unsubscribe_token",
  "bad_webhook_url",
  "challenge_expired",
  "email_off",
  "no_such_passkey",
  "no_webhook",
  "oidc_denied",
  "oidc_failed",
  "oidc_off",
  "oidc_state_unknown",
  "oidc_unavailable",
  "passkey_invalid",
  "passkey_limit",
  "passkey_registered",
  "too_many_destinations",
  "too_many_passkeys",
  "too_many_sign_ins",
  "unknown_passkey",
  "unknown_player",
  "webhook_address_refused",
  "wrong_origin",
  "internal",
  "http_error",
  "unknown_language",
] as const;

/** What this client says of itself: the socket gave up reconnecting, or the history was reset. */
export const CLIENT_CODES = ["unreachable", "reset", "closed", "denied"] as const;

/** An envelope code, one of this client's, or a game's rule code (`not_your_turn`...). */
export type ErrorCode =
  | (typeof ENVELOPE_CODES)[number]
  | (typeof CLIENT_CODES)[number]
  | (string & Record<never, never>);

/** The API refused something: `status` is the HTTP status, `code` the stable error code. */
export class LudotecaError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: ErrorCode, message = "", details: Record<string, unknown> = {}) {
    super(message || `${status} ${code}`);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = details;
  }

  toString(): string {
    return `${this.name}: ${this.status} ${this.code}: ${this.message}`;
  }
}

/** 400: malformed, unknown_game_type, no_such_version, unfinished_log, partial_log. */
export class BadRequest extends LudotecaError {}
/** 401: bad_token, missing_token, unknown_token. */
export class Unauthorized extends LudotecaError {}
/** 403: not_seated, not_admin, spectator, game_not_finished, resigned, not_creator. */
export class Forbidden extends LudotecaError {}
/** 404: unknown_game, not_found. */
export class NotFound extends LudotecaError {}
/** 409: version_conflict, command_id_reused, seat_taken, game_started: the table moved on. */
export class Conflict extends LudotecaError {}
/** 413: too_large. */
export class TooLarge extends LudotecaError {}
/** 415: unsupported_media_type: a body sent without `Content-Type: application/json` (the client always sets it). */
export class UnsupportedMediaType extends LudotecaError {}
/** 422: the rules refuse this; `code` is the rule's code (`not_your_turn`...), or the table chat's (`empty_message`,
 * `message_too_long`, `chat_full`, `no_such_message`, `own_message`, `not_a_spectator`). */
export class RuleViolation extends LudotecaError {}
/** 429: a quota or the socket's rate; `details.retry_after` says in how many seconds to try again, when known
 * (`too_many` with `details.case` "chat": the seat's chat has a slower rate of its own). */
export class TooMany extends LudotecaError {}
/** 500 and other server faults. */
export class ServerError extends LudotecaError {}
/** 503: the server's store is unreachable; retry later. */
export class Unavailable extends LudotecaError {}
/** The socket could not be reopened after `maxReconnects` tries in a row. */
export class Unreachable extends Unavailable {}
/** The socket closed with 4009: the server's history is shorter than what was held; start again from 0. */
export class Reset extends LudotecaError {}

const BY_STATUS: Record<number, typeof LudotecaError> = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  413: TooLarge,
  415: UnsupportedMediaType,
  422: RuleViolation,
  429: TooMany,
  503: Unavailable,
};

/** The error of `status` (a `RuleViolation` for a 422...). */
export function apiError(
  status: number,
  code: ErrorCode,
  message = "",
  details: Record<string, unknown> = {},
): LudotecaError {
  const Kind = BY_STATUS[status] ?? (status >= 500 ? ServerError : LudotecaError);
  return new Kind(status, code, message, details);
}

// The status of an error the socket sends (it carries none); anything else there is a rule's 422.
const SOCKET_STATUS: Record<string, number> = {
  unknown_game: 404,
  bad_token: 401,
  unknown_token: 401,
  not_seated: 403,
  malformed: 400,
  spectator: 403,
  resigned: 403,
  version_conflict: 409,
  command_id_reused: 409,
  too_many: 429,
  store_unavailable: 503,
};

/** The error a socket's `error` message stands for. */
export function socketError(error: { error: string; message: string; details?: Record<string, unknown> }): LudotecaError {
  return apiError(SOCKET_STATUS[error.error] ?? 422, error.error, error.message, error.details ?? {});
}
