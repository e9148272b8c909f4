// A path of the spec that replsim does not simulate (yet): it answers 501 and changes nothing, so
// nobody mistakes an unbuilt part for a success.
import { errors, type Method } from '../../../kernel/http/http.js';
import { endpoint, type Route } from './route.js';

export function notBuilt(pattern: string, methods: Method[], what: string): Route {
  const route: Route = { pattern, methods: {} };
  for (const m of methods) route.methods[m] = endpoint({ summary: what, auth: { token: 'none', openOnDrSecondary: true }, handle: () => errors.notImplemented(what) });
  return route;
}
