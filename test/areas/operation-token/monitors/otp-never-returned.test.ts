import { describe, expect, it } from 'vitest';
import { otpNeverReturned } from '../../../../src/areas/operation-token/monitors/otp-never-returned.js';
import { DR, Watched, response, world } from '../../../check/helpers.js';

const ATTEMPT = `${DR}/secondary/generate-operation-token/attempt`;

describe('invariant otp-never-returned', () => {
  it('holds through the API: the OTP is shown by the start only, never by a read or an update', () => {
    const x = new Watched(world(), [otpNeverReturned]);
    x.drPrimary('east');
    x.drSecondary('east', 'west');
    x.advance(1000);
    const start = x.ok('west', ATTEMPT, {}, null);
    expect(start.otp).toMatch(/^[0-9A-Za-z]{28}$/);
    expect((x.get('west', ATTEMPT).body as any).otp).toBe('');
    x.ok('west', `${DR}/secondary/generate-operation-token/update`, { key: x.w.state.operators.east.keys[0], nonce: start.nonce }, null);
    x.get('west', `/v1/${ATTEMPT}`);
    const root = x.ok('east', 'sys/generate-root/attempt', {}, null);
    expect(root.otp).not.toBe('');
    x.get('east', 'sys/generate-root/attempt');
    expect(x.findings).toEqual([]);
  });

  it('catches a read of the attempt that returned the OTP', () => {
    const w = world();
    w.request('east', { method: 'POST', path: 'sys/generate-root/attempt', body: {} });
    const before = w.state;
    const r = response('east', { method: 'GET', path: 'sys/generate-root/attempt' }, { status: 200, body: { started: true, otp: 'leaked' } }, before);
    expect(otpNeverReturned().observe({ before, events: [], state: before, responses: [r] })).toMatchObject([{ kind: 'violation', id: 'otp-never-returned', clusters: ['east'] }]);
  });

  it('catches the open attempt’s OTP in any other answer, whatever the field', () => {
    const w = world();
    const otp = (w.request('east', { method: 'POST', path: 'sys/generate-root/attempt', body: {} }).body as any).otp as string;
    const before = w.state;
    const r = response('east', { method: 'POST', path: 'sys/generate-root/update', body: {} }, { status: 200, body: { progress: 1, hint: otp } }, before);
    expect(otpNeverReturned().observe({ before, events: [], state: before, responses: [r] })).toMatchObject([{ id: 'otp-never-returned' }]);
  });
});
