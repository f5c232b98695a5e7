/**
 * THE table of QR code types. The per-type payload fields of Create, Update and Generate,
 * their validation, the static-type list and the README table (dev/) are all generated from it:
 * adding a type is adding one entry here.
 */

import type { QrType } from './qrTypeFields';
import { message, optionalUrl, pageDescription, phone, title } from './qrTypeFields';

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
			{
				name: 'url',
				label: 'URL',
				format: 'url',
				required: true,
				description: 'The web page the code opens',
				placeholder: 'e.g. https://example.com/spring-sale',
			},
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
			{
				name: 'email',
				label: 'Email',
				format: 'email',
				required: true,
				description: 'The recipient',
				placeholder: 'e.g. name@email.com',
			},
			{
				name: 'subject',
				label: 'Subject',
				format: 'text',
				required: false,
				description: 'Subject line filled in',
			},
			{
				name: 'body',
				label: 'Body',
				format: 'longText',
				required: false,
				description: 'Message text filled in',
			},
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
			{
				name: 'query',
				label: 'Place or Address',
				format: 'text',
				required: true,
				description: 'What Google Maps searches for',
				placeholder: 'e.g. Eiffel Tower, Paris',
			},
		],
	},
	{
		value: 'google_review',
		label: 'Google Review',
		description: 'Opens the review form of a Google business listing',
		plan: 'all',
		static: true,
		fields: [
			{
				name: 'place_id',
				label: 'Place ID',
				format: 'text',
				required: true,
				description: "The business's Google place ID",
				placeholder: 'e.g. ChIJN1t_tDeuEmsRUsoyG83frY4',
			},
		],
	},
	{
		value: 'link_bio',
		label: 'Link in Bio',
		description: 'A page listing several links',
		plan: 'pro',
		static: false,
		fields: [
			title,
			pageDescription,
			{
				name: 'links',
				label: 'Links',
				format: 'links',
				required: true,
				description: 'The links listed on the page, in order',
			},
		],
	},
	{
		value: 'menu',
		label: 'Menu',
		description: 'A restaurant menu',
		plan: 'pro',
		static: true,
		fields: [
			title,
			pageDescription,
			{
				name: 'menu_url',
				label: 'Menu URL',
				format: 'url',
				required: true,
				description: 'Where the menu is published (web page or PDF)',
				placeholder: 'e.g. https://example.com/menu.pdf',
			},
		],
	},
	{
		value: 'app_store',
		label: 'App Store',
		description: "Opens the app's store page for the scanning device",
		plan: 'pro',
		static: false,
		fields: [
			{
				name: 'ios_url',
				label: 'iOS URL',
				format: 'url',
				required: true,
				description: 'App Store page, opened on iPhones and iPads',
				placeholder: 'e.g. https://apps.apple.com/app/id123456789',
			},
			{
				name: 'android_url',
				label: 'Android URL',
				format: 'url',
				required: true,
				description: 'Google Play page, opened on Android devices',
				placeholder: 'e.g. https://play.google.com/store/apps/details?id=com.example',
			},
			{
				name: 'fallback_url',
				label: 'Fallback URL',
				format: 'url',
				required: true,
				description: 'Opened on every other device',
				placeholder: 'e.g. https://example.com/app',
			},
		],
	},
	{
		value: 'event',
		label: 'Event',
		description: 'An event that can be saved to a calendar',
		plan: 'pro',
		static: true,
		fields: [
			title,
			pageDescription,
			{
				name: 'starts_at',
				label: 'Starts At',
				format: 'datetime',
				required: true,
				description: 'When the event begins',
			},
			{
				name: 'location',
				label: 'Location',
				format: 'text',
				required: false,
				description: 'Where the event takes place',
				placeholder: 'e.g. Town Hall, Main Street 1',
			},
			optionalUrl('Event URL', 'A page with more about the event'),
		],
	},
	{
		value: 'coupon',
		label: 'Coupon',
		description: 'A discount code',
		plan: 'pro',
		static: true,
		fields: [
			title,
			pageDescription,
			{
				name: 'code',
				label: 'Coupon Code',
				format: 'text',
				required: true,
				description: 'The code the customer redeems',
				placeholder: 'e.g. SUMMER25',
			},
			{
				name: 'expires_at',
				label: 'Expires At',
				format: 'datetime',
				required: false,
				description: 'When the coupon stops being valid',
			},
			optionalUrl('Shop URL', 'Where the coupon can be redeemed'),
		],
	},
	{
		value: 'social',
		label: 'Social Profile',
		description: 'Opens a social media profile',
		plan: 'all',
		static: true,
		fields: [
			{
				name: 'platform',
				label: 'Platform',
				format: 'text',
				required: true,
				description: 'The social network, in lower case',
				placeholder: 'e.g. instagram',
			},
			{
				name: 'handle',
				label: 'Handle',
				format: 'text',
				required: true,
				description: 'The profile name on that network',
				placeholder: 'e.g. @example',
			},
		],
	},
	{
		value: 'file',
		label: 'File',
		description: 'A downloadable file such as a PDF brochure',
		plan: 'all',
		static: true,
		staticRequired: ['file_url'],
		fields: [
			title,
			pageDescription,
			{
				name: 'file_url',
				label: 'File URL',
				format: 'url',
				required: false,
				description: 'Where the file is published (required for a static code)',
				placeholder: 'e.g. https://example.com/brochure.pdf',
			},
		],
	},
];

export const STATIC_QR_TYPES = QR_TYPES.filter((type) => type.static);

/** A type by its value or its label, in any case and without surrounding spaces. */
export function findQrType(value: string): QrType | undefined {
	const wanted = value.trim().toLowerCase();
	return QR_TYPES.find((type) => type.value === wanted || type.label.toLowerCase() === wanted);
}
