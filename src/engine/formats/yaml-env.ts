/**
 * The `yaml` package's parser reads `process.env.LOG_TOKENS` for every token
 * it is given (and its composer `LOG_STREAM` for every document), to print
 * them when debugging. In Node every read of `process.env` calls into the
 * environment behind it: on the token-heavy broken documents the statechart
 * fuzzer finds (runs of quotes, brackets, empty lines), those reads were 20 to
 * 40 % of the package's whole parse. So the package parses with `process.env`
 * swapped for a plain object holding the two variables it reads, as they
 * are, and the real one is put back when it returns or throws (as
 * yaml-package.ts does with Error.stackTraceLimit). The parse is synchronous:
 * nothing else runs in this thread meanwhile.
 */

/** The variables the package reads (yaml/dist/parse/parser.js, compose/composer.js). */
const READ = ['LOG_TOKENS', 'LOG_STREAM'] as const;

/** `parse()`, with the package's environment reads answered by a plain object. */
export function withPlainEnv<T>(parse: () => T): T {
  const real = process.env;
  const plain: NodeJS.ProcessEnv = {};
  for (const name of READ) {
    const value = real[name];
    if (value !== undefined) plain[name] = value;
  }
  try {
    process.env = plain;
  } catch {
    return parse(); // an environment that does not let it be replaced: read as it is
  }
  if (process.env !== plain) return parse();
  try {
    return parse();
  } finally {
    process.env = real;
  }
}
