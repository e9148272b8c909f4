// `replsim run --junit FILE`: the report validates against the JUnit schema CI dashboards use
// (fixtures/junit.xsd, the constraints of Jenkins' junit-10.xsd, checked by libxml2 compiled to
// WebAssembly), and says what failed where.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { FAILING, PASSING, replsim, scratch } from '../cli/helpers.js';

const XSD = readFileSync(join(__dirname, 'fixtures', 'junit.xsd'), 'utf8');
const s = scratch('replsim-junit-');

async function validate(xml: string) {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [XSD] });
  return r.errors.map((e) => e.message);
}

interface Case {
  '@name': string;
  '@classname': string;
  '@time': string;
  failure?: { '@message': string; '@type': string; '#': string } | { '@message': string; '@type': string; '#': string }[];
  error?: { '@message': string; '@type': string; '#': string } | { '@message': string; '@type': string; '#': string }[];
}

function parse(xml: string) {
  const doc = create(xml).end({ format: 'object' }) as unknown as { testsuites: { testsuite: Record<string, string> & { testcase: Case | Case[] } } };
  const suite = doc.testsuites.testsuite;
  return { suite, cases: ([] as Case[]).concat(suite.testcase) };
}

describe('replsim run --junit', () => {
  it('replsim run scenarios/ --junit out.xml writes a valid JUnit report with one testcase per scenario', async () => {
    const xmlPath = join(s.dir, 'gallery', 'out.xml');
    const r = replsim(['run', 'scenarios/', '-q', '--junit', xmlPath]);
    expect(r.code).toBe(0);
    const xml = readFileSync(xmlPath, 'utf8');
    expect(await validate(xml)).toEqual([]);
    const { suite, cases } = parse(xml);
    const gallery = r.out.match(/(\d+) files: (\d+) valid/);
    expect(gallery).not.toBeNull();
    expect(Number(suite['@tests'])).toBe(Number(gallery![1]));
    expect(suite['@failures']).toBe('0');
    expect(suite['@errors']).toBe('0');
    expect(cases[0]['@classname']).toBe('scenarios/01-dr-setup.yaml');
    expect(cases.every((c) => c.failure === undefined && c.error === undefined)).toBe(true);
  });

  it('a failed step is a <failure> naming file:line; an invalid file is an <error>; both validate', async () => {
    const passing = s.file('mixed/a-pass.yaml', PASSING);
    const failing = s.file('mixed/b-fail.yaml', FAILING);
    const invalid = s.file('mixed/c-invalid.yaml', 'name: x\nclusters:\n  east: {}\nsteps:\n  - wait: 10\n');
    const xmlPath = join(s.dir, 'mixed.xml');
    const r = replsim(['run', join(s.dir, 'mixed'), '--junit', xmlPath]);
    expect(r.code).toBe(2);
    const xml = readFileSync(xmlPath, 'utf8');
    expect(await validate(xml)).toEqual([]);
    const { suite, cases } = parse(xml);
    expect([suite['@tests'], suite['@failures'], suite['@errors']]).toEqual(['3', '1', '1']);
    expect(cases.map((c) => c['@classname'])).toEqual([passing, failing, invalid]);
    const failure = cases[1].failure as { '@message': string; '@type': string; '#': string };
    expect(failure['@type']).toBe('step');
    expect(failure['#']).toMatch(new RegExp(`^${failing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:9: step 2 \\(line 9\\)`));
    // The service's multi-line error text is one line in the message.
    expect(failure['@message']).toContain('1 error occurred: * unsupported path');
    const error = cases[2].error as { '@message': string; '@type': string; '#': string };
    expect(error['#']).toMatch(/c-invalid\.yaml:5: step 1: wait: 10 has no unit/);
  });

  it('the schema check can fail: a report missing what the schema requires is refused', async () => {
    expect(await validate('<testsuites><testsuite name="x"><testcase/></testsuite></testsuites>')).not.toEqual([]);
  });
});
