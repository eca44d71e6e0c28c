// What makes the state panel's diagram readable, measured in the webview's DOM
// (shared by the e2e tests that look at a diagram as it opens): the label text
// as computed and as drawn against the editor's font size, the diagram's width
// against the panel's, the contrast of labels on their boxes, the initial arrows.
import type { Frame, Locator, Page } from 'playwright-core';

export interface DiagramMetrics {
  /** The editor's font size (px), as VS Code hands it to the webview. */
  readonly editorFontPx: number;
  /** The smallest computed font size of a state's label (px). */
  readonly minLabelPx: number;
  /** The smallest label size as drawn on screen (computed size × the diagram's scale). */
  readonly minDrawnLabelPx: number;
  /** The smallest computed font size of an edge's label (px). */
  readonly minEdgeLabelPx: number;
  readonly svgWidth: number;
  /** The webview's width (the panel's). */
  readonly panelWidth: number;
  /** The lowest contrast ratio of a state's label on its box (WCAG). */
  readonly minContrast: number;
  /** The states an initial arrow points at. */
  readonly initials: readonly string[];
  readonly transform: string;
  readonly scrollTop: number;
  readonly scrollable: boolean;
  readonly states: number;
  /** The diagram's drawn width (its scroller's scroll width) and what of it is in view. */
  readonly contentWidth: number;
  readonly scrollLeft: number;
  /** What the diagram says is out of view (`data-overflow`: none, left, right, both). */
  readonly overflow: string;
  /** The opacity of the left and right fades (1 where more is hidden). */
  readonly fadeLeft: number;
  readonly fadeRight: number;
  /** The zoom the toolbar shows (`100%`). */
  readonly zoomText: string;
}

/**
 * The measuring code, run in the webview. Kept as plain JavaScript text: the
 * test runner's transpiler wraps named functions in a helper (`__name`) that
 * does not exist in the page.
 */
const MEASURE = `(el) => {
  const root = el.shadowRoot;
  const rgb = (c) => (c.match(/[\\d.]+/g) || ['0', '0', '0']).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
  const size = (t) => parseFloat(getComputedStyle(t).fontSize);
  const nodes = [...root.querySelectorAll('g.node[data-testid="diagram-state"]:not([data-history])')];
  const labels = nodes.map((g) => g.querySelector('text'));
  const edgeLabels = [...root.querySelectorAll('[data-testid="diagram-edge"] text')];
  const viewport = root.querySelector('[data-testid="diagram-viewport"]');
  const opacity = (side) => Number(getComputedStyle(root.querySelector('[data-testid="diagram-fade-' + side + '"]')).opacity);
  // The page scrolls in <html> or in <body>, as VS Code's webview styles have it.
  const scrollers = [document.documentElement, document.body];
  return {
    editorFontPx: parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-size')),
    minLabelPx: Math.min(...labels.map(size)),
    minDrawnLabelPx: Math.min(...labels.map((t) => size(t) * (t.getScreenCTM() ? t.getScreenCTM().a : 0))),
    minEdgeLabelPx: Math.min(...edgeLabels.map(size)),
    svgWidth: viewport.getBoundingClientRect().width,
    panelWidth: document.documentElement.clientWidth,
    minContrast: Math.min(...nodes.map((g) => contrast(getComputedStyle(g.querySelector('text')).fill, getComputedStyle(g.querySelector('rect.outer')).fill))),
    initials: [...root.querySelectorAll('[data-testid="diagram-initial"]')].map((i) => i.getAttribute('data-to') || ''),
    transform: (root.querySelector('g.content') && root.querySelector('g.content').getAttribute('transform')) || '',
    scrollTop: Math.max(...scrollers.map((e) => e.scrollTop)),
    scrollable: scrollers.some((e) => e.scrollHeight > e.clientHeight + 1),
    states: root.querySelectorAll('[data-testid="diagram-state"]').length,
    contentWidth: viewport.scrollWidth,
    scrollLeft: viewport.scrollLeft,
    overflow: el.getAttribute('data-overflow') || '',
    fadeLeft: opacity('left'),
    fadeRight: opacity('right'),
    zoomText: root.querySelector('[data-testid="diagram-zoom"]').textContent.trim(),
  };
}`;

/** Measures the first diagram in the frame (a run's or a file's definition). */
export async function measureDiagram(f: Frame, scope = '[data-testid="run"], [data-testid="definition"]'): Promise<DiagramMetrics> {
  // A function made from the text (a string would be evaluated, not called with the element).
  const measure = new Function('el', `return (${MEASURE})(el);`) as (el: unknown) => DiagramMetrics;
  return await f.locator(scope).locator('sg-diagram').first().evaluate(measure);
}

/** The diagram's scale, from its transform (`translate(x y) scale(k)`). */
export function scaleOf(m: DiagramMetrics): number {
  return Number(/scale\(([\d.]+)\)/.exec(m.transform)?.[1] ?? NaN);
}

/** Whether every state of the first diagram in the frame is drawn wholly inside the window (the webview's). */
export async function allStatesInView(f: Frame, scope = '[data-testid="run"], [data-testid="definition"]'): Promise<string[]> {
  const outside = new Function('el', `const W = window.innerWidth, H = window.innerHeight;
    return [...el.shadowRoot.querySelectorAll('[data-testid="diagram-state"]')].filter((g) => {
      const r = g.getBoundingClientRect();
      return r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1;
    }).map((g) => g.getAttribute('data-state'));`) as (el: unknown) => string[];
  return await f.locator(scope).locator('sg-diagram').first().evaluate(outside);
}

/**
 * Turns the mouse wheel as a person does: the pointer moved over the element
 * (found in a webview's frame; Playwright gives its box in the page's
 * coordinates), then a real wheel event from the browser, with Control held
 * when `ctrl`.
 */
export async function wheelOver(page: Page, target: Locator, delta: { x?: number; y?: number }, opts: { ctrl?: boolean; atY?: number } = {}): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to turn the wheel over');
  await page.mouse.move(box.x + box.width / 2, box.y + (opts.atY ?? box.height / 2));
  if (opts.ctrl) await page.keyboard.down('Control');
  try {
    await page.mouse.wheel(delta.x ?? 0, delta.y ?? 0);
  } finally {
    if (opts.ctrl) await page.keyboard.up('Control');
  }
}
