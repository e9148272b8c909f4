// What the model predicts of a request and how an answer is held against it, apart from command.ts
// so that the token steps (operation-token.ts), which the operator itself uses, import no command:
// no import cycle.
import { ModelMismatch, type Kind } from './model.js';
import type { Answer } from './answer.js';

/** What the model expects of a command: the service must accept it, must refuse it, or the model cannot tell. */
export type Prediction = 'accept' | 'refuse' | 'either';

/** Fails the run when the service answered against the model's prediction. */
export function expectOutcome(answer: Answer, prediction: Prediction, what: string): void {
  if (prediction === 'accept' && !answer.ok) {
    const errors = Array.isArray(answer.body?.errors) ? `: ${answer.body.errors.join('; ')}` : '';
    throw new ModelMismatch(`${what}: the model expected it to be accepted, the service answered ${answer.status}${errors}`, { answer: 'accept' });
  }
  if (prediction === 'refuse' && answer.ok) throw new ModelMismatch(`${what}: the model expected a refusal, the service answered ${answer.status}`, { answer: 'refuse' });
}

/** The replication endpoints' prefix for a kind. */
export function replicationPath(kind: Kind, rest: string): string {
  return `sys/replication/${kind}/${rest}`;
}

