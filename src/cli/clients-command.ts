/**
 * `stategate enable|disable [--client NAME]... [--root DIR]`: write or take
 * back the hook and MCP entries of agent clients in a workspace, the same
 * entries "stategate: Enable Agent Enforcement" writes (the plans are the
 * engine's, src/engine/clients/client-configs.ts). Without --client: every
 * client. Prints one JSON object: the files changed per client, and what the
 * person must still do by hand (trust prompts no file can answer).
 *
 * The hook commands run this CLI with the runtime running it now
 * (`process.execPath`), behind the same check as the extension's entries:
 * when the CLI or the runtime is gone, the hook denies (exit 2).
 */
import * as path from 'node:path';
import { ClientConfigError, clientLaunch, enableNotes, HOOK_CLIENTS, isHookClient, planDisable, planEnable, applyClientWrites, clientFileReader, type HookClientName, type HostRuntime } from '../engine/index.js';
import { parse, stringOption } from './args.js';
import { CliError, printJson, type ExitCode, type Output } from './io.js';
import type { Command } from './commands.js';

/** The CLI file hooks should run: the bundle's dist/cli.js (from source, the repository's build). */
function cliFile(): string {
  const argv1 = process.argv[1] ?? '';
  if (/(^|[\\/])cli\.js$/.test(argv1)) return path.resolve(argv1);
  // Bundled commands live in dist/cli/<name>.js; from source this file is src/cli/.
  return process.env.STATEGATE_BUNDLED === '1' ? path.resolve(__dirname, '..', 'cli.js') : path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
}

function runtime(): HostRuntime {
  // cliPath() is <extensionPath>/dist/cli.js.
  return { execPath: process.execPath, extensionPath: path.dirname(path.dirname(cliFile())), platform: process.platform };
}

function clientsOf(args: readonly string[], usage: string): { clients: HookClientName[]; root: string } {
  const parsed = parse(args, { client: { type: 'string', multiple: true }, root: { type: 'string' } }, usage);
  const named = (parsed.values['client'] as unknown as string[] | undefined) ?? [];
  for (const c of named) if (!isHookClient(c)) throw new CliError('usage', `unknown --client '${c}' (${HOOK_CLIENTS.join(', ')})`);
  if (parsed.positionals.length) throw new CliError('usage', `unexpected argument '${parsed.positionals[0]}'\nusage: ${usage}`);
  return { clients: named.length ? (named as HookClientName[]) : [...HOOK_CLIENTS], root: path.resolve(stringOption(parsed, 'root') ?? process.cwd()) };
}

function makeCommand(name: 'enable' | 'disable'): Command {
  const usage = `stategate ${name} [--client ${HOOK_CLIENTS.join('|')}]... [--root DIR]`;
  return {
    name,
    answersInJson: () => true,
    async run(args: readonly string[], out: Output): Promise<ExitCode> {
      if (args.includes('--help') || args.includes('-h')) {
        out.stdout(`usage: ${usage}\n\n${name === 'enable' ? 'Writes' : 'Removes'} the hook and MCP entries that make each client ask stategate before every tool call\n(all clients when none is named), in the workspace DIR (default: the current folder). Other settings are kept.\n`);
        return 0;
      }
      const { clients, root } = clientsOf(args, usage);
      const read = clientFileReader(root);
      const report: { client: HookClientName; files: { file: string; what: string }[]; notes: string[] }[] = [];
      try {
        // Plan every client first: a file that cannot be edited stops the command before anything is written.
        const plans = clients.map((client) => {
          if (name === 'enable') return { client, writes: planEnable(client, read, clientLaunch(runtime(), path.join(root, '.stategate')), runtime()), notes: enableNotes(client) };
          return { client, ...planDisable(client, read) };
        });
        for (const p of plans) {
          applyClientWrites(root, p.writes);
          report.push({ client: p.client, files: p.writes.map((w) => ({ file: w.file, what: w.text === undefined ? 'deleted' : w.what })), notes: p.notes });
        }
      } catch (err) {
        if (err instanceof ClientConfigError) throw new CliError('config', err.message, 1);
        throw err;
      }
      printJson(out, { [name === 'enable' ? 'enabled' : 'disabled']: report, root });
      return 0;
    },
  };
}

export const enableCommand = makeCommand('enable');
export const disableCommand = makeCommand('disable');
