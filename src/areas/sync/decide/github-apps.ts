// sys/sync/github-apps: the GitHub Apps a code host destination can authenticate as (`app_name`
// with `installation_id`, in place of an access token). LIST, GET, POST (create or replace) and
// DELETE, shaped as vault-api-facts.md §D gives them: `{app_id, name, fingerprint, private_key}`,
// the key obfuscated. The fingerprint is what GitHub shows for an app's key (SHA-256 of the public
// half, base64), so it is computed from the key, which must be a PEM private key. Registrations are
// replicated configuration, like destinations: a performance secondary forwards a change.
import { createHash, createPublicKey } from 'node:crypto';
import { stepGithubApp } from '../../../../models/sync-github-app.machine.js';
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { errors, reply, type Reply } from '../../../kernel/http/http.js';
import { hasOwn } from '../../../kernel/own.js';
import { obfuscated } from '../destinations.js';
import { syncRefusals } from '../refusals.js';
import type { SyncGithubApp, SyncGithubAppDeleted, SyncGithubAppWritten } from '../types.js';
import { forwarded, landing } from './common.js';

export const fields = {
  app_id: { type: 'int', default: 0 },
  private_key: { type: 'string', default: '' },
} as const satisfies Record<string, FieldSpec>;

function view(a: SyncGithubApp) {
  return { app_id: a.appId, fingerprint: a.fingerprint, name: a.name, private_key: obfuscated(a.privateKey) };
}

function fingerprintOf(pem: string): string | null {
  try {
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return createHash('sha256').update(der).digest('base64');
  } catch {
    return null;
  }
}

export function list(ctx: RequestContext): Reply {
  const names = Object.keys(ctx.cluster.sync.githubApps ?? {}).sort();
  return names.length ? reply.data({ keys: names }) : errors.notFound();
}

export function read(ctx: RequestContext): Reply {
  const apps = ctx.cluster.sync.githubApps;
  return apps && hasOwn(apps, ctx.params.name) ? reply.data(view(apps[ctx.params.name])) : errors.notFound();
}

export function write(ctx: RequestContext<typeof fields>): Outcome {
  const appId = ctx.fields.app_id as number;
  const privateKey = (ctx.fields.private_key as string).trim();
  if (appId <= 0) return syncRefusals.missingAppId();
  if (privateKey === '') return syncRefusals.missingPrivateKey();
  const fingerprint = fingerprintOf(privateKey);
  if (fingerprint === null) return syncRefusals.badPrivateKey();
  const target = landing(ctx);
  if ('kind' in target) return target;
  const known = target.sync.githubApps && hasOwn(target.sync.githubApps, ctx.params.name);
  if (stepGithubApp(known ? 'registered' : 'absent', { type: 'register' }) === null) throw new Error('the GitHub App machine refused a registration, which it takes in every state');
  const app: SyncGithubApp = { name: ctx.params.name, appId, privateKey, fingerprint };
  const event: SyncGithubAppWritten = { type: 'sync-github-app-written', at: ctx.now, cluster: target.name, app, ...forwarded(ctx, target) };
  return { events: [event], reply: () => reply.data(view(app)) };
}

export function remove(ctx: RequestContext): Outcome {
  const target = landing(ctx);
  if ('kind' in target) return target;
  const name = ctx.params.name;
  // Nothing to delete answers as a delete that found it (as a destination's does).
  if (!target.sync.githubApps || !hasOwn(target.sync.githubApps, name)) return reply.empty();
  const usedBy = Object.values(target.sync.destinations)
    .filter((d) => d.type === 'codehost' && d.settings?.app_name === name)
    .map((d) => d.key)
    .sort();
  if (stepGithubApp('registered', { type: 'delete', usedBy }) === null) return syncRefusals.appInUse(name, usedBy);
  const gone = target.sync.githubApps[name];
  const event: SyncGithubAppDeleted = { type: 'sync-github-app-deleted', at: ctx.now, cluster: target.name, name, ...forwarded(ctx, target) };
  // The API document's answer to a delete: the app's ID and name.
  return { events: [event], reply: () => reply.data({ app_id: gone.appId, name: gone.name }) };
}
