/** src/engine/record/pricing.ts: the participant's price table (stategate.modelPrices) and a turn's usage report. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseModelPrices, priceFor, usageReport } from '../../src/engine/record/pricing';

test('the price table keeps well-formed entries only', () => {
  const prices = parseModelPrices({ 'gpt-4o': { input: 2.5, output: 10 }, bad: { input: -1, output: 1 }, half: { input: 1 }, str: 'x' });
  assert.deepEqual([...prices.keys()], ['gpt-4o']);
  assert.equal(parseModelPrices(null).size, 0);
  assert.equal(parseModelPrices([1]).size, 0);
});

test('vendor/id beats id beats family; none: no price', () => {
  const prices = parseModelPrices({ 'copilot/gpt-4o': { input: 1, output: 1 }, 'gpt-4o': { input: 2, output: 2 }, 'gpt-4': { input: 3, output: 3 } });
  assert.equal(priceFor(prices, { id: 'gpt-4o', vendor: 'copilot', family: 'gpt-4' })?.input, 1);
  assert.equal(priceFor(prices, { id: 'gpt-4o', vendor: 'other', family: 'gpt-4' })?.input, 2);
  assert.equal(priceFor(prices, { id: 'gpt-4o-mini', family: 'gpt-4' })?.input, 3);
  assert.equal(priceFor(prices, { id: 'claude' }), undefined);
});

test('a usage report prices tokens per million; without a price it reports the tokens at $0', () => {
  assert.deepEqual(usageReport({ id: 'm', vendor: 'v' }, 200_000, 10_000, { input: 3, output: 15 }), { cost: 0.75, inputTokens: 200_000, outputTokens: 10_000, model: 'v/m' });
  assert.deepEqual(usageReport({ id: 'm' }, 5, 6, undefined), { cost: 0, inputTokens: 5, outputTokens: 6, model: 'm' });
});
