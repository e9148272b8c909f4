// The `--record` file written as the session goes, so a session killed (SIGKILL) leaves its
// requests so far. The file opens with a line saying it is in
// progress (recording-mark.ts) and holds the scenario's keys with `steps` last; each step applied is
// then added to its end with one write, before its client is answered. A write reaches the operating
// system at once (no buffer in the process): a killed process loses nothing written; a power cut may
// lose what the system had not yet put on disk (the file is synced when the session stops). When the recorder changes what it already wrote (a response's
// value a later request sends back gets its `save:` on the step that produced it, a decode-token
// step is added after it), the file is written again whole, under a temporary name then renamed.
// When the session stops, the finished recording replaces it the same way (serve.ts).
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../kernel/files.js';
import type { Recorder } from './recorder.js';

export class RecordingFile {
  private fd: number | null = null;
  /** The recorder's entries written so far, and its revision when the file was last written whole. */
  private next = 0;
  private revision = -1;

  /** Writes the file's start (and every entry so far, for a resumed session). */
  constructor(
    readonly path: string,
    private readonly recorder: Recorder,
    private readonly expect: () => unknown,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.update();
  }

  /** Adds the entries the recorder was told of since the last call (or writes the file again). */
  update(): void {
    if (this.recorder.revision !== this.revision || this.fd === null) {
      this.rewrite();
      return;
    }
    const { text, next } = this.recorder.progress(this.next);
    if (text !== '') writeAll(this.fd, text);
    this.next = next;
  }

  /** Syncs and closes the file (the finished recording is written over it). */
  close(): void {
    if (this.fd === null) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }

  private rewrite(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    const { text, next } = this.recorder.progress(0);
    writeFileAtomic(this.path, this.recorder.progressHead(this.expect()) + text);
    this.fd = openSync(this.path, 'a');
    this.next = next;
    this.revision = this.recorder.revision;
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
