// What an operator holds and gets back (a value and its scenario name, a request's answer), and
// what a command may ask of the operator that runs it (`OperatorPort`): named here, apart from the
// operator (src/explore/commands/operator.ts, which drives a World), so that the areas' commands,
// the model and the token steps name them without importing the explorer: no import cycle.
import type { Method } from '../../kernel/http/http.js';
import type { SimState } from '../core/state.js';
import type { Finding } from '../monitoring/types.js';

/** A value the operator holds, and the `${...}` a scenario file names it by. */
export class Ref {
  constructor(
    readonly value: string,
    readonly ref: string,
  ) {}

  /** A built-in scenario variable: `east.keys.0`, `west.cluster_addr`, ... */
  static builtin(name: string, value: string): Ref {
    return new Ref(value, '${' + name + '}');
  }
}

/** A request body: plain JSON, where a value may be a Ref (or a list of them). */
export type Body = Record<string, unknown>;

/** One step of scenario format 1, as it will be written to the file. */
export type ScriptStep = Record<string, unknown>;

/** What a request gave back. */
export interface Answer {
  status: number;
  body: any;
  ok: boolean;
  /** The values saved from the body, by the base name asked for. */
  saved: Record<string, Ref>;
}

export interface RequestOptions {
  body?: Body;
  /**
   * `root`: a root token that works on that cluster (its own; the one it holds since it was wiped;
   * or one generated there with sys/generate-root, first if need be); `none`: no token.
   */
  token?: 'root' | 'none';
  /** Variable base name → dotted path into the response body, saved when the request succeeds. */
  save?: Record<string, string>;
  /** What this request is for, in an operator's words. */
  label: string;
  /**
   * A refusal may still record something: a key share that completes an attempt with the wrong
   * key aborts it (an event). Every other refusal must leave the world exactly as it was.
   */
  refusalMayRecord?: boolean;
}

/**
 * What a command asks of the operator that runs it: requests through the API and faults, each
 * recorded as a step of the scenario file the run becomes (src/explore/commands/operator.ts).
 */
export interface OperatorPort {
  /** The world it acts on, read only (the model learns from it what it cannot predict). */
  readonly world: { readonly state: SimState };
  beginCommand(words: string): void;
  /** Ends a command: names its steps and runs the monitors once. */
  endCommand(): Finding[];
  request(on: string, method: Method, path: string | (string | Ref)[], options: RequestOptions): Answer;
  /** The key shares that open `cluster`'s keyring now. */
  keyShares(cluster: string, count: number): { owner: string; shares: Ref[] };
  decode(encoded: Ref, otp: Ref, base: string, label: string): Ref;
  clusterAddr(cluster: string): Ref;
  wait(ms: number, label: string): void;
  partition(a: string, b: string, label: string): void;
  heal(link: [string, string] | 'all', label: string): void;
  crash(cluster: string, label: string): void;
  restart(cluster: string, label: string): void;
}
