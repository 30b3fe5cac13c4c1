import type {
  catalogRefreshView,
  oauthCredentialView,
  oauthSignInStarted,
  oauthSignedOut,
  serverStatusView,
  workspaceCatalogV1,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { ReadView } from './api-views';

// The catalog and connection shapes the dashboard reads from the API, as the API declares them
// (@gatehouse/contracts, decision 0063). None of them carries a token: credentials are a state word, an issuer
// and an expiry.

export type WorkspaceCatalogView = ReadView<z.output<typeof workspaceCatalogV1>>;
export type CatalogServerView = WorkspaceCatalogView['servers'][number];
export type ServerCatalogView = WorkspaceCatalogView['document']['servers'][number];
export type CatalogToolView = ServerCatalogView['tools'][number];
export type CatalogDiagnosticView = ServerCatalogView['diagnostics'][number];
export type CatalogRefreshView = ReadView<z.output<typeof catalogRefreshView>>;
export type OAuthCredentialView = ReadView<z.output<typeof oauthCredentialView>>;
export type OAuthSignInStartedView = ReadView<z.output<typeof oauthSignInStarted>>;
export type OAuthSignedOutView = ReadView<z.output<typeof oauthSignedOut>>;
export type ServerStatusView = ReadView<z.output<typeof serverStatusView>>;
export type ServerProbeStatusView = ServerStatusView['probes'][number];
export type LeaseHolderView = ServerStatusView['leaseHolders']['items'][number];
