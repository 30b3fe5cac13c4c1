import type { gatewayActivityView } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { ReadView } from './api-views';

// The gateway's live activity as the API declares it (@gatehouse/contracts, decision 0118): counts and words only.
export type GatewayActivityView = ReadView<z.output<typeof gatewayActivityView>>;
