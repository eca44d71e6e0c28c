/**
 * Finds what an invoke `src` names outside the chart, for validation rule 8:
 * `statechart:<id>[@version]` in the nearest `.stategate/registry.yaml`, then
 * by chart `id` (and `version`) among the statechart files beside the chart
 * and in the nearest `.stategate/workflows/` (the folders a Statewright invoke
 * searches); a service name in that registry's `services`. A registry that
 * cannot be read or is malformed, or a registered file that does not exist,
 * is a problem to report, never an empty answer. Files are re-read only when
 * their size or modification time changes.
 *
 * `findChart` is the same search at run time, for starting a child machine:
 * the invoking chart's own `machine_registry` first, then the registry file,
 * then chart ids; without a version, the highest semver registered (or found)
 * wins. What it cannot find is a problem naming every place it searched.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadChartRegistry, REGISTRY_YAML, type ChartRegistryFile } from './statechart-registry.js';
import { loadStatechart } from './statechart.js';
import type { ChartSrcResolver, InvokeProblem, MachineRegistryEntry, ResolvedSrc, Workflow } from '../model/index.js';
import { compareVersions } from './version-order.js';
import { WorkflowRegistry } from './registry.js';
import { LineIndex } from './text-position.js';
import { sniffFormat } from './format-sniff.js';
import { fileKind, isPlainDataFile } from './file-kinds.js';
import { parseSrc } from '../model/src-ref.js';

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
    // A handler or a flow is the chart's own to declare (check/handler-rules.ts), not the registry's.
    if (ref.kind === 'agent' || ref.kind === 'handler' || ref.kind === 'flow') return {};
    const read = this.registryFor(fromFile);
    if (read && 'problem' in read) return read;
    if (ref.kind === 'service') return read?.registry.services.some((s) => s.name === ref.name) ? {} : undefined;
    const entry = read?.registry.machineRegistry.find((e) => e.id === ref.id && (ref.version === undefined || e.version === ref.version));
    if (read && entry) {
      const chartFile = path.resolve(path.dirname(read.file), entry.src);
      if (fs.existsSync(chartFile)) return { file: chartFile };
      return { problem: `${read.file} registers \`${ref.id}\` as ${chartFile}, which does not exist.` };
    }
    const file = this.byId(ref.id, ref.version, fromFile)[0];
    return file === undefined ? undefined : { file };
  }

  /** The chart file `statechart:<id>[@version]` names, seen from the invoking chart, with its text; or what was searched in vain. */
  findChart(src: string, from: { readonly workflow: Workflow; readonly file?: string }): { readonly file: string; readonly text: string } | InvokeProblem {
    const ref = parseSrc(src);
    if (ref.kind !== 'statechart' || ref.id === '') return { problem: `\`${src}\` does not name a statechart (\`statechart:<id>[@version]\`).` };
    const fromFile = from.file === undefined ? undefined : path.resolve(from.file);
    const searched: string[] = [];
    const own = bestEntry(from.workflow.chart?.machineRegistry ?? [], ref.id, ref.version);
    searched.push(`the machine_registry of ${fromFile ?? `chart ${from.workflow.id}`}`);
    if (own) {
      if (fromFile === undefined) return { problem: `chart ${from.workflow.id} registers \`${ref.id}\` as ${own.src}, relative to a chart file this run does not know.` };
      return readChartFile(path.resolve(path.dirname(fromFile), own.src), `${fromFile} registers \`${ref.id}\``);
    }
    if (fromFile !== undefined) {
      const read = this.registryFor(fromFile);
      if (read && 'problem' in read) return read;
      searched.push(read ? read.file : 'a .stategate/registry.yaml (there is none above the chart)');
      const entry = read ? bestEntry(read.registry.machineRegistry, ref.id, ref.version) : undefined;
      if (read && entry) return readChartFile(path.resolve(path.dirname(read.file), entry.src), `${read.file} registers \`${ref.id}\``);
      const file = this.byId(ref.id, ref.version, fromFile)[0];
      if (file !== undefined) return readChartFile(file, `chart \`${ref.id}\` was found`);
      searched.push(`the chart ids of the *.statechart.* files in ${this.folders.searchDirs(fromFile).join(' and ')}`);
    }
    return { problem: `\`${src}\` names no chart: searched ${searched.join('; ')}.` };
  }

  /** Chart files in the folders searched from `fromFile` whose `id` (and version, when given) match, the highest version first. */
  private byId(id: string, version: string | undefined, fromFile: string): string[] {
    const found: { file: string; version?: string }[] = [];
    for (const dir of this.folders.searchDirs(fromFile)) {
      for (const name of listCharts(dir)) {
        const file = path.join(dir, name);
        const chart = this.chart(file);
        if (chart?.id !== id) continue;
        const v = chart.version === undefined ? undefined : String(chart.version);
        if (version === undefined || v === version) found.push({ file, ...(v === undefined ? {} : { version: v }) });
      }
    }
    // A stable sort: among equal versions the first found (its own folder first) wins.
    return found.sort((a, b) => compareVersions(b.version, a.version)).map((f) => f.file);
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
    // A plain `code_review.yaml` is a chart when its content says so; other YAML and JSON beside it are not.
    const read = this.read(file, (text) => (fileKind(file) === 'statechart' || sniffFormat(text, file) === 'statechart' ? loadStatechart(text, { file }).workflow : undefined));
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

/** The registry entry for `id`: with `version` exactly that one; without, the highest version registered. */
function bestEntry(entries: readonly MachineRegistryEntry[], id: string, version: string | undefined): MachineRegistryEntry | undefined {
  let best: MachineRegistryEntry | undefined;
  for (const e of entries) {
    if (e.id !== id) continue;
    if (version !== undefined) {
      if (e.version === version) return e;
    } else if (!best || compareVersions(e.version, best.version) > 0) best = e;
  }
  return best;
}

function readChartFile(file: string, what: string): { file: string; text: string } | InvokeProblem {
  try {
    return { file, text: fs.readFileSync(file, 'utf8') };
  } catch {
    return { problem: `${what} as ${file}, which cannot be read.` };
  }
}

function listCharts(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => fileKind(n) === 'statechart' || isPlainDataFile(n)).sort();
  } catch {
    return [];
  }
}
