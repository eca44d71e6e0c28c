/**
 * A broken YAML document can hold tens of thousands of syntax errors (the
 * statechart fuzzer's run of 37,000 `"` has 18,328), and the `yaml` package
 * makes an Error object for each, which we then turned into a diagnostic and
 * sorted: about a third of a 42 ms check, for a list nobody reads past its
 * first screen. So the package's composer makes the first MAX_YAML_ERRORS
 * errors and only counts the rest, and yaml-package.ts lists those with one line
 * saying how many more there are.
 *
 * The composer reports each error through its `onError` field, which it
 * passes to the functions that compose a document; it is private in the
 * package's types, so it is replaced here by name. Should a later version of
 * the package stop using it, nothing breaks: every error is then made as
 * before, and yaml-package.ts still lists only the first ones
 * (test/unit/yaml-error-cap.test.ts tells which of the two happened).
 *
 * The lexer and the parser still read the whole text, and some broken texts
 * are mostly errors: a run of 57,000 `"` after a quoted string is 28,000
 * empty strings written one right after another, each a syntax error
 * (`Unexpected double-quoted-scalar at node end`), and 50 ms of the package's
 * time. So reading stops at the first quoted scalar past MAX_YAML_ERRORS such
 * in the document, and the rest of the text is not read (`stoppedAt`). YAML
 * allows none of them, but the package does not report every one: in some
 * places it drops the second string without a word (`? "a""b"` is the key
 * `a`; a run at the start of a line after an unclosed quote is one error in
 * all). So reading stops only if the composer has found an error before that
 * point (the document is broken either way, and the stop is listed after its
 * errors); in a document the package reads without an error, the text is
 * read whole, as the package does.
 */
import { Composer, Lexer, Parser, YAMLParseError, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';

/** Syntax errors listed for one document; the rest are counted. */
export const MAX_YAML_ERRORS = 100;

type OnError = (source: unknown, code: string, message: string, warning?: boolean) => void;

export interface CappedParse {
  readonly doc: Document.Parsed;
  /** Errors the composer counted without making them (beyond those in `doc.errors`). */
  readonly uncounted: number;
  /** Where reading stopped (in the parser's offsets), past MAX_YAML_ERRORS quoted scalars in a row; the document is what came before. */
  readonly stoppedAt?: number;
}

/**
 * Makes `composer` keep its first `max` errors and count the others. Returns
 * how many it counted so far (read it after composing).
 */
export function capComposerErrors(composer: Composer, max = MAX_YAML_ERRORS): () => number {
  const holder = composer as unknown as { onError?: OnError };
  const made = holder.onError;
  if (typeof made !== 'function') return () => 0;
  let errors = 0;
  let skipped = 0;
  holder.onError = (source, code, message, warning) => {
    if (!warning && ++errors > max) {
      skipped++;
      return;
    }
    made(source, code, message, warning);
  };
  return () => skipped;
}

/**
 * What the package's `parseDocument` does (public-api.js: the first document,
 * an error for a second one), with the composer's errors capped and reading
 * stopped in a run of quoted scalars. Options as yaml-package.ts passes them:
 * no pretty errors, so no line counter is needed.
 */
export function parseDocumentCapped(text: string, options: ParseOptions & DocumentOptions & SchemaOptions): CappedParse {
  return composeCapped(new Lexer().lex(text), text.length, options, true) ?? composeCapped(new Lexer().lex(text), text.length, options, false)!;
}

/**
 * The first document the package composes from `lexemes` (a text of `length`),
 * its errors capped. With `stopInQuoteRuns`, reading stops at the first quoted
 * scalar past MAX_YAML_ERRORS written right after another one; undefined when
 * it stopped and the composer had found no error before that point (read it
 * whole then).
 */
export function composeCapped(lexemes: Iterable<string>, length: number, options: ParseOptions & DocumentOptions & SchemaOptions, stopInQuoteRuns: boolean): CappedParse | undefined {
  const parser = new Parser();
  const composer = new Composer(options);
  const uncounted = capComposerErrors(composer);
  let stoppedAt: number | undefined;
  function* tokens() {
    let previousQuoted = false;
    let inRows = 0;
    for (const lexeme of lexemes) {
      const c = lexeme.charCodeAt(0);
      const quoted = c === 34 || c === 39;
      if (quoted && previousQuoted && stopInQuoteRuns && ++inRows > MAX_YAML_ERRORS) {
        stoppedAt = parser.offset;
        break;
      }
      previousQuoted = quoted;
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  }
  let doc: Document.Parsed | undefined;
  for (const d of composer.compose(tokens(), true, length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(new YAMLParseError([d.range[0], d.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
      break;
    }
  }
  // compose(…, forceDoc = true) always yields a document.
  if (stoppedAt === undefined) return { doc: doc!, uncounted: uncounted() };
  const before = stoppedAt;
  if (!doc!.errors.some((e) => e.pos[0] < before)) return undefined;
  return { doc: doc!, uncounted: uncounted(), stoppedAt };
}
