import type { RevocationAnnouncement } from '@gatehouse/coordination';
import { revocationSubject } from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import type { ChangeNotifier } from './change-notifier.port';
import { catalogTenantTopicOf, catalogTopicOf } from './catalog-topic';

/**
 * The catalog topics a batch of ledger events concerns: an event naming a workspace, that workspace's catalogs;
 * one naming none (a managed source, the HostPolicy, a member, a subject it cannot read), every catalog of its
 * tenant. Platform events (no tenant: a gateway token) change no catalog.
 */
export function catalogTopicsOf(events: readonly RevocationAnnouncement[]): string[] {
  const topics = new Set<string>();
  for (const { platform: event } of events) {
    if (event.tenantId === null) continue;
    const subject = revocationSubject.safeParse(event.subject);
    topics.add(
      subject.success && subject.data.workspaceId !== undefined
        ? catalogTopicOf(subject.data.workspaceId)
        : catalogTenantTopicOf(event.tenantId),
    );
  }
  return [...topics];
}

/**
 * The revocation relay's listener for catalog readers: published after the ledger's commit, so a woken long-poll
 * reads the change. At most once, like every notification: a lost one makes a long-poll answer at its timeout.
 */
export function catalogChangeFeed(
  changes: ChangeNotifier,
  logger: Pick<Logger, 'warn'>,
): (events: readonly RevocationAnnouncement[]) => void {
  return (events) => {
    for (const topic of catalogTopicsOf(events)) {
      changes.publish(topic).catch((error: unknown) => {
        logger.warn(
          { err: error instanceof Error ? error.message : 'non-error thrown' },
          'catalog change not published',
        );
      });
    }
  };
}
