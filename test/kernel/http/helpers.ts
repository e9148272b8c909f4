import { World } from '../../../src/world.js';
import type { ApiResponse } from '../../../src/kernel/http/http.js';

/** A one-cluster world with a narrow-policy token, a namespaced token and a sudo token. */
export function kvWorld(seed = 1): World {
  return World.create(
    {
      east: {
        namespaces: ['team-a'],
        mounts: { secret: 'kv-v2', old: 'kv-v1', 'team-a/apps': 'kv-v2' },
        tokens: {
          reader: { policy: { 'secret/data/*': ['read'], 'secret/metadata/*': ['list'] } },
          writer: { policy: { 'secret/data/app/*': ['create', 'update'], 'secret/data/app/locked': ['deny'] } },
          teamA: { namespace: 'team-a', policy: { 'apps/data/*': ['create', 'read', 'update'] } },
          ops: { policy: { 'sys/replication/*': ['create', 'read', 'update', 'delete', 'list'] } },
        },
      },
    },
    { seed },
  );
}

export function errorsOf(r: ApiResponse): string[] {
  return (r.body as { errors: string[] }).errors;
}

export function dataOf(r: ApiResponse): any {
  return (r.body as { data: unknown }).data;
}
