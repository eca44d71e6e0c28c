// npm start: builds and packages the extension, sets up code-server if needed
// (test/e2e/setup.sh), installs the VSIX and serves VS Code with stategate on
// examples/ at a loopback address, printed once the server answers. Ctrl+C stops it.
//   PORT=9000 npm start     another port (default 8080, or a free one if taken)
//   STATEGATE_START_HOME=D  keep its user-data and extensions dirs in D
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.STATEGATE_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'stategate-e2e');
// Where `npm start` keeps its user-data and extensions dirs (tests point it elsewhere).
const home = process.env.STATEGATE_START_HOME ?? path.join(cache, 'start');
const folder = path.join(root, 'examples');

function step(what, cmd, args, opts = {}) {
  console.log(`[start] ${what}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) {
    console.error(`[start] ${what} failed (${r.status ?? r.signal}): the lines above say why; run npm start again once it is mended.`);
    process.exit(1);
  }
  return r;
}

step('building the VSIX (npm run package)', 'npm', ['run', '--silent', 'package'], { stdio: ['ignore', 'ignore', 'inherit'] });
step('checking code-server (test/e2e/setup.sh)', 'bash', ['test/e2e/setup.sh'], { stdio: ['ignore', 'ignore', 'inherit'] });

const env = Object.fromEntries(
  fs
    .readFileSync(path.join(cache, 'env.sh'), 'utf8')
    .split('\n')
    .map((l) => /^(\w+)='(.*)'$/.exec(l))
    .filter(Boolean)
    .map((m) => [m[1], m[2]]),
);
const node = env.STATEGATE_E2E_NODE;
const entry = env.STATEGATE_E2E_CODE_SERVER;

// One user-data dir for `npm start` (layout and settings survive restarts), outside the repo.
const userData = path.join(home, 'user-data');
const extensions = path.join(home, 'extensions');
fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
fs.mkdirSync(extensions, { recursive: true });
const settingsFile = path.join(userData, 'User', 'settings.json');
if (!fs.existsSync(settingsFile)) {
  const settings = {
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'git.openRepositoryInParentFolders': 'never',
  };
  fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
}
const config = path.join(home, 'code-server.yaml');
fs.writeFileSync(config, 'auth: none\n');
const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];
const childEnv = { ...process.env, XDG_DATA_HOME: path.join(home, 'xdg-data'), XDG_CONFIG_HOME: path.join(home, 'xdg-config') };
step('installing stategate.vsix', node, [entry, ...common, '--install-extension', path.join(root, 'stategate.vsix'), '--force'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: childEnv,
});

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
async function choosePort() {
  const wanted = Number(process.env.PORT ?? 8080);
  if (await portFree(wanted)) return wanted;
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const port = srv.address().port;
  await new Promise((r) => srv.close(r));
  console.log(`[start] port ${wanted} is taken; using ${port}`);
  return port;
}

const port = await choosePort();
const logFile = path.join(home, 'code-server.log');
const log = fs.openSync(logFile, 'w');
const server = spawn(
  node,
  [entry, ...common, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
    '--disable-getting-started-override', '--ignore-last-opened', folder],
  { env: childEnv, detached: true, stdio: ['ignore', log, log] },
);

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n[start] stopping code-server');
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {}
  const force = setTimeout(() => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {}
  }, 5000);
  server.once('exit', () => {
    clearTimeout(force);
    try {
      process.kill(-server.pid, 'SIGKILL'); // the extension host and any other child of the group
    } catch {}
    process.exit(code);
  });
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
server.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`[start] code-server exited (${code ?? signal}); its log: ${logFile}`);
  process.exit(1);
});

const base = `http://127.0.0.1:${port}`;
const deadline = Date.now() + 60_000;
for (;;) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (Date.now() > deadline) {
    console.error(`[start] code-server did not answer within 60 s; its log: ${logFile}`);
    stop(1);
    break;
  }
  await new Promise((r) => setTimeout(r, 200));
}
if (!stopping) {
  console.log(`\nstategate in VS Code, on ${path.relative(process.cwd(), folder) || folder}:\n\n    ${base}/?folder=${encodeURI(folder)}\n`);
  console.log(`[start] code-server log: ${logFile}; Ctrl+C stops it.`);
}
