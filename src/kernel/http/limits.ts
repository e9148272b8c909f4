// The listener's bounds on a request body, checked before any handler runs, as the service's HTTP
// layer does (vault-api-facts.md §0 "Limits"; listener/tcp docs): nesting depth, the length of a
// string value, the entries of one object, the elements of one array, the number of JSON tokens,
// and the size of the whole body. A body over a bound is refused with a 400 and changes nothing.
// Without the bounds, KV data nested 3,000 deep was stored and then overflowed the stack of the
// state hash and of the history writer.
//
// Defaults: max_json_depth 500, max_json_string_value_length 1,048,576 and max_request_size 32 MiB
// are the facts file's. The facts file marks the entry/element defaults "permissive, not checked";
// a Vault 1.21 server prints `max_json_array_element_count: "10000"` and
// `max_json_object_entry_count: "10000"` in its startup banner, and the listener docs give
// `max_json_token` 500000: those are used. The error texts are simulator wording (the facts file
// says the service's texts were not checked).

export interface RequestLimits {
  maxJsonDepth: number;
  maxJsonStringValueLength: number;
  maxJsonObjectEntryCount: number;
  maxJsonArrayElementCount: number;
  maxJsonToken: number;
  /** Bytes of the body as JSON (UTF-8). */
  maxRequestSize: number;
}

export const DEFAULT_REQUEST_LIMITS: Readonly<RequestLimits> = Object.freeze({
  maxJsonDepth: 500,
  maxJsonStringValueLength: 1_048_576,
  maxJsonObjectEntryCount: 10_000,
  maxJsonArrayElementCount: 10_000,
  maxJsonToken: 500_000,
  maxRequestSize: 33_554_432,
});

/**
 * Why a body breaks a bound or is not JSON at all (a caller of `world.request` may hand any value),
 * or null when it is within every bound. Iterative, so no body can exhaust the stack here.
 */
export function bodyLimitProblem(body: unknown, limits: Readonly<RequestLimits> = DEFAULT_REQUEST_LIMITS): string | null {
  // Bytes as JSON, counted as the walk goes: strings by their UTF-8 length plus quotes (escapes
  // would make the text a little longer: a lower bound, as cheap as the walk itself).
  let size = 0;
  let tokens = 0;
  // The values still to look at, each with its depth (two stacks side by side: no object per value).
  const values: unknown[] = [body];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (++tokens > limits.maxJsonToken) return `request body has more than ${limits.maxJsonToken} JSON tokens (max_json_token)`;
    if (value === null || typeof value === 'boolean') {
      size += 5;
      continue;
    }
    if (typeof value === 'string') {
      if (value.length > limits.maxJsonStringValueLength) return `request body has a string value longer than ${limits.maxJsonStringValueLength} (max_json_string_value_length)`;
      size += Buffer.byteLength(value) + 2;
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'request body is not JSON: a number is not finite';
      size += String(value).length;
      continue;
    }
    if (typeof value !== 'object') return `request body is not JSON: it holds a ${typeof value}`;
    if (depth > limits.maxJsonDepth) return `request body is nested deeper than ${limits.maxJsonDepth} (max_json_depth)`;
    if (Array.isArray(value)) {
      if (value.length > limits.maxJsonArrayElementCount) return `request body has an array of more than ${limits.maxJsonArrayElementCount} elements (max_json_array_element_count)`;
      size += 2 + value.length;
      for (const v of value) {
        values.push(v === undefined ? null : v);
        depths.push(depth + 1);
      }
    } else {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return 'request body is not JSON: it holds an object that is not plain data';
      const keys = Object.keys(value);
      if (keys.length > limits.maxJsonObjectEntryCount) return `request body has an object of more than ${limits.maxJsonObjectEntryCount} entries (max_json_object_entry_count)`;
      size += 2 + keys.length;
      for (const k of keys) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined) continue;
        size += Buffer.byteLength(k) + 3;
        values.push(v);
        depths.push(depth + 1);
      }
    }
    if (size > limits.maxRequestSize) return tooLarge(limits);
  }
  return size > limits.maxRequestSize ? tooLarge(limits) : null;
}

const tooLarge = (limits: Readonly<RequestLimits>) => `request body is larger than ${limits.maxRequestSize} bytes (max_request_size)`;
