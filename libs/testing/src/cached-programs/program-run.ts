import { spawn } from 'node:child_process';

// One run of a program a test drives from outside (a CLI judge such as the MCP Inspector): its whole output and
// how it exited, with nothing of the test's own environment but what is given.

export interface ProgramRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ProgramRunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

export function runProgram(
  command: string,
  args: readonly string[],
  options: ProgramRunOptions,
): Promise<ProgramRun> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      env: options.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (exitCode) => done({ exitCode, stdout, stderr }));
  });
}
