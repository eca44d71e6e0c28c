/**
 * `ask-user` from the command line: the question on the terminal and one line
 * of answer, when stdin is a terminal. Headless (stdin not a terminal: a
 * script, CI, a test), a question cannot be asked: the state fails with a
 * message naming it and the way to answer ahead (`--answers`), never an empty
 * answer (docs/flows.md). Answers given with `--answers` never get here:
 * the runner uses them first.
 */
import * as readline from 'node:readline/promises';
import type { AskRequest, ToolOutcome } from '../host.js';

export interface TerminalIo {
  /** Whether a person is there to answer (the CLI passes `process.stdin.isTTY`). */
  readonly interactive: boolean;
  readonly input: NodeJS.ReadableStream;
  /** Where the question is written (stderr in the CLI: stdout carries only the JSON summary). */
  readonly output: NodeJS.WritableStream;
}

export function headlessAnswerMessage(state: string): string {
  return `ask-user state '${state}' needs an answer and stdin is not a terminal (headless): give it ahead with --answers '${JSON.stringify({ [state]: '…' })}'`;
}

export async function askInTerminal(req: AskRequest, io: TerminalIo): Promise<ToolOutcome> {
  if (!io.interactive) return { exitCode: 1, stdout: '', message: headlessAnswerMessage(req.state) };
  const rl = readline.createInterface({ input: io.input, output: io.output, terminal: false });
  const closed = new Promise<ToolOutcome>((resolve) =>
    rl.once('close', () => resolve({ exitCode: 1, stdout: '', message: `ask-user state '${req.state}' got no answer: the input was closed` })),
  );
  try {
    const answer = rl.question(`? ${req.question.trimEnd()} `, { signal: req.signal }).then(
      (text): ToolOutcome => ({ exitCode: 0, stdout: text }),
      (): ToolOutcome => ({ exitCode: 130, stdout: '', message: `ask-user state '${req.state}' was stopped before it was answered` }),
    );
    return await Promise.race([answer, closed]);
  } finally {
    rl.close();
  }
}
