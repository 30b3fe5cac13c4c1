// The client the official MCP conformance suite drives (`conformance client --command ...`; docs/conformance.md).
// The runner appends the scenario server's URL and sets MCP_CONFORMANCE_SCENARIO (and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT); exit 0 means the client finished what it would do for a user (connect, list tools,
// call one), the runner's checks decide the verdict. Built only on Gatehouse's libs: libs/oauth for discovery,
// registration and sign-in, libs/mcp-client for the connection (its authenticator hook). The SDK's auth helpers
// are never used: they guess where a link is missing.
import { connectAdmitted, type Authenticator } from '@gatehouse/mcp-client';
import { conformanceContextOf } from './conformance-context.schema';
import { ConformanceSignIn } from './conformance-sign-in';
import { loopbackEgress } from './loopback-egress';

const CLIENT_INFO = { name: 'gatehouse-conformance-client', version: '0.1.0' };
const STARTUP_TIMEOUT_MS = 20_000;
// Sign-ins one run may make: the first, a changed authorization server, and one more. A server that keeps
// refusing fresh tokens is not asked forever (auth/scope-retry-limit).
const MAX_SIGN_INS = 3;

// A refusal names its reason on stderr (the runner saves it beside the checks); nothing secret is printed.
function fail(reason: string): never {
  process.stderr.write(`conformance-client: ${reason}\n`);
  process.exit(1);
}

// The server's 401 is where a client learns that it needs a sign-in and where to look (the challenge's
// resource_metadata and scope): each refusal starts a new sign-in, never a guess.
function signInAuthenticator(signIn: ConformanceSignIn, refusals: string[]): Authenticator {
  let token: string | null = null;
  let signIns = 0;
  return {
    headers: () => {
      const headers: Record<string, string> = {};
      if (token !== null) headers['authorization'] = `Bearer ${token}`;
      return Promise.resolve(headers);
    },
    refresh: async (refusal) => {
      if (signIns >= MAX_SIGN_INS) return false;
      signIns += 1;
      const outcome = await signIn.signIn(refusal?.challenge ?? null);
      if (!outcome.ok) {
        refusals.push(outcome.reason);
        return false;
      }
      token = outcome.accessToken;
      return true;
    },
  };
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2];
  if (serverUrl === undefined || !URL.canParse(serverUrl)) fail('usage: conformance-client <server-url>');
  const context = conformanceContextOf(process.env['MCP_CONFORMANCE_CONTEXT']);
  const egress = loopbackEgress(serverUrl);
  const refusals: string[] = [];
  const authenticator = signInAuthenticator(
    new ConformanceSignIn(serverUrl, context, egress.fetch),
    refusals,
  );
  try {
    const connected = await connectAdmitted(
      {
        kind: 'http',
        url: serverUrl,
        origin: new URL(serverUrl).origin,
        addresses: egress.addresses,
        allowInsecureLoopback: true,
        privateRanges: [],
        headers: {},
        principalHeader: null,
        headersHelper: null,
        startupTimeoutMs: null,
      },
      {
        serverName: 'conformance',
        clientInfo: CLIENT_INFO,
        defaultStartupTimeoutMs: STARTUP_TIMEOUT_MS,
        searchPath: '',
        authenticator,
      },
    );
    if (!connected.ok) fail(`connect refused: ${connected.reason} ${refusals.join('; ')}`);
    const { session } = connected;
    try {
      const { tools } = await session.client.listTools();
      const first = tools[0];
      if (first !== undefined) await session.callTool(first.name, {});
    } catch (error) {
      fail(`request failed: ${error instanceof Error ? error.message : 'unknown'} ${refusals.join('; ')}`);
    } finally {
      await session.close();
    }
  } finally {
    await egress.fetch.close();
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.name : 'unexpected failure'));
