/**
 * What an expression reads: the context keys, event fields, environment
 * variables and functions, each with its range in the expression text. The
 * editor uses it for completion, hover and go-to-definition inside a guard,
 * and validation for rule 10 (an expression reading a context key the chart
 * does not declare).
 *
 * A reference covers the longest path written with fixed keys:
 * `context.order.items[0].id` is one reference to `context` with path
 * ['order', 'items', '0', 'id'] over the whole text; a computed key
 * (`context.by_id[event.data.id]`) ends the path there (['by_id']) and its
 * own references follow. `event.type` has path ['type'], `event.data.x`
 * ['data', 'x'], `env.HOME` ['HOME']. A function's path is its name split at
 * the dot (['agents', 'select']), its range the name as written.
 * References come in text order.
 */
import type { Expr, ExprNode, RootName } from './ast.js';

export interface ExprReference {
  readonly kind: RootName | 'function';
  readonly path: readonly string[];
  readonly offset: number;
  readonly length: number;
}

interface StaticPath {
  readonly root: Extract<ExprNode, { kind: 'root' }>;
  readonly path: string[];
}

/** The root and fixed keys of a path, or undefined when a key is computed or the base is not a root. */
function staticPath(node: ExprNode): StaticPath | undefined {
  if (node.kind === 'root') return { root: node, path: [] };
  if (node.kind !== 'member' || node.key.kind !== 'literal') return undefined;
  const base = staticPath(node.object);
  if (!base) return undefined;
  base.path.push(String(node.key.value));
  return base;
}

export function expressionReferences(expr: Expr): readonly ExprReference[] {
  const found: ExprReference[] = [];
  const visit = (node: ExprNode): void => {
    switch (node.kind) {
      case 'literal':
        return;
      case 'array':
        return node.elements.forEach(visit);
      case 'root':
      case 'member': {
        const whole = staticPath(node);
        if (whole) {
          found.push({ kind: whole.root.name, path: whole.path, offset: whole.root.start, length: node.end - whole.root.start });
          return;
        }
        if (node.kind === 'member') {
          visit(node.object);
          visit(node.key);
        }
        return;
      }
      case 'call':
        found.push({ kind: 'function', path: node.fn.split('.'), offset: node.nameStart, length: node.nameEnd - node.nameStart });
        return node.args.forEach(visit);
      case 'unary':
        return visit(node.arg);
      case 'binary':
        visit(node.left);
        return visit(node.right);
    }
  };
  visit(expr.root);
  return found;
}
