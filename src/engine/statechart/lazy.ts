/**
 * The statechart interpreter, loaded on first use: only a statechart run
 * calls it (the machine's chart-*.ts, the policy's chart rules), and the agent
 * hook, a process per tool call, must not compile it to decide a call on a
 * flat workflow's run. Code outside this folder calls the interpreter through
 * `interpreter()` and imports only its types (and targets.ts, which is small)
 * by file.
 */
type Interpreter = typeof import('./lazy-parts.js');

let loaded: Interpreter | undefined;

export function interpreter(): Interpreter {
  loaded ??= require('./lazy-parts.js') as Interpreter;
  return loaded;
}
