// The reaper's own program (decision 0072), run as `node -e <this> gatehouse-child-reaper <graceMs>`: given as
// source text rather than a file, so the built worker and a worker under test start the same program with no
// path to find, and it reads nothing of the worker (no config, no token: its environment is empty).
//
// It reads lines `+<pgid>` (a child's group opened) and `-<pgid>` (closed) on stdin. Its stdin is the one end of
// a pipe whose other end only the worker holds (libuv opens pipes close-on-exec, so no child inherits it), so the
// kernel ends it whenever the worker ends, SIGKILL included. On that end, every group still open gets TERM, and
// KILL after the grace; then the reaper exits. A TERM to the reaper itself does the same first.
export const CHILD_GROUP_REAPER_SOURCE = `'use strict';
const graceMs = Math.max(0, Number(process.argv[2]) || 0);
const groups = new Set();
let buffer = '';
let reaping = false;
const signal = (name) => {
  for (const pgid of groups) {
    try { process.kill(-pgid, name); } catch { groups.delete(pgid); }
  }
};
const reap = () => {
  if (reaping) return;
  reaping = true;
  if (groups.size === 0) process.exit(0);
  signal('SIGTERM');
  setTimeout(() => { signal('SIGKILL'); process.exit(0); }, graceMs);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    const pgid = Number(line.slice(1));
    if (!Number.isSafeInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid);
    else if (line[0] === '-') groups.delete(pgid);
  }
});
process.stdin.on('end', reap);
process.stdin.on('error', reap);
process.on('SIGTERM', reap);
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);
`;

/** The argument that names the reaper on its command line (ps, /proc). */
export const CHILD_GROUP_REAPER_NAME = 'gatehouse-child-reaper';
