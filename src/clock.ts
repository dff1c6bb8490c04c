/** Injected wherever time matters, so tests can fix it. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
