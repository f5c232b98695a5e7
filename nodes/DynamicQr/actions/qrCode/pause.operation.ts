import { setPaused } from './setPaused';

export const { description, execute } = setPaused(true);
