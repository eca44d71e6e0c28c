// In-host: the language-model tools VS Code has registered right now (Copilot registers its own after it activates).
import * as vscode from 'vscode';
import { hostTest } from '../src/suite';

hostTest('lm-tools', 'the registered language-model tools', () => vscode.lm.tools.map((t) => t.name).sort());
