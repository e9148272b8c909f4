import { describe, expect, it } from 'vitest';
import { errors, render, reply } from '../../../src/kernel/http/http.js';
import { kvWorld } from './helpers.js';

const id = () => 'req-1';

describe('response envelope', () => {
  it('a success with data carries every field of the service envelope', () => {
    expect(render(reply.data({ a: 1 }), id)).toEqual({
      status: 200,
      body: { request_id: 'req-1', lease_id: '', renewable: false, lease_duration: 0, data: { a: 1 }, wrap_info: null, warnings: null, auth: null, mount_type: 'system' },
    });
  });

  it('a wrapped response has data null and wrap_info', () => {
    const wrap = { token: 't', accessor: 'a', ttl: 1800, creation_time: '2026-01-01T00:00:00Z', creation_path: 'p' };
    const r = render(reply.data({ secret: 1 }, { wrapInfo: wrap }), id);
    expect((r.body as any).data).toBeNull();
    expect((r.body as any).wrap_info).toEqual(wrap);
  });

  it('a success with no data is 204 with no body', () => {
    expect(render(reply.empty(), id)).toEqual({ status: 204, body: null });
  });

  it('errors are {"errors": [...]} with their status', () => {
    expect(render(errors.badField('bad'), id)).toEqual({ status: 400, body: { errors: ['bad'] } });
  });

  it('a bare reply is returned without the envelope', () => {
    expect(render(reply.bare({ progress: 1 }), id)).toEqual({ status: 200, body: { progress: 1 } });
  });

  it('request ids are drawn from the seed: the same run gives the same ids', () => {
    const ids = () => {
      const w = kvWorld(11);
      const token = w.tokenNamed('east', 'root');
      return [1, 2].map((i) => (w.request('east', { method: 'POST', path: `secret/data/k${i}`, body: { data: { i } }, token }).body as any).request_id);
    };
    expect(ids()).toEqual(ids());
    expect(ids()[0]).not.toBe(ids()[1]);
  });

  it('parameters an endpoint does not know are ignored with a warning, as the service does', () => {
    const w = kvWorld();
    const r = w.request('east', { method: 'POST', path: 'secret/data/k', body: { data: { a: 1 }, colour: 'red' }, token: w.tokenNamed('east', 'root') });
    expect(r.status).toBe(200);
    expect((r.body as any).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [colour]']);
  });
});
