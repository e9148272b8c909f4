// What CI reads of a command that ends in one verdict (`replsim check`, `explore`, `merge`): a JUnit
// report with one testcase (a <failure> naming the finding, <skipped> when a limit stopped the search
// first), and on GitHub Actions an `::error` annotation on the counterexample file when one was written.
import { create } from 'xmlbuilder2';
import { oneLine } from './narrate.js';

export interface CommandVerdict {
  /** `replsim check`, `replsim explore`, `replsim merge`. */
  command: string;
  /** The testcase's name: the command line's settings, so a dashboard tells runs apart. */
  name: string;
  verdict: 'valid' | 'invalid' | 'unknown';
  /** The finding (invalid) or why the search stopped (unknown). */
  finding?: { type: string; message: string; file?: string | null };
  wallMs: number;
}

/** The JUnit XML text of one command's verdict. */
export function verdictJunit(v: CommandVerdict): string {
  const failures = v.verdict === 'invalid' ? '1' : '0';
  const skipped = v.verdict === 'unknown' ? '1' : '0';
  const time = (v.wallMs / 1000).toFixed(3);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'replsim', tests: '1', failures, errors: '0', time });
  const suite = root.ele('testsuite', { name: v.command, tests: '1', failures, errors: '0', skipped, time });
  const tc = suite.ele('testcase', { name: v.name, classname: v.command, time });
  const message = v.finding ? oneLine(v.finding.message) : '';
  if (v.verdict === 'invalid') tc.ele('failure', { message, type: v.finding?.type ?? 'finding' }).txt(`${v.finding?.file ? `${v.finding.file}:1: ` : ''}${message}`);
  if (v.verdict === 'unknown') tc.ele('skipped', { message, type: 'unknown' });
  return root.end({ prettyPrint: true }) + '\n';
}

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The `::error` workflow command of an invalid verdict, on the counterexample file when there is one. */
export function verdictAnnotation(v: CommandVerdict): string | null {
  if (v.verdict !== 'invalid' || !v.finding) return null;
  const props = [...(v.finding.file ? [`file=${escapeProperty(v.finding.file)}`, 'line=1'] : []), `title=${escapeProperty(`${v.command}: ${v.finding.type}`)}`];
  return `::error ${props.join(',')}::${escapeData(oneLine(v.finding.message))}`;
}
