// The activation view is declared in @gatehouse/contracts (decision 0063).
export { activationView } from '@gatehouse/contracts';
