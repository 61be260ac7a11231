// ludoteca-client: a typed client for Ludoteca servers (docs/typescript.md).
export { Client, DEFAULT_URL, ROUTES, errorFrom, parseLog } from "./client.js";
export type { Wanted } from "./client.js";
export type { ClientOptions, SendOptions } from "./client.js";
export { Live } from "./live.js";
export type { LiveOptions, WebSocketClass, WebSocketLike } from "./live.js";
export { Move, LIMIT } from "./moves.js";
export type { Choice, Start } from "./moves.js";
export { newCommandId } from "./ids.js";
export { chat } from "./chat.js";
export type { ChatLine } from "./chat.js";
export { dealChecks, newEntropy, opens, readExport, root, salt, seedMatches, tableKey, verifyExport } from "./fair.js";
export type { Committed, DealCheck } from "./fair.js";
export {
  BadRequest,
  CLIENT_CODES,
  Conflict,
  ENVELOPE_CODES,
  Forbidden,
  LudotecaError,
  NotFound,
  Reset,
  RuleViolation,
  ServerError,
  TooLarge,
  UnsupportedMediaType,
  TooMany,
  Unauthorized,
  Unavailable,
  Unreachable,
  apiError,
  socketError,
} from "./errors.js";
export type { ErrorCode } from "./errors.js";
export * from "./generated/index.js";
