/**
 * A terminal per flow run (a Pseudoterminal): the runner's progress lines and
 * each state's live output (bash's stderr and stdout, a model's streamed
 * answer) as they come. It is the run's FlowSink. Text written before VS Code
 * opens the terminal is kept and shown on open.
 */
import * as vscode from 'vscode';
import type { FlowSink } from '../../engine/index.js';

const DIM = '\x1b[2m';
const RED = '\x1b[31m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** A terminal wants CR LF; a lone LF (or one already paired) becomes CR LF. */
export function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export class FlowTerminal implements vscode.Pseudoterminal, FlowSink {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  readonly terminal: vscode.Terminal;
  private pending: string[] | undefined = [];
  /** The last chunk of output ended without a newline (a progress line starts on a fresh one). */
  private midLine = false;
  private closed = false;
  private finished = false;

  constructor(name: string, onClosed: () => void) {
    this.terminal = vscode.window.createTerminal({ name, pty: this, iconPath: new vscode.ThemeIcon('play-circle') });
    this.onDidClose(onClosed);
  }

  open(): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const t of pending) this.writeEmitter.fire(t);
  }

  close(): void {
    this.closed = true;
  }

  /** After the run, any key closes the terminal (as VS Code's task terminals do). */
  handleInput(): void {
    if (this.finished) this.closeEmitter.fire();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(text: string): void {
    if (this.closed || text === '') return;
    const t = toTerminal(text);
    if (this.pending) this.pending.push(t);
    else this.writeEmitter.fire(t);
  }

  progress(line: string): void {
    this.write(`${this.midLine ? '\n' : ''}${BOLD}${line}${RESET}\n`);
    this.midLine = false;
  }

  output(_state: string, chunk: string, stream: 'stdout' | 'stderr'): void {
    if (chunk === '') return;
    this.write(stream === 'stderr' ? `${RED}${chunk}${RESET}` : chunk);
    this.midLine = !chunk.endsWith('\n');
  }

  /** A note of the extension's own (not the runner's): dimmed. */
  note(line: string): void {
    this.write(`${this.midLine ? '\n' : ''}${DIM}${line}${RESET}\n`);
    this.midLine = false;
  }

  /** The run is over for this terminal (`line`: how, when the runner did not say): a key closes it. */
  finish(line?: string): void {
    if (line) this.note(line);
    this.note('Press any key to close this terminal.');
    this.finished = true;
  }

  /** The run continues in this terminal again (a resume of the same instance). */
  reopen(): void {
    this.finished = false;
  }

  show(): void {
    this.terminal.show(true);
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}
