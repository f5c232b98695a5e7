import { setPaused } from './changedRecord';

export const { description, execute } = setPaused(true);
