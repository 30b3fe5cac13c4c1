'use client';

// The last resort when the root layout itself fails: plain markup, no design-system imports that could fail too.
// Next.js requires the global error boundary as the module's default export.
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
        <main>
          <h1>Gatehouse could not render this page</h1>
          <p>
            Error code <code>dashboard_error</code>. See the dashboard’s server log.
          </p>
          <button type="button" onClick={() => retry()}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
