/**
 * THE table of QR code types. The payload fields of Create, Update and Generate, their
 * validation, the static-type list and the README table (dev/) are all generated from it.
 */

/** How a field is edited and checked: `links` is a list of title + URL. */
export type FieldFormat = 'text' | 'longText' | 'url' | 'email' | 'phone' | 'datetime' | 'links';

export interface QrTypeField {
	name: string; // the key inside `payload`
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
	plan: 'all' | 'pro'; // `pro` types need a plan with smart redirects
	static: boolean; // Static QR Code > Generate can encode it (it needs no redirect of the service)
	staticRequired?: string[]; // fields only a static code needs (it has no page to fall back to)
	fields: QrTypeField[];
}

/** A payload field, required unless `more` says otherwise. */
const field = (
	name: string,
	label: string,
	format: FieldFormat,
	description: string,
	more: { required?: boolean; placeholder?: string } = {},
): QrTypeField => ({ name, label, format, required: true, description, ...more });

/** The fields a type that opens a page of the service begins with: its heading and text. */
const pageFields = [
	field('title', 'Title', 'text', 'Heading shown on the page the code opens', {
		placeholder: 'e.g. Summer Menu',
	}),
	field('description', 'Description', 'longText', 'Text shown under the title', {
		required: false,
	}),
];
/** The number a type calls or writes to, and the text it fills in. */
const [phone, message] = [
	field('phone', 'Phone Number', 'phone', 'In international format, with the country code', {
		placeholder: 'e.g. +14155550123',
	}),
	field('message', 'Message', 'longText', 'Text filled in for the person who scans', {
		required: false,
	}),
];
const optionalUrl = (label: string, description: string) =>
	field('url', label, 'url', description, {
		required: false,
		placeholder: 'e.g. https://example.com',
	});

/** Which operation a payload is for: Create, Update (a partial change) or a static code. */
export type PayloadMode = 'create' | 'update' | 'static';

/** Whether a field must be filled: an update may leave anything out; a static code needs more. */
export const isFieldRequired = (type: QrType, field: QrTypeField, mode: PayloadMode) =>
	mode !== 'update' &&
	(field.required || (mode === 'static' && (type.staticRequired ?? []).includes(field.name)));

/** A row of the table: `plan` "pro" needs smart redirects; `isStatic` as QrType's `static`. */
const qrType = (
	value: string,
	label: string,
	description: string,
	plan: QrType['plan'],
	isStatic: boolean,
	fields: QrTypeField[],
): QrType => ({ value, label, description, plan, static: isStatic, fields });

export const QR_TYPES: QrType[] = [
	qrType('url', 'URL', 'Opens a web page', 'all', true, [
		field('url', 'URL', 'url', 'The web page the code opens', {
			placeholder: 'e.g. https://example.com/spring-sale',
		}),
	]),
	qrType('whatsapp', 'WhatsApp', 'Starts a WhatsApp chat', 'all', true, [phone, message]),
	qrType('phone', 'Phone Call', 'Calls a phone number', 'all', true, [phone]),
	qrType('email', 'Email', 'Writes an email', 'all', true, [
		field('email', 'Email', 'email', 'The recipient', { placeholder: 'e.g. name@email.com' }),
		field('subject', 'Subject', 'text', 'Subject line filled in', { required: false }),
		field('body', 'Body', 'longText', 'Message text filled in', { required: false }),
	]),
	qrType('sms', 'SMS', 'Writes a text message', 'all', true, [phone, message]),
	qrType('maps', 'Maps Location', 'Opens a place or address in Google Maps', 'all', true, [
		field('query', 'Place or Address', 'text', 'What Google Maps searches for', {
			placeholder: 'e.g. Eiffel Tower, Paris',
		}),
	]),
	qrType(
		'google_review',
		'Google Review',
		'Opens the review form of a Google business listing',
		'all',
		true,
		[
			field('place_id', 'Place ID', 'text', "The business's Google place ID", {
				placeholder: 'e.g. ChIJN1t_tDeuEmsRUsoyG83frY4',
			}),
		],
	),
	qrType('link_bio', 'Link in Bio', 'A page listing several links', 'pro', false, [
		...pageFields,
		field('links', 'Links', 'links', 'The links listed on the page, in order'),
	]),
	qrType('menu', 'Menu', 'A restaurant menu', 'pro', true, [
		...pageFields,
		field('menu_url', 'Menu URL', 'url', 'Where the menu is published (web page or PDF)', {
			placeholder: 'e.g. https://example.com/menu.pdf',
		}),
	]),
	qrType(
		'app_store',
		'App Store',
		"Opens the app's store page for the scanning device",
		'pro',
		false,
		[
			field('ios_url', 'iOS URL', 'url', 'App Store page, opened on iPhones and iPads', {
				placeholder: 'e.g. https://apps.apple.com/app/id123456789',
			}),
			field('android_url', 'Android URL', 'url', 'Google Play page, opened on Android devices', {
				placeholder: 'e.g. https://play.google.com/store/apps/details?id=com.example',
			}),
			field('fallback_url', 'Fallback URL', 'url', 'Opened on every other device', {
				placeholder: 'e.g. https://example.com/app',
			}),
		],
	),
	qrType('event', 'Event', 'An event that can be saved to a calendar', 'pro', true, [
		...pageFields,
		field('starts_at', 'Starts At', 'datetime', 'When the event begins'),
		field('location', 'Location', 'text', 'Where the event takes place', {
			required: false,
			placeholder: 'e.g. Town Hall, Main Street 1',
		}),
		optionalUrl('Event URL', 'A page with more about the event'),
	]),
	qrType('coupon', 'Coupon', 'A discount code', 'pro', true, [
		...pageFields,
		field('code', 'Coupon Code', 'text', 'The code the customer redeems', {
			placeholder: 'e.g. SUMMER25',
		}),
		field('expires_at', 'Expires At', 'datetime', 'When the coupon stops being valid', {
			required: false,
		}),
		optionalUrl('Shop URL', 'Where the coupon can be redeemed'),
	]),
	qrType('social', 'Social Profile', 'Opens a social media profile', 'all', true, [
		field('platform', 'Platform', 'text', 'The social network, in lower case', {
			placeholder: 'e.g. instagram',
		}),
		field('handle', 'Handle', 'text', 'The profile name on that network', {
			placeholder: 'e.g. @example',
		}),
	]),
	{
		...qrType('file', 'File', 'A downloadable file such as a PDF brochure', 'all', true, [
			...pageFields,
			field(
				'file_url',
				'File URL',
				'url',
				'Where the file is published (required for a static code)',
				{ required: false, placeholder: 'e.g. https://example.com/brochure.pdf' },
			),
		]),
		staticRequired: ['file_url'],
	},
];

export const STATIC_QR_TYPES = QR_TYPES.filter((type) => type.static);

/** A type by its value or its label, in any case and without surrounding spaces. */
export function findQrType(value: string): QrType | undefined {
	const wanted = value.trim().toLowerCase();
	return QR_TYPES.find((type) => type.value === wanted || type.label.toLowerCase() === wanted);
}
