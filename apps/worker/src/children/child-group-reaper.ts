import { spawn, type ChildProcess } from 'node:child_process';
import type { ProcessGroupObserver } from '@gatehouse/mcp-client';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { WorkerConfig } from '../config/worker.config.js';
import { LOGGER, WORKER_CONFIG } from '../infrastructure/infrastructure-tokens.js';
import { CHILD_GROUP_REAPER_NAME, CHILD_GROUP_REAPER_SOURCE } from './child-group-reaper-source.js';

const STOP_WAIT_MS = 2_000;
const RESTART_AFTER_MS = 1_000;

/**
 * Keeps a reaper process beside the worker that ends the stdio children's process groups the worker leaves
 * open when it dies (decision 0072). Children run in their own groups, so a signal to the worker reaches none of
 * them, and a server that ignores its stdin closing would outlive a SIGKILLed worker. The reaper is told of each
 * group as it opens and closes; its stdin ends with the worker however the worker ends, and it then signals the
 * groups still open (TERM, KILL after CHILD_CLOSE_GRACE_MS). It runs in its own session with an empty
 * environment, and is started again if it dies, with the groups open at that moment.
 */
@Injectable()
export class ChildGroupReaper implements ProcessGroupObserver, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly open = new Set<number>();
  private reaper: ChildProcess | null = null;
  private stopping = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The reaper's pid while it runs (tests find it by it). */
  get pid(): number | null {
    return this.reaper?.pid ?? null;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  opened(pgid: number): void {
    this.open.add(pgid);
    this.send(`+${pgid}`);
  }

  closed(pgid: number): void {
    this.open.delete(pgid);
    this.send(`-${pgid}`);
  }

  /** After the queue workers closed (their jobs closed their children): ends the reaper's stdin, it exits. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const reaper = this.reaper;
    if (reaper === null || reaper.exitCode !== null || reaper.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => reaper.once('exit', () => resolve()));
    reaper.stdin?.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private start(): void {
    const reaper = spawn(
      process.execPath,
      ['-e', CHILD_GROUP_REAPER_SOURCE, CHILD_GROUP_REAPER_NAME, String(this.config.CHILD_CLOSE_GRACE_MS)],
      { detached: true, env: {}, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    this.reaper = reaper;
    // Neither the process nor its pipe may keep the worker's event loop alive.
    reaper.unref();
    const stdin = reaper.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
    stdin?.unref?.();
    reaper.stdin?.on('error', () => undefined);
    reaper.once('error', (error) => {
      this.logger.error(
        { err: error },
        'child reaper could not start: children of a killed worker may outlive it',
      );
    });
    const startedAt = Date.now();
    reaper.once('exit', (code, signal) => {
      if (this.reaper === reaper) this.reaper = null;
      if (this.stopping) return;
      // One that dies at once would die again: no restart loop, the worker goes on without it (logged).
      if (Date.now() - startedAt < RESTART_AFTER_MS) {
        this.logger.error({ code, signal }, 'child reaper exited at once: not started again');
        return;
      }
      this.logger.warn({ code, signal }, 'child reaper exited; starting it again');
      this.start();
    });
    for (const pgid of this.open) this.send(`+${pgid}`);
  }

  private send(line: string): void {
    const stdin = this.reaper?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(`${line}\n`);
  }
}
