import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import type { Database } from '@gatehouse/db';
import { demoOwnerPrincipal } from './demo-owner.principal';
import { DEMO_STDIO_COMMAND } from './demo-pool';
import { DefinitionCipher } from '../../apps/api/src/effective-view/definition-cipher';
import { writeDefinitionSource } from '../../apps/api/src/definitions/write-definition-source';

/** Two servers for the demo workspace: a stdio one and an HTTP one, both waiting for review. */
const DEMO_PROJECT_DOCUMENT = {
  mcpServers: {
    everything: { command: DEMO_STDIO_COMMAND[0], args: DEMO_STDIO_COMMAND.slice(1) },
    docs: { type: 'http', url: 'https://mcp.example.com/mcp' },
  },
};

export interface DemoDefinitionsTarget {
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly workspaceId: string;
  readonly ownerEmail: string;
}

/**
 * Writes the demo workspace's project source once, as the demo owner, through the same code path as the API
 * (encrypted, audited, and opening approval requests), so the dashboard's Servers and Approvals pages have
 * something to show. A second `npm start` leaves an existing source alone.
 */
export async function seedDemoDefinitions(
  db: Database,
  keyRing: { keys: string; activeKeyId: string },
  target: DemoDefinitionsTarget,
): Promise<string[]> {
  const parsed = KeyRing.parse(keyRing);
  if (!parsed.ok) throw new Error(`demo definitions: key ring refused (${parsed.reason})`);
  const cipher = new DefinitionCipher(new EnvelopeCipher(parsed.keyRing));
  const found = await db.withTenant(target.tenantId, async (tx) => ({
    owner: await tx.user.findUnique({ where: { email: target.ownerEmail } }),
    source: await tx.definitionSource.findUnique({
      where: { tenantId_origin: { tenantId: target.tenantId, origin: `project:${target.workspaceId}` } },
    }),
  }));
  if (found.source !== null || found.owner === null) return [];
  const principal = demoOwnerPrincipal(target, found.owner.id);
  await writeDefinitionSource(db, cipher, {
    principal,
    input: { tier: 'project', workspaceId: target.workspaceId },
    document: { kind: 'value', value: DEMO_PROJECT_DOCUMENT },
    action: 'definitions.sources.put',
  });
  return [
    `  demo servers: ${Object.keys(DEMO_PROJECT_DOCUMENT.mcpServers).join(', ')} (project source, waiting for approval)`,
  ];
}
