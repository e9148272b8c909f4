// `replsim diagram`: the state machines as Mermaid state diagrams, generated from the machines
// themselves (docs/machines.md is this command's output, kept current by a test).
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { machinesMarkdown } from '../report/diagram.js';
import type { Io } from './run.js';

export function registerDiagram(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('diagram')
    .description('write a Mermaid stateDiagram-v2 of every state machine (role, secondary connection, generation attempt, sync association, plugin runtime), guards named')
    .option('--out <file>', 'write the Markdown to this file instead of printing it (the repository keeps it in docs/machines.md)')
    .action((opts: { out?: string }) => {
      const text = machinesMarkdown();
      if (opts.out === undefined) {
        io.out(text.replace(/\n$/, ''));
      } else {
        try {
          writeFileSync(opts.out, text);
        } catch (e) {
          io.err(`replsim diagram: cannot write ${opts.out}: ${(e as Error).message}`);
          setExit(2);
          return;
        }
        io.out(`wrote ${opts.out}`);
      }
      setExit(0);
    });
}
