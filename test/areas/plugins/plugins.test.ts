import { describe, expect, it } from 'vitest';
import { CATALOG, PLUGINS, SHA, call, dataOf, pluginWorld } from './helpers.js';

function withRuntime() {
  const w = pluginWorld();
  call(w, 'POST', `${CATALOG}/container/gvisor`, {});
  return w;
}

describe('plugins that reference runtimes', () => {
  it('register a container plugin with a runtime (204), read it: runtime and oci_image shown', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/secret/billing`, { oci_image: 'registry.example/billing', sha256: SHA, runtime: 'gvisor' })).toEqual({ status: 204, body: null });
    expect(dataOf(call(w, 'GET', `${PLUGINS}/secret/billing`))).toEqual({
      name: 'billing',
      args: [],
      command: '',
      sha256: SHA,
      builtin: false,
      version: '',
      oci_image: 'registry.example/billing',
      runtime: 'gvisor',
    });
  });

  it('a runtime that does not exist fails the registration with the catalog error, as a 500', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/auth/p`, { oci_image: 'img', sha256: SHA, runtime: 'ghost' })).toEqual({
      status: 500,
      body: { errors: ['1 error occurred:\n\t* failed to get configured runtime for plugin "p": failed to retrieve container plugin runtime "ghost": plugin runtime not found\n\n'] },
    });
  });

  it('the runtime is looked up only for a container plugin: a command plugin may name any, and it still counts as a reference', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/database/d`, { command: 'my-db-plugin --flag', sha256: SHA, runtime: 'ghost' }).status).toBe(204);
    expect(dataOf(call(w, 'GET', `${PLUGINS}/database/d`))).toMatchObject({ command: 'my-db-plugin', args: ['--flag'], runtime: 'ghost' });
    expect(dataOf(call(w, 'GET', `${PLUGINS}/database/d`))).not.toHaveProperty('oci_image');
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`).status).toBe(204);
    // References are looked for before the entry itself: the refusal names the plugin.
    expect(call(w, 'DELETE', `${CATALOG}/container/ghost`).body).toEqual({ errors: ['unable to delete "ghost" runtime. Registered plugins=[d] are referencing it.'] });
  });

  it('registration errors use the service texts, in its order', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img' }).body).toEqual({ errors: ['missing SHA-256 value'] });
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { sha256: SHA }).body).toEqual({ errors: ['must provide at least one of command or oci_image'] });
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { command: 'x --a', args: ['--b'], sha256: SHA }).body).toEqual({ errors: ['must not specify args in command and args field'] });
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: 'abg0' }).body).toEqual({ errors: ["Could not decode SHA256 value from Hex abg0: encoding/hex: invalid byte: U+0067 'g'"] });
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: 'abc' }).body).toEqual({ errors: ['Could not decode SHA256 value from Hex abc: encoding/hex: odd length hex string'] });
  });

  it('a plugin type outside auth, database and secret is an unsupported path', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/widget/p`, { oci_image: 'img', sha256: SHA }).status).toBe(404);
  });

  it('GET of a plugin that is not registered is a 404; DELETE of one answers 204 and changes nothing', () => {
    const w = withRuntime();
    expect(call(w, 'GET', `${PLUGINS}/secret/none`)).toEqual({ status: 404, body: { errors: [] } });
    const logged = w.log.length;
    expect(call(w, 'DELETE', `${PLUGINS}/secret/none`).status).toBe(204);
    expect(w.log.length).toBe(logged);
  });

  it('DELETE of a registered plugin removes it and releases its runtime', () => {
    const w = withRuntime();
    call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA, runtime: 'gvisor' });
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`).status).toBe(400);
    expect(call(w, 'DELETE', `${PLUGINS}/secret/p`).status).toBe(204);
    expect(call(w, 'GET', `${PLUGINS}/secret/p`).status).toBe(404);
    expect(call(w, 'DELETE', `${CATALOG}/container/gvisor`).status).toBe(204);
  });

  it('the plugin catalog needs sudo and the root namespace too', () => {
    const w = withRuntime();
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA }, 'nosudo').status).toBe(403);
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA }, 'teamA', 'team-a').status).toBe(400);
    expect(call(w, 'POST', `${PLUGINS}/secret/p`, { oci_image: 'img', sha256: SHA }, 'admin').status).toBe(204);
  });
});
