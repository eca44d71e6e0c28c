// The LanguageModelChatProvider API (stable since VS Code 1.104), declared here
// because the repository's @types/vscode follows stategate's own engine (1.101),
// which this test-only extension must not raise.
import type * as vscode from 'vscode';

export interface ChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling?: boolean | number; readonly imageInput?: boolean };
}

export interface RequestMessage {
  readonly role: vscode.LanguageModelChatMessageRole;
  readonly content: readonly unknown[];
  readonly name: string | undefined;
}

export interface ResponseOptions {
  readonly tools?: readonly vscode.LanguageModelChatTool[];
  readonly toolMode?: vscode.LanguageModelChatToolMode;
}

export interface ChatProvider {
  provideLanguageModelChatInformation(options: { silent: boolean }, token: vscode.CancellationToken): vscode.ProviderResult<ChatInformation[]>;
  provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: ResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>,
    token: vscode.CancellationToken,
  ): Thenable<void>;
  provideTokenCount(model: ChatInformation, text: string | RequestMessage, token: vscode.CancellationToken): Thenable<number>;
}

export interface LmWithProviders {
  registerLanguageModelChatProvider(vendor: string, provider: ChatProvider): vscode.Disposable;
}
