import { listOperation } from '../listing';

export const { description, execute } = listOperation('/webhooks');
