/** What a QR type and its payload fields are (the table itself: qrTypes.ts), and the fields several types share. */

/** How a field is edited and checked: `links` is a list of title + URL. */
export type FieldFormat = 'text' | 'longText' | 'url' | 'email' | 'phone' | 'datetime' | 'links';

export interface QrTypeField {
	/** The key inside `payload`. */
	name: string;
	label: string;
	format: FieldFormat;
	required: boolean;
	description: string;
	placeholder?: string;
}

export interface QrType {
	value: string;
	label: string;
	description: string;
	/** `pro` types need a plan with smart redirects. */
	plan: 'all' | 'pro';
	/** Whether Static QR Code > Generate can encode it (it needs no redirect of the service). */
	static: boolean;
	/** Fields that only a static code needs (it has no page of the service to fall back to). */
	staticRequired?: string[];
	fields: QrTypeField[];
}

export const title: QrTypeField = {
	name: 'title',
	label: 'Title',
	format: 'text',
	required: true,
	description: 'Heading shown on the page the code opens',
	placeholder: 'e.g. Summer Menu',
};
export const pageDescription: QrTypeField = {
	name: 'description',
	label: 'Description',
	format: 'longText',
	required: false,
	description: 'Text shown under the title',
};
export const phone: QrTypeField = {
	name: 'phone',
	label: 'Phone Number',
	format: 'phone',
	required: true,
	description: 'In international format, with the country code',
	placeholder: 'e.g. +14155550123',
};
export const message: QrTypeField = {
	name: 'message',
	label: 'Message',
	format: 'longText',
	required: false,
	description: 'Text filled in for the person who scans',
};
export const optionalUrl = (label: string, description: string): QrTypeField => ({
	name: 'url',
	label,
	format: 'url',
	required: false,
	description,
	placeholder: 'e.g. https://example.com',
});

/** Which operation a payload is for: Create, Update (a partial change) or a static code. */
export type PayloadMode = 'create' | 'update' | 'static';

/** Whether a field must be filled: an update may leave anything out; a static code needs more. */
export const isFieldRequired = (type: QrType, field: QrTypeField, mode: PayloadMode) =>
	mode === 'update'
		? false
		: field.required || (mode === 'static' && (type.staticRequired ?? []).includes(field.name));
