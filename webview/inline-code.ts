/**
 * Engine messages quote names and commands in backticks (`stategate run stop`, `hotfix.resume`), as
 * the CLI prints them. The panel shows such a quote as code, never as raw backticks.
 */
import { html, type TemplateResult } from 'lit';

/** `text` with each `quoted` span as <code>; an unmatched backtick stays as it is. */
export function withCode(text: string): (string | TemplateResult)[] {
  const parts = text.split(/`([^`\n]+)`/);
  return parts.map((p, i) => (i % 2 === 1 ? html`<code>${p}</code>` : p));
}
