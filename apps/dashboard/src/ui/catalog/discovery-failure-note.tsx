import type { DiscoveryFailureOfServer } from '@/server/catalog-trouble';
import { formatUtcTime } from './utc-time';

// Why a server is still not discovered, as the worker reported it (decision 0142): the reason word, the API's fixed
// sentence for it, the failure class and when. Never the upstream's own words: the API holds none.

export function DiscoveryFailureNote({ failure }: { failure: DiscoveryFailureOfServer }) {
  return (
    <li>
      Why: <code>{failure.reason}</code>: {failure.detail} (class <code>{failure.failureClass}</code>,
      reported <time dateTime={failure.at}>{formatUtcTime(failure.at)}</time>).
    </li>
  );
}
