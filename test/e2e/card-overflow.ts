// Text that runs out of its card in the state panel's webview, measured in the
// DOM (issue 32, item 9): every element, through shadow roots, wider than its
// card (unless cut with its whole text in a tooltip) or reaching past the
// card's right edge. A card is a section
// (vscode-collapsible), a banner, the approval card or the header; the diagram
// is left out (it scrolls by design). Also the page scrolling sideways.
import type { Frame } from 'playwright-core';

/**
 * Run in the webview. Plain JavaScript text: the test runner's transpiler wraps
 * named functions in a helper (`__name`) that does not exist in the page.
 */
const SPILLS = `(() => {
  const all = (root) => [...root.querySelectorAll('*')].flatMap((el) => [el, ...(el.shadowRoot ? all(el.shadowRoot) : [])]);
  const name = (el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  // Text cut with an ellipsis is fine when a tooltip (a title on it or around it, across shadow roots) has it whole.
  const titled = (el) => {
    const text = (el.textContent || '').trim();
    for (let n = el; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      const t = n.getAttribute && n.getAttribute('title');
      if (t && text && t.includes(text)) return true;
    }
    return false;
  };
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) out.push('the page scrolls sideways: ' + page.scrollWidth + ' > ' + page.clientWidth);
  const cards = all(document).filter((el) => el.matches('vscode-collapsible, .banner, .approval, header'));
  for (const card of cards) {
    const right = card.getBoundingClientRect().right + 1;
    for (const el of all(card)) {
      if (el.tagName === 'SG-DIAGRAM' || el.closest('sg-diagram')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      const cut = el.scrollWidth > card.clientWidth + 1;
      if (box.right > right || (cut && !titled(el))) {
        out.push(name(el) + ' in ' + name(card) + ': right ' + Math.round(box.right) + ' > ' + Math.round(right) + ', scrollWidth ' + el.scrollWidth + ' > ' + card.clientWidth);
      }
    }
  }
  return out;
})()`;

/** What spills out of its card in the frame's panel; empty when nothing does. */
export async function cardSpills(f: Frame): Promise<string[]> {
  return (await f.evaluate(SPILLS)) as string[];
}
