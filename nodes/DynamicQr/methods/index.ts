import { getCards, searchCards, searchQrCodes, searchWebhookEndpoints } from './listSearch';

export const listSearch = { searchQrCodes, searchCards, searchWebhookEndpoints };
export const loadOptions = { getCards };
