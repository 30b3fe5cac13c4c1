import Link from 'next/link';
import { readApiStatus } from './api-status';
import { dashboardSections } from './sections';

// The API status is read per request, never baked in at build time.
export const dynamic = 'force-dynamic';

// Next.js requires a page as the module's default export.
export default async function HomePage() {
  const api = await readApiStatus();
  return (
    <>
      <h1>Gatehouse dashboard</h1>
      <p>
        Manage the MCP servers your organization allows, approve activations, watch connections and read the
        audit log. Sign-in and the admin screens arrive with the identity issue; each section below is a
        placeholder.
      </p>
      <p className="status" data-testid="api-status">
        API at <code>{api.url}</code>: {api.reachable ? 'reachable' : api.reason}
      </p>
      <ul className="sections">
        {dashboardSections.map((section) => (
          <li key={section.slug}>
            <Link href={`/${section.slug}`}>{section.title}</Link>
            <span>{section.summary}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
