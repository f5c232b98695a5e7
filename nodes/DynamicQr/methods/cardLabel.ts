import type { IDataObject } from 'n8n-workflow';

/** How a card is named in every picker: its name, else its title, short link or id. */
export const cardLabel = (card: IDataObject): string =>
	String(card.name ?? card.title ?? card.short_url ?? card.id);
