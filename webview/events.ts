/**
 * <sg-events>: the current state's events as buttons (one per event; a
 * branched event lists each branch's target and guards), each guard marked as
 * passing or failing on the current context, with one JSON field for the
 * event data. Firing goes to the host, which sends it through the engine.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { TransitionView } from '../src/engine/index.js';
import type { JsonValue } from '../src/engine/index.js';
import { post } from './api.js';
import { sectionStyles } from './styles.js';

function byEvent(ts: readonly TransitionView[]): Map<string, TransitionView[]> {
  const m = new Map<string, TransitionView[]>();
  for (const t of ts) (m.get(t.event) ?? m.set(t.event, []).get(t.event)!).push(t);
  return m;
}

export class SgEvents extends LitElement {
  static override properties = { transitions: { attribute: false }, reasons: { attribute: false }, running: { type: Boolean }, error: { state: true } };
  declare transitions: readonly TransitionView[];
  /** Why an event would not be taken now, shown on its button's hover (statechart runs). */
  declare reasons: Readonly<Record<string, string>>;
  declare running: boolean;
  declare error: string;
  static override styles = [
    sectionStyles,
    css`
      /* The targets go beside the button, or under it when the view is too narrow for both. */
      .event { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: center; margin: 4px 0; container-type: inline-size; }
      .targets { font-size: 0.92em; flex: 1 1 10em; min-width: 0; }
      .guard { margin-right: 6px; display: inline-block; max-width: 100%; }
      /* A long event name ends in an ellipsis inside its button (28px: the button's padding and border); its tooltip has it whole. */
      vscode-button { max-width: 100%; }
      .name { display: block; max-width: calc(100cqw - 28px); overflow: hidden; text-overflow: ellipsis; }
      .guard vscode-icon { vertical-align: text-bottom; color: inherit; }
    `,
  ];

  constructor() {
    super();
    this.transitions = [];
    this.reasons = {};
    this.running = false;
    this.error = '';
  }

  private data(): JsonValue | undefined | null {
    const text = this.renderRoot.querySelector<HTMLTextAreaElement>('[data-testid="event-data"]')?.value.trim() ?? '';
    if (!text) return undefined;
    try {
      return JSON.parse(text) as JsonValue;
    } catch (e) {
      this.error = `event data is not JSON: ${(e as Error).message}`;
      return null;
    }
  }

  private fire(event: string): void {
    this.error = '';
    const data = this.data();
    if (data === null) return;
    post({ type: 'sendEvent', event, ...(data === undefined ? {} : { data }) });
  }

  override render() {
    const groups = [...byEvent(this.transitions)];
    if (groups.length === 0) return html`<div class="muted">No events from this state.</div>`;
    return html`
      ${groups.map(([event, ts]) => {
        const available = this.running && ts.some((t) => t.available);
        return html`<div class="event">
          <vscode-button data-testid="event-button" data-event=${event} data-available=${available ? 'true' : 'false'}
            ?secondary=${!available} ?disabled=${!this.running} title=${this.reasons[event] ? `${event}: ${this.reasons[event]}` : event} @click=${() => this.fire(event)}><span class="name">${event}</span></vscode-button>
          <div class="targets">${ts.map((t) => html`<div>
            → <code>${t.target}</code>${t.requires_approval ? html` <span class="chip"><vscode-icon name="shield" size="12"></vscode-icon> approval</span>` : nothing}${t.returns ? html` <span class="muted">($return)</span>` : nothing}
            ${t.guards.map((g) => html`<span class="guard ${g.passes ? 'pass' : 'fail'}" data-testid="guard" data-passes=${g.passes ? 'true' : 'false'}><vscode-icon name=${g.passes ? 'pass' : 'error'} label=${g.passes ? 'passes' : 'fails'}></vscode-icon> ${g.name}</span>`)}
          </div>`)}</div>
        </div>`;
      })}
      <label class="muted" for="data">event data (JSON, optional)</label>
      <textarea id="data" data-testid="event-data" rows="2" placeholder='{"key": "value"}'></textarea>
      ${this.error ? html`<div class="error" data-testid="event-error">${this.error}</div>` : nothing}`;
  }
}

customElements.define('sg-events', SgEvents);
