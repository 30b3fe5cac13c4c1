// Public surface of @gatehouse/contracts: pure zod schemas shared by every app (and the dashboard).
export { QUEUE_NAMES, QueueName, isQueueName } from './queues/queue-name.js';
export {
  catalogRefreshJobId,
  catalogRefreshPayload,
  catalogRefreshPayloadV1,
  type CatalogRefreshPayload,
  type CatalogRefreshPayloadV1,
} from './queues/catalog-refresh.payload.js';
export {
  QUEUE_PAYLOAD_SCHEMAS,
  SUPPORTED_PAYLOAD_VERSIONS,
  parseQueuePayload,
  type ParseQueuePayloadResult,
  type QueuePayloadFailureReason,
  type QueuePayloads,
} from './queues/queue-payloads.js';
export {
  admittedHttpTransportV1,
  admittedStdioTransportV1,
  admittedTransport,
  admittedTransportV1,
  processAuthority,
  type AdmittedHttpTransport,
  type AdmittedStdioTransport,
  type AdmittedTransport,
  type AdmittedTransportDescription,
  type ProcessAuthority,
} from './leases/admitted-transport.schema.js';
