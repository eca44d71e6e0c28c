/**
 * The layers of src/ as lint rules (`npm run lint`; docs/design/layers.md says why each
 * folder sits where it sits). dependency-cruiser reads every import TypeScript sees,
 * type-only imports, `require()` and `import()` included.
 *
 * - The engine's folders are ordered, low to high (ENGINE_LEVELS): a folder imports only
 *   folders on a lower level, never one above it nor a sibling on its own level.
 * - src/engine/ never imports 'vscode' nor the shells around it.
 * - The shells (src/cli/, src/vscode/, src/lsp/, src/protocol.ts, webview/) reach the engine
 *   only through src/engine/index.ts, except the parts the bundles load lazily
 *   (LAZY_ENGINE_PARTS) and the parts the webview bundles for the browser (BROWSER_ENGINE_PARTS).
 * - No module of src/ or webview/ takes part in an import cycle.
 */

/**
 * The engine's folders, lowest first. Each level gives the reason it sits above the one
 * before it; folders on one level do not import each other.
 */
const ENGINE_LEVELS = [
  // The IR every loader produces and everything reads: plain types and tiny constructors.
  ['model'],
  // Leaves with no engine semantics of their own (paths, suggestions, atomic files, locks,
  // globs), and the tables of what agents do (tool names, edit sizes, a person's acts).
  ['util', 'agent'],
  // The expression language, and the stage prompt template: each reads only the model.
  ['expr', 'stage'],
  // Text -> IR: the loaders of every format. Reads the model and the utilities.
  ['formats'],
  // The JSON Schemas' validators; schema/index.ts reads JSON with positions (formats/jsonc.ts).
  ['schema'],
  // The statechart interpreter: pure, evaluates guards with expr/.
  ['statechart'],
  // The checker: parses (formats/), validates (schema/) and resolves targets (statechart/).
  ['check'],
  // The diagrams: draw a workflow, read the flow graph of check/.
  ['export'],
  // A run's operations on snapshots; statecharts run through statechart/.
  ['machine'],
  // Stage pipelines: turns, grants and completion, as machine operations.
  ['pipeline'],
  // The run record (agent-state.json) derived from a run; FlowState flows, which check and
  // load their own files. Both read the machine; neither reads the other.
  ['record', 'flow'],
  // Shell command analysis: what a command runs and writes, against a state's rules.
  ['shell'],
  // Tool-call decisions: the machine's rules, the shell's analysis, the record's bounds.
  ['policy'],
  // The agent clients' hook and MCP entries (what `stategate enable` writes).
  ['clients'],
  // The sandbox: wraps a command so the clients' enforcement files stay out of reach.
  ['sandbox'],
  // Where runs are kept: the file store, the shared PostgreSQL store, replay.
  ['store'],
  // The front door: the Runner (store + machine + registry + policy for one workspace) and
  // the agent-tools surface. Everything a shell does with a run goes through it.
  ['runs'],
  // Built on the front door or on nothing else in the engine: the host's handlers (they
  // drive a Runner) and the authoring language service.
  ['handlers', 'language'],
];

/** Parts the bundles load on first use by requiring their own file (scripts/build.mjs). */
const LAZY_ENGINE_PARTS = ['src/engine/check/check-file.ts', 'src/engine/shell/gate.ts', 'src/engine/shell/parser.ts'];

/** Engine files the webview imports by their own file (they import nothing at run time). */
const BROWSER_ENGINE_PARTS = ['src/engine/export/layout.ts', 'src/engine/record/bounds.ts'];

const SHELLS = '^(src/(cli|vscode|lsp)/|src/protocol\\.ts$|webview/)';
const exact = (files) => `^(${files.map((f) => f.replace(/[.]/g, '\\.')).join('|')})$`;
const folders = (names) => `^src/engine/(${names.join('|')})/`;

/** One rule per folder: what it may not import (every folder above it, and its siblings). */
const layerRules = ENGINE_LEVELS.flatMap((level, i) =>
  level.map((folder) => {
    const notBelow = [...ENGINE_LEVELS.slice(i + 1).flat(), ...level.filter((f) => f !== folder)];
    return {
      name: `engine-order-${folder}`,
      comment: `src/engine/${folder}/ imports only folders below it in ENGINE_LEVELS (.dependency-cruiser.cjs)`,
      severity: 'error',
      from: { path: folders([folder]) },
      to: { path: notBelow.length > 0 ? folders(notBelow) : '^$' },
    };
  }),
);

/** Every top-level folder of src/engine/ must be placed: a new folder is an error until it is. */
const placed = ENGINE_LEVELS.flat();

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'engine-folder-unplaced',
      comment: 'every folder of src/engine/ has a level in ENGINE_LEVELS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^src/engine/[^/]+/', pathNot: folders(placed) },
      to: {},
    },
    {
      name: 'engine-not-through-index',
      comment: 'src/engine/index.ts is the shells\' entrance; engine files import each other by file',
      severity: 'error',
      from: { path: '^src/engine/[^/]+/' },
      to: { path: '^src/engine/index\\.ts$' },
    },
    {
      name: 'engine-no-vscode',
      comment: 'the engine runs in the CLI, the hook and the language server: it never imports vscode',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^vscode$' },
    },
    {
      name: 'engine-no-shells',
      comment: 'the engine imports nothing of the shells around it',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: SHELLS },
    },
    {
      name: 'shells-through-index',
      comment: 'the shells reach the engine only through src/engine/index.ts (lazy and browser parts by their own file)',
      severity: 'error',
      from: { path: SHELLS },
      to: { path: '^src/engine/', pathNot: `^src/engine/index\\.ts$|${exact([...LAZY_ENGINE_PARTS, ...BROWSER_ENGINE_PARTS])}` },
    },
    {
      name: 'lazy-parts-lazily',
      comment: 'outside the CLI (whose commands are bundles of their own) a lazy part is loaded by require() or import(), or named as a type',
      severity: 'error',
      from: { path: SHELLS, pathNot: '^src/cli/' },
      to: { path: exact(LAZY_ENGINE_PARTS), dependencyTypesNot: ['require', 'dynamic-import', 'type-only', 'type-import'] },
    },
    {
      name: 'browser-parts-webview-only',
      comment: 'only the webview imports the browser parts by their own file',
      severity: 'error',
      from: { path: SHELLS, pathNot: '^webview/' },
      to: { path: exact(BROWSER_ENGINE_PARTS) },
    },
    {
      name: 'browser-parts-types-only',
      comment: 'the webview bundles the browser parts for the browser: they import nothing at run time',
      severity: 'error',
      from: { path: exact(BROWSER_ENGINE_PARTS) },
      to: { dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'no-circular',
      comment: 'no module of src/ or webview/ takes part in an import cycle (type-only imports included)',
      severity: 'error',
      from: { path: '^(src|webview)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.generated\\.' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// The tables themselves, for test/unit/layers.test.ts: not enumerable, so dependency-cruiser's
// check of its configuration (no unknown keys) does not see them.
for (const [key, value] of Object.entries({ ENGINE_LEVELS, LAZY_ENGINE_PARTS, BROWSER_ENGINE_PARTS })) Object.defineProperty(module.exports, key, { value, enumerable: false });
