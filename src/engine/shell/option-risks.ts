/**
 * The writers and file commands of program-options.ts read with getopt.ts: the options that run
 * a program (a finding, as command-args.ts's are), the options it cannot
 * read as the program would (unknown, ambiguous: a finding too, so an
 * abbreviation or a newer option cannot slip past), and the command with its
 * options spelled in full for the code that finds writes.
 */
import type { Finding, Named } from './command-args';
import { canonicalWords, getopt } from './getopt';
import { FILE_OPTIONS, programOptions, WRITER_OPTIONS } from './program-options';
import type { Word } from './words';

const writerTable = (words: readonly Word[]) => {
  const first = words[0];
  if (!first || first.dynamic) return undefined;
  const t = programOptions(first.value);
  return t && (WRITER_OPTIONS.includes(t) || FILE_OPTIONS.includes(t)) ? t : undefined;
};

/** Why a writer's options make the allowed command run other code, or cannot be read as the program reads them. */
export function optionFinding(words: readonly Word[], named: Named): Finding | undefined {
  const t = writerTable(words);
  if (!t) return undefined;
  const read = getopt(t, words);
  if (!read.ok) {
    const fix = read.dynamic ? 'write the run-time part in double quotes after a literal start ("files/$X"), or after `--`' : `write the option in full, as \`${t.program} --help\` lists it`;
    return { what: `\`${words[read.index]?.text ?? ''}\``, why: `cannot be read as ${t.program} reads it: ${read.error}`, last: read.index, fix };
  }
  for (const o of read.options) {
    if (o.spec.means !== 'runs') continue;
    if (named(o.last, words[o.last]!.value.length) && (o.last === o.index || named(o.index, words[o.index]!.value.length))) continue;
    return { what: `${t.program} ${o.spelling}`, why: o.spec.why ?? 'runs a program', last: o.last };
  }
  return undefined;
}

/** The command with a writer's options in their full spelling (unchanged when it has no table or does not read). */
export function canonicalCommand(words: readonly Word[]): readonly Word[] {
  const t = writerTable(words);
  if (!t) return words;
  const read = getopt(t, words);
  return read.ok ? canonicalWords(words, read) : words;
}
