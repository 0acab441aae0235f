/** What time it is, for what the services record (a demo seeds the past through it). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
