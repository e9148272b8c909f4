// How a synced secret is named and what it holds in the external store. The name comes from the
// destination's secret name template (`{{ .Placeholder }}` fields, vault-api-facts.md §D), with its
// casing and delimiters adapted to what the store accepts. With `secret-path` granularity the whole
// secret is one external entry (its JSON); with `secret-key`, each key of the secret is an entry.
import { canonicalJson } from '../../kernel/canonical.js';
import { destinationTypes, type DestinationType, type Granularity } from './destinations.js';

/** The placeholders a template may use; `SecretKey` only with `secret-key` granularity. */
export const PLACEHOLDERS = [
  'DestinationType',
  'DestinationName',
  'NamespacePath',
  'NamespaceBaseName',
  'NamespaceID',
  'MountPath',
  'MountBaseName',
  'MountAccessor',
  'SecretPath',
  'SecretBaseName',
  'SecretKey',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const FIELD = /\{\{\s*\.(\w+)\s*\}\}/g;

/** The default template (docs sample `vault/{{ .MountAccessor }}/{{ .SecretPath }}`), with the key for `secret-key`. */
export function defaultTemplate(granularity: Granularity): string {
  return granularity === 'secret-key' ? 'vault/{{ .MountAccessor }}/{{ .SecretPath }}/{{ .SecretKey }}' : 'vault/{{ .MountAccessor }}/{{ .SecretPath }}';
}

/**
 * Why a template cannot name secrets at this granularity, or null. Simulator wording: the
 * service's texts for a bad template are not public.
 */
export function templateProblem(template: string, granularity: Granularity): string | null {
  const used = [...template.matchAll(FIELD)].map((m) => m[1]);
  const unknown = used.find((p) => !(PLACEHOLDERS as readonly string[]).includes(p));
  if (unknown !== undefined) return `secret_name_template: unknown field "{{ .${unknown} }}"; the fields are ${PLACEHOLDERS.map((p) => `.${p}`).join(', ')}`;
  const withKey = used.includes('SecretKey');
  if (granularity === 'secret-key' && !withKey) return 'secret_name_template: with granularity "secret-key" the template must use {{ .SecretKey }}, or every key of a secret gets the same name';
  if (granularity === 'secret-path' && withKey) return 'secret_name_template: {{ .SecretKey }} needs granularity "secret-key"';
  if (template.replace(FIELD, '').includes('{{')) return 'secret_name_template: a "{{" opens no field of the form {{ .Name }}';
  return null;
}

export type NameFields = Record<Exclude<Placeholder, 'SecretKey'>, string>;

/** Renders a template and spells the result as the store accepts names. */
export function externalName(type: DestinationType, template: string, fields: NameFields, secretKey?: string): string {
  const values: Record<string, string> = { ...fields, SecretKey: secretKey ?? '' };
  const raw = template.replace(FIELD, (_, p: string) => values[p] ?? '');
  const style = destinationTypes[type].name;
  const cased = style.upperCase ? raw.toUpperCase() : raw;
  return [...cased].map((ch) => (style.allowed.test(ch) ? ch : style.replacement)).join('');
}

/** A secret's value as an external entry holds it: strings as they are, anything else as JSON. */
function entryValue(v: unknown): string {
  return typeof v === 'string' ? v : canonicalJson(v);
}

/** What the store should hold for one secret: external name → value. Empty when the secret has no live version. */
export function externalEntries(type: DestinationType, granularity: Granularity, template: string, fields: NameFields, data: Record<string, unknown> | null): Record<string, string> {
  if (data === null) return {};
  if (granularity === 'secret-path') return { [externalName(type, template, fields)]: canonicalJson(data) };
  const out: Record<string, string> = {};
  for (const key of Object.keys(data).sort()) out[externalName(type, template, fields, key)] = entryValue(data[key]);
  return out;
}
