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
