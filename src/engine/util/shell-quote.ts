/**
 * The command a client runs instead, where it accepts a rewritten input:
 * blocked variables unset, `env_overrides` applied, the original command
 * passed intact as one single-quoted `bash -c` argument. POSIX shells only
 * (a PowerShell terminal would need its own form).
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Single-quote a string for a POSIX shell: `'` becomes `'\''`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `env -u A -u B K=V bash -c '<original>'`. Names that are not valid
 * variable names are left out (they cannot be set or read by a shell
 * anyway); with nothing to unset or set, the command comes back unchanged.
 */
export function rewriteCommand(command: string, blockedEnv: readonly string[], envOverrides: Readonly<Record<string, string>>): string {
  const names: unknown[] = Array.isArray(blockedEnv) ? blockedEnv : [];
  const unset = [...new Set(names.filter((n): n is string => typeof n === 'string' && NAME.test(n)))];
  const overrides = typeof envOverrides === 'object' && envOverrides !== null ? envOverrides : {};
  const set = Object.entries(overrides).filter(([k, v]) => NAME.test(k) && typeof v === 'string');
  if (unset.length === 0 && set.length === 0) return command;
  const parts = ['env', ...unset.flatMap((n) => ['-u', n]), ...set.map(([k, v]) => `${k}=${shellQuote(v)}`), 'bash', '-c', shellQuote(String(command))];
  return parts.join(' ');
}
