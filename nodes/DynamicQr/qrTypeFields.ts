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

/** A payload field, required unless `more` says otherwise. */
export const field = (
	name: string,
	label: string,
	format: FieldFormat,
	description: string,
	more: { required?: boolean; placeholder?: string } = {},
): QrTypeField => ({ name, label, format, required: true, description, ...more });

/** The fields a type that opens a page of the service begins with: its heading and text. */
export const pageFields = [
	field('title', 'Title', 'text', 'Heading shown on the page the code opens', {
		placeholder: 'e.g. Summer Menu',
	}),
	field('description', 'Description', 'longText', 'Text shown under the title', {
		required: false,
	}),
];
/** The number a type calls or writes to, and the text it fills in. */
export const [phone, message] = [
	field('phone', 'Phone Number', 'phone', 'In international format, with the country code', {
		placeholder: 'e.g. +14155550123',
	}),
	field('message', 'Message', 'longText', 'Text filled in for the person who scans', {
		required: false,
	}),
];
export const optionalUrl = (label: string, description: string) =>
	field('url', label, 'url', description, {
		required: false,
		placeholder: 'e.g. https://example.com',
	});

/** Which operation a payload is for: Create, Update (a partial change) or a static code. */
export type PayloadMode = 'create' | 'update' | 'static';

/** Whether a field must be filled: an update may leave anything out; a static code needs more. */
export const isFieldRequired = (type: QrType, field: QrTypeField, mode: PayloadMode) =>
	mode === 'update'
		? false
		: field.required || (mode === 'static' && (type.staticRequired ?? []).includes(field.name));
