/**
 * Finds what an invoke `src` names outside the chart, for validation rule 8:
 * `statechart:<id>[@version]` in the nearest `.stategate/registry.yaml`, then
 * by chart `id` (and `version`) among the statechart files beside the chart
 * and in the nearest `.stategate/workflows/` (the folders a Statewright invoke
 * searches); a service name in that registry's `services`. A registry that
 * cannot be read or is malformed, or a registered file that does not exist,
 * is a problem to report, never an empty answer. Files are re-read only when
 * their size or modification time changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadChartRegistry, REGISTRY_YAML, type ChartRegistryFile } from './statechart-registry.js';
import { loadStatechart } from './statechart.js';
import type { ChartSrcResolver, InvokeProblem, ResolvedSrc, Workflow } from '../model/index.js';
import { WorkflowRegistry } from './registry.js';
import { LineIndex } from './text-position.js';
import { parseSrc } from '../statechart/src-ref.js';

const CHART_FILE = /\.statechart\.(ya?ml|json)$/;

interface Stamped<T> {
  readonly stamp: string;
  readonly value: T;
}

type RegistryRead = { readonly file: string; readonly registry: ChartRegistryFile } | InvokeProblem | undefined;

export class ChartRegistry {
  private readonly files = new Map<string, Stamped<unknown>>();
  private readonly folders = new WorkflowRegistry();

  resolverFor(file: string): ChartSrcResolver {
    return (src, fromFile) => this.lookup(src, fromFile ?? file);
  }

  lookup(src: string, fromFile: string): ResolvedSrc | InvokeProblem | undefined {
    const ref = parseSrc(src);
    if (ref.kind === 'agent') return {};
    const read = this.registryFor(fromFile);
    if (read && 'problem' in read) return read;
    if (ref.kind === 'service') return read?.registry.services.some((s) => s.name === ref.name) ? {} : undefined;
    const entry = read?.registry.machineRegistry.find((e) => e.id === ref.id && (ref.version === undefined || e.version === ref.version));
    if (read && entry) {
      const chartFile = path.resolve(path.dirname(read.file), entry.src);
      if (fs.existsSync(chartFile)) return { file: chartFile };
      return { problem: `${read.file} registers \`${ref.id}\` as ${chartFile}, which does not exist.` };
    }
    for (const dir of this.folders.searchDirs(fromFile)) {
      for (const name of listCharts(dir)) {
        const file = path.join(dir, name);
        const chart = this.chart(file);
        if (chart?.id === ref.id && (ref.version === undefined || String(chart.version) === ref.version)) return { file };
      }
    }
    return undefined;
  }

  /** The nearest `.stategate/registry.yaml` above `file`, read (undefined: there is none). */
  private registryFor(file: string): RegistryRead {
    for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, '.stategate', REGISTRY_YAML);
      const read = this.read(candidate, (text) => loadChartRegistry(text));
      if (read === 'absent') {
        if (path.dirname(dir) === dir) return undefined;
        continue;
      }
      if (read === 'unreadable') return { problem: `the registry ${candidate} cannot be read.` };
      const error = read.diagnostics.find((d) => d.severity === 'error');
      if (!error) return { file: candidate, registry: read };
      const at = new LineIndex(fs.readFileSync(candidate, 'utf8')).position(error.loc.start);
      return { problem: `the registry ${candidate} is malformed at line ${at.line + 1}, column ${at.character + 1}: ${error.message}` };
    }
  }

  private chart(file: string): Workflow | undefined {
    const read = this.read(file, (text) => loadStatechart(text, { file }).workflow);
    return typeof read === 'string' ? undefined : read;
  }

  /** A file's parsed value, cached by size and mtime. */
  private read<T>(file: string, parse: (text: string) => T): T | 'absent' | 'unreadable' {
    let stamp: string;
    try {
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st?.isFile()) return 'absent';
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      return 'unreadable';
    }
    const cached = this.files.get(file);
    if (cached?.stamp === stamp) return cached.value as T;
    let value: T;
    try {
      value = parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return 'unreadable';
    }
    this.files.set(file, { stamp, value });
    return value;
  }
}

function listCharts(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => CHART_FILE.test(n)).sort();
  } catch {
    return [];
  }
}
