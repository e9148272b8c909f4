// POST sys/sync/destinations/<type>/:name: creates or updates a destination, its connection
// parameters checked against the type's (destinations.ts), its granularity and naming template
// (naming.ts) and custom tags.
import type { Outcome, RequestContext } from '../../core/http/route.js';
import type { FieldSpec } from '../../../kernel/http/fields.js';
import { errors, reply } from '../../../kernel/http/http.js';
import { PROTO_NAME } from '../../../kernel/own.js';
import { GRANULARITIES, STORED_SETTINGS, destinationTypes, type DestinationType, type Granularity } from '../destinations.js';
import { defaultTemplate, templateProblem } from '../naming.js';
import { syncRefusals } from '../refusals.js';
import { destinationKey, type DestinationSettings, type SyncDestinationConfigured } from '../sync.js';
import type { SyncDestination } from '../types.js';
import { unknownToVersion } from '../versions.js';
import { destinationView, forwarded, landing } from './common.js';

/** The body a type's create/update takes: its connection parameters and the common options. */
export function fields(type: DestinationType): Record<string, FieldSpec> {
  const info = destinationTypes[type];
  const fields: Record<string, FieldSpec> = {};
  for (const f of info.connection) fields[f.name] = f.list ? { type: 'strings', default: [] } : { type: 'string', default: f.default ?? '' };
  fields.granularity = { type: 'string', default: '' };
  fields.secret_name_template = { type: 'string', default: '' };
  if (info.customTags) fields.custom_tags = { type: 'map', default: {} };
  return { ...fields, ...STORED_SETTINGS[type] };
}

/**
 * `patch`: PATCH changes only the parameters given; the others keep the destination's values (it
 * must exist: 404 otherwise). POST sets every parameter, the absent ones to their defaults.
 */
export const decide =
  (type: DestinationType, patch = false) =>
  (ctx: RequestContext): Outcome => {
    const info = destinationTypes[type];
    const name = ctx.params.name;
    const key = destinationKey(ctx.namespace, type, name);
    const target = landing(ctx);
    if ('kind' in target) return target;
    const existing = target.sync.destinations[key];
    if (existing?.purge) return syncRefusals.purging(type, name);
    if (patch && !existing) return errors.notFound();
    const fields = patch && existing ? patchedFields(ctx, existing) : (ctx.fields as unknown as Record<string, unknown>);

    const connection: Record<string, string | string[]> = {};
    // A code host takes app authentication (app_name and installation_id) in place of an access token.
    const appAuth = type === 'codehost' && ctx.fields.present.has('app_name') && ctx.fields.present.has('installation_id');
    for (const f of info.connection) {
      if (f.list) {
        const list = [...new Set((fields[f.name] as string[]).map((s) => s.trim()).filter((s) => s !== ''))];
        if (f.required && list.length === 0) return syncRefusals.missingField(f.name);
        const bad = f.accepted && list.find((v) => !f.accepted!.includes(v));
        if (bad) return syncRefusals.badAccepted(f.name, bad, f.accepted!);
        connection[f.name] = list;
      } else {
        const value = fields[f.name] as string;
        if (f.required && value === '' && !(appAuth && f.name === 'access_token')) return syncRefusals.missingField(f.name);
        if (f.accepted && value !== '' && !f.accepted.includes(value)) return syncRefusals.badAccepted(f.name, value, f.accepted);
        connection[f.name] = value;
      }
    }
    const given = fields.granularity as string;
    if (given !== '' && !GRANULARITIES.includes(given as Granularity)) return syncRefusals.badAccepted('granularity', given, GRANULARITIES);
    const granularity = (given || info.defaultGranularity) as Granularity;
    const template = (fields.secret_name_template as string) || defaultTemplate(granularity);
    const problem = templateProblem(template, granularity);
    if (problem) return syncRefusals.badTemplate(problem);
    const customTags: Record<string, string> = {};
    for (const [k, v] of Object.entries((fields.custom_tags as Record<string, unknown> | undefined) ?? {})) {
      if (typeof v !== 'string') return syncRefusals.badCustomTag(k);
      if (k === PROTO_NAME) return errors.forbiddenName(); // a plain object cannot hold it (world/own.ts)
      customTags[k] = v;
    }

    const destination: DestinationSettings = { key, namespace: ctx.namespace, type, name, connection, granularity, secretNameTemplate: template, customTags };
    // Parameters newer than the version of the cluster the request reached: ignored there, with the warning.
    const unknown = unknownToVersion(ctx.cluster.version, type, ctx.fields.present);
    const settings: Record<string, unknown> = {};
    for (const k of Object.keys(STORED_SETTINGS[type])) {
      if (unknown.includes(k)) continue;
      if (ctx.fields.present.has(k)) settings[k] = fields[k];
      else if (patch && existing?.settings && Object.prototype.hasOwnProperty.call(existing.settings, k)) settings[k] = existing.settings[k];
    }
    if (Object.keys(settings).length) destination.settings = settings;
    const event: SyncDestinationConfigured = { type: 'sync-destination-configured', at: ctx.now, cluster: target.name, destination, ...forwarded(ctx, target) };
    const warnings = unknown.length ? { warnings: [`Endpoint ignored these unrecognized parameters: [${unknown.join(' ')}]`] } : {};
    return { events: [event], reply: (after) => reply.data(destinationView(after.clusters.named(target.name).sync.destinations[key]), warnings) };
  };

/** The fields of a PATCH: those given, and the destination's own values for the rest. */
function patchedFields(ctx: RequestContext, d: SyncDestination): Record<string, unknown> {
  const given = ctx.fields as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...d.connection, granularity: d.granularity, secret_name_template: d.secretNameTemplate, custom_tags: d.customTags, ...d.settings };
  for (const k of ctx.fields.present) out[k] = given[k];
  return out;
}
