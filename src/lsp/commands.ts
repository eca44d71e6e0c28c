/**
 * The VS Code commands the code lenses run, which the client and the server
 * agree on: the server names them in a lens only when the client said at
 * `initialize` it can run them (`initializationOptions.commands`), so an editor
 * other than VS Code gets no lens it could not follow. Their arguments are JSON
 * (URIs as strings, LSP positions and locations); the VS Code client turns them
 * into the editor's own types before they run (src/vscode/language/client.ts).
 */
/** Starts a run of the file; its argument is the file's URI. */
export const START_RUN_COMMAND = 'stategate.startRun';
/** Opens the state panel on the file; its argument is the file's URI. */
export const SHOW_PANEL_COMMAND = 'stategate.showPanel';
/** Runs a flow file; its argument is the file's URI. */
export const RUN_FLOW_COMMAND = 'stategate.runFlow';
/** VS Code's own peek of references: arguments [uri, position, locations]. */
export const SHOW_REFERENCES_COMMAND = 'editor.action.showReferences';

export const LENS_COMMANDS = [START_RUN_COMMAND, SHOW_PANEL_COMMAND, RUN_FLOW_COMMAND, SHOW_REFERENCES_COMMAND] as const;

/** What the client may pass as `initializationOptions`. */
export interface ServerOptions {
  /** The lens commands the client can run (LENS_COMMANDS); none when absent. */
  readonly commands?: readonly string[];
  /** The folder of the JSON schemas whose field docs hovers show; found beside the server when absent. */
  readonly schemaDir?: string;
  /**
   * The editor reports syntax errors of `json`/`jsonc` documents itself (VS Code's JSON language
   * service, while `json.validate.enable` is on): the server then leaves them out, so one missing
   * comma is one diagnostic. Absent (any other editor, `stategate lsp`): the server reports them.
   */
  readonly editorReportsJsonSyntax?: boolean;
}

/** The client's notification that `editorReportsJsonSyntax` changed (a person turned `json.validate.enable` on or off). */
export const JSON_SYNTAX_NOTIFICATION = 'stategate/editorReportsJsonSyntax';

/** The custom request that answers the server's process id (the extension's API shows it; the e2e test compares it with the host's). */
export const PROCESS_ID_REQUEST = 'stategate/processId';
