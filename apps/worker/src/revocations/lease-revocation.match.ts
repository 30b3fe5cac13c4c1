// Shared with the gateway (libs/coordination, decision 0081).
export { leaseConcernedBy } from '@gatehouse/coordination';
