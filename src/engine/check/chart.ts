/**
 * The semantic rules of a statechart (the AGENT-33 seed's ten, as
 * docs/statecharts-validation.md details them), each in its own file with its own code. Field
 * names, types and unknown fields are the loader's and the schema's.
 */
import type { ChartSrcResolver, Diagnostic, Workflow } from '../model/index.js';
import { actionRule } from './chart-actions.js';
import { alwaysCycleRule } from './chart-always.js';
import { contextRule } from './chart-context.js';
import { envRule } from './chart-env.js';
import { versionRule } from './chart-version.js';
import { memoParser } from './chart-expr.js';
import { guardSyntaxRule } from './chart-guard-syntax.js';
import { initialRule } from './chart-initial.js';
import { parallelRegionsRule } from './chart-parallel-regions.js';
import { reachRule } from './chart-reach.js';
import { regionFinalRule } from './chart-region-final.js';
import { srcRule } from './chart-src.js';
import { handlerRules } from './handler-rules.js';
import { stageRules } from './stage-rules.js';
import { targetRule, targetSites } from './chart-targets.js';
import { indexChart } from './chart-walk.js';

export interface ChartValidateOptions {
  /** Looks up `statechart:` and service `src` names beyond the chart; without it only the chart's own registry and services count. */
  readonly resolveSrc?: ChartSrcResolver;
  /** The chart's file (where names resolve from). */
  readonly file?: string;
}

export function validateChart(wf: Workflow, opts: ChartValidateOptions = {}): Diagnostic[] {
  const index = indexChart(wf);
  const parse = memoParser();
  const sites = targetSites(index);
  const out: Diagnostic[] = [];
  initialRule(wf, out); // 1
  const unresolved = out.length;
  targetRule(wf, sites, out); // 2
  // Reachability is judged once every target resolves: a misspelt target would make its intended state look orphaned.
  if (out.length === unresolved) reachRule(wf, sites, out); // 3
  parallelRegionsRule(wf, out); // 4
  regionFinalRule(wf, out); // 5
  guardSyntaxRule(index, parse, out); // 6
  actionRule(wf, index, out); // 7
  srcRule(wf, index, opts.resolveSrc, opts.file, out); // 8
  handlerRules(wf, index, opts.file, out); // 8: handler: and flow: sources, invoke actions
  alwaysCycleRule(wf, index, out); // 9
  contextRule(wf, index, parse, out); // 10
  envRule(wf, index, parse, out); // env.NAME reads only declared variables
  versionRule(wf, out); // version is semver
  stageRules(wf, out); // stage pipelines (docs/pipelines.md)
  return out;
}
