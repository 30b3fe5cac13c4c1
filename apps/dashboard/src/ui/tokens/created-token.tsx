'use client';

import { useEffect, useRef } from 'react';
import type { TokenView } from '@/views/api-views';
import { ButtonLink } from '@/ui/button';
import { CopyButton } from '@/ui/copy-button';
import { formatDateTime } from '@/ui/date-time';
import { Callout } from '@/ui/feedback';
import { TextField, formStyles } from '@/ui/form-fields';

// The one time a new token's secret is shown: focused and selected so that it can be copied at once.
export function CreatedToken({ token, secret }: { token: TokenView; secret: string }) {
  const secretRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    secretRef.current?.focus();
  }, []);

  return (
    <div className="stack-sm" data-token-created>
      <Callout tone="warning" title="Copy your new token now" live>
        <p>
          This is the only time its secret is shown. Gatehouse keeps only a hash; if you lose it, revoke the
          token and create another.
        </p>
      </Callout>
      <TextField
        ref={secretRef}
        id="token-secret"
        label={`Secret of ${token.name}`}
        value={secret}
        readOnly
        mono
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={secret} label="Copy token" />
      <p className="muted">
        Send it as <code>Authorization: Bearer &lt;token&gt;</code>. It is listed as{' '}
        <code>{token.prefix}…</code>
        {token.expiresAt ? ` and expires ${formatDateTime(token.expiresAt)}` : ' and does not expire'}.
      </p>
      <div className={formStyles.actions}>
        <ButtonLink href="/tokens" variant="primary">
          Done
        </ButtonLink>
      </div>
    </div>
  );
}
