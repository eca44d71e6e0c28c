/**
 * Which of VS Code's language models answers a `claude`/`codex`/`gemini`
 * state (docs/flows.md: through vscode.lm, the model picked by vendor /
 * family or the `model` argument). Pure, over the models' descriptions, so
 * the rule is unit-tested without VS Code.
 */
import type { ModelVendor } from '../../engine/index.js';

/** The part of a LanguageModelChat the choice reads. */
export interface ModelInfo {
  readonly id: string;
  readonly vendor: string;
  readonly family: string;
  readonly name: string;
}

/**
 * How a tool's models are recognised among VS Code's (Copilot names its families
 * `claude-sonnet-4`, `gpt-5-codex`, `gemini-2.5-pro`, ...; a provider of the vendor
 * itself may name its vendor `anthropic`, `openai`, `google`).
 */
const FAMILY: Readonly<Record<ModelVendor, RegExp>> = {
  claude: /claude|anthropic/i,
  codex: /codex|gpt|openai|\bo\d/i,
  gemini: /gemini|google/i,
};

/**
 * The model for a state: with `model`, the one whose id, family or name is exactly it
 * (case-insensitive); without, the first whose vendor, family or id belongs to the tool.
 * Undefined with `why` naming what was looked for and what there is.
 */
export function chooseModel<M extends ModelInfo>(models: readonly M[], vendor: ModelVendor, model?: string): { model: M } | { why: string } {
  if (model) {
    const want = model.toLowerCase();
    const hit = models.find((m) => [m.id, m.family, m.name].some((v) => v.toLowerCase() === want));
    if (hit) return { model: hit };
    return { why: `no language model "${model}" in VS Code (${available(models)}). Name one of those in \`model\`, or install the extension that provides it.` };
  }
  const hit = models.find((m) => [m.vendor, m.family, m.id].some((v) => FAMILY[vendor].test(v)));
  if (hit) return { model: hit };
  return { why: `no ${vendor} language model in VS Code (${available(models)}). Sign in to a provider of ${vendor} models (e.g. GitHub Copilot), or name an available model in the state's \`model\` argument.` };
}

function available(models: readonly ModelInfo[]): string {
  return models.length === 0 ? 'none is available' : `available: ${models.map((m) => `${m.id} (${m.vendor}/${m.family})`).join(', ')}`;
}
