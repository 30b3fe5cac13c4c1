// The held-lease registry is shared with the gateway (libs/coordination, decision 0081); the worker's modules
// keep importing it from here.
export { HeldLeases, type DropReason, type HeldLease, type HeldLeaseFacts } from '@gatehouse/coordination';
