// The table of the plugin runtime catalog (spec area C), and of as much of the plugin catalog as it
// takes to register a plugin that runs with a runtime, read it and remove it: method and path →
// summary, authorisation rule, fields and the decision (decide/<endpoint>.ts). Every path needs
// `sudo` (`plugins/runtimes/catalog/*` and `plugins/catalog/*` are the service's root paths) and is
// served only in the root namespace. Decisions, texts and statuses follow the service's system
// backend (vault-api-facts.md §C).
import { routesOf, row, type AuthRule, type Route, type Row } from '../core/http/route.js';
import { PLUGIN_TYPES, type PluginType } from './plugins.js';
import * as deleteRuntime from './decide/delete-runtime.js';
import * as deregisterPlugin from './decide/deregister-plugin.js';
import * as listRuntimes from './decide/list-runtimes.js';
import * as readPlugin from './decide/read-plugin.js';
import * as readRuntime from './decide/read-runtime.js';
import * as registerPlugin from './decide/register-plugin.js';
import * as registerRuntime from './decide/register-runtime.js';

/** A CE feature: no licence needed. Root-namespace only, and `sudo` on top of the path's capability. */
const catalogAuth: AuthRule = { token: 'client', sudo: true, rootNamespace: true };

const RUNTIMES = 'sys/plugins/runtimes/catalog';
// Only `container` matches the service's URL pattern: another type is an unsupported path.
const CONTAINER_RUNTIME = `${RUNTIMES}/container/:name`;

function pluginRows(type: PluginType): Row[] {
  const a = type === 'auth' ? 'an' : 'a';
  const path = `sys/plugins/catalog/${type}/:name`;
  return [
    row('POST', path, { summary: `register ${a} ${type} plugin in the plugin catalog`, auth: catalogAuth, fields: registerPlugin.fields, decide: registerPlugin.decide(type) }),
    row('GET', path, { summary: `read ${a} ${type} plugin of the plugin catalog`, auth: catalogAuth, decide: readPlugin.decide(type) }),
    row('DELETE', path, { summary: `remove ${a} ${type} plugin from the plugin catalog`, auth: catalogAuth, decide: deregisterPlugin.decide(type) }),
  ];
}

export const pluginRuntimeRoutes: Route[] = routesOf([
  row('LIST', RUNTIMES, { summary: 'list plugin runtimes', auth: catalogAuth, decide: listRuntimes.decide }),
  row('GET', RUNTIMES, { summary: 'list plugin runtimes', auth: catalogAuth, decide: listRuntimes.decide }),
  row('POST', CONTAINER_RUNTIME, { summary: 'register or update a container plugin runtime', auth: catalogAuth, fields: registerRuntime.fields, decide: registerRuntime.decide }),
  row('GET', CONTAINER_RUNTIME, { summary: 'read a plugin runtime', auth: catalogAuth, decide: readRuntime.decide }),
  row('DELETE', CONTAINER_RUNTIME, { summary: 'remove a plugin runtime', auth: catalogAuth, decide: deleteRuntime.decide }),
  ...PLUGIN_TYPES.flatMap(pluginRows),
]);
