// A world and requests for the plugin runtime catalog tests, driven through the API.
import type { ApiResponse } from '../../../src/kernel/http/http.js';
import { World } from '../../../src/world.js';

export const CATALOG = 'sys/plugins/runtimes/catalog';
export const PLUGINS = 'sys/plugins/catalog';
export const SHA = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

/** `east` (community licence: the catalog needs none) with a namespace and tokens with and without sudo. */
export function pluginWorld(seed = 1): World {
  return World.create(
    {
      east: {
        license: 'none',
        namespaces: ['team-a'],
        tokens: {
          admin: { policy: { 'sys/plugins/*': ['create', 'read', 'update', 'delete', 'list', 'sudo'] } },
          nosudo: { policy: { 'sys/plugins/*': ['create', 'read', 'update', 'delete', 'list'] } },
          reader: { policy: { 'sys/plugins/*': ['read', 'sudo'] } },
          teamA: { namespace: 'team-a', policy: { 'sys/plugins/*': ['create', 'read', 'update', 'delete', 'list', 'sudo'] } },
        },
      },
    },
    { seed },
  );
}

export function call(w: World, method: string, path: string, body?: unknown, token = 'root', namespace?: string): ApiResponse {
  return w.request('east', { method, path, body, token: w.tokenNamed('east', token), namespace });
}

export function dataOf(r: ApiResponse): any {
  return (r.body as { data: unknown }).data;
}
