// A real OAuth 2.1 authorization server on loopback for Gatehouse's OAuth tests: `oidc-provider` (ESM, so it runs in
// its own node process, which also makes it a separate process like a real one). PKCE required, resource
// indicators, refresh token rotation on every use, revocation, dynamic registration; interactions finish on
// their own (login as `user-1`, consent to what was asked). Test-only routes under /__test: stats (grants that
// reached the token endpoint, counted on arrival) and config (a delay before the token endpoint answers).
// Prints one JSON line `{ "issuer": ... }` on stdout once listening; stops on SIGTERM.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const stats = { tokenRequests: 0, refreshGrants: 0, refreshSuccesses: 0, codeGrants: 0 };
let tokenDelayMs = 0;
let provider;

const server = createServer(async (req, res) => {
  try {
    if (req.url === '/__test/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    if (req.url === '/__test/config' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const config = JSON.parse(body);
      if (typeof config.tokenDelayMs === 'number') tokenDelayMs = config.tokenDelayMs;
      if (config.resetStats) for (const name of Object.keys(stats)) stats[name] = 0;
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      const { prompt, params, session } = details;
      let result;
      if (prompt.name === 'login') {
        result = { login: { accountId: 'user-1' } };
      } else {
        const grant = details.grantId
          ? await provider.Grant.find(details.grantId)
          : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
        const { missingOIDCScope, missingResourceScopes } = prompt.details;
        if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
        if (missingResourceScopes)
          for (const [indicator, scopes] of Object.entries(missingResourceScopes))
            grant.addResourceScope(indicator, scopes.join(' '));
        result = { consent: { grantId: await grant.save() } };
      }
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
      return;
    }
    provider.callback()(req, res);
  } catch {
    res.writeHead(500);
    res.end();
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  provider = new Provider(issuer, {
    clients: options.clients ?? [],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: 'mcp:tools',
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
          accessTokenFormat: 'opaque',
        }),
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    scopes: ['mcp:tools'],
  });
  provider.proxy = false;
  provider.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path === '/token') {
      stats.tokenRequests += 1;
      if (tokenDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
    }
    await next();
  });
  provider.on('grant.success', (ctx) => {
    if (ctx.oidc.params?.grant_type === 'refresh_token') stats.refreshSuccesses += 1;
  });
  provider.on('grant.success', (ctx) => {
    if (ctx.oidc.params?.grant_type === 'authorization_code') stats.codeGrants += 1;
  });
  provider.on('grant.error', () => undefined);
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.method === 'POST' && ctx.path === '/token' && ctx.oidc?.params?.grant_type === 'refresh_token')
      stats.refreshGrants += 1;
  });
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});

process.on('SIGTERM', () => server.close(() => process.exit(0)));
