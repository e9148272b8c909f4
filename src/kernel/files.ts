// Reading what a user names and writing what replsim leaves behind, safely:
// - a file is read only when it is a regular file (a FIFO would block forever, /dev/zero or a link to
//   it would fill the memory), and never past a size bound, even when it grows while being read;
// - standard input is read up to the same bound;
// - a file replsim writes appears whole or not at all: it is written under a temporary name in the
//   same folder, synced, then renamed over the old one (a rename within a folder is atomic).
import { StringDecoder } from 'node:string_decoder';
import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A file that cannot be read as asked: the message names the file and the cause. */
export class InputFileError extends Error {}

/** What a non-regular file is, in words. */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** "8 MiB", "1,048,576 bytes": a bound as people read it. */
export function bytesText(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  return `${n.toLocaleString('en-US')} bytes`;
}

/**
 * A regular file's text, at most `maxBytes` bytes of it. Opened without blocking (a FIFO opens at
 * once and is then refused by its kind); a file that grows past the bound while it is read is
 * refused too. `what` names the file's role in the errors ("scenario file", "history").
 */
export function readRegularFile(path: string, maxBytes: number, what = 'file'): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new InputFileError(`${path}: cannot read: ${(e as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new InputFileError(`${path}: not read: it is ${kindOf(stat)}, and a ${what} must be a regular file`);
    if (stat.size > maxBytes) throw new InputFileError(`${path}: not read: ${stat.size.toLocaleString('en-US')} bytes, larger than a ${what} may be (${bytesText(maxBytes)})`);
    return readUpTo(fd, maxBytes, () => new InputFileError(`${path}: not read: it grew past ${bytesText(maxBytes)} while being read`));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a descriptor to its end, failing with `tooLarge()` past `maxBytes`. A non-blocking one that
 * is not ready is waited for. The text is decoded as it is read, not gathered into one buffer first:
 * a file of megabytes was held twice outside the heap (its pieces, then their concatenation) beside
 * its text.
 */
export function readUpTo(fd: number, maxBytes: number, tooLarge: () => Error): string {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let total = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      // Standard input left non-blocking by a parent: wait a little and read again.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw tooLarge();
    text += decoder.write(buf.subarray(0, n));
  }
  return text + decoder.end();
}

/**
 * Writes `data` to `path` so that the path holds either its old content or the whole new one: a
 * temporary file beside it (same folder, so the rename stays on one file system), synced to the
 * disk, then renamed over `path`. A process killed on the way leaves at most the temporary file,
 * whose name starts with `.` and ends with `.tmp`.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  const write = (bytes: Uint8Array) => {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  };
  try {
    if (typeof data === 'string') write(Buffer.from(data, 'utf8'));
    else if (data instanceof Uint8Array) write(data);
    else {
      // Pieces (a long run's results, written as they are made): gathered into writes of about a megabyte,
      // encoded into one buffer rather than joined (a joined megabyte is a string the heap keeps until
      // its next full collection: a 100,000-step run's results left a hundred of them).
      const buffer = Buffer.allocUnsafe(1 << 20);
      let used = 0;
      for (const piece of data) {
        if (Buffer.byteLength(piece, 'utf8') > buffer.length - used) {
          write(buffer.subarray(0, used));
          used = 0;
          if (Buffer.byteLength(piece, 'utf8') > buffer.length) {
            write(Buffer.from(piece, 'utf8'));
            continue;
          }
        }
        used += buffer.write(piece, used, 'utf8');
      }
      write(buffer.subarray(0, used));
    }
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(temp, path);
}

/** The signals that ask a process to stop: a terminal's Ctrl-C, `kill`, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs synchronous writing work with the stop signals held back: one that arrives meanwhile waits
 * until the files are written, then stops the process as it would have (the handler is removed and
 * the signal raised again). Without this, the default action of SIGINT or SIGTERM ends the process
 * in the middle of a write.
 */
export function whileWriting<T>(work: () => T): T {
  let caught: NodeJS.Signals | null = null;
  const hold = (signal: NodeJS.Signals) => {
    caught ??= signal;
  };
  // Only when nobody else handles them (`replsim serve` has its own handlers, which already wait).
  const mine = STOP_SIGNALS.filter((sig) => process.listenerCount(sig) === 0);
  for (const sig of mine) process.on(sig, hold);
  try {
    return work();
  } finally {
    // A signal delivered during the synchronous work reaches its handler only when the event loop
    // turns (its poll phase); the handlers are removed, and the signal raised again, just after.
    setImmediate(() => {
      for (const sig of mine) process.off(sig, hold);
      if (caught) process.kill(process.pid, caught);
    });
  }
}
