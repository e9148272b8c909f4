// The invariants never fire on correct behaviour: every test of the DR, operation-token, merkle and
// performance suites runs again here with a Watch on each world it builds. World's methods are wrapped (in this
// file's module graph only) so that every request is reported with its response and every request,
// wait or fault is one step. Hazards may arise (some flows force a promotion or keep two primaries
// on purpose); violations must not.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { Watch } from '../../src/check/catalogue.js';
import type { Finding } from '../../src/areas/monitoring/types.js';
import { World } from '../../src/world.js';

const SUITES = ['areas/replication', 'areas/operation-token', 'areas/merkle', 'areas/replication/performance'];

const watches = new WeakMap<World, Watch>();
const violations: Finding[] = [];
const tally = { worlds: 0, steps: 0, responses: 0 };

function watchOf(w: World): Watch {
  let watch = watches.get(w);
  if (!watch) {
    watch = new Watch(w);
    watches.set(w, watch);
    tally.worlds++;
  }
  return watch;
}

function step(w: World): void {
  tally.steps++;
  violations.push(...watchOf(w).afterStep().filter((f) => f.kind === 'violation'));
}

const proto = World.prototype as any;
const original = { send: proto.send, sendAsync: proto.sendAsync } as { send: World['send']; sendAsync: World['sendAsync'] };
proto.send = function (this: World, cluster: string, req: Parameters<World['send']>[1]) {
  const watch = watchOf(this);
  const before = this.state;
  const result = original.send.call(this, cluster, req);
  watch.observeResponse(cluster, req, result.response, before);
  tally.responses++;
  step(this);
  return result;
};
proto.sendAsync = async function (this: World, cluster: string, req: Parameters<World['send']>[1]) {
  const watch = watchOf(this);
  const before = this.state;
  const result = await original.sendAsync.call(this, cluster, req);
  watch.observeResponse(cluster, req, result.response, before);
  tally.responses++;
  step(this);
  return result;
};
for (const name of ['advance', 'partition', 'heal', 'crash', 'restart', 'corrupt'] as const) {
  const fn = proto[name];
  proto[name] = function (this: World, ...args: unknown[]) {
    watchOf(this);
    const out = fn.apply(this, args);
    step(this);
    return out;
  };
}

// The suites' own tests, registered here by importing their files.
for (const suite of SUITES) {
  const dir = join(__dirname, '..', suite);
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort()) await import(join(dir, file));
}

afterAll(() => {
  expect(tally.responses, 'the flows were watched').toBeGreaterThan(100);
  expect(violations.map((v) => `${v.id}: ${v.message}`)).toEqual([]);
});
