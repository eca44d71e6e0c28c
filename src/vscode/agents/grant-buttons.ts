/**
 * The Approve / Deny buttons of a one-shot grant in the chat. A chat button
 * runs a command; `stategate.answerGrant(proposalId, approved)` resolves the
 * question the pipeline is waiting on. A question nobody answers before the
 * request is cancelled counts as no answer (headless: denied).
 */
import type * as vscode from 'vscode';

export const ANSWER_GRANT_COMMAND = 'stategate.answerGrant';

export class GrantWaiters {
  private readonly waiting = new Map<string, (approved: boolean | undefined) => void>();

  /** Waits for the person's click on one of this proposal's buttons. */
  wait(proposalId: string, token: vscode.CancellationToken): Promise<boolean | undefined> {
    return new Promise((resolve) => {
      const done = (approved: boolean | undefined): void => {
        this.waiting.delete(proposalId);
        sub.dispose();
        resolve(approved);
      };
      const sub = token.onCancellationRequested(() => done(undefined));
      this.waiting.set(proposalId, done);
    });
  }

  /** The command's handler: true when a question was waiting for this proposal. */
  answer(proposalId: unknown, approved: unknown): boolean {
    const waiter = typeof proposalId === 'string' ? this.waiting.get(proposalId) : undefined;
    if (!waiter) return false;
    waiter(approved === true);
    return true;
  }
}
