// Every refusal of the plugin runtime catalog and the plugin catalog (spec area C), registered once
// (kernel/refusal.ts). The texts are the service's (vault-api-facts.md §C, Vault's
// builtin/logical/system handlers).
import { defineRefusals } from '../../kernel/refusal.js';
import { multierror } from '../../kernel/http/http.js';

const rule = (id: string, words: string) => ({ id, words });

export const pluginRefusals = defineRefusals('plugins', {
  negativeCpu: { status: 400, wording: 'service', text: () => ['runtime cpu in nanos cannot be negative'], rule: rule('limits.cpu_nanos', 'cpu_nanos and memory_bytes are limits, zero or more (area C)') },
  negativeMemory: { status: 400, wording: 'service', text: () => ['runtime memory in bytes cannot be negative'], rule: rule('limits.memory_bytes', 'cpu_nanos and memory_bytes are limits, zero or more (area C)') },
  referenced: {
    status: 400,
    wording: 'service',
    text: (name: string, plugins: readonly string[]) => [`unable to delete ${JSON.stringify(name)} runtime. Registered plugins=[${plugins.join(' ')}] are referencing it.`],
    rule: rule('runtime-table.delete', 'a plugin runtime referenced by a registered plugin cannot be removed (area C)'),
  },
  runtimeAbsent: { status: 500, wording: 'service', text: () => [multierror('plugin runtime not found')], rule: rule('runtime-table.delete', 'only a registered plugin runtime can be removed (area C)') },
  runtimeUnknown: {
    status: 500,
    wording: 'service',
    text: (name: string) => [multierror(`failed to retrieve container plugin runtime ${JSON.stringify(name)}: plugin runtime not found`)],
    rule: rule('runtime-table.read', 'a plugin runtime is read by the type and name it was registered with (area C)'),
  },
  pluginRuntimeUnknown: {
    status: 500,
    wording: 'service',
    text: (plugin: string, runtime: string) => [
      multierror(`failed to get configured runtime for plugin ${JSON.stringify(plugin)}: failed to retrieve container plugin runtime ${JSON.stringify(runtime)}: plugin runtime not found`),
    ],
    rule: rule('C.runtime', 'a container plugin names a registered plugin runtime (area C)'),
  },
  missingSha: { status: 400, wording: 'service', text: () => ['missing SHA-256 value'], rule: rule('C.plugin', 'a plugin is registered with its SHA-256') },
  noCommand: { status: 400, wording: 'service', text: () => ['must provide at least one of command or oci_image'], rule: rule('C.plugin', 'a plugin is registered with a command or an OCI image') },
  argsTwice: { status: 400, wording: 'service', text: () => ['must not specify args in command and args field'], rule: rule('C.plugin', "a plugin's arguments are given in command or in args, not both") },
  badSha: { status: 400, wording: 'service', text: (sha: string, why: string) => [`Could not decode SHA256 value from Hex ${sha}: ${why}`], rule: rule('C.plugin', "a plugin's SHA-256 is hexadecimal") },
});
