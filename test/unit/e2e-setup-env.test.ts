// The e2e setup scripts run an npm of their own (Node 24, code-server, Claude
// Code). Started by an outer npm (`npm test`, `npm start`), they inherit that
// npm's npm_config_* variables, and the inner npm took them as its own config:
// code-server's postinstall read `node/v20` from the inherited user agent and
// refused to install. These tests start the scripts with such an environment
// and a stand-in `npm` that records what it was given.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './helpers/cli';
import { type CleanupOwner, tempDir } from './helpers/temp-dir';

const E2E = path.join(REPO_ROOT, 'test', 'e2e');

/** What an outer npm puts in its scripts' environment about itself (as `npm run` does, npm 11 on Node 20). */
const OUTER_NPM: Record<string, string> = {
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_config_nodedir: '/usr',
  npm_config_prefix: '/usr',
  npm_config_global_prefix: '/usr',
  npm_config_local_prefix: REPO_ROOT,
  npm_config_loglevel: 'silent',
  npm_config_npm_version: '11.19.1',
  npm_config_allow_scripts: '',
  NPM_CONFIG_ENGINE_STRICT: 'true', // npm reads these names in any case
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_node_execpath: '/usr/bin/node',
  npm_command: 'run',
  npm_lifecycle_event: 'test:e2e',
  npm_lifecycle_script: 'bash test/e2e/setup.sh',
  npm_package_json: path.join(REPO_ROOT, 'package.json'),
  INIT_CWD: REPO_ROOT,
  NODE: '/usr/bin/node',
};

/** What a person sets on purpose to reach their registry: it must reach the inner npm. */
const PERSON: Record<string, string> = {
  npm_config_registry: 'http://registry.invalid/',
  'npm_config_@acme:registry': 'http://acme.invalid/',
  'npm_config_//registry.invalid/:_authToken': 'secret-token',
  NPM_CONFIG_CAFILE: '/etc/ssl/certs/ca-certificates.crt',
  npm_config_https_proxy: 'http://proxy.invalid:3128',
  npm_config_noproxy: 'localhost',
  npm_config_strict_ssl: 'false',
  npm_config_userconfig: '/nonexistent/.npmrc',
  npm_config_globalconfig: '/nonexistent/npmrc',
  npm_config_cache: '/nonexistent/npm-cache',
};

/** A bin folder with an `npm` (bash, which passes on variables whose names are not identifiers, as node does) that writes its environment to npm-env.json and fails, and a dpkg-query that finds everything. */
function standIns(t: CleanupOwner): { bin: string; recorded: string } {
  const dir = tempDir('sg-npmenv-', t);
  const bin = path.join(dir, 'bin');
  const recorded = path.join(dir, 'npm-env.json');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/bash\n[ -f '${recorded}' ] || '${process.execPath}' -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env))' '${recorded}'\nexit 1\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, 'dpkg-query'), "#!/bin/sh\nprintf 'install ok installed'\n", { mode: 0o755 });
  return { bin, recorded };
}

function runScript(t: CleanupOwner, script: string): { env: Record<string, string>; status: number | null; stderr: string } {
  const { bin, recorded } = standIns(t);
  const outerBins = [path.join(REPO_ROOT, 'node_modules', '.bin'), '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin'];
  // This test may itself run under npm (npm test): start from the environment without its npm_* variables.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const r = spawnSync('bash', [path.join(E2E, script)], {
    encoding: 'utf8',
    env: {
      ...base,
      ...OUTER_NPM,
      ...PERSON,
      PATH: [...outerBins, bin, process.env.PATH].join(':'),
      STATEGATE_E2E_CACHE: tempDir('sg-npmenv-cache-', t),
    },
  });
  assert.ok(fs.existsSync(recorded), `${script} ran no npm (exit ${r.status}):\n${r.stderr}`);
  return { env: JSON.parse(fs.readFileSync(recorded, 'utf8')), status: r.status, stderr: r.stderr };
}

function assertOwnNpmEnv(env: Record<string, string>): void {
  for (const name of Object.keys(OUTER_NPM)) assert.equal(env[name], undefined, `the inner npm inherited ${name}=${env[name]}`);
  const leftover = Object.keys(env).filter((k) => /^npm_/i.test(k) && !(k in PERSON));
  assert.deepEqual(leftover, [], 'no other npm_* variable of the outer npm reaches the inner npm');
  for (const [name, value] of Object.entries(PERSON)) assert.equal(env[name], value, `${name}, set by a person, reaches the inner npm`);
  const path_ = env.PATH!.split(':');
  assert.ok(!path_.some((d) => d.endsWith('/node_modules/.bin') || d.endsWith('/node-gyp-bin')), `the outer npm's bin folders left PATH: ${env.PATH}`);
}

test('setup.sh runs its npm with its own environment, not the outer npm’s', { skip: !fs.existsSync('/usr/bin/chromium') && 'needs /usr/bin/chromium (setup.sh checks it before its first npm)' }, (t) => {
  const { env, status } = runScript(t, 'setup.sh');
  assert.notEqual(status, 0, 'the stand-in npm fails, so does the setup');
  assertOwnNpmEnv(env);
});

test('setup-claude.sh runs its npm with its own environment, not the outer npm’s', (t) => {
  const { env, status } = runScript(t, 'setup-claude.sh');
  assert.equal(status, 3, 'the stand-in npm cannot ping either: reported as a registry out of reach');
  assertOwnNpmEnv(env);
});
