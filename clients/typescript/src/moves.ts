// Building a move pick by pick (docs/API.md, "Building a move"). A move starts from a step (legal-commands'
// first step, an update's `step`, or one the server answered) and grows one pick at a time: `pick` asks the
// server for the next step (over the socket when the move has one, else POST /moves), so a pick that was
// not offered is refused there (RuleViolation `not_offered`). Once `command` is set the move may be sent, or
// picked on where the step offers more (Miss Liz's streets: one cell or several). A move is a value: a pick
// answers a new move and leaves the one it was made on as it was, so a walk can try each option in turn.
import type { Client, SendOptions } from "./client.js";
import { Conflict } from "./errors.js";
import type {
  AckMessage,
  CommandAnswer,
  GameCommand,
  LegalCommands,
  MoveStep,
  Option,
  Pick,
  Step,
  StepMessage,
  UpdateMessage,
} from "./generated/types.js";
import type { Live } from "./live.js";

/** What a move may start from. */
export type Start = LegalCommands | UpdateMessage | MoveStep | StepMessage;
/** An option offered, a pick, or a field's name (its value follows). */
export type Choice = Option | Pick | string;
type PickValue = Pick["value"];

/** Commands listed at most by `commands()`, as legal-commands lists a move's. */
export const LIMIT = 200;

export class Move {
  readonly client: Client;
  readonly gameId: string;
  /** The version the step was computed at (and the one a send expects). */
  readonly version: number;
  readonly step: Step;
  readonly picks: readonly Pick[];
  readonly live: Live | undefined;

  constructor(client: Client, gameId: string, version: number, step: Step, picks: readonly Pick[] = [], live?: Live) {
    this.client = client;
    this.gameId = gameId;
    this.version = version;
    this.step = step;
    this.picks = picks;
    this.live = live;
  }

  /** The version, picks and step `start` carries (an update without a step: the seat has no move now). */
  static from(client: Client, gameId: string, start: Start, live?: Live): Move {
    if ("type" in start && start.type === "update") {
      return new Move(client, gameId, start.version, start.step ?? {}, [], live);
    }
    if ("complete" in start) return new Move(client, gameId, start.version, start.step, [], live);
    return new Move(client, gameId, start.version, start.step, start.picks, live);
  }

  /** What may be picked next (an option with `command` ends the move: send that command). */
  get options(): Option[] {
    return this.step.options ?? [];
  }

  /** The command the picks make, once they make one. */
  get command(): GameCommand | undefined {
    return this.step.command ?? undefined;
  }

  get complete(): boolean {
    return this.step.command != null;
  }

  /** Nothing to pick and nothing to send: the seat has no move here. */
  get empty(): boolean {
    return !this.options.length && !this.complete;
  }

  /** The command to send; throws while the picks make none. */
  ready(): GameCommand {
    if (this.step.command == null) {
      const fields = [...new Set(this.options.map((o) => o.field))].sort();
      throw new Error(`the move is not complete: pick ${fields.join(" or ") || "nothing (no move)"} next`);
    }
    return this.step.command;
  }

  /** The move after one more pick: an option offered, a pick, or a field and its value. An option that
   * carries its command ends the move with nothing left to ask: no request is sent for it. */
  async pick(choice: Choice, value?: PickValue): Promise<Move> {
    const pick = pickOf(choice, value);
    const picks = [...this.picks, pick];
    if (typeof choice === "object" && "kind" in choice && choice.command != null) {
      return new Move(this.client, this.gameId, this.version, { command: choice.command }, picks, this.live);
    }
    const answer = this.live ? await this.live.moves(picks) : await this.client.moves(this.gameId, picks);
    return new Move(this.client, this.gameId, answer.version, answer.step, answer.picks, this.live);
  }

  /** Send the command the picks make, expecting the version it was built at (else 409 version_conflict):
   * over the socket when the move has one (its ack), else POST /commands (its events). */
  send(options: SendOptions = {}): Promise<AckMessage | CommandAnswer> {
    const sent = { expectedVersion: this.version, ...options };
    if (this.live) return this.live.send(this.ready(), sent);
    return this.client.send(this.gameId, this.ready(), sent);
  }

  /** Every complete command below this step, depth first, asking the server for the steps on the way. */
  async *walk(): AsyncGenerator<GameCommand> {
    if (this.step.command != null) yield this.step.command;
    for (const option of this.options) {
      if (option.command != null) {
        yield option.command;
        continue;
      }
      const after = await this.pick(option);
      if (after.version !== this.version) {
        throw new Conflict(409, "version_conflict", `The table moved on (to version ${after.version}); look again.`, {
          version: after.version,
        });
      }
      yield* after.walk();
    }
  }

  /** Every complete command below this step, each once; null when there are more than `limit`. */
  async commands(limit = LIMIT): Promise<GameCommand[] | null> {
    const found = new Map<string, GameCommand>();
    for await (const command of this.walk()) {
      found.set(JSON.stringify(command), command);
      if (found.size > limit) return null;
    }
    return [...found.values()];
  }

  /** A complete command chosen at random, one pick at a time (stopping where the picks already make a
   * command is one more choice); null when the step offers nothing. `random`: a number in [0, 1). */
  async random(random: () => number = Math.random): Promise<Move | null> {
    let move: Move = this;
    for (;;) {
      const count = move.options.length + (move.complete ? 1 : 0);
      if (count === 0) return null;
      const choice = Math.floor(random() * count);
      if (choice === move.options.length) return move;
      move = await move.pick(move.options[choice]);
      if (move.complete && !move.options.length) return move;
    }
  }
}

function pickOf(choice: Choice, value: PickValue | undefined): Pick {
  if (typeof choice === "string") {
    if (value === undefined) throw new TypeError(`pick(${JSON.stringify(choice)}, value): a field's pick needs its value`);
    return { field: choice, value };
  }
  return { field: choice.field, value: choice.value as PickValue };
}
