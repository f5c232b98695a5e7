import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequestAllItems, cardLabel } from '../api';

/** Every card, for the polling trigger's Card option list (named as in the action's card picker). */
export async function getCards(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const cards = await apiRequestAllItems(this, '/cards');
	return cards.map((card) => ({ name: cardLabel(card), value: String(card.id) }));
}
