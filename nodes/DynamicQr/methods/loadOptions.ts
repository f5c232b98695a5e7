import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { ApiClient } from '../api';
import { cardLabel } from './cardLabel';

/** Every card, for the polling trigger's Card option list (named as in the action's card picker). */
export async function getCards(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const cards = await new ApiClient(this).all('/cards');
	return cards.map((card) => ({ name: cardLabel(card), value: String(card.id) }));
}
