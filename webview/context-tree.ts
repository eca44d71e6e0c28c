/**
 * <sg-context>: the run's context as a tree. In debug workflows a top-level
 * key can be set (the host applies it as a forced patch on the current state,
 * the only context write the engine allows outside a transition); elsewhere
 * the tree is read-only. Also used, read-only, for a history point.
 */
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import type { JsonObject, JsonValue } from '../src/engine/index.js';
import { post } from './api.js';
import { sectionStyles } from './styles.js';

function leafText(v: JsonValue): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function item(key: string, v: JsonValue): TemplateResult {
  if (v !== null && typeof v === 'object') {
    const entries: [string, JsonValue][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    return html`<vscode-tree-item branch open data-key=${key}>${key}
      <span slot="description">${Array.isArray(v) ? `[${v.length}]` : `{${entries.length}}`}</span>
      ${entries.map(([k, x]) => item(k, x))}</vscode-tree-item>`;
  }
  // The tree cuts a long value with an ellipsis: its tooltip has it whole.
  return html`<vscode-tree-item data-key=${key} title=${`${key}: ${leafText(v)}`}>${key}<span slot="description">${leafText(v)}</span></vscode-tree-item>`;
}

export class SgContext extends LitElement {
  static override properties = { context: { attribute: false }, editable: { type: Boolean }, error: { state: true } };
  declare context: JsonObject;
  declare editable: boolean;
  declare error: string;
  static override styles = sectionStyles;

  constructor() {
    super();
    this.context = {};
    this.editable = false;
    this.error = '';
  }

  private field(id: string): HTMLInputElement | HTMLTextAreaElement | null {
    return this.renderRoot.querySelector(`[data-testid="${id}"]`);
  }

  private pick(e: Event): void {
    if (!this.editable) return;
    const key = (e.target as Element).closest('vscode-tree-item[data-key]')?.getAttribute('data-key');
    if (!key || !Object.prototype.hasOwnProperty.call(this.context, key)) return;
    const k = this.field('context-key');
    const v = this.field('context-value');
    if (k && v) (k.value = key, v.value = JSON.stringify(this.context[key]));
  }

  private set(): void {
    const key = this.field('context-key')?.value.trim() ?? '';
    const text = this.field('context-value')?.value ?? '';
    if (!key) return void (this.error = 'a key is needed');
    try {
      const value = JSON.parse(text) as JsonValue;
      this.error = '';
      post({ type: 'editContext', key, value });
    } catch (err) {
      this.error = `value is not JSON: ${(err as Error).message}`;
    }
  }

  override render() {
    const entries = Object.entries(this.context);
    return html`
      ${entries.length
        ? html`<vscode-tree data-testid="context-tree" @click=${this.pick}>${entries.map(([k, v]) => item(k, v))}</vscode-tree>`
        : html`<div class="muted">(empty)</div>`}
      ${this.editable
        ? html`<div class="row"><input data-testid="context-key" placeholder="key" aria-label="context key">
            <textarea data-testid="context-value" rows="2" placeholder="JSON value" aria-label="context value"></textarea>
            <vscode-button data-testid="context-set" @click=${this.set}>Set</vscode-button>
            <span class="muted">debug workflow: sets a top-level key (a forced patch: iteration counts reset)</span></div>
            ${this.error ? html`<div class="error">${this.error}</div>` : nothing}`
        : nothing}`;
  }
}

customElements.define('sg-context', SgContext);
