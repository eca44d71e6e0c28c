// What a person does in an editor tab, for the authoring tests (authoring.test.ts,
// statechart-authoring.test.ts): go to an offset, read stategate's rows of the
// Problems panel, apply a quick fix, save and read the file back.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VsCode } from './harness';

/** The file as VS Code has it: saved first, then read from disk (the DOM only shows visible lines). */
export async function savedText(vsc: VsCode, name: string): Promise<string> {
  await vsc.page.keyboard.press('Control+S');
  await vsc.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: 10_000 });
  return fs.readFileSync(path.join(vsc.workspaceDir, name), 'utf8');
}

/** Puts the cursor at `offset` of `text` (Go to Line/Column, 1-based). */
export async function goto(vsc: VsCode, text: string, offset: number): Promise<void> {
  const lines = text.slice(0, offset).split('\n');
  const widget = vsc.page.locator('.quick-input-widget');
  // A quick open that is still closing (after openFile) would swallow the keys.
  await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  await vsc.page.keyboard.press('Control+G');
  const input = vsc.page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${lines.length}:${(lines[lines.length - 1] ?? '').length + 1}`);
  // The picker accepts only once it has read the line number; until then Enter does nothing.
  for (let attempt = 1; ; attempt++) {
    await vsc.page.keyboard.press('Enter');
    if (await widget.waitFor({ state: 'hidden', timeout: 1_500 }).then(() => true, () => false)) return;
    if (attempt === 4) throw new Error(`Go to Line did not close for offset ${offset}`);
  }
}

export interface Problem {
  readonly message: string;
  readonly code: string;
  /** As the panel writes it: `[Ln 9, Col 16]`. */
  readonly at: string;
}

/** Every problem row of the Problems panel, whoever reported it (VS Code's JSON service too): its message and source. */
export async function allProblems(vsc: VsCode): Promise<string[]> {
  const rows = await vsc.page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  // A file's row has no `[Ln …, Col …]`; a problem's row does.
  return rows.filter((r) => /\[Ln \d+, Col \d+\]/.test(r)).map((r) => r.split('\n').map((x) => x.trim()).slice(0, 2).join(' · '));
}

/** Rows of the Problems panel that stategate reported (the panel must be open): message, source, code, position. */
export async function ourProblems(vsc: VsCode): Promise<Problem[]> {
  const rows = await vsc.page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  return rows
    .map((r) => r.split('\n').map((x) => x.trim()))
    .filter((parts) => parts[1] === 'stategate')
    .map(([message = '', , code = '', at = '']) => ({ message, code, at }));
}

export async function waitForProblems(vsc: VsCode, what: string, ok: (rows: Problem[]) => boolean): Promise<Problem[]> {
  const end = Date.now() + 15_000;
  for (;;) {
    const rows = await ourProblems(vsc);
    if (ok(rows)) return rows;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; Problems: ${JSON.stringify(rows, null, 1)}`);
    await vsc.page.waitForTimeout(200);
  }
}

/** Opens the quick fixes at `offset` and applies the one titled `title`. */
export async function applyQuickFix(vsc: VsCode, text: string, offset: number, title: string): Promise<void> {
  await goto(vsc, text, offset);
  const row = vsc.page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
  // Right after Go to Line the editor is still taking focus back and may drop the key: ask again.
  for (let attempt = 1; ; attempt++) {
    await vsc.page.keyboard.press('Control+.');
    const shown = await row.waitFor({ state: 'visible', timeout: 4_000 }).then(
      () => true,
      () => false,
    );
    if (shown) break;
    if (attempt === 3) {
      await vsc.screenshot(`authoring-quickfix-${title}`);
      throw new Error(`quick fix "${title}" not offered at offset ${offset}`);
    }
    await vsc.page.keyboard.press('Escape');
  }
  await row.click();
  await vsc.page.locator('.action-widget').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

/** The Problems panel's `[Ln 9, Col 16]` of an offset. */
export function lnCol(text: string, offset: number): string {
  const lines = text.slice(0, offset).split('\n');
  return `[Ln ${lines.length}, Col ${(lines[lines.length - 1] ?? '').length + 1}]`;
}
