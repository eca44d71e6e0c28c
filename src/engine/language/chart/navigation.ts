/** Go to definition and find references on a statechart: states (region ids too), named actions, context keys. */
import type { SourceLoc } from '../../model/index.js';
import { chartOccurrenceAt, sameChartSymbol, type ChartModel } from './occurrences.js';

export function chartDefinitionAt(m: ChartModel, offset: number): SourceLoc[] {
  const hit = chartOccurrenceAt(m, offset);
  if (!hit) return [];
  return sameChartSymbol(m, hit).filter((o) => o.role === 'definition').map((o) => o.loc);
}

export function chartReferencesAt(m: ChartModel, offset: number, includeDeclaration: boolean): SourceLoc[] {
  const hit = chartOccurrenceAt(m, offset);
  if (!hit) return [];
  return sameChartSymbol(m, hit).filter((o) => includeDeclaration || o.role === 'reference').map((o) => o.loc);
}
