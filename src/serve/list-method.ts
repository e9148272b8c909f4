// The service's clients send the HTTP method LIST (node-vault's `list`, `curl -X LIST`), which
// Node's HTTP parser refuses outright (llhttp knows a fixed set of methods). The service treats
// `LIST path` and `GET path?list=true` alike, so each connection passes through this small stream,
// which rewrites a request line `LIST /v1/x HTTP/1.1` into `GET /v1/x?list=true HTTP/1.1` before the
// parser sees it, and nothing else. It looks for a request line only where one starts: at the start
// of the connection and after each response has been sent (clients wait for the answer before
// sending the next request on a keep-alive connection). A LIST pipelined behind another request in
// the same packet is not rewritten, and Node answers it 400.
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

/** The longest request line held back while waiting for its end (longer ones pass through untouched). */
const MAX_REQUEST_LINE = 64 * 1024;

export class ListMethodSocket extends Duplex {
  /** Set by the server when a response ends: the next byte starts a request line. */
  atRequestStart = true;
  private held: Buffer | null = null;

  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: false });
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(this.rewrite(chunk))) socket.pause();
    });
    socket.on('end', () => {
      if (this.held) this.push(this.flushHeld());
      this.push(null);
    });
    socket.on('error', (e) => this.destroy(e));
    socket.on('close', () => this.destroy());
    socket.on('drain', () => this.emit('drain'));
    // Node's HTTP server listens for 'timeout' on the stream it was given (keep-alive and idle timeouts).
    socket.on('timeout', () => this.emit('timeout'));
  }

  get remoteAddress() {
    return this.socket.remoteAddress;
  }
  get remotePort() {
    return this.socket.remotePort;
  }
  get localAddress() {
    return this.socket.localAddress;
  }
  get localPort() {
    return this.socket.localPort;
  }
  setTimeout(ms: number, cb?: () => void): this {
    this.socket.setTimeout(ms);
    if (cb) this.once('timeout', cb);
    return this;
  }
  setNoDelay(noDelay?: boolean): this {
    this.socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.socket.setKeepAlive(enable, delay);
    return this;
  }

  override _read(): void {
    this.socket.resume();
  }
  override _write(chunk: Buffer, encoding: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.socket.write(chunk, encoding, cb);
  }
  override _final(cb: (e?: Error | null) => void): void {
    this.socket.end(cb);
  }
  override _destroy(err: Error | null, cb: (e: Error | null) => void): void {
    this.socket.destroy(err ?? undefined);
    cb(err);
  }

  private flushHeld(): Buffer {
    const b = this.held ?? Buffer.alloc(0);
    this.held = null;
    return b;
  }

  private rewrite(chunk: Buffer): Buffer {
    if (!this.atRequestStart) return chunk;
    const buf = this.held ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = null;
    // Not (or not yet) a LIST: decide as soon as the first bytes allow.
    const probe = buf.subarray(0, 5).toString('latin1');
    if (!'LIST '.startsWith(probe) && !probe.startsWith('LIST ')) {
      this.atRequestStart = false;
      return buf;
    }
    const eol = buf.indexOf('\r\n');
    if (probe.length < 5 || eol < 0) {
      if (buf.length > MAX_REQUEST_LINE) {
        this.atRequestStart = false;
        return buf;
      }
      this.held = buf;
      return Buffer.alloc(0);
    }
    this.atRequestStart = false;
    const line = buf.subarray(0, eol).toString('latin1');
    const m = /^LIST (\S+)( HTTP\/\d\.\d)$/.exec(line);
    if (!m) return buf;
    const url = m[1] + (m[1].includes('?') ? '&' : '?') + 'list=true';
    return Buffer.concat([Buffer.from(`GET ${url}${m[2]}`, 'latin1'), buf.subarray(eol)]);
  }
}
