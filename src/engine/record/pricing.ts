/**
 * What a model call costs, for the run record's cost bound (meta.max_cost).
 * VS Code's language model API tells an extension neither usage nor price: the
 * participant counts tokens itself (the model's own countTokens) and prices
 * them with the person's `stategate.modelPrices` table, dollars per million
 * tokens by model id, family or vendor/id. A model with no price reports its
 * tokens at $0, which the record shows as such rather than guessing.
 */
import type { UsageReport } from './operations.js';

export interface ModelPrice {
  /** Dollars per million input tokens. */
  readonly input: number;
  /** Dollars per million output tokens. */
  readonly output: number;
}

export type ModelPrices = ReadonlyMap<string, ModelPrice>;

/** The setting's value, keeping only well-formed entries (a price is two numbers ≥ 0). */
export function parseModelPrices(raw: unknown): ModelPrices {
  const out = new Map<string, ModelPrice>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const v = value as { input?: unknown; output?: unknown } | null;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (v && typeof v === 'object' && ok(v.input) && ok(v.output)) out.set(key, { input: v.input, output: v.output });
  }
  return out;
}

export interface ModelName {
  readonly id: string;
  readonly family?: string;
  readonly vendor?: string;
}

/** The most specific price: `vendor/id`, then `id`, then `family`. */
export function priceFor(prices: ModelPrices, model: ModelName): ModelPrice | undefined {
  return (model.vendor ? prices.get(`${model.vendor}/${model.id}`) : undefined) ?? prices.get(model.id) ?? (model.family ? prices.get(model.family) : undefined);
}

/** One model call's usage report: its tokens, priced when there is a price. */
export function usageReport(model: ModelName, inputTokens: number, outputTokens: number, price: ModelPrice | undefined): UsageReport {
  const cost = price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : 0;
  return { cost, inputTokens, outputTokens, model: model.vendor ? `${model.vendor}/${model.id}` : model.id };
}
