/**
 * Shell command analysis for `allowed_commands`, `blocked_env` and shell
 * writes (docs/enforcement.md), on a real bash parser.
 *
 * The walk finds every simple command wherever bash would run one (lists,
 * pipelines, subshells, groups, substitutions, function bodies, control flow,
 * here-docs, `eval`, `sh -c` bodies, wrappers such as `env`/`xargs`/`timeout`,
 * `find -exec`) and checks each. It fails closed: a node type it does not
 * know, a parse error, a command name computed at run time, a sourced file or
 * a shell reading its script from stdin is a denial with a reason, never a
 * pass. The first problem found (in source order) is the one reported.
 *
 * Whatever the rules, the analysis also reports what the command writes
 * (redirect targets, file commands' targets: write-targets.ts) and
 * where it changes folder, for the path rules the policy applies
 * (util/paths/write-guard.ts: protected files, path scope). In a state whose commands
 * are free (no allowed_commands, no blocked_env, Write allowed) the walk is
 * lenient: a construct it cannot analyse is skipped rather than denied, since
 * the state lets the agent run any program anyway; it reports the writes it
 * can see.
 */
import { riskyArguments, riskyAssignment, type Assignment, type Finding } from './command-args';
import { matchEntries, type EntryMatch } from './command-match';
import { ownCliDenial } from './own-cli';
import { commandRulesInForce, type ShellRules } from './rules';
import { canonicalCommand, optionFinding } from './option-risks';
import { outputTargets } from './output-flags';
import { DECLARE, envReadReason, findExecs, isCodeLoadingVar, SHELLS, shellRun, touchesEnviron, unwrap, WRAPPERS, writesFiles, xargsReplace } from './commands';
import { falseComment, joinedContinuation, type Misread, skippedText, splitWords } from './misread';
import { loadShellParser, type ShellParser } from './parser';
import { ShellNode as SyntaxNode } from './tree';
import { sedEffects, sedScripts } from './sed-script';
import { evalWord, type Word } from './words';
import { braceWords } from './brace-expansion';
import { commandMaySetUserVars } from './user-vars';
import { harmlessAssignment } from './harmless-assignments';
import { dirChange, envChdir, UNKNOWN_TARGET, writeTargets, type DirChange, type ShellWrite, type WriteTarget } from './write-targets';

export { rewriteCommand } from '../util/shell-quote';

export type { ShellRules } from './rules';

/** What the command writes and where it changes folder, in source order (also on a denial: what was seen before it). */
export interface ShellEffects {
  readonly writes?: readonly ShellWrite[];
  readonly dirs?: readonly DirChange[];
}

export type ShellVerdict = ({ readonly ok: true } | { readonly ok: false; readonly reason: string; readonly offending?: string }) & ShellEffects;

/** Longer commands are denied rather than analysed (a hook has a time budget). */
const MAX_COMMAND_LENGTH = 64 * 1024;
/** `bash -c "eval 'sh -c ...'"` nesting deeper than this is denied. */
const MAX_DEPTH = 8;

/** Thrown inside the walk to stop at the first problem. */
class Denial {
  constructor(
    readonly reason: string,
    readonly offending?: string,
    /** Holds in every enforced state, even one with no shell rules (stategate's own CLI). */
    readonly always = false,
  ) {}
}

const deny = (reason: string, offending?: string): never => {
  throw new Denial(reason, offending);
};

/** Whether any rule limits the command (else the walk is lenient and only reports writes). */
export function shellRulesInForce(rules: ShellRules): boolean {
  return inForce(normaliseRules(rules));
}

const inForce = commandRulesInForce;

/** Rules from anywhere, made safe to read: anything malformed is read the strict way. */
function normaliseRules(rules: unknown): ShellRules {
  const r = (typeof rules === 'object' && rules !== null ? rules : {}) as Partial<Record<keyof ShellRules, unknown>>;
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const blockedEnv = strings(r.blockedEnv);
  const writeAllowed = r.writeAllowed === true;
  const agentMay = strings(r.agentMay) as ShellRules['agentMay'];
  // Present but not a list: no command is allowed.
  const granted = agentMay?.length ? { agentMay } : {};
  return r.allowedCommands !== undefined ? { allowedCommands: strings(r.allowedCommands), blockedEnv, writeAllowed, ...granted } : { blockedEnv, writeAllowed, ...granted };
}

/** Loads the parser on first use, then analyses. Never rejects. */
export async function analyseCommand(command: unknown, given: ShellRules): Promise<ShellVerdict> {
  const rules = normaliseRules(given);
  // Once loaded, the parser is taken without awaiting its (settled) promise again.
  let parser = loaded;
  if (!parser) {
    try {
      parser = loaded = await loadShellParser();
    } catch (err) {
      // Without a parser no write can be seen, so not even a free state's command passes.
      return { ok: false, reason: `the shell parser could not be loaded (${String(err)}), so no command can be checked` };
    }
  }
  return analyseNormalised(parser, command, rules);
}

let loaded: ShellParser | undefined;

/** The synchronous analysis, for callers that already hold a loaded parser. */
export function analyseWithParser(parser: ShellParser, command: unknown, given: ShellRules): ShellVerdict {
  return analyseNormalised(parser, command, normaliseRules(given));
}

function analyseNormalised(parser: ShellParser, command: unknown, rules: ShellRules): ShellVerdict {
  if (typeof command !== 'string') return { ok: false, reason: 'the command is not text' };
  if (command.length > MAX_COMMAND_LENGTH) return { ok: false, reason: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  const walk = new Walk(parser, rules);
  try {
    walk.source(command, 0);
    return { ok: true, ...walk.effects() };
  } catch (err) {
    // A free state's command passes what the walk could not read (it reports the writes it saw), but
    // what holds in every state (stategate's own CLI) still denies.
    if (err instanceof Denial && !inForce(rules) && !err.always) return { ok: true, ...walk.effects() };
    if (err instanceof Denial) return { ok: false, reason: err.reason, ...(err.offending === undefined ? {} : { offending: err.offending }), ...walk.effects() };
    return { ok: false, reason: `the command could not be analysed (${String(err)})`, ...walk.effects() };
  }
}

const quote = (s: string): string => `\`${s.length > 120 ? `${s.slice(0, 117)}...` : s}\``;
const textOf = (words: readonly Word[]): string => words.map((w) => w.text).join(' ');
const named = (node: SyntaxNode): readonly SyntaxNode[] => node.namedChildren;

/** Nodes whose named children are simply more statements or words to walk. */
const STRUCTURE = new Set([
  'program', 'list', 'pipeline', 'subshell', 'do_group', 'negated_command', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'for_statement', 'case_statement', 'case_item', 'redirected_statement', 'command_substitution', 'process_substitution',
]);
/** Word-like nodes (arguments, values, patterns): checked for expansions. */
const WORDISH = new Set([
  'word', 'string', 'raw_string', 'concatenation', 'number', 'simple_expansion', 'expansion', 'arithmetic_expansion', 'ansi_c_string',
  'translated_string', 'array', 'extglob_pattern', 'regex', 'brace_expression', 'string_content', 'special_variable_name', 'test_operator',
  'binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression', 'postfix_expression', 'heredoc_body', 'heredoc_content',
]);
/**
 * Leaves whose text the shell still expands. tree-sitter-bash leaves some
 * substitutions unparsed inside them (backticks in `${X:-`cmd`}` or in a
 * here-doc body), so an unescaped backtick or `$(`/`${`/`$name` left in such
 * a leaf is denied rather than trusted.
 */
const LEAF_TEXT = new Set(['word', 'string_content', 'heredoc_content', 'heredoc_body', 'extglob_pattern', 'regex']);
const HIDDEN_SUBSTITUTION = /(?:^|[^\\])(?:\\\\)*(?:`|\$[({A-Za-z_])/;
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const ARITH_TEST_OPS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
/** Loops: a `cd` inside may run any number of times. */
const LOOPS = new Set(['while_statement', 'for_statement']);
class Walk {
  /** A free state's command: skip what cannot be analysed, report the writes seen. */
  private readonly lenient: boolean;
  private readonly writes: ShellWrite[] = [];
  private readonly dirs: DirChange[] = [];
  /** Inside a loop, a function body or a trap: a `cd` there may run any number of times, or later. */
  private repeating = 0;

  constructor(
    private readonly parser: ShellParser,
    private readonly rules: ShellRules,
  ) {
    this.lenient = !inForce(rules);
  }

  effects(): ShellEffects {
    return { ...(this.writes.length ? { writes: this.writes } : {}), ...(this.dirs.length ? { dirs: this.dirs } : {}) };
  }

  private wrote(target: WriteTarget, how: string): void {
    if (!target.word.dynamic && HARMLESS_TARGETS.has(target.word.value)) return;
    this.writes.push({ ...target, how });
  }

  /** Walk a node where a cd could run more than once, or later than it stands. */
  private repeated(walk: () => void): void {
    this.repeating++;
    try {
      walk();
    } finally {
      this.repeating--;
    }
  }

  private get blocked(): readonly string[] {
    return this.rules.blockedEnv;
  }

  /** The text being walked (a nested eval / sh -c body while it is walked). */
  private text = '';
  /** Whether `$HOME`, `$PWD`, `~`... are the user's in the text being walked: no level of it may set them (user-vars.ts). */
  private userVars = true;

  /** Parse and walk one piece of shell text (the command, or an eval / sh -c body). */
  source(text: string, depth: number): void {
    if (depth > MAX_DEPTH) deny(`commands nested more than ${MAX_DEPTH} levels deep (eval / sh -c) are not analysed`, text);
    const outer = this.text;
    this.text = text;
    try {
      this.parseAndWalk(text, depth);
    } finally {
      this.text = outer;
    }
  }

  /** Where the tree is not what bash would run, nothing read from it can be trusted. */
  private misread(found: Misread | undefined): void {
    if (found) deny(found.reason, found.offending);
  }

  private parseAndWalk(text: string, depth: number): void {
    this.parser.withTree(text, (tsRoot) => {
      if (!tsRoot) return deny('the command could not be parsed', text);
      const root = SyntaxNode.root(tsRoot, text);
      // With no shell rule in force, what parses is still looked at statement by statement (see statement()).
      if (!inForce(this.rules)) return this.walk(root, depth);
      if (root.hasError) {
        const bad = this.firstError(root);
        return deny(`the command does not parse as shell${bad ? ` near ${quote(bad.text || bad.type)}` : ''}`, bad?.text ?? text);
      }
      this.misread(skippedText(text, root) ?? joinedContinuation(text, root));
      // A nested body inherits the outer level's answer: `HOME=-p sh -c 'pytest $HOME'`.
      const outer = this.userVars;
      this.userVars = outer && !commandMaySetUserVars(text, root);
      try {
        this.walk(root, depth);
      } finally {
        this.userVars = outer;
      }
    });
  }

  private firstError(node: SyntaxNode): SyntaxNode | undefined {
    if (node.type === 'ERROR' || node.isMissing) return node;
    for (const c of node.children) {
      if (c?.hasError || c?.isMissing) return this.firstError(c);
    }
    return undefined;
  }

  /**
   * With no shell rule in force only what holds in every state denies (own
   * CLI): a statement the walk cannot analyse is skipped there, so the next
   * one is still looked at (`source x && stategate run approve`).
   */
  private statement(node: SyntaxNode, depth: number): void {
    if (inForce(this.rules)) return this.walk(node, depth);
    try {
      this.walk(node, depth);
    } catch (err) {
      if (!(err instanceof Denial) || err.always) throw err;
    }
  }

  private walk(node: SyntaxNode, depth: number): void {
    if (!this.lenient) return this.walkNode(node, depth);
    try {
      this.walkNode(node, depth);
    } catch (err) {
      if (!(err instanceof Denial) || err.always) throw err;
    }
  }

  private walkNode(node: SyntaxNode, depth: number): void {
    if (node.type === 'ERROR' || node.isMissing) {
      // No shell rule: what the parser did recognise inside is still looked at.
      if (this.lenient) for (const c of named(node)) this.statement(c, depth);
      deny('the command does not parse as shell', node.text);
    }
    if (LOOPS.has(node.type)) return this.repeated(() => named(node).forEach((c) => this.walk(c, depth)));
    if (STRUCTURE.has(node.type)) {
      for (const c of named(node)) this.statement(c, depth);
      return;
    }
    switch (node.type) {
      case 'comment':
        return this.misread(falseComment(this.text, node));
      case 'variable_name': // a for loop's variable
        return;
      case 'command':
        return this.command(node, depth);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, depth);
      case 'test_command':
        return this.test(node, depth);
      case 'variable_assignment':
        return this.assignment(node, depth);
      case 'variable_assignments':
        for (const c of named(node)) this.assignment(c, depth);
        return;
      case 'file_redirect':
      case 'herestring_redirect':
      case 'heredoc_redirect':
        return this.redirect(node, depth);
      case 'function_definition': {
        // The body is checked where it is defined: whatever calls it, it runs only commands that pass.
        const body = node.childForFieldName('body');
        if (body) this.repeated(() => this.walk(body, depth));
        for (const c of named(node)) if (c.type.endsWith('redirect')) this.redirect(c, depth);
        return;
      }
      case 'compound_statement':
        if (node.child(0)?.type === '((') return this.arithmetic(node, depth);
        for (const c of named(node)) this.walk(c, depth);
        return;
      case 'c_style_for_statement':
        return this.repeated(() => {
          for (const c of named(node)) {
            if (c.type === 'do_group' || c.type === 'compound_statement') this.walk(c, depth);
            else this.arithmetic(c, depth);
          }
        });
      default:
        if (WORDISH.has(node.type)) return this.scan(node, depth);
        return deny(`the shell construct \`${node.type}\` is not analysed`, node.text);
    }
  }

  /** Look inside a word for expansions and substitutions (`inDouble`: inside "..."). */
  private scan(node: SyntaxNode, depth: number, inDouble = false): void {
    switch (node.type) {
      case 'string':
        for (const c of named(node)) this.scan(c, depth, true);
        return;
      case 'raw_string':
        // In "${X:-'...'}" bash does not treat the single quotes as quoting: their text is expanded.
        if (inDouble && /[`$]/.test(node.text)) deny(`single quotes inside "\${...}" do not stop expansion`, node.text);
        return;
      case 'command_substitution':
      case 'process_substitution':
        for (const c of named(node)) this.walk(c, depth);
        return;
      case 'simple_expansion':
        for (const c of named(node)) this.variable(c.text);
        return;
      case 'expansion':
        if (node.child(1)?.type === '!' && this.blocked.length > 0) deny('indirect expansion (`${!name}`, `${!prefix*}`) can read a blocked variable', node.text);
        for (const c of named(node)) {
          if (c.type === 'variable_name' || c.type === 'special_variable_name') this.variable(c.text);
          else if (c.type === 'subscript') this.subscript(c, depth);
          else this.scan(c, depth, inDouble);
        }
        return;
      case 'arithmetic_expansion':
        return this.arithmetic(node, depth);
      case 'subscript':
        return this.subscript(node, depth);
      default:
        if (node.namedChildCount === 0 && LEAF_TEXT.has(node.type) && HIDDEN_SUBSTITUTION.test(node.text)) {
          deny('it holds a substitution the parser did not break down (e.g. backticks inside ${...} or a here-doc)', node.text);
        }
        for (const c of named(node)) {
          if (c.type === 'command' || STRUCTURE.has(c.type)) this.walk(c, depth);
          else this.scan(c, depth, inDouble);
        }
    }
  }

  private variable(name: string): void {
    if (this.blocked.includes(name)) deny(`it expands the blocked variable ${name}`, name);
  }

  private subscript(node: SyntaxNode, depth: number): void {
    const name = node.childForFieldName('name');
    if (name) this.variable(name.text);
    const index = node.childForFieldName('index');
    if (index && !/^[0-9@*]+$/.test(index.text)) this.arithmetic(index, depth);
  }

  /**
   * Bash evaluates a variable's value inside arithmetic as an expression, and
   * `a[$(cmd)]` in that value runs cmd: arithmetic that reads any variable can
   * run commands the analysis cannot see, so only literal arithmetic passes.
   */
  private arithmetic(node: SyntaxNode, depth: number): void {
    const visit = (n: SyntaxNode): void => {
      if (n.type === 'command_substitution' || n.type === 'process_substitution') return this.scan(n, depth);
      const isName = n.type === 'variable_name' || (n.type === 'word' && /^[A-Za-z_]/.test(n.text));
      if (isName || n.type === 'simple_expansion' || n.type === 'expansion') {
        const name = n.type === 'variable_name' || n.type === 'word' ? n.text : (named(n)[0]?.text ?? n.text);
        this.variable(name);
        deny(`arithmetic on a variable (${name}) can run commands hidden in its value`, n.text);
      }
      for (const c of named(n)) visit(c);
    };
    visit(node);
  }

  /** A word as a command sees it: value, plus the checks every word gets. */
  private word(node: SyntaxNode, depth: number): Word {
    const evaluated = evalWord(node);
    const w = this.userVars && evaluated.dynamic ? { ...evaluated, userVars: true } : evaluated;
    this.scan(node, depth);
    if (this.blocked.length > 0) {
      if (touchesEnviron(w)) {
        // `os.environ` in program text is the same leak as /proc/self/environ: name the one it is.
        const proc = w.dynamic || /\/proc(\/|$)/.test(w.value);
        deny(proc ? 'it reads process information under /proc, where the environment can be read' : 'it names `environ` (a program\'s environment, or a file under /proc), where blocked variables can be read', w.text);
      }
    }
    return w;
  }

  private command(node: SyntaxNode, depth: number): void {
    this.misread(splitWords(this.text, node));
    const words: Word[] = [];
    const assignments: SyntaxNode[] = [];
    const prefix: Assignment[] = [];
    for (const c of named(node)) {
      if (c.type === 'variable_assignment') assignments.push(c);
      else if (c.type.endsWith('redirect')) this.redirect(c, depth);
      else if (c.type === 'command_name') {
        const inner = named(c)[0];
        if (!inner) deny('a command with an empty name', node.text);
        else words.push(this.word(inner, depth));
      } else if (WORDISH.has(c.type)) words.push(this.word(c, depth));
      else this.walk(c, depth);
    }
    for (const a of assignments) this.assignment(a, depth, prefix);
    // `tests/{a,b}.py` is the words `tests/a.py tests/b.py` before anything runs: read those (brace-expansion.ts).
    // Not in the command's name: `e{xport,}` would be a builtin the parser never saw; it stays a run-time name.
    this.run([...words.slice(0, 1), ...words.slice(1).flatMap((w) => braceWords(w) ?? [w])], depth, prefix);
  }

  /**
   * `NAME=value` (before a command, alone, or in export/declare). One before a
   * command goes to `prefix`: whether it is allowed depends on the entry the
   * command matches.
   */
  private assignment(node: SyntaxNode, depth: number, prefix?: Assignment[]): void {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.type === 'subscript' ? (nameNode.childForFieldName('name')?.text ?? '') : (nameNode?.text ?? '');
    if (nameNode?.type === 'subscript') this.subscript(nameNode, depth);
    // `x=\<newline> cmd`: the parser takes `cmd` as the value, bash an empty value and a command.
    const eq = node.children.find((c) => c !== null && !c.isNamed && (c.text === '=' || c.text === '+='));
    const value = node.childForFieldName('value');
    if (eq && value && !/^(?:\\\n)*$/.test(this.text.slice(eq.endIndex, value.startIndex))) {
      deny('this assignment is split differently by bash and by the parser', node.text);
    }
    let valueWord: Word | undefined;
    for (const c of named(node)) {
      if (c !== nameNode && c.id !== nameNode?.id) {
        const w = this.word(c, depth);
        if (value && c.id === value.id) valueWord = w;
      }
    }
    const a: Assignment = { name, append: eq?.text === '+=', text: node.text, ...(valueWord ? { value: valueWord } : {}) };
    if (prefix) prefix.push(a);
    else this.checkAssignments([a]);
  }

  /** Assignments no entry can name here (alone, or before eval / sh -c / source): risky ones are denied. */
  private checkAssignments(assigns: readonly Assignment[]): void {
    if (this.rules.allowedCommands === undefined) return;
    for (const a of assigns) {
      const why = riskyAssignment(a);
      if (why) deny(`it sets ${a.name}, which changes what the allowed command runs or loads: ${why}`, a.text);
    }
  }

  /** The `NAME=value` arguments of a declaration builtin run as a plain command (after a wrapper). */
  private declaredWords(args: readonly Word[], text: string): void {
    if (this.rules.allowedCommands === undefined) return;
    for (const w of args) {
      if (w.dynamic) deny(`${quote(text)} sets variables named by a word only known when it runs (${w.text})`, text);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(w.value);
      if (m) this.checkAssignments([{ name: m[1]!, append: m[2] === '+', text: w.text, value: { value: w.value.slice(m[0].length), dynamic: false, text: w.text } }]);
    }
  }

  /** `declare/typeset/local/readonly/export ...` and `unset ...`. */
  private declaration(node: SyntaxNode, depth: number): void {
    const kw = node.child(0);
    const keyword = kw?.text ?? '';
    // tree-sitter splits `export$r` / `export''` after the keyword; bash reads
    // one word, expanded to the bare builtin (`export` alone lists the environment).
    const next = node.child(1);
    if (kw && next && next.startIndex === kw.endIndex) deny(`the command name ${quote(keyword + next.text)} is only known when it runs`, node.text);
    this.misread(splitWords(this.text, node, kw ?? undefined));
    const words: Word[] = [{ value: keyword, dynamic: false, text: keyword }];
    for (const c of named(node)) {
      if (c.type === 'variable_assignment') {
        this.assignment(c, depth);
        const name = c.childForFieldName('name')?.text ?? '';
        words.push({ value: `${name}=`, dynamic: false, text: c.text });
      } else if (c.type === 'variable_name') words.push({ value: c.text, dynamic: false, text: c.text });
      else words.push(this.word(c, depth));
    }
    this.regular(words, depth);
  }

  /** `[ ... ]` and `[[ ... ]]`: a command named `[` / `[[` whose operands are words. */
  private test(node: SyntaxNode, depth: number): void {
    const open = node.child(0)?.text ?? '[';
    // `[x > f ]` is a command `[x` with a redirect for bash: brackets count only as words of their own.
    const blank = (c: string | undefined): boolean => c === undefined || ' \t\n'.includes(c);
    const close = node.child(node.childCount - 1);
    if (!blank(this.text[node.startIndex + open.length]) || !close || !blank(this.text[close.startIndex - 1])) {
      deny(`\`${open}\` not followed by a blank is a command name for bash, not a test`, node.text);
    }
    if (open === '[') {
      // `[` is a plain command for bash: an unescaped newline ends it.
      if (/(?:^|[^\\])\n/.test(node.text)) deny('a newline inside `[ ]` ends the command for bash', node.text);
      // In `[ a > b ]` bash redirects to b; the parser reads a comparison.
      const redirects = (n: SyntaxNode): boolean =>
        (!n.isNamed && /^[<>&]/.test(n.text)) || (!['command_substitution', 'process_substitution', 'string', 'raw_string'].includes(n.type) && n.children.some((c) => c !== null && redirects(c)));
      if (redirects(node)) deny('`<` and `>` inside `[ ]` are redirections for bash, not comparisons', node.text);
    }
    const arithmetic = (n: SyntaxNode): boolean => n.type === 'test_operator' && ARITH_TEST_OPS.has(n.text);
    const visit = (n: SyntaxNode): void => {
      // Inside [[ ]], -eq and friends evaluate their operands as arithmetic.
      if (open === '[[' && n.type === 'binary_expression' && named(n).some(arithmetic)) {
        for (const side of named(n)) if (!arithmetic(side) && !/^-?[0-9]+$/.test(side.text)) this.arithmetic(side, depth);
      }
      for (const c of named(n)) visit(c);
    };
    visit(node);
    this.scan(node, depth);
    this.mustMatch([{ value: open, dynamic: false, text: open }], node.text);
  }

  private redirect(node: SyntaxNode, depth: number): void {
    if (node.type === 'heredoc_redirect') {
      // A quoted delimiter (<<'EOF', <<"EOF", <<\EOF) makes the body literal.
      const start = named(node).find((c) => c.type === 'heredoc_start')?.text ?? '';
      const literal = /['"\\]/.test(start);
      for (const c of named(node)) {
        if (c.type === 'heredoc_start' || c.type === 'heredoc_end') continue;
        if (c.type === 'heredoc_body') {
          if (!literal) this.scan(c, depth);
        } else this.walk(c, depth);
      }
      return;
    }
    if (node.type === 'herestring_redirect') {
      for (const c of named(node)) this.word(c, depth);
      return;
    }
    const op = node.children.find((c) => c !== null && !c.isNamed)?.text ?? '';
    const dests = named(node).filter((c) => c.type !== 'file_descriptor');
    // A redirect has one target word; the parser splitting it means it misread the line.
    if (dests.length > 1) deny('the target of this redirect is split differently by bash and by the parser', node.text);
    for (const dest of dests) {
      if (dest.type === 'process_substitution') {
        this.scan(dest, depth);
        continue;
      }
      const w = this.word(dest, depth);
      if (!OUTPUT_OPS.has(op)) continue; // input, duplication (<&, >&-), closing
      if (op === '>&' && !w.dynamic && /^([0-9]+|-)$/.test(w.value)) continue;
      if (!w.dynamic && HARMLESS_TARGETS.has(w.value)) continue;
      this.wrote({ word: w, tree: false }, `${op} ${w.text}`);
      if (!this.rules.writeAllowed) deny(`it writes to a file (${op} ${w.text}), and this state allows no Write or Edit`, `${op} ${w.text}`);
    }
  }

  /** A simple command's words (after assignments): unwrap, recurse into bodies, check. `fromXargs`: more arguments come from its input. */
  private run(words: readonly Word[], depth: number, assigns: readonly Assignment[] = [], fromXargs = false): void {
    const name = words[0];
    if (!name) return this.checkAssignments(assigns);
    const text = textOf(words);
    // stategate's own CLI with a person's command: denied in every state, whatever it allows (before
    // anything else, so a state with no shell rule sees it even where the name is partly run-time text).
    const own = ownCliDenial(words, this.rules.agentMay);
    if (own) throw new Denial(own, text, true);
    if (name.dynamic) deny(`the command name ${quote(name.text)} is only known when it runs`, text);
    const n = name.value;
    const args = words.slice(1);
    const spec = Object.hasOwn(WRAPPERS, n) ? WRAPPERS[n] : undefined;
    // Only a command that runs as itself is matched against an entry, which may name its assignments.
    if (!spec) {
      if (n === 'eval' || n === 'source' || n === '.' || n === 'trap' || SHELLS.has(n)) this.checkAssignments(assigns);
    }
    if (n === 'eval') {
      const dyn = args.find((w) => w.dynamic);
      if (dyn) deny('eval of text only known when it runs cannot be analysed', text);
      return this.source(args.map((w) => w.value).join(' '), depth + 1);
    }
    if (SHELLS.has(n)) {
      const how = shellRun(words);
      if (how.kind === 'opaque') deny(`the shell's arguments cannot be analysed`, how.offending);
      if (how.kind === 'stdin') deny(`${n} reading commands from its input cannot be analysed`, text);
      if (how.kind === 'body') {
        if (how.body.dynamic) deny(`${n} -c with a body only known when it runs cannot be analysed`, text);
        return this.source(how.body.value, depth + 1);
      }
    }
    if (n === 'source' || n === '.') {
      this.mustMatch(words, text, `sourcing a file runs commands that cannot be analysed`);
      return;
    }
    if (n === 'alias' && args.some((w) => w.value.includes('='))) deny('defining aliases is not allowed: an alias hides what a command runs', text);
    // `command export X=v`, `builtin declare X=v`: the builtin the parser did not see as one still sets variables.
    if (DECLARE.has(n) && !spec) this.declaredWords(args, text);
    if (n === 'trap') {
      const body = args.find((w) => !w.value.startsWith('-'));
      if (body?.dynamic) deny('trap with a command only known when it runs cannot be analysed', text);
      if (body && args.length > 1) this.repeated(() => this.source(body.value, depth + 1));
    }
    if (spec) {
      const u = unwrap(words, spec);
      if (u.kind === 'opaque') deny(`${n} with ${quote(u.offending)} runs something that cannot be analysed${u.why ? ` (${u.why})` : ''}`, text);
      // A wrapper whose options stategate cannot read as it does could run anything: denied whatever the entries.
      if (u.kind === 'unreadable') deny(u.reason, text);
      if (u.kind === 'shell' || u.kind === 'wrapped') {
        // Files the wrapper itself writes (`time -o FILE`, flock's lock file).
        for (const file of u.writes ?? []) {
          this.wrote({ word: file, tree: false }, text);
          if (!this.rules.writeAllowed && (file.dynamic || !HARMLESS_TARGETS.has(file.value))) deny(`${quote(text)} writes files (${file.text}), and this state allows no Write or Edit`, text);
        }
      }
      if (u.kind === 'shell') {
        if (u.body.dynamic) deny(`${n} runs shell text only known when it runs (${quote(u.body.text)}), which cannot be analysed`, text);
        // flock and watch are allowed by an entry of their own, as well as the text they run.
        this.mustMatch(words, text);
        return this.source(u.body.value, depth + 1);
      }
      if (u.kind === 'wrapped') {
        const wrapped = u.assignments.map((a): Assignment => {
          const eq = a.value.indexOf('=');
          return { name: a.value.slice(0, eq), value: { ...a, value: a.value.slice(eq + 1) }, append: false, text: a.text };
        });
        const own = u.own ?? words;
        const rep = n === 'xargs' ? xargsReplace(own) : undefined;
        const inner = rep ? u.words.map((w) => (w.value.includes(rep) ? { ...w, dynamic: true } : w)) : n === 'xargs' ? [...u.words, XARGS_INPUT] : u.words;
        // sudo/doas (and flock, watch, chroot): the author must allow the wrapper command itself, not just what it wraps.
        if (u.privileged) this.mustMatch(words, text);
        const chdir = n === 'env' ? envChdir(own) : undefined;
        if (chdir) this.changedDir(chdir);
        return this.run(inner, depth, [...assigns, ...wrapped], n === 'xargs' && !rep);
      }
    }
    this.regular(words, depth, assigns, fromXargs);
  }

  private changedDir(change: DirChange): void {
    this.dirs.push(this.repeating > 0 ? { unknown: true } : change);
  }

  /** Checks for a command that runs as itself. */
  private regular(words: readonly Word[], depth: number, assigns: readonly Assignment[] = [], fromXargs = false): void {
    const text = textOf(words);
    // Not allowed at all is the most useful thing to tell; the checks below catch allowed commands used to write or leak.
    this.mustMatch(words, text, undefined, assigns);
    if (this.blocked.length > 0) {
      const why = envReadReason(words, this.blocked);
      if (why) deny(`${quote(text)} is not allowed while variables are blocked: ${why}`, text);
    }
    // Writers' options in their full spelling (`sort --outp=f` is `sort --output f`), as the program reads them.
    const canonical = canonicalCommand(words);
    if (writesFiles(canonical)) {
      // The policy checks each target against the protected files and the path scope, whatever the state allows.
      // xargs's input words (XARGS_INPUT, for the argument checks) are reported once, as an unknown tree.
      for (const t of writeTargets(fromXargs ? canonical.filter((w) => w !== XARGS_INPUT) : canonical)) this.wrote(t, text);
      if (fromXargs) this.wrote({ word: UNKNOWN_TARGET, tree: true }, text);
      if (!this.rules.writeAllowed) deny(`${quote(text)} writes files, and this state allows no Write or Edit`, text);
    }
    // Report files, coverage and build output of test runners, compilers and linters (`pytest --junitxml=F`).
    const outputs = outputTargets(canonical).filter((t) => t.word.dynamic || !HARMLESS_TARGETS.has(t.word.value));
    for (const t of outputs) this.wrote(t, text);
    if (outputs.length > 0 && !this.rules.writeAllowed) {
      deny(`${quote(text)} writes files (${outputs.map((t) => t.word.text).join(', ')}), and this state allows no Write or Edit`, text);
    }
    const change = dirChange(words);
    if (change) this.changedDir(change);
    const name = words[0]?.value;
    if (name === 'find') {
      for (const exec of findExecs(words)) {
        if (exec.length === 0) deny('find -exec without a command', text);
        this.run(exec, depth);
      }
    }
    if (name === 'sed') this.sed(canonical, text);
    if (name === 'rg') {
      // ripgrep runs `--pre COMMAND` on every file it searches.
      words.forEach((w, i) => {
        const pre = w.value === '--pre' ? words[i + 1] : w.value.startsWith('--pre=') ? { ...w, value: w.value.slice(6) } : undefined;
        if (pre) this.run([pre], depth);
      });
    }
  }

  private sed(words: readonly Word[], text: string): void {
    const args = words.slice(1);
    if (args.some((w) => w.dynamic && !w.starGlob)) deny('a sed script only known when it runs cannot be analysed', text);
    const scripts = sedScripts(args.map((w) => w.value));
    if (!scripts) deny('a sed script read from a file cannot be analysed', text);
    for (const script of scripts ?? []) {
      const fx = sedEffects(script);
      for (const file of fx.files) this.wrote({ word: { value: file, dynamic: false, text: file }, tree: false }, text);
      if (fx.runs) deny(`the sed script ${quote(script)} runs commands (e, s///e) or cannot be analysed`, text);
      if (fx.writes && !this.rules.writeAllowed) deny(`the sed script ${quote(script)} writes files (w), and this state allows no Write or Edit`, text);
    }
  }

  private mustMatch(words: readonly Word[], text: string, why?: string, assigns: readonly Assignment[] = []): void {
    const allowed = this.rules.allowedCommands;
    if (allowed === undefined) {
      if (why) deny(why, text);
      return;
    }
    // Entries match by leading words; the arguments after them must not make the tool run other code
    // (command-risks.ts), unless a matching entry names them itself.
    let risk: string | undefined;
    const m = matchEntries(words, allowed, assigns, (match) => {
      const r = this.argumentRisk(words, assigns, match);
      risk ??= r;
      return r === undefined;
    });
    if (m.match) return;
    if (m.matched) deny(risk ?? 'its arguments make the allowed command run other code', text);
    if (why) deny(why, text);
    const list = allowed.length > 0 ? allowed.join(', ') : 'none';
    if (m.dynamic) deny(`${quote(text)} has a word only known when it runs where an allowed command needs a literal one (allowed: ${list})`, text);
    deny(`${quote(text)} is not an allowed command here (allowed: ${list})`, text);
  }

  /** Why the command's arguments or assignments make the matched entry run other code, or undefined. */
  private argumentRisk(words: readonly Word[], assigns: readonly Assignment[], match: EntryMatch): string | undefined {
    const full = (): string => [...assigns.map((a) => a.text), textOf(words)].join(' ');
    for (const a of assigns) {
      const why = riskyAssignment(a);
      if (why && !match.namesAssignment(a.name) && !harmlessAssignment(a, words)) {
        return `${quote(full())} sets ${a.name}, which changes what the allowed command runs or loads: ${why}. An allowed_commands entry allows that only by naming it (e.g. "${a.text} ${textOf(words)}")`;
      }
    }
    const covers = (i: number, upTo: number): boolean => match.covers(i, upTo);
    const f = riskyArguments(words, covers) ?? optionFinding(words, covers);
    return f ? riskReason(words, f, full()) : undefined;
  }
}

/** Stands for the words xargs adds from its input: only known when it runs, and any number of them. */
const XARGS_INPUT: Word = { value: '$xargs_input', dynamic: true, text: '$(words xargs reads from its input)' };

/** The reason for a risky argument, with the way to allow it. */
function riskReason(words: readonly Word[], f: Finding, full: string): string {
  if (f.dynamic) {
    // `$PWD` is the user's path everywhere else; unquoted, a directory named by the agent (`cd 'x -p plugin'`) splits into options.
    if (/\$\{?(?:OLD)?PWD\b/.test(f.what) && !f.what.includes('"')) {
      return `${quote(full)}: ${f.what} is not quoted, so it splits at blanks in the directory's name, which the agent chooses with cd (\`cd 'x -p plugin'\` makes it read -p plugin); write it in double quotes ("$PWD/tests")`;
    }
    const fix = f.dashDashEnds ? '; end its options with `--` before such words, or' : ';';
    return `${quote(full)}: ${f.what} ${f.why} that load or run code (command-risks.ts)${fix} write the run-time part in double quotes, after a literal start (\"tests/$X\", -j\"$(nproc)\")`;
  }
  if (f.fix) return `${quote(full)} can run other code than the allowed command: ${f.what}: ${f.why}; ${f.fix}`;
  const named = words.slice(0, f.last + 1).map((w) => w.text).join(' ');
  return `${quote(full)} can run other code than the allowed command: ${f.what}: ${f.why}. An allowed_commands entry allows that only by naming it (e.g. "${named}")`;
}
