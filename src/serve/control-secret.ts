// The control listener's per-session secret. The control listener hands out every cluster's root
// token and key shares and takes faults, so beyond its health check it answers only a client that
// shows the secret (`Authorization: Bearer <secret>`). `replsim serve` draws a new one at start,
// prints it, and writes it to a file only its user can read; `replsim ctl` takes it from
// `REPLSIM_CTL_SECRET`, or from that file (refused when others could read it).
//
// The secret is not part of the simulated world: it is drawn from the operating system's generator
// here, never from the world's seeded one, so it neither shows in nor changes the event log.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync, writeSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SECRET_ENV = 'REPLSIM_CTL_SECRET';
export const SECRET_FILE_ENV = 'REPLSIM_CTL_SECRET_FILE';

/** A fresh secret: 32 random bytes, base64url. */
export function newControlSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether an `Authorization` header carries `secret` (compared in constant time). */
export function showsSecret(authorization: string | undefined, secret: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function uid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** The folder the secret files go in: `$XDG_RUNTIME_DIR/replsim`, else `<tmp>/replsim-<uid>`. */
export function secretFolder(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime) return join(runtime, 'replsim');
  return join(tmpdir(), `replsim-${uid() ?? 'user'}`);
}

/** Where `replsim serve` writes the secret of the control listener on `port` by default. */
export function defaultSecretFile(port: number, env: NodeJS.ProcessEnv = process.env): string {
  return join(secretFolder(env), `control-${port}.secret`);
}

/** Why a file or folder may not hold a secret (a link, another owner, readable by others), or null. */
function unsafe(path: string, kind: 'file' | 'folder'): string | null {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (kind === 'folder' ? !st.isDirectory() : !st.isFile()) return `${path} is not a ${kind}`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${path} belongs to another user (uid ${st.uid})`;
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) return `${path} can be read by other users (mode ${(st.mode & 0o777).toString(8)}; it must be ${kind === 'folder' ? '700' : '600'})`;
  return null;
}

/** Writes the secret to `path`, readable by its owner only (mode 600, in a folder of mode 700 when the folder is made here). */
export function writeSecretFile(path: string, secret: string, folder?: string): void {
  if (folder !== undefined) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const why = unsafe(folder, 'folder');
    if (why) throw new Error(`cannot keep the control secret in ${folder}: ${why}`);
  }
  // A file left by an earlier session on the same port is replaced, never written through (it
  // could be a link planted by someone else).
  rmSync(path, { force: true });
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, secret + '\n');
  } finally {
    closeSync(fd);
  }
}

/** Removes the secret file when the session ends (it is worth nothing then, but tidy). */
export function removeSecretFile(path: string): void {
  rmSync(path, { force: true });
}

/** Reads a secret file, refusing one that others could read or that is not a plain file of this user. */
export function readSecretFile(path: string): { secret: string } | { error: string } {
  let why: string | null;
  try {
    why = unsafe(path, 'file');
  } catch (e) {
    return { error: `cannot read the control secret: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? `${path} does not exist` : (e as Error).message}` };
  }
  if (why) return { error: `refusing to read the control secret: ${why}` };
  const secret = readFileSync(path, 'utf8').trim();
  if (secret === '') return { error: `the control secret file ${path} is empty` };
  return { secret };
}
