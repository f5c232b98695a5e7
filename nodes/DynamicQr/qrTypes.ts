/**
 * THE table of QR code types. The payload fields of Create, Update and Generate, their
 * validation, the static-type list and the README table (dev/) are all generated from it.
 */

import { field, message, optionalUrl, pageFields, phone, type QrType } from './qrTypeFields';

export type { FieldFormat, PayloadMode, QrType, QrTypeField } from './qrTypeFields';
export { isFieldRequired } from './qrTypeFields';

export const QR_TYPES: QrType[] = [
	{
		value: 'url',
		label: 'URL',
		description: 'Opens a web page',
		plan: 'all',
		static: true,
		fields: [
			field('url', 'URL', 'url', 'The web page the code opens', {
				placeholder: 'e.g. https://example.com/spring-sale',
			}),
		],
	},
	{
		value: 'whatsapp',
		label: 'WhatsApp',
		description: 'Starts a WhatsApp chat',
		plan: 'all',
		static: true,
		fields: [phone, message],
	},
	{
		value: 'phone',
		label: 'Phone Call',
		description: 'Calls a phone number',
		plan: 'all',
		static: true,
		fields: [phone],
	},
	{
		value: 'email',
		label: 'Email',
		description: 'Writes an email',
		plan: 'all',
		static: true,
		fields: [
			field('email', 'Email', 'email', 'The recipient', { placeholder: 'e.g. name@email.com' }),
			field('subject', 'Subject', 'text', 'Subject line filled in', { required: false }),
			field('body', 'Body', 'longText', 'Message text filled in', { required: false }),
		],
	},
	{
		value: 'sms',
		label: 'SMS',
		description: 'Writes a text message',
		plan: 'all',
		static: true,
		fields: [phone, message],
	},
	{
		value: 'maps',
		label: 'Maps Location',
		description: 'Opens a place or address in Google Maps',
		plan: 'all',
		static: true,
		fields: [
			field('query', 'Place or Address', 'text', 'What Google Maps searches for', {
				placeholder: 'e.g. Eiffel Tower, Paris',
			}),
		],
	},
	{
		value: 'google_review',
		label: 'Google Review',
		description: 'Opens the review form of a Google business listing',
		plan: 'all',
		static: true,
		fields: [
			field('place_id', 'Place ID', 'text', "The business's Google place ID", {
				placeholder: 'e.g. ChIJN1t_tDeuEmsRUsoyG83frY4',
			}),
		],
	},
	{
		value: 'link_bio',
		label: 'Link in Bio',
		description: 'A page listing several links',
		plan: 'pro',
		static: false,
		fields: pageFields(field('links', 'Links', 'links', 'The links listed on the page, in order')),
	},
	{
		value: 'menu',
		label: 'Menu',
		description: 'A restaurant menu',
		plan: 'pro',
		static: true,
		fields: pageFields(
			field('menu_url', 'Menu URL', 'url', 'Where the menu is published (web page or PDF)', {
				placeholder: 'e.g. https://example.com/menu.pdf',
			}),
		),
	},
	{
		value: 'app_store',
		label: 'App Store',
		description: "Opens the app's store page for the scanning device",
		plan: 'pro',
		static: false,
		fields: [
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
	},
	{
		value: 'event',
		label: 'Event',
		description: 'An event that can be saved to a calendar',
		plan: 'pro',
		static: true,
		fields: pageFields(
			field('starts_at', 'Starts At', 'datetime', 'When the event begins'),
			field('location', 'Location', 'text', 'Where the event takes place', {
				required: false,
				placeholder: 'e.g. Town Hall, Main Street 1',
			}),
			optionalUrl('Event URL', 'A page with more about the event'),
		),
	},
	{
		value: 'coupon',
		label: 'Coupon',
		description: 'A discount code',
		plan: 'pro',
		static: true,
		fields: pageFields(
			field('code', 'Coupon Code', 'text', 'The code the customer redeems', {
				placeholder: 'e.g. SUMMER25',
			}),
			field('expires_at', 'Expires At', 'datetime', 'When the coupon stops being valid', {
				required: false,
			}),
			optionalUrl('Shop URL', 'Where the coupon can be redeemed'),
		),
	},
	{
		value: 'social',
		label: 'Social Profile',
		description: 'Opens a social media profile',
		plan: 'all',
		static: true,
		fields: [
			field('platform', 'Platform', 'text', 'The social network, in lower case', {
				placeholder: 'e.g. instagram',
			}),
			field('handle', 'Handle', 'text', 'The profile name on that network', {
				placeholder: 'e.g. @example',
			}),
		],
	},
	{
		value: 'file',
		label: 'File',
		description: 'A downloadable file such as a PDF brochure',
		plan: 'all',
		static: true,
		staticRequired: ['file_url'],
		fields: pageFields(
			field(
				'file_url',
				'File URL',
				'url',
				'Where the file is published (required for a static code)',
				{ required: false, placeholder: 'e.g. https://example.com/brochure.pdf' },
			),
		),
	},
];

export const STATIC_QR_TYPES = QR_TYPES.filter((type) => type.static);

/** A type by its value or its label, in any case and without surrounding spaces. */
export function findQrType(value: string): QrType | undefined {
	const wanted = value.trim().toLowerCase();
	return QR_TYPES.find((type) => type.value === wanted || type.label.toLowerCase() === wanted);
}
