// Whether the seat has a step of this turn to take back, followed from the table's own facts in
// the feed (docs/table-services.md, Undo): `Undoable {seat, events}` before a step that may be
// taken back (its next `events` events), `StepsUndone {seat, version}` back to a version; any
// other step of the game, or a seat leaving, ends what may be taken back. No request needed.

const NEUTRAL = new Set(["TableOpened", "SeatTaken", "TableCancelled", "RematchOpened", "ClockTicked", "TimeRanOut",
  "TimeExtended", "SeatOffered", "SeatTakenOver",
  // chat is no step: what may be taken back stays so (domain/table/state.py)
  "MessageSaid", "HidingAsked", "MessageHidden", "SeatMuted"]);

export class UndoTracker {
  constructor() {
    this.reset();
  }

  reset() {
    this.checkpoints = []; // {version, seat}: the versions a seat may go back to
    this.covered = 0; // events still to come of the last Undoable step
  }

  // One event of the feed, in order.
  see(version, ev) {
    if (ev.type === "Undoable") {
      this.checkpoints.push({ version: version - 1, seat: ev.seat });
      this.covered = ev.events;
    } else if (ev.type === "StepsUndone") {
      this.checkpoints = this.checkpoints.filter((c) => c.version < ev.version);
      this.covered = 0;
    } else if (ev.type === "SeatResigned") {
      this.checkpoints = [];
    } else if (!NEUTRAL.has(ev.type)) {
      if (this.covered > 0) this.covered -= 1;
      else this.checkpoints = [];
    }
  }

  has(seat) {
    return this.checkpoints.some((c) => c.seat === seat);
  }
}
