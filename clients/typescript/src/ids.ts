/** A fresh command (or moves request) id: random, so that two clients never share one by chance. */
export function newCommandId(): string {
  return globalThis.crypto.randomUUID();
}
