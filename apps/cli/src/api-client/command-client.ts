import { successStatusOf, type CommandDefinition } from '@gatehouse/commands';
import type { z } from 'zod';
import { usageError } from '../cli-io';
import { ApiProblemError, problemDocument, UnreachableError } from './api-problem-error';

// The one way the CLI talks to the API: a command declaration from libs/commands says the method, the path, the
// input schema and the output schema, exactly as the API's REST surface is generated from it. Nothing here spells
// a request shape of its own: the input is parsed with the command's schema before it is sent (a usage error
// locally instead of a round trip), placed in the path, the query string (GET/DELETE) or the JSON body as the
// REST generator reads it, and the answer is parsed with the command's output schema (an answer that does not
// match is not trusted). A refusal is the typed ApiProblemError with the problem's `code`.

export interface CommandClientOptions {
  /** The API's base URL (`https://gatehouse.example.com`): the command's path is appended to it. */
  readonly apiUrl: string;
  /** The bearer token (a user token); never logged, never in a URL. */
  readonly token: string;
  /** Per request (connect, headers, body). Default 30 s. */
  readonly timeoutMs?: number;
  /** Injected for tests only; the global fetch otherwise. */
  readonly fetch?: typeof fetch;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Answers larger than this are refused before parsing (a catalog is bounded well below it). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export type Input<C extends CommandDefinition> = z.input<C['input']>;
export type Output<C extends CommandDefinition> = z.output<C['output']>;

function carriesBody(command: CommandDefinition): boolean {
  return command.http.method === 'POST' || command.http.method === 'PATCH' || command.http.method === 'PUT';
}

/** The request a command's input comes to: the path with its parameters, the query string or the JSON body. */
export function requestOf(
  command: CommandDefinition,
  input: Record<string, unknown>,
): { path: string; query: URLSearchParams; body: Record<string, unknown> | undefined } {
  const rest: Record<string, unknown> = { ...input };
  const path = command.http.path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_match, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) throw usageError(`${command.name}: ${name} is required`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  if (carriesBody(command)) return { path, query, body: rest };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return { path, query, body: undefined };
}

export class CommandClient {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: CommandClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  get apiUrl(): string {
    return this.options.apiUrl;
  }

  async call<C extends CommandDefinition>(command: C, input: Input<C>): Promise<Output<C>> {
    const checked = command.input.safeParse(input);
    if (!checked.success) {
      const fields = checked.error.issues.map(
        (issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`,
      );
      throw usageError(`${command.name}: ${fields.slice(0, 5).join('; ')}`);
    }
    const { path, query, body } = requestOf(command, checked.data as Record<string, unknown>);
    const url = new URL(path.replace(/^\//, ''), withTrailingSlash(this.options.apiUrl));
    url.search = query.toString();
    const response = await this.send(url, command, body);
    const text = await readBounded(response, command.name);
    if (response.status === successStatusOf(command)) {
      const parsed = command.output.safeParse(text.length > 0 ? parseJson(text, command.name) : undefined);
      if (!parsed.success) {
        throw new UnreachableError(
          `${command.name}: the answer is not what this command returns (is --api the Gatehouse API?)`,
        );
      }
      return parsed.data as Output<C>;
    }
    throw problemOf(command.name, response.status, text);
  }

  private async send(url: URL, command: CommandDefinition, body: Record<string, unknown> | undefined) {
    try {
      return await this.fetchImpl(url, {
        method: command.http.method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          accept: 'application/json, application/problem+json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      throw new UnreachableError(`cannot reach the API at ${originOf(url)} (${networkReason(error)})`);
    }
  }
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** `scheme://host:port`: never the path or query (a URL may carry more than its origin). */
export function originOf(url: URL): string {
  return url.origin;
}

function networkReason(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : 'connection failed';
}

/** The answer's text, read chunk by chunk and cut at MAX_ANSWER_BYTES (an answer with no length is bounded too). */
async function readBounded(response: Response, commandName: string): Promise<string> {
  const tooLarge = () => new UnreachableError(`${commandName}: the answer is too large`);
  if (Number(response.headers.get('content-length') ?? '0') > MAX_ANSWER_BYTES) throw tooLarge();
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_ANSWER_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof UnreachableError) throw error;
    throw new UnreachableError(`${commandName}: the connection ended before the answer did`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string, commandName: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UnreachableError(`${commandName}: the answer is not JSON (is --api the Gatehouse API?)`);
  }
}

function problemOf(commandName: string, status: number, text: string): Error {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    value = undefined;
  }
  const problem = problemDocument.safeParse(value);
  if (!problem.success) {
    return new UnreachableError(
      `${commandName}: HTTP ${status} without a problem document (is --api the Gatehouse API?)`,
    );
  }
  const fields = (problem.data.errors ?? []).map((error) => {
    const path = Array.isArray(error.path) ? error.path.join('.') : String(error.path ?? '');
    return path.length > 0 ? `${path}: ${error.message}` : error.message;
  });
  return new ApiProblemError(
    commandName,
    status,
    problem.data.code,
    problem.data.title,
    problem.data.detail,
    fields,
  );
}
