// Shared with the gateway (libs/coordination, decision 0079).
export { leaseConcernedBy } from '@gatehouse/coordination';
