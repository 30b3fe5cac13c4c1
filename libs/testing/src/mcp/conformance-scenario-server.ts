// An MCP server implementing what the official conformance suite's server scenarios (0.1.16) ask of the server
// under test, by name: the test_* tools, test_* prompts, test:// resources and template, completion, logging,
// subscriptions. The gateway's per-server passthrough fronts it, so the suite's scenarios measure the proxy: what
// it forwards, rewrites or drops. Written from the scenarios' own descriptions (`conformance list` names them);
// the low-level Server, so schemas go out exactly as written (json-schema-2020-12 checks `$schema`, `$defs`).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ElicitResultSchema,
  CreateMessageResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** A 1x1 red PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A 44-byte WAV header with no samples. */
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const noArguments = { type: 'object' as const, properties: {} };
const oneString = (name: string, description: string) => ({
  type: 'object' as const,
  properties: { [name]: { type: 'string', description } },
  required: [name],
});

const TOOLS: Tool[] = [
  { name: 'test_simple_text', description: 'Returns simple text', inputSchema: noArguments },
  { name: 'test_image_content', description: 'Returns an image', inputSchema: noArguments },
  { name: 'test_audio_content', description: 'Returns audio', inputSchema: noArguments },
  { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: noArguments },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and resource',
    inputSchema: noArguments,
  },
  {
    name: 'test_tool_with_logging',
    description: 'Logs three messages while it runs',
    inputSchema: noArguments,
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50, 100 of 100',
    inputSchema: noArguments,
  },
  { name: 'test_error_handling', description: 'Always a tool error', inputSchema: noArguments },
  {
    name: 'test_sampling',
    description: 'Asks the client to sample',
    inputSchema: oneString('prompt', 'The prompt to send to the LLM'),
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for input',
    inputSchema: oneString('message', 'The message to show the user'),
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicitation with defaults for every primitive type',
    inputSchema: noArguments,
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicitation with the five enum forms',
    inputSchema: noArguments,
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
];

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const SEP1034_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    score: { type: 'number' as const, default: 95.5 },
    status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
  },
};

const SEP1330_SCHEMA = {
  type: 'object' as const,
  properties: {
    untitledSingle: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string' as const,
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string' as const,
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array' as const,
      items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array' as const,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

const RESOURCES = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
  },
  { uri: 'test://static-binary', name: 'static-binary', description: 'A static PNG', mimeType: 'image/png' },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'Subscribable',
    mimeType: 'text/plain',
  },
];

const PROMPTS = [
  { name: 'test_simple_prompt', description: 'A prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
];

/** One server per session: its own subscriptions and logging level. */
export function conformanceScenarioServer(): Server {
  const server = new Server(
    { name: 'gatehouse-conformance-upstream', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  const subscriptions = new Set<string>();

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'test_simple_text':
        return text('This is a simple text response for testing.');
      case 'test_image_content':
        return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
      case 'test_audio_content':
        return { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] };
      case 'test_embedded_resource':
        return {
          content: [
            {
              type: 'resource',
              resource: {
                uri: 'test://embedded-resource',
                mimeType: 'text/plain',
                text: 'This is an embedded resource content.',
              },
            },
          ],
        };
      case 'test_multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
            {
              type: 'resource',
              resource: {
                uri: 'test://mixed-content-resource',
                mimeType: 'application/json',
                text: JSON.stringify({ test: 'data', value: 123 }),
              },
            },
          ],
        };
      case 'test_tool_with_logging': {
        for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed'])
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        return text('Tool with logging executed successfully');
      }
      case 'test_tool_with_progress': {
        const progressToken = request.params._meta?.progressToken;
        if (progressToken !== undefined)
          for (const progress of [0, 50, 100])
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, total: 100 },
            });
        return text('Tool with progress executed successfully');
      }
      case 'test_error_handling':
        return {
          isError: true,
          content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
        };
      case 'test_sampling': {
        const sampled = await extra.sendRequest(
          {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
              maxTokens: 100,
            },
          },
          CreateMessageResultSchema,
        );
        const content = sampled.content;
        return text(`LLM response: ${'text' in content ? content.text : JSON.stringify(content)}`);
      }
      case 'test_elicitation': {
        const answered = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: String(args.message),
              requestedSchema: {
                type: 'object',
                properties: {
                  username: { type: 'string', description: "User's response" },
                  email: { type: 'string', description: "User's email address" },
                },
                required: ['username', 'email'],
              },
            },
          },
          ElicitResultSchema,
        );
        return text(
          `User response: action=${answered.action}, content=${JSON.stringify(answered.content ?? {})}`,
        );
      }
      case 'test_elicitation_sep1034_defaults':
      case 'test_elicitation_sep1330_enums': {
        const answered = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: 'Please review the defaults',
              requestedSchema:
                request.params.name === 'test_elicitation_sep1034_defaults' ? SEP1034_SCHEMA : SEP1330_SCHEMA,
            },
          },
          ElicitResultSchema,
        );
        return text(
          `Elicitation completed: action=${answered.action}, content=${JSON.stringify(answered.content ?? {})}`,
        );
      }
      case 'json_schema_2020_12_tool':
        return text(`Received: ${JSON.stringify(args)}`);
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data by id',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    if (uri === 'test://static-text')
      return {
        contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri === 'test://watched-resource')
      return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched.' }] };
    const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (templated !== null)
      return {
        contents: [
          {
            uri,
            mimeType: 'application/json',
            text: JSON.stringify({
              id: templated[1],
              templateTest: true,
              data: `Data for ID: ${templated[1]}`,
            }),
          },
        ],
      };
    throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'test_simple_prompt':
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
          ],
        };
      case 'test_prompt_with_arguments':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
              },
            },
          ],
        };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: String(args.resourceUri),
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        };
      case 'test_prompt_with_image':
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        };
      default:
        throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    }
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const typed = request.params.argument.value;
    const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(typed));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  return server;
}
