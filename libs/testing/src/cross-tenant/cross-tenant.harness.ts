import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import type { CollectedRoutes, RegisteredRoute } from './route-collector';

// The cross-tenant harness: every route the server actually registered and every GraphQL field it actually
// serves must have a case, and each case sends tenant B's credentials at tenant A's resources. A case passes
// only if the answer is a 404 `not_found` (or, for a route without an id, a successful answer holding none of
// A's data): never A's data, never a 403 that would confirm A's resource exists. A route or field without a
// case fails the harness, so a new route cannot ship unchecked.

export interface HarnessRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

export interface HarnessResponse {
  readonly statusCode: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string | string[] | number | undefined>>;
}

/** How the harness reaches the server: an inject function, or anything with Fastify's `inject`. */
export type HarnessInject = (request: HarnessRequest) => Promise<HarnessResponse>;
export interface InjectCapable {
  inject(request: HarnessRequest): PromiseLike<HarnessResponse>;
}

/**
 * - `not_found`: the route names one of A's resources; B must get 404 with problem code `not_found`
 *   (GraphQL: an error with `extensions.code` `not_found` and no data for the field).
 * - `no_victim_data`: the route has no id of A's (a list, a create in B's own tenant); B must get a 2xx (so the
 *   case proves filtering, not a refusal) whose body holds none of A's markers (GraphQL: no errors).
 */
export type CrossTenantExpectation = 'not_found' | 'no_victim_data';

export interface RouteCase {
  /** The registered route this case covers, as `METHOD /pattern`: `GET /v1/workspaces/:workspaceId`. */
  readonly route: string;
  /** The concrete URL with A's ids in it (must match the route's pattern), and the JSON body if any. */
  readonly url: string;
  readonly payload?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Tenant B's credentials for this case when not the default `attackerHeaders` (e.g. a session cookie). */
  readonly credentials?: Readonly<Record<string, string>>;
  readonly expect: CrossTenantExpectation;
}

export interface GraphQLFieldCase {
  /** `Query.workspace` or `Mutation.renameWorkspace`; the document must select exactly this root field. */
  readonly field: string;
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Tenant B's credentials for this case when not the default `attackerHeaders`. */
  readonly credentials?: Readonly<Record<string, string>>;
  readonly expect: CrossTenantExpectation;
}

/**
 * One admin-over-MCP tool called with tenant B's credentials at tenant A's ids: `not_found` wants a tool result
 * with isError and the problem code `not_found` in structuredContent, `no_victim_data` a result without isError.
 */
export interface McpToolCase {
  /** The tool name tools/list gives (`command_workspaces_get`). */
  readonly tool: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Tenant B's credentials for this case when not the default `attackerHeaders`. */
  readonly credentials?: Readonly<Record<string, string>>;
  readonly expect: CrossTenantExpectation;
}

export interface CrossTenantHarnessOptions {
  readonly app: HarnessInject | InjectCapable;
  /** From `collectRoutes(fastify)`, installed before the app registered its routes. */
  readonly routes: CollectedRoutes | readonly RegisteredRoute[];
  /** Tenant B's credentials, sent with every case (e.g. `{ authorization: 'Bearer ghu_...' }`). */
  readonly attackerHeaders: Readonly<Record<string, string>>;
  /**
   * Strings of tenant A that must never reach B: ids, names, emails, slugs. A marker B itself sent in the case
   * (an id in the URL) may be echoed back (e.g. in a problem's `instance`); any other is a leak.
   */
  readonly victimMarkers: readonly string[];
  readonly cases: readonly RouteCase[];
  /** GraphQL endpoint: its fields are enumerated by introspection and each needs a case. Omit if none. */
  readonly graphql?: { readonly path: string; readonly cases: readonly GraphQLFieldCase[] };
  /**
   * Admin over MCP (stateless Streamable HTTP, JSON answers): its tools are enumerated by tools/list with the
   * attacker's credentials and each needs a case. Omit if none.
   */
  readonly mcp?: { readonly path: string; readonly cases: readonly McpToolCase[] };
  /**
   * Routes that are public by design and carry no tenant data: exact paths, `prefix*` patterns or RegExps.
   * Defaults to DEFAULT_PUBLIC_ROUTES. HEAD and OPTIONS routes are always ignored.
   */
  readonly publicRoutes?: readonly (string | RegExp)[];
  /** Where the summary line goes (default: stdout). */
  readonly log?: (line: string) => void;
}

export interface CrossTenantReport {
  readonly ok: boolean;
  readonly routes: { readonly total: number; readonly passed: number };
  readonly fields: { readonly total: number; readonly passed: number };
  readonly tools: { readonly total: number; readonly passed: number };
  readonly uncoveredRoutes: readonly string[];
  readonly uncoveredFields: readonly string[];
  readonly uncoveredTools: readonly string[];
  /** One line per failed case, stale case or setup problem. */
  readonly failures: readonly string[];
  readonly summary: string;
}

export const DEFAULT_PUBLIC_ROUTES: readonly (string | RegExp)[] = Object.freeze([
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
  '/docs/*',
  '/v1/auth/login',
]);

const IGNORED_METHODS = new Set(['HEAD', 'OPTIONS']);
const REFUSAL_CODES = new Set(['forbidden', 'forbidden_scope']);
const INTROSPECTION =
  '{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }';

export async function runCrossTenantHarness(options: CrossTenantHarnessOptions): Promise<CrossTenantReport> {
  const inject = toInject(options.app);
  const failures: string[] = [];
  if (options.victimMarkers.filter((m) => m.length > 0).length === 0)
    failures.push('setup: no victim markers given');

  // Routes the server registered, minus HEAD/OPTIONS, public routes and the GraphQL endpoint (its fields are
  // checked one by one below).
  const publicRoutes = options.publicRoutes ?? DEFAULT_PUBLIC_ROUTES;
  const registered = Array.isArray(options.routes)
    ? options.routes
    : (options.routes as CollectedRoutes).routes;
  const checked = registered
    .filter((r) => !IGNORED_METHODS.has(r.method))
    .filter((r) => !publicRoutes.some((p) => matchesPublic(p, r.url)))
    .filter((r) => options.graphql === undefined || r.url !== options.graphql.path)
    .filter((r) => options.mcp === undefined || r.url !== options.mcp.path)
    .map((r) => `${r.method} ${r.url}`);
  const checkedSet = new Set(checked);
  if (registered.length === 0)
    failures.push('setup: no routes were collected (install collectRoutes before routes register)');

  const casesByRoute = new Map<string, RouteCase[]>();
  for (const c of options.cases) {
    if (!checkedSet.has(c.route)) {
      failures.push(`${c.route}: case for a route the server did not register (or a public one)`);
      continue;
    }
    casesByRoute.set(c.route, [...(casesByRoute.get(c.route) ?? []), c]);
  }
  const uncoveredRoutes = checked.filter((r) => !casesByRoute.has(r));

  let routesPassed = 0;
  for (const route of checked) {
    const cases = casesByRoute.get(route);
    if (!cases) continue;
    let passed = true;
    for (const c of cases) {
      const problem = await checkRouteCase(inject, options, c);
      if (problem !== null) {
        passed = false;
        failures.push(`${c.route} (${c.url}): ${problem}`);
      }
    }
    if (passed) routesPassed += 1;
  }

  let fieldsTotal = 0;
  let fieldsPassed = 0;
  const uncoveredFields: string[] = [];
  if (options.graphql) {
    const fields = await introspectFields(inject, options.graphql.path, options.attackerHeaders);
    if (!fields.ok) {
      failures.push(`graphql: introspection failed (${fields.reason})`);
    } else {
      fieldsTotal = fields.names.length;
      const fieldSet = new Set(fields.names);
      const casesByField = new Map<string, GraphQLFieldCase[]>();
      for (const c of options.graphql.cases) {
        if (!fieldSet.has(c.field)) {
          failures.push(`${c.field}: case for a GraphQL field the server does not have`);
          continue;
        }
        casesByField.set(c.field, [...(casesByField.get(c.field) ?? []), c]);
      }
      for (const field of fields.names) {
        const cases = casesByField.get(field);
        if (!cases) {
          uncoveredFields.push(field);
          continue;
        }
        let passed = true;
        for (const c of cases) {
          const problem = await checkFieldCase(inject, options, options.graphql.path, c);
          if (problem !== null) {
            passed = false;
            failures.push(`${c.field}: ${problem}`);
          }
        }
        if (passed) fieldsPassed += 1;
      }
    }
  }

  const tools = options.mcp ? await checkTools(inject, options, options.mcp, failures) : null;
  const uncoveredTools = tools?.uncovered ?? [];

  const ok =
    failures.length === 0 &&
    uncoveredRoutes.length === 0 &&
    uncoveredFields.length === 0 &&
    uncoveredTools.length === 0;
  const uncovered = uncoveredRoutes.length + uncoveredFields.length + uncoveredTools.length;
  const summary =
    `cross-tenant harness: ${routesPassed}/${checked.length} routes` +
    (options.graphql ? `, ${fieldsPassed}/${fieldsTotal} GraphQL fields` : '') +
    (tools ? `, ${tools.passed}/${tools.total} MCP tools` : '') +
    (ok ? '' : ` (FAILED: ${uncovered} uncovered, ${failures.length} failures)`);
  (options.log ?? ((line: string) => process.stdout.write(`${line}\n`)))(summary);
  return {
    ok,
    routes: { total: checked.length, passed: routesPassed },
    fields: { total: fieldsTotal, passed: fieldsPassed },
    tools: { total: tools?.total ?? 0, passed: tools?.passed ?? 0 },
    uncoveredRoutes,
    uncoveredFields,
    uncoveredTools,
    failures,
    summary,
  };
}

/** Throws one error listing every uncovered route or field and every failed case. */
export function assertCrossTenantReport(report: CrossTenantReport): void {
  if (report.ok) return;
  const lines = [
    report.summary,
    ...report.uncoveredRoutes.map((r) => `  no case for route ${r}`),
    ...report.uncoveredFields.map((f) => `  no case for GraphQL field ${f}`),
    ...report.uncoveredTools.map((t) => `  no case for MCP tool ${t}`),
    ...report.failures.map((f) => `  ${f}`),
  ];
  throw new Error(lines.join('\n'));
}

async function checkRouteCase(
  inject: HarnessInject,
  options: CrossTenantHarnessOptions,
  c: RouteCase,
): Promise<string | null> {
  const [method, pattern] = splitRoute(c.route);
  if (!routePattern(pattern).test(c.url.split('?')[0] ?? ''))
    return `the case URL does not match the route pattern ${pattern}`;
  const payload = c.payload === undefined ? undefined : JSON.stringify(c.payload);
  const headers: Record<string, string> = {
    ...(c.headers ?? {}),
    ...(c.credentials ?? options.attackerHeaders),
  };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await inject({
    method,
    url: c.url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  const leaked = leakedMarkers(options.victimMarkers, `${c.url} ${payload ?? ''}`, response.body);
  if (leaked.length > 0)
    return `response (${response.statusCode}) leaks tenant A's data: ${leaked.join(', ')}`;
  if (response.statusCode === 403)
    return "403 confirms that tenant A's resource exists (must be 404 not_found)";
  if (c.expect === 'not_found') {
    if (response.statusCode !== 404) return `expected 404 not_found, got ${response.statusCode}`;
    const code = jsonField(response.body, 'code');
    if (code !== 'not_found') return `expected problem code not_found, got ${String(code)}`;
    return null;
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    return `expected a 2xx holding none of A's data, got ${response.statusCode} (a refusal proves nothing)`;
  }
  return null;
}

async function checkFieldCase(
  inject: HarnessInject,
  options: CrossTenantHarnessOptions,
  path: string,
  c: GraphQLFieldCase,
): Promise<string | null> {
  const selected = rootFieldOf(c.query);
  if (selected !== c.field)
    return `the case document selects ${selected ?? 'no single root field'}, not ${c.field}`;
  const payload = JSON.stringify({ query: c.query, variables: c.variables ?? {} });
  const response = await inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...(c.credentials ?? options.attackerHeaders) },
    payload,
  });
  const leaked = leakedMarkers(options.victimMarkers, payload, response.body);
  if (leaked.length > 0) return `response leaks tenant A's data: ${leaked.join(', ')}`;
  if (response.statusCode === 403) return "HTTP 403 confirms that tenant A's resource exists";
  let body: {
    data?: Record<string, unknown> | null;
    errors?: { extensions?: { code?: unknown; status?: unknown } }[];
  };
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    return `response is not JSON (${response.statusCode})`;
  }
  const codes = (body.errors ?? []).map((e) => e.extensions?.code);
  if (
    codes.some((code) => typeof code === 'string' && REFUSAL_CODES.has(code)) ||
    (body.errors ?? []).some((e) => e.extensions?.status === 403)
  ) {
    return "a forbidden error confirms that tenant A's resource exists (must be not_found)";
  }
  const fieldName = c.field.split('.')[1] ?? '';
  const data = body.data?.[fieldName];
  if (c.expect === 'not_found') {
    if (!codes.includes('not_found'))
      return `expected extensions.code not_found, got ${JSON.stringify(codes)}`;
    if (data !== null && data !== undefined) return 'returned data for the field along with the error';
    return null;
  }
  if (codes.length > 0) return `expected data holding none of A's data, got errors ${JSON.stringify(codes)}`;
  if (data === undefined) return 'returned no data for the field';
  return null;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type JsonRpcAnswer = {
  result?: { tools?: { name: string }[]; isError?: boolean; structuredContent?: { code?: unknown } };
  error?: { code: number; message: string };
};

async function mcpRequest(
  inject: HarnessInject,
  path: string,
  headers: Readonly<Record<string, string>>,
  method: string,
  params: unknown,
): Promise<{ statusCode: number; body: string; sent: string; answer: JsonRpcAnswer | null }> {
  const sent = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const response = await inject({
    method: 'POST',
    url: path,
    headers: { ...MCP_HEADERS, ...headers },
    payload: sent,
  });
  let answer: JsonRpcAnswer | null = null;
  try {
    answer = JSON.parse(response.body) as JsonRpcAnswer;
  } catch {
    answer = null;
  }
  return { statusCode: response.statusCode, body: response.body, sent, answer };
}

/** Every tool tools/list shows the attacker needs a case; each case is one tools/call. */
async function checkTools(
  inject: HarnessInject,
  options: CrossTenantHarnessOptions,
  mcp: NonNullable<CrossTenantHarnessOptions['mcp']>,
  failures: string[],
): Promise<{ total: number; passed: number; uncovered: string[] }> {
  const listed = await mcpRequest(inject, mcp.path, options.attackerHeaders, 'tools/list', {});
  const names = listed.answer?.result?.tools?.map((tool) => tool.name);
  if (names === undefined) {
    failures.push(`mcp: tools/list failed (status ${listed.statusCode})`);
    return { total: 0, passed: 0, uncovered: [] };
  }
  const nameSet = new Set(names);
  const casesByTool = new Map<string, McpToolCase[]>();
  for (const c of mcp.cases) {
    if (!nameSet.has(c.tool)) {
      failures.push(`${c.tool}: case for an MCP tool the server does not list`);
      continue;
    }
    casesByTool.set(c.tool, [...(casesByTool.get(c.tool) ?? []), c]);
  }
  let passed = 0;
  const uncovered: string[] = [];
  for (const name of names) {
    const cases = casesByTool.get(name);
    if (!cases) {
      uncovered.push(name);
      continue;
    }
    let allPassed = true;
    for (const c of cases) {
      const problem = await checkToolCase(inject, options, mcp.path, c);
      if (problem !== null) {
        allPassed = false;
        failures.push(`${c.tool} ${JSON.stringify(c.arguments ?? {})}: ${problem}`);
      }
    }
    if (allPassed) passed += 1;
  }
  return { total: names.length, passed, uncovered };
}

async function checkToolCase(
  inject: HarnessInject,
  options: CrossTenantHarnessOptions,
  path: string,
  c: McpToolCase,
): Promise<string | null> {
  const called = await mcpRequest(inject, path, c.credentials ?? options.attackerHeaders, 'tools/call', {
    name: c.tool,
    arguments: c.arguments ?? {},
  });
  const leaked = leakedMarkers(options.victimMarkers, called.sent, called.body);
  if (leaked.length > 0) return `result leaks tenant A's data: ${leaked.join(', ')}`;
  if (called.statusCode === 403) return "HTTP 403 confirms that tenant A's resource exists";
  const result = called.answer?.result;
  if (result === undefined)
    return `expected a tool result, got ${called.answer?.error ? `JSON-RPC ${called.answer.error.code}` : `status ${called.statusCode}`}`;
  const code = result.isError === true ? result.structuredContent?.code : undefined;
  if (typeof code === 'string' && REFUSAL_CODES.has(code))
    return "a forbidden result confirms that tenant A's resource exists (must be not_found)";
  if (c.expect === 'not_found') {
    if (result.isError !== true || code !== 'not_found')
      return `expected isError with code not_found, got ${result.isError === true ? String(code) : 'a result'}`;
    return null;
  }
  if (result.isError === true)
    return `expected a result holding none of A's data, got isError ${String(code)}`;
  return null;
}

async function introspectFields(
  inject: HarnessInject,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ ok: true; names: string[] } | { ok: false; reason: string }> {
  const response = await inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ query: INTROSPECTION }),
  });
  type Fields = { fields?: { name: string }[] } | null;
  let body: { data?: { __schema?: { queryType: Fields; mutationType: Fields; subscriptionType: Fields } } };
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    return { ok: false, reason: `status ${response.statusCode}, not JSON` };
  }
  const schema = body.data?.__schema;
  if (!schema) return { ok: false, reason: `status ${response.statusCode}, no __schema` };
  const names = (type: string, fields: Fields) => (fields?.fields ?? []).map((f) => `${type}.${f.name}`);
  return {
    ok: true,
    names: [
      ...names('Query', schema.queryType),
      ...names('Mutation', schema.mutationType),
      ...names('Subscription', schema.subscriptionType),
    ],
  };
}

/** `Query.x` when the document has one operation selecting exactly one root field (aliases allowed). */
function rootFieldOf(query: string): string | null {
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(query).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    return null;
  }
  const operation = operations.length === 1 ? operations[0] : undefined;
  const selections = operation?.selectionSet.selections ?? [];
  const only = selections.length === 1 ? selections[0] : undefined;
  if (!operation || only?.kind !== Kind.FIELD) return null;
  const type =
    operation.operation === OperationTypeNode.QUERY
      ? 'Query'
      : operation.operation === OperationTypeNode.MUTATION
        ? 'Mutation'
        : 'Subscription';
  return `${type}.${only.name.value}`;
}

function leakedMarkers(markers: readonly string[], sent: string, body: string): string[] {
  return markers.filter((m) => m.length > 0 && !sent.includes(m) && body.includes(m));
}

function jsonField(body: string, field: string): unknown {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown> | null;
    return parsed !== null && typeof parsed === 'object' ? parsed[field] : undefined;
  } catch {
    return undefined;
  }
}

function splitRoute(route: string): [string, string] {
  const space = route.indexOf(' ');
  return [route.slice(0, space), route.slice(space + 1)];
}

/** Fastify's pattern syntax, enough of it: `:param` is one segment, `*` is the rest. */
function routePattern(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

function matchesPublic(pattern: string | RegExp, url: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(url);
  if (pattern.endsWith('*')) return url.startsWith(pattern.slice(0, -1));
  return url === pattern;
}

function toInject(app: HarnessInject | InjectCapable): HarnessInject {
  if (typeof app === 'function') return app;
  return async (request) => {
    const response = await app.inject(request);
    return {
      statusCode: response.statusCode,
      body: response.body,
      ...(response.headers ? { headers: response.headers } : {}),
    };
  };
}
