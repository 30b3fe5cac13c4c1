import { Panel } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import type { EffectiveEntryView } from '@/views/definition-views';
import { KeysList } from './server-parts';
import serverStyles from './servers.module.css';

// A server's definition as projected: command line, args, cwd or URL; env and header keys only, never values.
export function ServerDefinitionPanel({ entry }: { entry: EffectiveEntryView }) {
  const transport = entry.projection?.transport;
  return (
    <Panel
      id="server-definition"
      title="Definition"
      description="As projected: secrets masked, env and header values never shown."
    >
      {transport === undefined ? (
        <p className="muted">No projection: the entry could not be read. See its problems above.</p>
      ) : (
        <dl className={styles.definition}>
          <dt>Transport</dt>
          <dd>{transport.kind}</dd>
          {transport.kind === 'stdio' ? (
            <>
              <dt>Command</dt>
              <dd>
                <code>{transport.command}</code>
              </dd>
              <dt>Arguments</dt>
              <dd>
                {transport.args.length === 0 ? (
                  <span className="muted">None</span>
                ) : (
                  <ol className={serverStyles.keys} aria-label="Arguments">
                    {transport.args.map((arg, index) => (
                      <li key={index}>
                        <code className={serverStyles.codeBlock}>{arg}</code>
                      </li>
                    ))}
                  </ol>
                )}
              </dd>
              <dt>Command line</dt>
              <dd>
                <pre className={serverStyles.codeBlock}>{transport.commandLine}</pre>
              </dd>
              <dt>Working directory</dt>
              <dd>{transport.cwd ? <code>{transport.cwd}</code> : <span className="muted">Not set</span>}</dd>
              <dt>Environment</dt>
              <dd>
                <KeysList keys={transport.env} label="Environment variable keys" />
              </dd>
            </>
          ) : (
            <>
              <dt>URL</dt>
              <dd>
                <code>{transport.url}</code>
              </dd>
              <dt>Headers</dt>
              <dd>
                <KeysList keys={transport.headers} label="Header keys" />
              </dd>
            </>
          )}
          <dt>Trusted workspace</dt>
          <dd>{entry.projection?.requiresTrustedWorkspace ? 'Required' : 'Not required'}</dd>
        </dl>
      )}
    </Panel>
  );
}
