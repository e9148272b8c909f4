// The kinds of external secret store a sync destination can point at, by the spec's neutral type
// names: the connection parameters each one takes (spec area D, "Endpoints"), which of them are
// sensitive (returned obfuscated, vault-api-facts.md §D), the default granularity, and how the
// store spells a secret's name.

import { SERVICE_DESTINATION_TYPES, type ServiceDestinationType } from '../core/vocabulary.js';
import type { FieldSpec } from '../../kernel/http/fields.js';
/**
 * The types the sync area serves: the spec's five and the service's in-memory test type, `in-mem`
 * (a store that lives inside the service, with nothing to connect to).
 */
export const DESTINATION_TYPES = SERVICE_DESTINATION_TYPES;
export type DestinationType = ServiceDestinationType;

export type Granularity = 'secret-path' | 'secret-key';
export const GRANULARITIES: readonly Granularity[] = ['secret-path', 'secret-key'];

/** One connection parameter of a destination type. */
export interface ConnectionField {
  name: string;
  /** A list of values (`deployment_environments`), else a string. */
  list?: boolean;
  /** The spec marks it required: absent or empty is refused. */
  required?: boolean;
  /** Returned as `"*****"` when set and `""` when empty. */
  sensitive?: boolean;
  default?: string;
  /** The values accepted, when the spec lists them. */
  accepted?: readonly string[];
}

export interface DestinationTypeInfo {
  type: DestinationType;
  connection: readonly ConnectionField[];
  /** `secret-path` for the cloud stores, `secret-key` for the code and web hosts. */
  defaultGranularity: Granularity;
  /** `custom_tags` apply to the cloud stores only. */
  customTags: boolean;
  /** The characters a name may hold there (others become `replacement`), and whether it is upper case. */
  name: { allowed: RegExp; replacement: string; upperCase: boolean };
}

export const WEBHOST_ENVIRONMENTS = ['development', 'preview', 'production'] as const;

export const destinationTypes: Record<DestinationType, DestinationTypeInfo> = {
  'cloudone-sm': {
    type: 'cloudone-sm',
    // Each omitted value falls back to the environment's credential chain.
    connection: [
      { name: 'access_key_id', sensitive: true, default: '' },
      { name: 'secret_access_key', sensitive: true, default: '' },
      { name: 'region', default: '' },
    ],
    defaultGranularity: 'secret-path',
    customTags: true,
    name: { allowed: /[A-Za-z0-9/_+=.@-]/, replacement: '_', upperCase: false },
  },
  'cloudtwo-kv': {
    type: 'cloudtwo-kv',
    connection: [
      { name: 'key_vault_uri', required: true },
      { name: 'client_id', required: true },
      { name: 'client_secret', required: true, sensitive: true },
      { name: 'tenant_id', required: true },
      { name: 'cloud', default: 'cloud' },
    ],
    defaultGranularity: 'secret-path',
    customTags: true,
    // Docs example: `vault-kv-1234-my-secret`.
    name: { allowed: /[A-Za-z0-9-]/, replacement: '-', upperCase: false },
  },
  'cloudthree-sm': {
    type: 'cloudthree-sm',
    // JSON credentials as content; the `@file` form is read by the client, not the service.
    connection: [{ name: 'credentials', required: true, sensitive: true }],
    defaultGranularity: 'secret-path',
    customTags: true,
    name: { allowed: /[A-Za-z0-9_-]/, replacement: '_', upperCase: false },
  },
  codehost: {
    type: 'codehost',
    connection: [
      { name: 'access_token', required: true, sensitive: true },
      { name: 'repository_owner', required: true },
      { name: 'repository_name', required: true },
    ],
    defaultGranularity: 'secret-key',
    customTags: false,
    // Docs example: `VAULT_KV_1234_MY_SECRET`.
    name: { allowed: /[A-Z0-9_]/, replacement: '_', upperCase: true },
  },
  'in-mem': {
    type: 'in-mem',
    // The service's test store: nothing to connect to, so no connection parameters.
    connection: [],
    defaultGranularity: 'secret-path',
    customTags: false,
    // Held in memory under any name: nothing is replaced.
    name: { allowed: /[\s\S]/, replacement: '_', upperCase: false },
  },
  'webhost-project': {
    type: 'webhost-project',
    connection: [
      { name: 'access_token', required: true, sensitive: true },
      { name: 'project_id', required: true },
      { name: 'team_id', default: '' },
      { name: 'deployment_environments', required: true, list: true, accepted: WEBHOST_ENVIRONMENTS },
    ],
    defaultGranularity: 'secret-key',
    customTags: false,
    name: { allowed: /[A-Z0-9_]/, replacement: '_', upperCase: true },
  },
};

export function isDestinationType(type: string): type is DestinationType {
  return (DESTINATION_TYPES as readonly string[]).includes(type);
}

/** The value shown for a sensitive connection parameter: `"*****"` when set, `""` when empty. */
export function obfuscated(value: string): string {
  return value === '' ? '' : '*****';
}

// The parameters of a destination's create/update body (the service's Enterprise API document)
// that a simulated store has no use for: accepted, stored and read back, never acted on (README,
// Limits). The network allow-lists and the two flags are every type's.
const COMMON_SETTINGS: Record<string, FieldSpec> = {
  allowed_ipv4_addresses: { type: 'strings' },
  allowed_ipv6_addresses: { type: 'strings' },
  allowed_ports: { type: 'strings' },
  disable_strict_networking: { type: 'bool' },
  force_delete: { type: 'bool' },
  purge: { type: 'bool' },
};
const WORKLOAD_IDENTITY: Record<string, FieldSpec> = {
  identity_token_audience: { type: 'string' },
  identity_token_key: { type: 'string' },
  identity_token_ttl: { type: 'duration' },
  tags_to_remove: { type: 'strings' },
};

export const STORED_SETTINGS: Record<DestinationType, Record<string, FieldSpec>> = {
  'cloudone-sm': { ...COMMON_SETTINGS, ...WORKLOAD_IDENTITY, external_id: { type: 'string' }, kms_key_id: { type: 'string' }, replica_regions: { type: 'map' }, role_arn: { type: 'string' } },
  'cloudtwo-kv': { ...COMMON_SETTINGS, ...WORKLOAD_IDENTITY },
  'cloudthree-sm': {
    ...COMMON_SETTINGS,
    ...WORKLOAD_IDENTITY,
    global_kms_key: { type: 'string' },
    kms_key_id: { type: 'string' },
    locational_kms_keys: { type: 'map' },
    project_id: { type: 'string' },
    replica_regions: { type: 'map' },
    replication_locations: { type: 'strings' },
    service_account_email: { type: 'string' },
  },
  codehost: {
    ...COMMON_SETTINGS,
    app_name: { type: 'string' },
    enterprise_url: { type: 'string' },
    environment_name: { type: 'string' },
    installation_id: { type: 'int' },
    organization_name: { type: 'string' },
    organization_visibility: { type: 'string' },
    secrets_location: { type: 'string' },
    selected_repository_names: { type: 'strings' },
  },
  'webhost-project': { ...COMMON_SETTINGS },
  'in-mem': { ...COMMON_SETTINGS },
};
