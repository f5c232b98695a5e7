import type { IDataObject } from 'n8n-workflow';

/** Ids are 12 letters and digits; the same ids appear in dashboard URLs. */
export const ID_PATTERN = '^[A-Za-z0-9]{12}$';

export function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** Single-record answers wrap the record in `data`. */
export const unwrap = (answer: IDataObject): IDataObject => asObject(answer.data) ?? answer;

/** How a card is named in every picker: its name, else its title, short link or id. */
export const cardLabel = (card: IDataObject): string =>
	String(card.name ?? card.title ?? card.short_url ?? card.id);
