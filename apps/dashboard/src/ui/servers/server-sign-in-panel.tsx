import Link from 'next/link';
import type { ServerSignIn } from '@/server/sign-in-state';
import { SIGN_IN_WORDS } from '@/server/sign-in-state';
import { Panel } from '@/ui/feedback';

// For a server that uses OAuth: whether it runs with the person's own sign-in or the workspace's service credential.
export function ServerSignInPanel({ signIn, workspaceId }: { signIn: ServerSignIn; workspaceId: string }) {
  return (
    <Panel
      id="server-sign-in"
      title="Sign-in"
      description="This server uses OAuth: it runs with your own sign-in, or the workspace’s service credential."
      actions={<Link href={`/connections?workspace=${workspaceId}`}>Open Connections</Link>}
    >
      <p>
        <strong>{SIGN_IN_WORDS[signIn.state]}</strong>
        {signIn.state === 'signed_in'
          ? signIn.own?.state === 'signed_in'
            ? ' with your own sign-in.'
            : ' with the workspace’s service credential.'
          : '. Sign in on the Connections page before agents can use it.'}
      </p>
    </Panel>
  );
}
