// Test-only: makes code-server's extension host hand stategate the API of a VS Code
// fork, for cursor-fork.test.ts. Loaded with `--require` (NODE_OPTIONS for code-server;
// code-server's server passes its own execArgv to the extension host it forks, and
// drops NODE_OPTIONS from that process's environment, so the shim adds itself there).
//
// In the extension host, VS Code answers `require('vscode')` by replacing
// `Module._load` with its interceptor. The shim makes `_load` an accessor: whatever
// VS Code installs is wrapped, and a `vscode` module loaded by a file of the stategate
// extension comes back as a copy with `vscode.version` set to
// STATEGATE_FORK_VSCODE_VERSION and the APIs named in STATEGATE_FORK_REMOVE
// (`chat`, `lm.registerTool`, ...) taken out. Other extensions (the in-host runner)
// get VS Code's API unchanged. What it wrapped is written to
// $STATEGATE_E2E_IPC/fork-shim.json, so the test can tell the shim ran.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const SHIM = __filename;
if (!process.execArgv.includes(SHIM)) process.execArgv.push('--require', SHIM);

const version = process.env.STATEGATE_FORK_VSCODE_VERSION;
const remove = (process.env.STATEGATE_FORK_REMOVE ?? '').split(',').filter(Boolean);
const isExtensionHost = process.argv.includes('--type=extensionHost');

function reduced(api) {
  const copy = Object.create(Object.getPrototypeOf(api));
  const own = Object.getOwnPropertyDescriptors(api);
  const removed = [];
  for (const [key, desc] of Object.entries(own)) {
    if (remove.includes(key)) {
      removed.push(key);
      continue;
    }
    const inner = remove.filter((r) => r.startsWith(`${key}.`)).map((r) => r.slice(key.length + 1));
    if (inner.length && desc.value && typeof desc.value === 'object') {
      const ns = Object.getOwnPropertyDescriptors(desc.value);
      const nsCopy = {};
      for (const [k, d] of Object.entries(ns)) {
        if (inner.includes(k)) removed.push(`${key}.${k}`);
        else Object.defineProperty(nsCopy, k, d);
      }
      Object.defineProperty(copy, key, { ...desc, value: nsCopy });
      continue;
    }
    Object.defineProperty(copy, key, desc);
  }
  if (version) Object.defineProperty(copy, 'version', { value: version, enumerable: true });
  return { copy, removed };
}

if (isExtensionHost && (version || remove.length)) {
  const copies = new WeakMap();
  const made = new WeakSet();
  const wrappers = new WeakMap();
  const record = (removed, from, keys) => {
    const dir = process.env.STATEGATE_E2E_IPC;
    if (!dir) return;
    try {
      fs.writeFileSync(path.join(dir, 'fork-shim.json'), JSON.stringify({ version, removed, from, asked: remove, keys: keys.filter((k) => /^[a-z]/.test(k)) }));
    } catch {
      /* the test then fails on the missing record */
    }
  };
  const wrap = (load) => {
    if (wrappers.has(load)) return wrappers.get(load);
    const wrapped = function (request, parent, isMain) {
      const result = load.apply(this, arguments);
      const from = parent && typeof parent.filename === 'string' ? parent.filename : '';
      if (request !== 'vscode' || !/[\\/]stategate\.stategate-[^\\/]*[\\/]/.test(from) || !result || typeof result !== 'object') return result;
      // VS Code stacks several interceptors: an outer wrapper sees the copy an inner one made.
      if (made.has(result)) return result;
      let entry = copies.get(result);
      if (!entry) {
        entry = reduced(result);
        copies.set(result, entry);
        made.add(entry.copy);
        record(entry.removed, from, Object.getOwnPropertyNames(result));
      }
      return entry.copy;
    };
    wrappers.set(load, wrapped);
    return wrapped;
  };
  let current = Module._load;
  Object.defineProperty(Module, '_load', {
    configurable: true,
    get: () => wrap(current),
    set: (v) => {
      current = v;
    },
  });
}
