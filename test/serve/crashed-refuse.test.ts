// `replsim serve --crashed refuse`: a crashed cluster's listener stops accepting connections (a
// client gets "connection refused", as from a dead server) and listens again on the same port when
// the cluster restarts; by default a crashed cluster answers 503.
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.js';

let server: ServeHandle | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const step = (s: ServeHandle, body: unknown) => fetch(`${s.control.url}/v1/step`, { method: 'POST', body: JSON.stringify(body), headers: { Authorization: `Bearer ${s.control.secret}` } });
/** The status a health read gets, or the connection error's code. */
async function health(url: string): Promise<number | string> {
  try {
    return (await fetch(`${url}/v1/sys/health`)).status;
  } catch (e) {
    return ((e as { cause?: { code?: string } }).cause?.code ?? 'error') as string;
  }
}

describe('replsim serve --crashed', () => {
  it('refuse: the listener closes with the crash and opens again with the restart, on the same port', async () => {
    server = await serve({ clusters: ['east', 'west'], clock: 'manual', crashed: 'refuse' });
    const east = server.clusters.east.url;
    expect(await health(east)).toBe(200);
    expect((await step(server, { crash: 'east' })).status).toBe(200);
    expect(await health(east)).toBe('ECONNREFUSED');
    expect(await health(server.clusters.west.url)).toBe(200);
    expect((await step(server, { restart: 'east' })).status).toBe(200);
    // Listening again is asynchronous: poll a bounded number of times.
    let status: number | string = 'ECONNREFUSED';
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = await health(east);
      if (status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(200);
  });

  it('503 by default', async () => {
    server = await serve({ clusters: ['east'], clock: 'manual' });
    await step(server, { crash: 'east' });
    expect(await health(server.clusters.east.url)).toBe(503);
  });

  it('refuses another value', async () => {
    await expect(serve({ clusters: ['east'], clock: 'manual', crashed: 'sometimes' as never })).rejects.toThrow(/--crashed must be 503 or refuse/);
  });
});
