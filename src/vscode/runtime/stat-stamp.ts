/** A file's size and mtime as one string, to tell cheaply whether it changed since the last look ('gone' when absent). */
import * as fs from 'node:fs';

export function statStamp(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'gone';
  }
}
