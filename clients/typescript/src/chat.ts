// The table's chat read out of a feed: its messages with the versions they were said at (docs/typescript.md).
import type { MessageSaid, VersionedEvent } from "./generated/types.js";

/** A message of the table's chat and the version it was said at (what `hideMessage` takes). */
export interface ChatLine {
  version: number;
  message: MessageSaid;
}

/** The messages among `events` (a page of `events`, `allEvents`, a command's answer, an update's), in order. A
 * message that a `MessageHidden` among the same events hides is given as the server gives it once hidden: its
 * text emptied, `removed` "hidden". */
export function chat(events: Iterable<VersionedEvent>): ChatLine[] {
  const said = new Map<number, MessageSaid>();
  for (const { version, event } of events) {
    if (event.type === "MessageSaid") said.set(version, event);
    else if (event.type === "MessageHidden") {
      const hidden = said.get(event.version);
      if (hidden) said.set(event.version, { ...hidden, text: "", removed: "hidden" });
    }
  }
  return [...said].map(([version, message]) => ({ version, message }));
}
