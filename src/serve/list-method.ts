// The service's clients send the HTTP method LIST (node-vault's `list`, `curl -X LIST`), which
// Node's HTTP parser refuses outright (llhttp knows a fixed set of methods), and curl sends a path
// such as `café` as raw UTF-8 bytes, which llhttp refuses too (the service's Go server takes both).
// So each connection passes through this small stream, which rewrites every request line before the
// parser sees it: `LIST /v1/x HTTP/1.1` becomes `GET /v1/x?list=true HTTP/1.1` (the service treats
// the two alike), and a byte of the target outside ASCII becomes its percent-escape (the router
// decodes path parameters, so `café` and `caf%C3%A9` name the same key, as on the service). Nothing
// else changes.
//
// It finds every request line, pipelined ones included, by following HTTP/1.1's framing as the
// bytes stream past: the request line, the header lines (Content-Length, Transfer-Encoding:
// chunked), then the body's length or its chunks. Nothing is held back but the first bytes of a
// line (up to five, to tell LIST from another method), so the parser's timeouts for slow clients
// still apply. On anything it does not follow (a malformed length, an over-long header line) it
// stops rewriting and passes the bytes on as they are: the parser then refuses them itself.
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

/** The longest header or chunk-size line followed; past it the stream stops rewriting (the parser refuses such lines anyway). */
const MAX_LINE = 64 * 1024;

type State =
  | { at: 'start'; held: number[] }
  | { at: 'method' }
  | { at: 'target'; list: boolean; query: boolean }
  | { at: 'version' }
  | { at: 'headers'; line: number[]; length: number; chunked: boolean; bad: boolean }
  | { at: 'body'; left: number }
  | { at: 'chunk-size'; line: number[] }
  | { at: 'chunk-data'; left: number }
  | { at: 'chunk-end' }
  | { at: 'trailers'; line: number[] }
  | { at: 'pass' };

const LIST = [0x4c, 0x49, 0x53, 0x54, 0x20]; // "LIST "
const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HEX = '0123456789ABCDEF';

/** Rewrites request lines in a byte stream of HTTP/1.1 requests (see the top of this file). */
export class RequestLineRewriter {
  private state: State = { at: 'start', held: [] };

  rewrite(chunk: Buffer): Buffer {
    if (this.state.at === 'pass') return chunk;
    // Bytes of lines go through `step` one by one into `out`; runs of body bytes are sliced whole.
    const parts: Buffer[] = [];
    let out: number[] = [];
    const flush = () => {
      if (out.length > 0) parts.push(Buffer.from(out));
      out = [];
    };
    let i = 0;
    while (i < chunk.length) {
      const st = this.state as State; // re-read each time: step() moves it
      if (st.at === 'body' || st.at === 'chunk-data') {
        const n = Math.min(st.left, chunk.length - i);
        flush();
        parts.push(chunk.subarray(i, i + n));
        i += n;
        st.left -= n;
        if (st.left === 0) this.state = st.at === 'body' ? { at: 'start', held: [] } : { at: 'chunk-end' };
        continue;
      }
      if (st.at === 'pass') {
        flush();
        parts.push(chunk.subarray(i));
        break;
      }
      this.step(chunk[i++], out);
    }
    flush();
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  /** What was held back when the connection ends (the first bytes of a line that never completed). */
  flush(): Buffer {
    const st = this.state;
    this.state = { at: 'pass' };
    return st.at === 'start' ? Buffer.from(st.held) : Buffer.alloc(0);
  }

  private step(b: number, out: number[]): void {
    const st = this.state;
    switch (st.at) {
      case 'start': {
        // Empty lines before a request line are allowed (RFC 9112 §2.2).
        if (st.held.length === 0 && (b === CR || b === LF)) return void out.push(b);
        st.held.push(b);
        const n = st.held.length;
        if (st.held[n - 1] !== LIST[n - 1]) {
          out.push(...st.held);
          this.state = b === SP ? { at: 'target', list: false, query: false } : { at: 'method' };
          return;
        }
        if (n === LIST.length) {
          out.push(0x47, 0x45, 0x54, SP); // "GET "
          this.state = { at: 'target', list: true, query: false };
        }
        return;
      }
      case 'method':
        out.push(b);
        if (b === SP) this.state = { at: 'target', list: false, query: false };
        else if (b === CR || b === LF) this.state = { at: 'pass' };
        return;
      case 'target':
        if (b === SP) {
          if (st.list) for (const c of Buffer.from(st.query ? '&list=true' : '?list=true', 'latin1')) out.push(c);
          out.push(b);
          this.state = { at: 'version' };
        } else if (b >= 0x80) out.push(0x25, HEX.charCodeAt(b >> 4), HEX.charCodeAt(b & 15));
        else {
          if (b === 0x3f) st.query = true;
          out.push(b);
          if (b === CR || b === LF) this.state = { at: 'pass' };
        }
        return;
      case 'version':
        out.push(b);
        if (b === LF) this.state = { at: 'headers', line: [], length: 0, chunked: false, bad: false };
        return;
      case 'headers':
      case 'trailers': {
        out.push(b);
        const line = this.lineEnded(st.line, b);
        if (line === null) return;
        st.line = [];
        if (st.at === 'trailers') {
          if (line === '') this.state = { at: 'start', held: [] };
          return;
        }
        if (line !== '') return void this.header(st, line);
        if (st.bad) this.state = { at: 'pass' };
        else if (st.chunked) this.state = { at: 'chunk-size', line: [] };
        else if (st.length > 0) this.state = { at: 'body', left: st.length };
        else this.state = { at: 'start', held: [] };
        return;
      }
      case 'chunk-size': {
        out.push(b);
        const line = this.lineEnded(st.line, b);
        if (line === null) return;
        const size = line.split(';')[0].trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(size)) return void (this.state = { at: 'pass' });
        const n = parseInt(size, 16);
        this.state = n === 0 ? { at: 'trailers', line: [] } : { at: 'chunk-data', left: n };
        return;
      }
      case 'chunk-end':
        out.push(b);
        if (b === LF) this.state = { at: 'chunk-size', line: [] };
        return;
      default:
        out.push(b);
    }
  }

  /** Adds `b` to a line being read: the line (without CR LF) once `b` ends it, else null (and too long a line stops the rewriting). */
  private lineEnded(line: number[], b: number): string | null {
    if (b === LF) return Buffer.from(line).toString('latin1').replace(/\r$/, '');
    if (line.length >= MAX_LINE) this.state = { at: 'pass' };
    else line.push(b);
    return null;
  }

  /** Notes what a header line says of the body's framing. */
  private header(st: Extract<State, { at: 'headers' }>, line: string): void {
    const colon = line.indexOf(':');
    if (colon < 0) return;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (st.length > 0 && Number(value) !== st.length)) st.bad = true;
      else st.length = Number(value);
    } else if (name === 'transfer-encoding') {
      const codings = value.toLowerCase().split(',').map((c) => c.trim());
      st.chunked = codings[codings.length - 1] === 'chunked';
      if (!st.chunked) st.bad = true;
    }
  }
}

export class ListMethodSocket extends Duplex {
  private readonly lines = new RequestLineRewriter();

  constructor(private readonly socket: Socket) {
    super({ allowHalfOpen: false });
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(this.lines.rewrite(chunk))) socket.pause();
    });
    socket.on('end', () => {
      const held = this.lines.flush();
      if (held.length > 0) this.push(held);
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
}
