// What an address names. The service's `update_primary_addrs` is "a comma separated list of
// host:port strings" (`10.0.0.2:8201`), while tokens, `primary_api_addr` and the status record
// carry URLs (`https://east.replsim.test:8200`). Both forms name one endpoint by its host and port,
// so an address is compared by those two alone: a scheme, a trailing slash and letter case do not
// tell endpoints apart. A URL without a port means its scheme's port (https 443, http 80), as a
// client dialling it would; a bare host without a port names no cluster port.

/** The `host:port` an address names (lower case), or null when it names none. */
export function endpointOf(address: string): string | null {
  const text = address.trim().replace(/\/+$/, '').toLowerCase();
  if (text === '') return null;
  const schemed = /^[a-z][a-z0-9+.-]*:\/\//.test(text);
  let url: URL;
  try {
    url = new URL(schemed ? text : `replsim-host-port://${text}`);
  } catch {
    return null;
  }
  if (url.hostname === '') return null;
  // URL drops a scheme's default port; a bare host:port keeps the one written.
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '';
  if (port === '') return null;
  return `${url.hostname}:${port}`;
}

/** Whether two addresses name one endpoint: "https://east.replsim.test:8201/" and "east.replsim.test:8201" do. */
export function sameAddress(a: string, b: string): boolean {
  const ea = endpointOf(a);
  return ea !== null && ea === endpointOf(b);
}
