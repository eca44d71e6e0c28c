/**
 * Strongly connected components (Tarjan's algorithm, iterative so a long
 * chain cannot exhaust the stack). No graph library is installed here, and
 * this is the one graph algorithm the rules need: the cycles among eventless
 * transitions (rule 9).
 */

/** The components of the graph on vertices 0..n-1 that contain a cycle (more than one vertex, or a self-edge), each in ascending order. */
export function cyclicComponents(n: number, edges: readonly (readonly number[])[]): number[][] {
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const out: number[][] = [];
  let next = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    // Each frame: a vertex and how many of its edges have been followed.
    const frames: Array<[number, number]> = [[root, 0]];
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = true;
    while (frames.length) {
      const frame = frames[frames.length - 1] as [number, number];
      const [v, i] = frame;
      const out_v = edges[v] ?? [];
      if (i < out_v.length) {
        frame[1] = i + 1;
        const w = out_v[i] as number;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = true;
          frames.push([w, 0]);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const component: number[] = [];
      for (;;) {
        const w = stack.pop() as number;
        onStack[w] = false;
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1 || out_v.includes(v)) out.push(component.sort((a, b) => a - b));
    }
  }
  return out;
}
