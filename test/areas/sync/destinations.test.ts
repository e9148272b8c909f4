import { describe, expect, it } from 'vitest';
import { World } from '../../../src/world.js';
import { CONNECTIONS, DEST, call, createDestination, dataOf, expectOk, expectRefused, setAssociation, syncWorld, writeSecret } from './helpers.js';

describe('sync destinations: create and update per type', () => {
  it('cloudone-sm: every connection value is optional; the keys are obfuscated, the region is not', () => {
    const w = syncWorld();
    const empty = dataOf(expectOk(call(w, 'POST', `${DEST}/cloudone-sm/store0`, {})));
    expect(empty.connection_details).toEqual({ access_key_id: '', secret_access_key: '', region: '' });
    const r = dataOf(createDestination(w, 'cloudone-sm', 'store1'));
    expect(r).toMatchObject({ name: 'store1', type: 'cloudone-sm', connection_details: { access_key_id: '*****', secret_access_key: '*****', region: 'eu-west-1' } });
    expect(r.options.granularity_level).toBe('secret-path');
  });

  it('cloudtwo-kv: key_vault_uri, client_id, client_secret and tenant_id are required; cloud defaults to "cloud"', () => {
    const w = syncWorld();
    for (const missing of ['key_vault_uri', 'client_id', 'client_secret', 'tenant_id']) {
      const body = { ...CONNECTIONS['cloudtwo-kv'], [missing]: undefined };
      expectRefused(call(w, 'POST', `${DEST}/cloudtwo-kv/kv1`, body), 400, `missing required field "${missing}"`, true);
    }
    const r = dataOf(createDestination(w, 'cloudtwo-kv', 'kv1'));
    expect(r.connection_details).toEqual({ key_vault_uri: 'https://keys.example', client_id: 'cid', client_secret: '*****', tenant_id: 'tid', cloud: 'cloud' });
    expect(r.options.granularity_level).toBe('secret-path');
  });

  it('cloudthree-sm: credentials are required and obfuscated', () => {
    const w = syncWorld();
    expectRefused(call(w, 'POST', `${DEST}/cloudthree-sm/gsm1`, {}), 400, 'missing required field "credentials"');
    expect(dataOf(createDestination(w, 'cloudthree-sm', 'gsm1')).connection_details).toEqual({ credentials: '*****' });
  });

  it('codehost: access_token, repository_owner and repository_name are required; granularity defaults to secret-key', () => {
    const w = syncWorld();
    for (const missing of ['access_token', 'repository_owner', 'repository_name']) {
      expectRefused(call(w, 'POST', `${DEST}/codehost/gh1`, { ...CONNECTIONS.codehost, [missing]: '' }), 400, `missing required field "${missing}"`);
    }
    const r = dataOf(createDestination(w, 'codehost', 'gh1'));
    expect(r.connection_details).toEqual({ access_token: '*****', repository_owner: 'acme', repository_name: 'web' });
    expect(r.options.granularity_level).toBe('secret-key');
  });

  it('webhost-project: deployment_environments is required and takes development, preview, production only', () => {
    const w = syncWorld();
    const body = CONNECTIONS['webhost-project'];
    expectRefused(call(w, 'POST', `${DEST}/webhost-project/v1`, { ...body, deployment_environments: [] }), 400, 'missing required field "deployment_environments"');
    expectRefused(call(w, 'POST', `${DEST}/webhost-project/v1`, { ...body, deployment_environments: ['production', 'staging'] }), 400, 'invalid deployment_environments value "staging"');
    expectRefused(call(w, 'POST', `${DEST}/webhost-project/v1`, { ...body, project_id: '' }), 400, 'missing required field "project_id"');
    const r = dataOf(expectOk(call(w, 'POST', `${DEST}/webhost-project/v1`, { ...body, deployment_environments: 'development,preview' })));
    expect(r.connection_details).toEqual({ access_token: '*****', project_id: 'prj_1', team_id: '', deployment_environments: ['development', 'preview'] });
    expect(r.options.granularity_level).toBe('secret-key');
  });

  it('a sensitive value that is empty reads back as "" rather than "*****"', () => {
    const w = syncWorld();
    const r = dataOf(expectOk(call(w, 'POST', `${DEST}/cloudone-sm/s`, { access_key_id: 'AKIA' })));
    expect(r.connection_details.access_key_id).toBe('*****');
    expect(r.connection_details.secret_access_key).toBe('');
  });

  it('POST again updates the destination in place (an upsert), and GET shows the new settings', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh1');
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { ...CONNECTIONS.codehost, repository_name: 'api', granularity: 'secret-path' }));
    const r = dataOf(call(w, 'GET', `${DEST}/codehost/gh1`));
    expect(r.connection_details.repository_name).toBe('api');
    expect(r.options).toEqual({ granularity_level: 'secret-path', secret_name_template: 'vault/{{ .MountAccessor }}/{{ .SecretPath }}', custom_tags: {} });
    expect(dataOf(call(w, 'LIST', DEST)).total_destinations).toBe(1);
  });

  it('granularity, secret_name_template and custom_tags are checked', () => {
    const w = syncWorld();
    const aws = CONNECTIONS['cloudone-sm'];
    expectRefused(call(w, 'POST', `${DEST}/cloudone-sm/s`, { ...aws, granularity: 'per-key' }), 400, 'invalid granularity value "per-key"');
    expectRefused(call(w, 'POST', `${DEST}/cloudone-sm/s`, { ...aws, secret_name_template: '{{ .Nope }}' }), 400, 'unknown field');
    expectRefused(call(w, 'POST', `${DEST}/cloudone-sm/s`, { ...aws, secret_name_template: 'x/{{ .SecretKey }}' }), 400, 'needs granularity "secret-key"');
    expectRefused(call(w, 'POST', `${DEST}/cloudone-sm/s`, { ...aws, custom_tags: { team: 7 } }), 400, 'custom_tags');
    const r = dataOf(expectOk(call(w, 'POST', `${DEST}/cloudone-sm/s`, { ...aws, custom_tags: { team: 'billing' }, secret_name_template: 'app/{{ .SecretPath }}' })));
    expect(r.options).toEqual({ granularity_level: 'secret-path', secret_name_template: 'app/{{ .SecretPath }}', custom_tags: { team: 'billing' } });
  });

  it('custom_tags apply to the cloud stores only: a code host ignores them with a warning', () => {
    const w = syncWorld();
    const r = expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { ...CONNECTIONS.codehost, custom_tags: { a: 'b' } }));
    expect((r.body as any).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [custom_tags]']);
  });

  it('a type the service does not have is an unsupported path (its in-mem test type is served: config-apps-in-mem.test.ts)', () => {
    const w = syncWorld();
    expectRefused(call(w, 'GET', `${DEST}/nosuch/x`), 404, 'unsupported path');
    expectRefused(call(w, 'LIST', `${DEST}/nosuch`), 404, 'unsupported path');
  });
});

describe('sync destinations: read, list and delete', () => {
  it('GET of a destination that does not exist is a 404 with an empty error list', () => {
    const w = syncWorld();
    expect(call(w, 'GET', `${DEST}/codehost/none`)).toEqual({ status: 404, body: { errors: [] } });
  });

  it('LIST groups names by type: key_info and keys with a trailing slash, and total_destinations', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh2');
    createDestination(w, 'codehost', 'gh1');
    createDestination(w, 'cloudone-sm', 'store1');
    const r = dataOf(call(w, 'LIST', DEST));
    expect(r).toEqual({ key_info: { 'cloudone-sm/': ['store1'], 'codehost/': ['gh1', 'gh2'] }, keys: ['cloudone-sm/', 'codehost/'], total_destinations: 3 });
    expect(dataOf(call(w, 'GET', `${DEST}?list=true`))).toEqual(r);
  });

  it('LIST by type gives the names and their count', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh2');
    createDestination(w, 'codehost', 'gh1');
    createDestination(w, 'cloudone-sm', 'store1');
    expect(dataOf(call(w, 'LIST', `${DEST}/codehost`))).toEqual({ keys: ['gh1', 'gh2'], total_destinations: 2 });
  });

  it('empty lists are a 404 with an empty error list', () => {
    const w = syncWorld();
    expect(call(w, 'LIST', DEST)).toEqual({ status: 404, body: { errors: [] } });
    createDestination(w, 'codehost', 'gh1');
    expect(call(w, 'LIST', `${DEST}/cloudone-sm`)).toEqual({ status: 404, body: { errors: [] } });
  });

  it('DELETE answers 204 and the destination is gone (deleting it again is also a 204)', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh1');
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1`).status).toBe(204);
    expect(call(w, 'GET', `${DEST}/codehost/gh1`).status).toBe(404);
    const before = w.log.length;
    expect(call(w, 'DELETE', `${DEST}/codehost/gh1`).status).toBe(204);
    expect(w.log.length).toBe(before);
  });

  it('DELETE is refused while the destination still manages associations (simulator wording)', () => {
    const w = syncWorld();
    writeSecret(w, 'a', { k: 'v' });
    writeSecret(w, 'b', { k: 'v' });
    createDestination(w, 'codehost', 'gh1');
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'a'));
    expectOk(setAssociation(w, 'codehost', 'gh1', 'secret', 'b'));
    expectRefused(
      call(w, 'DELETE', `${DEST}/codehost/gh1`),
      400,
      'destination codehost/gh1 still manages 2 associations: remove them first, or delete with purge=true to unsync and remove them',
      true,
    );
  });

  it('destinations live in their namespace: a namespace sees only its own', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh1');
    expectOk(call(w, 'POST', `${DEST}/codehost/gh1`, { ...CONNECTIONS.codehost, repository_name: 'team-repo' }, 'teamA', 'east', 'team-a'));
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1`, undefined, 'teamA', 'east', 'team-a')).connection_details.repository_name).toBe('team-repo');
    expect(dataOf(call(w, 'GET', `${DEST}/codehost/gh1`)).connection_details.repository_name).toBe('web');
    expect(dataOf(call(w, 'LIST', 'team-a/sys/sync/destinations', undefined, 'teamA')).total_destinations).toBe(1);
  });
});

describe('sync destinations: who may call', () => {
  it('a client token needs the path capability: create for a new destination, update for an existing one', () => {
    const w = World.create({
      east: {
        tokens: {
          creator: { policy: { 'sys/sync/destinations/*': ['create'] } },
          updater: { policy: { 'sys/sync/destinations/*': ['update'] } },
        },
      },
    });
    const post = (token: string) => w.request('east', { method: 'POST', path: `${DEST}/codehost/gh1`, body: CONNECTIONS.codehost, token: w.tokenNamed('east', token) });
    expect(post('updater').status).toBe(403);
    expect(post('creator').status).toBe(200);
    expect(post('creator').status).toBe(403);
    expect(post('updater').status).toBe(200);
  });

  it('no token, or a token without the capability, is a 403 permission denied', () => {
    const w = syncWorld();
    expectRefused(call(w, 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost, null), 403, 'permission denied');
    expectRefused(call(w, 'POST', `${DEST}/codehost/gh1`, CONNECTIONS.codehost, 'viewer'), 403, 'permission denied');
  });

  it('needs a licence with the feature: enterprise or a managed cluster; a community build (none) has no sync paths at all: 404 unsupported path', () => {
    const w = World.create({ ent: {}, man: { license: 'managed' }, ce: { license: 'none' } });
    const post = (c: string) => w.request(c, { method: 'POST', path: `${DEST}/codehost/gh1`, body: CONNECTIONS.codehost, token: w.tokenNamed(c, 'root') });
    expect(post('ent').status).toBe(200);
    expect(post('man').status).toBe(200);
    const unsupported = { status: 404, body: { errors: ['1 error occurred:\n\t* unsupported path\n\n'] } };
    expect(post('ce')).toEqual(unsupported);
    // Every sync path, reads and lists included, with or without a token: none exists there.
    const ce = (method: string, path: string, token?: string) => w.request('ce', { method, path, token });
    const root = w.tokenNamed('ce', 'root');
    expect(ce('LIST', DEST, root)).toEqual(unsupported);
    expect(ce('LIST', `${DEST}/codehost`, root)).toEqual(unsupported);
    expect(ce('GET', `${DEST}/codehost/gh1/associations`, root)).toEqual(unsupported);
    expect(ce('LIST', 'sys/sync/associations', root)).toEqual(unsupported);
    expect(ce('GET', 'sys/sync/associations/secret/app', undefined)).toEqual(unsupported);
    expect(w.log.filter((e) => 'cluster' in e && (e as { cluster: string }).cluster === 'ce')).toEqual([]);
  });

  it('PATCH changes only what it gives; the rest keeps its values; an absent destination is 404', () => {
    const w = syncWorld();
    createDestination(w, 'codehost', 'gh1', { allowed_ports: ['443'] });
    const r = dataOf(expectOk(call(w, 'PATCH', `${DEST}/codehost/gh1`, { repository_name: 'api', app_name: 'sync-app', installation_id: 42 })));
    expect(r.connection_details).toMatchObject({ ...CONNECTIONS.codehost, repository_name: 'api', access_token: '*****' });
    expect(r.options).toMatchObject({ granularity_level: 'secret-key', allowed_ports: ['443'], app_name: 'sync-app', installation_id: 42 });
    expect(call(w, 'PATCH', `${DEST}/codehost/nosuch`, {}).status).toBe(404);
  });

  it('a code host destination with app authentication needs no access token', () => {
    const w = syncWorld();
    const { access_token: _, ...rest } = CONNECTIONS.codehost as Record<string, unknown>;
    expectOk(call(w, 'POST', `${DEST}/codehost/app`, { ...rest, app_name: 'sync-app', installation_id: 42 }));
  });
});
