import { request as httpRequest } from 'node:http';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestRedisPrefix,
  testRedisUrl,
  type TestDatabase,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiConfigSchema } from '../../config/api.config';
import { createApiApp } from '../../create-api-app';

// The real API (createApiApp: Nest on Fastify, every surface), listening on a loopback port, for tests of what a
// client sees over HTTP: status, content type and body of every answer, framework errors included.

export interface ListeningApi {
  readonly app: NestFastifyApplication;
  /** A second connection pool on the same database, for fixtures (tenants, members, tokens). */
  readonly db: Database;
  readonly port: number;
  send(request: RawRequest): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  json(): Record<string, unknown>;
}

export async function startListeningApi(): Promise<ListeningApi> {
  const testDb: TestDatabase = await createTestDatabase();
  const parsed = parseConfig(apiConfigSchema, {
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: createTestRedisPrefix(),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'api-http', level: 'silent' }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('the API is not listening on a port');
  const db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  const port = address.port;

  return {
    app,
    db,
    port,
    send: (request) => sendRaw(port, request),
    async close() {
      await app.close();
      await db.close();
      await testDb.drop();
    },
  };
}

/** One request over a fresh connection, the path sent exactly as given (no normalization by a client). */
function sendRaw(port: number, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        headers: {
          connection: 'close',
          ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}),
          ...request.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body,
            json: () => JSON.parse(body) as Record<string, unknown>,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}
