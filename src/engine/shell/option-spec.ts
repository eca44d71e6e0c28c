/**
 * The shape of an option table: one program's options as getopt.ts reads them.
 * Its own file so the tables (program-options.ts, builtin-options.ts,
 * file-options.ts, sudo-options.ts) all import it from below instead of from
 * program-options.ts, which imports them back (an import circle).
 */
export interface OptionSpec {
  /** Long names, without dashes; the first is the full spelling the rest of the analysis reads. */
  readonly long?: readonly string[];
  /** Short letters. */
  readonly short?: string;
  /** getopt_long's has_arg: no argument, a required one (`--f=v`, `--f v`, `-fv`, `-f v`), an optional one (only attached: `--f=v`, `-fv`). */
  readonly arg: 'none' | 'required' | 'optional';
  readonly means?: 'runs' | 'writes';
  /** Why it matters (for `runs` and `writes`: said in the reason and the docs). */
  readonly why?: string;
}

export interface ProgramOptions {
  /** How reasons name it. */
  readonly program: string;
  /** Command names that select it. */
  readonly names: readonly string[];
  /** Options may follow operands (GNU permutation); false: the first operand ends them (`+` in the optstring: wrappers). */
  readonly permute: boolean;
  /** `-NUM` is an operand-like option (`nice -10 cmd`), not letters. */
  readonly numeric?: boolean;
  readonly options: readonly OptionSpec[];
}
