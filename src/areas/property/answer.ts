// What an operator holds and gets back (a value and its scenario name, a request's answer), apart
// from operator.ts so that the model and the token steps can name them without importing the
// operator: no import cycle.
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
