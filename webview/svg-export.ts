/**
 * A standalone copy of the drawn diagram for `stategate.exportSvg`: the pan
 * and zoom are dropped, and each element's computed colours and fonts are
 * written as presentation attributes, because the theme's CSS variables do
 * not exist outside the webview.
 */
const PROPS = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'paint-order', 'stroke-linejoin'] as const;

function copyStyles(from: Element, to: Element): void {
  const cs = getComputedStyle(from);
  for (const p of PROPS) {
    const v = cs.getPropertyValue(p);
    if (v) to.setAttribute(p, v);
  }
  to.removeAttribute('class');
  const fromKids = from.children;
  const toKids = to.children;
  for (let i = 0; i < fromKids.length && i < toKids.length; i++) copyStyles(fromKids[i]!, toKids[i]!);
}

/** `content` is the drawn group inside the live SVG; `box` the layout's extent. */
export function standaloneSvg(content: SVGGElement, defs: SVGDefsElement | null, box: { width: number; height: number }, background: string): string {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('xmlns', ns);
  svg.setAttribute('width', String(Math.ceil(box.width)));
  svg.setAttribute('height', String(Math.ceil(box.height)));
  svg.setAttribute('viewBox', `0 0 ${Math.ceil(box.width)} ${Math.ceil(box.height)}`);
  const bg = document.createElementNS(ns, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', background);
  svg.appendChild(bg);
  if (defs) {
    const d = defs.cloneNode(true) as SVGDefsElement;
    copyStyles(defs, d);
    svg.appendChild(d);
  }
  const g = content.cloneNode(true) as SVGGElement;
  copyStyles(content, g);
  g.removeAttribute('transform');
  svg.appendChild(g);
  // lit leaves comment markers in the clone; they are harmless but noisy.
  const walker = document.createTreeWalker(svg, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode?.removeChild(c);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n`;
}
