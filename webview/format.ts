/** Small text formatting the sections share. */

export function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 102.4) / 10} KB`;
}

/** `used/limit`, or just `used` where there is no limit. */
export function usage(used: number, limit: number | null, fmt: (n: number) => string = String): string {
  return limit === null ? fmt(used) : `${fmt(used)}/${fmt(limit)}`;
}

export function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

/** `1:05` or `4.2 s` until `due`; `due` once it has passed (the host fires it). */
export function countdown(dueMs: number, nowMs: number): string {
  const left = dueMs - nowMs;
  if (left <= 0) return 'due';
  if (left < 10_000) return `${(left / 1000).toFixed(1)} s`;
  const s = Math.ceil(left / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}
