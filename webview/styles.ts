/** Styles the panel's sections share; colours only through VS Code's theme variables. */
import { css } from 'lit';

export const sectionStyles = css`
  /* Long ids, paths, commands and values wrap (anywhere, as they have no spaces) instead of running out of their card at a narrow side bar. */
  :host { display: block; min-width: 0; overflow-wrap: anywhere; font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); }
  .muted { color: var(--vscode-descriptionForeground); }
  .row { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; margin: 3px 0; }
  .label { color: var(--vscode-descriptionForeground); min-width: 7.5em; }
  code, .mono { font-family: var(--vscode-editor-font-family); font-size: 0.92em; }
  .chip { display: inline-block; max-width: 100%; box-sizing: border-box; padding: 0 6px; border-radius: 9px; border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); font-family: var(--vscode-editor-font-family); font-size: 0.9em; line-height: 1.5; }
  .chip.deny { text-decoration: line-through; color: var(--vscode-errorForeground); }
  .pass { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
  .fail { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
  .error { color: var(--vscode-errorForeground); }
  pre { white-space: pre-wrap; margin: 4px 0; font-family: var(--vscode-font-family); }
  textarea, input { width: 100%; box-sizing: border-box; background: var(--vscode-input-background); color: var(--vscode-input-foreground);
    border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px; padding: 3px 5px; font-family: var(--vscode-editor-font-family); }
  textarea:focus, input:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
`;
