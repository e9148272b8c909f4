// What CI systems read: a JUnit XML report (one testcase per scenario file, one <failure> per
// reason it failed, each naming file:line) and GitHub Actions workflow commands
// (`::error file=…,line=…::message`), which the code host shows as annotations on the lines.
//
// The JUnit shape is the one Jenkins' xUnit plugin validates (its junit-10.xsd) and GitLab, Azure
// Pipelines and the JUnit report actions read: <testsuites> holding one <testsuite name tests
// failures errors skipped time>, holding <testcase name classname time> with <failure message type>
// or <error message type> children. Test cases carry no `file` attribute (that schema has none);
// the file is the classname and every failure's text starts with `file:line:`.
import { create } from 'xmlbuilder2';
import { oneLine } from './narrate.js';
import type { FileOutcome } from './results.js';

/** One reason a file did not pass, where it points in the file. */
export interface CiFailure {
  file: string;
  line?: number;
  /** failure (the outcome is not the expected one) or error (the file could not be run). */
  severity: 'failure' | 'error';
  type: string;
  message: string;
}

/** Every reason each file did not pass, in file order. */
export function ciFailures(o: FileOutcome): CiFailure[] {
  if (o.code === 2 || !o.result) {
    return (o.errors ?? ['not run']).map((e) => {
      // Loader errors read `file:line:column: message`: keep the line, drop the repeated file.
      const at = /^(.*?):(\d+):(\d+): (.*)$/s.exec(e);
      const line = at && at[1] === o.file && Number(at[2]) > 0 ? Number(at[2]) : undefined;
      return { file: o.file, ...(line ? { line } : {}), severity: 'error' as const, type: 'invalid-file', message: oneLine(at && line ? at[4] : e) };
    });
  }
  return o.result.problems.map((p) => {
    const line = p.kind === 'expect' ? (o.expectLine ?? 1) : p.line;
    return { file: o.file, ...(line ? { line } : {}), severity: 'failure' as const, type: p.kind, message: oneLine(p.text) };
  });
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The JUnit XML text for a run of one or more files. */
export function junitXml(outcomes: FileOutcome[], suiteName = 'replsim run'): string {
  const failures = outcomes.filter((o) => o.code === 1).length;
  const errors = outcomes.filter((o) => o.code === 2).length;
  const time = seconds(outcomes.reduce((t, o) => t + o.wallMs, 0));
  const counts = { tests: String(outcomes.length), failures: String(failures), errors: String(errors) };
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'replsim', ...counts, time });
  const suite = root.ele('testsuite', { name: suiteName, ...counts, skipped: '0', time });
  for (const o of outcomes) {
    const testcase = suite.ele('testcase', { name: o.result?.name ?? o.file, classname: o.file, time: seconds(o.wallMs) });
    for (const f of ciFailures(o)) {
      testcase.ele(f.severity, { message: f.message, type: f.type }).txt(`${f.file}:${f.line ?? 1}: ${f.message}`);
    }
    if (o.result) testcase.ele('system-out').txt(`seed ${o.result.seed}; ${o.result.steps} steps run, ${o.result.skipped} not run; replay: npx replsim run ${o.file} --seed ${o.result.seed}`);
  }
  return root.end({ prettyPrint: true }) + '\n';
}

// Workflow command escaping, as the Actions toolkit does it (@actions/core's command.ts): the message
// escapes %, CR and LF; a property value also escapes : and ,.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=…,line=…,title=…::message` lines, one per failure, for GitHub Actions logs. */
export function githubAnnotations(outcomes: FileOutcome[]): string[] {
  return outcomes.flatMap((o) =>
    ciFailures(o).map((f) => {
      const props = [...(f.file === '<stdin>' ? [] : [`file=${escapeProperty(f.file)}`]), ...(f.line ? [`line=${f.line}`] : []), `title=${escapeProperty(`replsim: ${f.type}`)}`];
      return `::error ${props.join(',')}::${escapeData(f.message)}`;
    }),
  );
}
