// A header helper for the transport's integration tests: each run counts itself in ./helper-runs (its cwd is
// the allowed root) and prints the headers of that run, so the test can tell the first credential from the next.
const fs = require('node:fs');
let runs = 0;
try {
  runs = Number(fs.readFileSync('helper-runs', 'utf8')) || 0;
} catch {
  runs = 0;
}
runs += 1;
fs.writeFileSync('helper-runs', String(runs));
process.stderr.write('helper stderr: SECRET-HELPER-STDERR\n');
process.stdout.write(JSON.stringify({ Authorization: `Bearer token-${runs}` }));
