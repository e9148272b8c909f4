// The request-line rewriter alone: it finds every request line of a stream of pipelined requests by
// following their framing, however the bytes are cut into packets.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestLineRewriter } from '../../src/serve/list-method.js';

const body = '{"data":{"LIST /v1/x HTTP/1.1":"é"}}';
const stream = Buffer.concat([
  Buffer.from(`POST /v1/secret/data/a HTTP/1.1\r\nHost: h\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
  Buffer.from(`POST /v1/secret/data/b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nLIST \r\n0\r\n\r\n`),
  Buffer.from('GET /v1/sys/health HTTP/1.1\r\nHost: h\r\n\r\n'),
  Buffer.from('LIST /v1/secret/metadata/caf'),
  Buffer.from('é', 'utf8'),
  Buffer.from(' HTTP/1.1\r\nHost: h\r\n\r\nLIST /v1/secret/metadata/?a=1 HTTP/1.1\r\n\r\n'),
]);
const expected = Buffer.concat([
  Buffer.from(`POST /v1/secret/data/a HTTP/1.1\r\nHost: h\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
  Buffer.from(`POST /v1/secret/data/b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nLIST \r\n0\r\n\r\n`),
  Buffer.from('GET /v1/sys/health HTTP/1.1\r\nHost: h\r\n\r\n'),
  Buffer.from('GET /v1/secret/metadata/caf%C3%A9?list=true HTTP/1.1\r\nHost: h\r\n\r\nGET /v1/secret/metadata/?a=1&list=true HTTP/1.1\r\n\r\n'),
]);

function through(cuts: number[]): Buffer {
  const r = new RequestLineRewriter();
  const out: Buffer[] = [];
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    out.push(r.rewrite(stream.subarray(at, c)));
    at = c;
  }
  out.push(r.rewrite(stream.subarray(at)), r.flush());
  return Buffer.concat(out);
}

describe('RequestLineRewriter', () => {
  it('rewrites LIST and raw UTF-8 in every request line and nothing in bodies, in one packet', () => {
    expect(through([]).toString('latin1')).toBe(expected.toString('latin1'));
  });

  it('gives the same bytes however the stream is cut into packets', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 12 }), (cuts) => through(cuts).equals(expected)), { numRuns: 500 });
  });

  it('passes a stream it cannot follow on untouched from there (the parser refuses it)', () => {
    const r = new RequestLineRewriter();
    const bad = Buffer.from('POST /x HTTP/1.1\r\nContent-Length: ten\r\n\r\nLIST /y HTTP/1.1\r\n\r\n');
    expect(r.rewrite(bad).toString('latin1')).toBe(bad.toString('latin1'));
  });
});
