// A history's hash chain checked on a second thread while the reading thread parses and checks its
// lines (src/kernel/persist.ts readHistory). Hashing a line (its chain link, sha256 of the previous
// link and the line's event) was half of reading one: ~0.75 of 1.6 µs a line against a floor of
// 0.85 µs for reading and JSON.parse alone (BENCHMARKS.md, the replay rows). The reading thread hands
// the worker the bytes of whole lines as it decodes them; the worker hashes them straight from those
// bytes and answers with the first line whose link does not match (or none). The reader then reports
// whichever comes first, that line or its own first flaw, with the message a one-thread read gives
// (test/kernel/history-read.test.ts compares them on damaged files).
import { Worker } from 'node:worker_threads';

/**
 * The worker, run as a script (node's own modules only, so that it needs no file of its own and runs
 * the same from the sources, the bundle and the tests). A line is `{"#":"<64 hex>",` then the rest of
 * its event: the link must be sha256(previous link + "{" + rest), hashed as UTF-8. On valid UTF-8 that
 * is the line's own bytes, hashed in place (the previous link and the "{" written over the line's own
 * prefix, which it no longer needs once its link is taken); a piece that is not valid UTF-8 is hashed
 * from its decoded text, as the one-thread reader does (an invalid byte decodes to U+FFFD).
 */
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const crypto = require('node:crypto');
const { isUtf8 } = require('node:buffer');
const sha = typeof crypto.hash === 'function' ? (d) => crypto.hash('sha256', d, 'hex') : (d) => crypto.createHash('sha256').update(d).digest('hex');
const answer = new Int32Array(workerData.answer);
let prev = workerData.genesis;
let line = 0;
let bad = 0;
function lines(buf) {
  const valid = isUtf8(buf);
  let pos = 0;
  let nl;
  while ((nl = buf.indexOf(10, pos)) >= 0) {
    line++;
    const linked = nl - pos > 71 && buf[pos] === 0x7b && buf[pos + 1] === 0x22 && buf[pos + 2] === 0x23 && buf[pos + 3] === 0x22 && buf[pos + 4] === 0x3a && buf[pos + 5] === 0x22 && buf[pos + 70] === 0x22 && buf[pos + 71] === 0x2c;
    if (!linked) return (bad = line);
    const own = buf.toString('latin1', pos + 6, pos + 70);
    let hash;
    if (valid) {
      buf.write(prev, pos + 7, 'latin1');
      buf[pos + 71] = 0x7b;
      hash = sha(buf.subarray(pos + 7, nl));
    } else hash = sha(prev + '{' + buf.toString('utf8', pos + 72, nl));
    if (hash !== own) return (bad = line);
    prev = hash;
    pos = nl + 1;
  }
}
parentPort.on('message', (bytes) => {
  try {
    if (bytes !== null) {
      if (bad === 0) lines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return;
    }
    Atomics.store(answer, 1, bad);
    Atomics.store(answer, 0, 1);
  } catch (err) {
    Atomics.store(answer, 0, 2);
  }
  Atomics.notify(answer, 0);
  parentPort.close();
});
`;

/** Bytes handed to the worker at a time: a message per piece read would cost more than its hashing saves. */
const BATCH = 1 << 20;

/** How long the reader waits for the worker's answer at least, and per MiB read: far beyond what it takes (~4 ms a MiB). */
const WAIT_MS = 10_000;
const WAIT_MS_PER_MIB = 200;

/** The answer: the first line whose link does not match, or null when every line's does. */
export type ChainAnswer = { ok: true; badLine: number | null } | { ok: false };

export class ChainCheck {
  private readonly worker: Worker;
  private readonly answer: Int32Array;
  private batch = new Uint8Array(BATCH);
  private filled = 0;
  private handed = 0;

  private constructor(genesis: string) {
    this.answer = new Int32Array(new SharedArrayBuffer(8));
    this.worker = new Worker(WORKER_SCRIPT, { eval: true, workerData: { answer: this.answer.buffer, genesis } });
    // The process need not wait for it: its answer is read synchronously (answer()).
    this.worker.unref();
    // A failure shows in the answer (or its absence); the event must not go unhandled.
    this.worker.on('error', () => {});
  }

  /** A worker for the chain starting at `genesis`, or null when no thread can be started. */
  static start(genesis: string): ChainCheck | null {
    try {
      return new ChainCheck(genesis);
    } catch {
      return null;
    }
  }

  /** Hands over the bytes of whole lines (copied: the caller reuses its buffer). */
  push(bytes: Uint8Array): void {
    // A batch holds whole lines only: the worker hashes each message's lines on their own.
    if (this.filled + bytes.length > this.batch.length) this.flush();
    if (bytes.length > this.batch.length) {
      const own = bytes.slice();
      this.post(own);
      return;
    }
    this.batch.set(bytes, this.filled);
    this.filled += bytes.length;
  }

  private flush(): void {
    if (this.filled === 0) return;
    this.post(this.batch.subarray(0, this.filled));
    this.batch = new Uint8Array(BATCH);
    this.filled = 0;
  }

  private post(bytes: Uint8Array): void {
    // Transferred, not copied: the view's buffer moves to the worker.
    this.worker.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
    this.handed += bytes.length;
  }

  /** Waits for the worker to have hashed everything handed over and returns its answer. */
  finish(): ChainAnswer {
    this.flush();
    this.worker.postMessage(null);
    const deadline = WAIT_MS + (this.handed / 2 ** 20) * WAIT_MS_PER_MIB;
    const waited = Atomics.wait(this.answer, 0, 0, deadline);
    const state = Atomics.load(this.answer, 0);
    if (waited === 'timed-out' || state !== 1) {
      void this.worker.terminate();
      // Timed out or failed: the reader checks the file on its own thread instead.
      return { ok: false };
    }
    const bad = Atomics.load(this.answer, 1);
    return { ok: true, badLine: bad === 0 ? null : bad };
  }

  /** Stops the worker without waiting for an answer (the reader failed for another cause). */
  abandon(): void {
    void this.worker.terminate();
  }
}
