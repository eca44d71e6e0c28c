/** Argument parsing on node's own parseArgs, with usage errors as CliErrors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

export function parse(args: readonly string[], options: Options, usage: string): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (err) {
    throw new CliError('usage', `${(err as Error).message.split('\n')[0]}\nusage: ${usage}`);
  }
}

export function stringOption(parsed: Parsed, name: string): string | undefined {
  const v = parsed.values[name];
  return typeof v === 'string' ? v : undefined;
}
