import { listOperation } from '../shared/listing';

export const { description, execute } = listOperation('webhookEndpoint', '/webhooks');
