import type { SignInWord } from '@/server/sign-in-state';
import { SIGN_IN_WORDS } from '@/server/sign-in-state';
import { Badge, type BadgeTone } from '@/ui/feedback';

// The cells the Connections page's tables share: a sign-in's state word and when its access token expires.

const WORD_TONES: Readonly<Record<SignInWord, BadgeTone>> = {
  signed_in: 'positive',
  signed_out: 'neutral',
  needs_sign_in: 'caution',
  refused: 'negative',
};

export function SignInWordBadge({ state, label }: { state: SignInWord; label?: string }) {
  return <Badge tone={WORD_TONES[state]}>{label ?? SIGN_IN_WORDS[state]}</Badge>;
}

export function TokenExpiry({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">Not known</span>;
  const text = new Date(iso).toLocaleString('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return <time dateTime={iso}>{text} UTC</time>;
}
