/** A fresh command (or moves request) id: random, so that two clients never share one by chance. */
export function newCommandId(): string {
  const crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts (https, localhost); getRandomValues everywhere.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
