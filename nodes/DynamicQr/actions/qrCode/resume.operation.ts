import { setPaused } from './setPaused';

export const { description, recordKey, execute } = setPaused('resume', false);
