import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CompleteRequest,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectSdkClient,
  EVERYTHING,
  startGatewayStack,
  type GatewayStack,
} from '../acceptance/gateway-stack.harness';

// completion/complete through the workspace endpoint and the per-server passthrough (decision 0126), end to end on
// the acceptance stack (real API, Postgres, Redis, gateway app) with three upstreams: server-everything over stdio
// (its completable prompt and its resource templates complete), an in-process SDK server over Streamable HTTP
// that declares completions and records what it is asked (`keen`), and one that declares none (`plain`). A real
// SDK client asks; the upstream is asked with its own prompt name or template, or not at all.

jest.setTimeout(120_000);

let stack: GatewayStack;
let keenUpstream: StreamableHttpUpstream;
let plainUpstream: StreamableHttpUpstream;
let gateway: Awaited<ReturnType<GatewayStack['startGateway']>>;

/** Every completion/complete params keen was asked with. */
const asked: CompleteRequest['params'][] = [];

const LONG = 'x'.repeat(2_049);

/** A greet prompt, one note and a notes template under `scheme` (two servers' URIs must differ: uri_collision). */
function promptsAndNotes(server: Server, scheme: string): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'mood' }] }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async () => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hello' } }],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: `${scheme}://notes/1`, name: 'note-1' }],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: `${scheme}://notes/{id}`, name: 'note' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
    contents: [{ uri: request.params.uri, text: 'note' }],
  }));
}

function keenServer(): Server {
  const server = new Server(
    { name: 'keen', version: '1.0.0' },
    { capabilities: { prompts: {}, resources: {}, completions: {} } },
  );
  promptsAndNotes(server, 'mem');
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    asked.push(request.params);
    const { name, value } = request.params.argument;
    switch (name) {
      case 'flood':
        return { completion: { values: Array.from({ length: 101 }, (_, i) => `v${i}`) } };
      case 'long':
        return { completion: { values: ['short', LONG], total: 2, hasMore: false }, _meta: { x: 1 } };
      case 'fail':
        throw new McpError(ErrorCode.InternalError, 'upstream secret words');
      default:
        return {
          completion: { values: ['Ada', 'Alan', 'Grace'].filter((v) => v.startsWith(value)), hasMore: false },
        };
    }
  });
  return server;
}

function plainServer(): Server {
  const server = new Server(
    { name: 'plain', version: '1.0.0' },
    { capabilities: { prompts: {}, resources: {} } },
  );
  promptsAndNotes(server, 'plain');
  return server;
}

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'gateway-completions', stdioCommands: [[EVERYTHING, 'stdio']] });
  keenUpstream = await startStreamableHttpUpstream(keenServer);
  plainUpstream = await startStreamableHttpUpstream(plainServer);
  await stack.defineServers('admin', 'managed', {
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
    keen: { type: 'http', url: keenUpstream.url },
    plain: { type: 'http', url: plainUpstream.url },
    // Defined, never approved: nothing of it is served.
    unapproved: { type: 'http', url: keenUpstream.url },
  });
  for (const server of ['everything', 'keen', 'plain']) {
    await stack.approve(server);
    await stack.discoverAndSubmit(server);
  }
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await stack?.close();
  await keenUpstream?.close();
  await plainUpstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  asked.length = 0;
});

function connect(server?: string): Promise<Client> {
  const path =
    server === undefined ? `/mcp/w/${stack.workspaceId}` : `/mcp/w/${stack.workspaceId}/s/${server}`;
  return connectSdkClient(new URL(path, gateway.url), stack.tokens.agent);
}

async function using<T>(server: string | undefined, run: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(server);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

const prompt = (name: string) => ({ type: 'ref/prompt' as const, name });
const resource = (uri: string) => ({ type: 'ref/resource' as const, uri });

describe('completion/complete through the workspace endpoint', () => {
  it('declares completions beside tools, prompts and resources', async () => {
    await using(undefined, async (client) => {
      expect(client.getServerCapabilities()?.completions).toEqual({});
    });
  });

  it('relays a minted prompt and a served template to the upstream that owns it, under its own names', async () => {
    await using(undefined, async (client) => {
      const byPrompt = await client.complete({
        ref: prompt('mcp__keen__greet'),
        argument: { name: 'who', value: 'A' },
        context: { arguments: { mood: 'glad' } },
      });
      expect(byPrompt).toEqual({ completion: { values: ['Ada', 'Alan'], hasMore: false } });
      const byTemplate = await client.complete({
        ref: resource('gatehouse://keen/mem://notes/{id}'),
        argument: { name: 'id', value: 'G' },
      });
      expect(byTemplate.completion.values).toEqual(['Grace']);
      // A listed resource is a served ref too (the spec's ref/resource names a URI or a template).
      await client.complete({
        ref: resource('gatehouse://keen/mem://notes/1'),
        argument: { name: 'id', value: '' },
      });
      expect(asked).toEqual([
        {
          ref: { type: 'ref/prompt', name: 'greet' },
          argument: { name: 'who', value: 'A' },
          context: { arguments: { mood: 'glad' } },
        },
        { ref: { type: 'ref/resource', uri: 'mem://notes/{id}' }, argument: { name: 'id', value: 'G' } },
        { ref: { type: 'ref/resource', uri: 'mem://notes/1' }, argument: { name: 'id', value: '' } },
      ]);
    });
  });

  it('completes server-everything’s completable prompt (with context) and its resource template over stdio', async () => {
    await using(undefined, async (client) => {
      const ref = prompt('mcp__everything__completable-prompt');
      const department = await client.complete({ ref, argument: { name: 'department', value: 'E' } });
      expect(department.completion.values).toEqual(['Engineering']);
      const lead = await client.complete({
        ref,
        argument: { name: 'name', value: 'A' },
        context: { arguments: { department: 'Engineering' } },
      });
      expect(lead.completion.values).toEqual(['Alice']);
      const id = await client.complete({
        ref: resource('gatehouse://everything/demo://resource/dynamic/text/{resourceId}'),
        argument: { name: 'resourceId', value: '3' },
      });
      expect(id.completion.values).toEqual(['3']);
    });
  });

  it('answers an empty completion for a server that declared none', async () => {
    await using(undefined, async (client) => {
      for (const ref of [prompt('mcp__plain__greet'), resource('gatehouse://plain/plain://notes/{id}')]) {
        expect(await client.complete({ ref, argument: { name: 'who', value: 'A' } })).toEqual({
          completion: { values: [], hasMore: false },
        });
      }
    });
  });

  it('refuses a ref it does not serve as prompts/get and resources/read do, asking no upstream', async () => {
    await using(undefined, async (client) => {
      for (const name of ['greet', 'mcp__keen__nope', 'mcp__unapproved__greet']) {
        await expect(
          client.complete({ ref: prompt(name), argument: { name: 'who', value: '' } }),
        ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, data: { reason: 'unknown_prompt' } });
      }
      for (const uri of [
        // The upstream's own template, an expanded URI of the served one, another server's, nobody's.
        'mem://notes/{id}',
        'gatehouse://keen/mem://notes/42',
        'gatehouse://unapproved/mem://notes/{id}',
        'gatehouse://nobody/mem://notes/{id}',
      ]) {
        await expect(
          client.complete({ ref: resource(uri), argument: { name: 'id', value: '' } }),
        ).rejects.toMatchObject({ code: -32602, data: { reason: 'unknown_resource', uri } });
      }
      expect(asked).toEqual([]);
    });
  });

  it('refuses an argument or context over its bounds, naming the field, never the value', async () => {
    await using(undefined, async (client) => {
      const ref = prompt('mcp__keen__greet');
      const refused = [
        { argument: { name: LONG.slice(0, 129), value: '' }, field: 'argument.name' },
        { argument: { name: 'who', value: LONG }, field: 'argument.value' },
        {
          argument: { name: 'who', value: '' },
          context: { arguments: { mood: LONG } },
          field: 'context.arguments',
        },
      ];
      for (const { field, ...params } of refused) {
        const error = await client.complete({ ref, ...params }).catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: ErrorCode.InvalidParams,
          data: { reason: 'argument_too_large', field },
        });
        expect(JSON.stringify(error)).not.toContain(LONG.slice(0, 64));
      }
      expect(asked).toEqual([]);
    });
  });

  it('bounds the upstream’s answer: a value too long dropped, over 100 values or a failure content-free', async () => {
    await using(undefined, async (client) => {
      const ref = prompt('mcp__keen__greet');
      expect(await client.complete({ ref, argument: { name: 'long', value: '' } })).toEqual({
        completion: { values: ['short'], total: 2, hasMore: false },
      });
      for (const name of ['flood', 'fail']) {
        const error = await client.complete({ ref, argument: { name, value: '' } }).catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: ErrorCode.InternalError,
          data: { reason: 'upstream_unavailable', server: 'keen', detail: expect.any(String) },
        });
        expect(JSON.stringify(error)).not.toContain('secret words');
      }
    });
  });
});

describe('completion/complete through the per-server passthrough', () => {
  it('relays the server’s own prompt and template names; minted names and served URIs are unknown', async () => {
    await using('keen', async (client) => {
      expect(client.getServerCapabilities()?.completions).toEqual({});
      expect(
        (await client.complete({ ref: prompt('greet'), argument: { name: 'who', value: 'G' } })).completion,
      ).toEqual({ values: ['Grace'], hasMore: false });
      expect(
        (await client.complete({ ref: resource('mem://notes/{id}'), argument: { name: 'id', value: 'Al' } }))
          .completion.values,
      ).toEqual(['Alan']);
      expect(asked.map((params) => params.ref)).toEqual([
        { type: 'ref/prompt', name: 'greet' },
        { type: 'ref/resource', uri: 'mem://notes/{id}' },
      ]);
      await expect(
        client.complete({ ref: prompt('mcp__keen__greet'), argument: { name: 'who', value: '' } }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, data: { reason: 'unknown_prompt' } });
      for (const uri of [
        'gatehouse://keen/mem://notes/{id}',
        'mem://notes/7',
        'demo://resource/dynamic/text/{resourceId}',
      ])
        await expect(
          client.complete({ ref: resource(uri), argument: { name: 'id', value: '' } }),
        ).rejects.toMatchObject({ code: -32602, data: { reason: 'unknown_resource' } });
      expect(asked).toHaveLength(2);
    });
  });

  it('completes server-everything’s own prompt through its passthrough, and plain’s is empty', async () => {
    await using('everything', async (client) => {
      const answer = await client.complete({
        ref: prompt('completable-prompt'),
        argument: { name: 'department', value: 'S' },
      });
      expect(answer.completion.values).toEqual(['Sales', 'Support']);
    });
    await using('plain', async (client) => {
      expect(await client.complete({ ref: prompt('greet'), argument: { name: 'who', value: 'A' } })).toEqual({
        completion: { values: [], hasMore: false },
      });
    });
  });
});
