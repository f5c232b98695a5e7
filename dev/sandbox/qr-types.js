'use strict';

// The one table of the 14 QR code types: payload fields, plan, static support, where the
// short link leads and what a static code encodes. Adding a type is one entry here.

const {
	isPlainObject,
	checkText,
	checkUrl,
	checkEmail,
	checkPhone,
	checkIsoDateTime,
} = require('./validators');

const SOCIAL_PROFILE_URLS = {
	facebook: (handle) => `https://www.facebook.com/${handle}`,
	instagram: (handle) => `https://www.instagram.com/${handle}`,
	x: (handle) => `https://x.com/${handle}`,
	linkedin: (handle) => `https://www.linkedin.com/in/${handle}`,
	tiktok: (handle) => `https://www.tiktok.com/@${handle}`,
	youtube: (handle) => `https://www.youtube.com/@${handle}`,
};
const SOCIAL_PLATFORMS = Object.keys(SOCIAL_PROFILE_URLS);
const MAX_LINKS = 50;

const FIELD_CHECKS = {
	text: (value) => checkText(value),
	longText: (value) => checkText(value, 5000),
	url: checkUrl,
	email: checkEmail,
	phone: checkPhone,
	datetime: checkIsoDateTime,
	platform: (value) =>
		SOCIAL_PLATFORMS.includes(value)
			? null
			: `must be one of: ${SOCIAL_PLATFORMS.join(', ')} (got "${value}")`,
	handle: (value) =>
		typeof value === 'string' && /^@?[A-Za-z0-9._-]{1,100}$/.test(value)
			? null
			: `must be a profile handle such as @example (got "${value}")`,
	placeId: (value) =>
		typeof value === 'string' && /^[A-Za-z0-9_-]{8,}$/.test(value)
			? null
			: `must be a Google place id, e.g. ChIJN1t_tDeuEmsRUsoyG83frY4 (got "${value}")`,
};

const required = (kind) => ({ kind, required: true });
const optional = (kind) => ({ kind, required: false });

const digitsOf = (phone) => phone.replace(/\D/g, '');
const dialable = (phone) => (phone.trim().startsWith('+') ? '+' : '') + digitsOf(phone);
const withQuery = (base, params) => {
	const query = Object.entries(params)
		.filter(([, value]) => value)
		.map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
		.join('&');
	return query ? `${base}?${query}` : base;
};
const socialHandle = (handle) => handle.replace(/^@/, '');

const destinations = {
	whatsapp: (p) => withQuery(`https://wa.me/${digitsOf(p.phone)}`, { text: p.message }),
	phone: (p) => `tel:${dialable(p.phone)}`,
	email: (p) => withQuery(`mailto:${p.email}`, { subject: p.subject, body: p.body }),
	sms: (p) => withQuery(`sms:${dialable(p.phone)}`, { body: p.message }),
	maps: (p) => `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(p.query)}`,
	googleReview: (p) =>
		`https://search.google.com/local/writereview?placeid=${encodeURIComponent(p.place_id)}`,
	social: (p) => SOCIAL_PROFILE_URLS[p.platform](socialHandle(p.handle)),
};

// RFC 5545 text escaping for the VEVENT of a static event code.
const icsText = (value) =>
	String(value)
		.replace(/[\\;,]/g, (c) => `\\${c}`)
		.replace(/\r?\n/g, '\\n');
const icsTime = (iso) =>
	new Date(iso)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');

function eventCalendarEntry(p) {
	return [
		'BEGIN:VEVENT',
		`SUMMARY:${icsText(p.title)}`,
		`DTSTART:${icsTime(p.starts_at)}`,
		p.location && `LOCATION:${icsText(p.location)}`,
		p.description && `DESCRIPTION:${icsText(p.description)}`,
		p.url && `URL:${p.url}`,
		'END:VEVENT',
	]
		.filter(Boolean)
		.join('\n');
}

function couponText(p) {
	return [
		p.title,
		`Code: ${p.code}`,
		p.expires_at && `Valid until: ${p.expires_at}`,
		p.description,
		p.url,
	]
		.filter(Boolean)
		.join('\n');
}

/**
 * destination(payload, ctx): where the short link leads; ctx.pageUrl is the sandbox page of the code.
 * staticText(payload): what a static code encodes; absent for the two types that need redirects.
 * staticRequired: fields that only a static code requires (it has no page to fall back to).
 */
const QR_TYPES = {
	url: {
		fields: { url: required('url') },
		destination: (p) => p.url,
		staticText: (p) => p.url,
	},
	whatsapp: {
		fields: { phone: required('phone'), message: optional('longText') },
		destination: destinations.whatsapp,
		staticText: destinations.whatsapp,
	},
	phone: {
		fields: { phone: required('phone') },
		destination: destinations.phone,
		staticText: destinations.phone,
	},
	email: {
		fields: { email: required('email'), subject: optional('text'), body: optional('longText') },
		destination: destinations.email,
		staticText: destinations.email,
	},
	sms: {
		fields: { phone: required('phone'), message: optional('longText') },
		destination: destinations.sms,
		staticText: (p) => `SMSTO:${dialable(p.phone)}:${p.message || ''}`,
	},
	maps: {
		fields: { query: required('text') },
		destination: destinations.maps,
		staticText: destinations.maps,
	},
	google_review: {
		fields: { place_id: required('placeId') },
		destination: destinations.googleReview,
		staticText: destinations.googleReview,
	},
	link_bio: {
		pro: true,
		fields: {
			title: required('text'),
			description: optional('longText'),
			links: required('links'),
		},
		destination: (p, ctx) => ctx.pageUrl,
	},
	menu: {
		pro: true,
		fields: {
			title: required('text'),
			description: optional('longText'),
			menu_url: required('url'),
		},
		destination: (p) => p.menu_url,
		staticText: (p) => p.menu_url,
	},
	app_store: {
		pro: true,
		fields: {
			ios_url: required('url'),
			android_url: required('url'),
			fallback_url: required('url'),
		},
		// The short link picks the store by device; the record shows the fallback.
		destination: (p) => p.fallback_url,
	},
	event: {
		pro: true,
		fields: {
			title: required('text'),
			description: optional('longText'),
			starts_at: required('datetime'),
			location: optional('text'),
			url: optional('url'),
		},
		destination: (p, ctx) => ctx.pageUrl,
		staticText: eventCalendarEntry,
	},
	coupon: {
		pro: true,
		fields: {
			title: required('text'),
			description: optional('longText'),
			code: required('text'),
			expires_at: optional('datetime'),
			url: optional('url'),
		},
		destination: (p, ctx) => ctx.pageUrl,
		staticText: couponText,
	},
	social: {
		fields: { platform: required('platform'), handle: required('handle') },
		destination: destinations.social,
		staticText: destinations.social,
	},
	file: {
		fields: {
			title: required('text'),
			description: optional('longText'),
			file_url: optional('url'),
		},
		destination: (p, ctx) => p.file_url || ctx.pageUrl,
		staticText: (p) => p.file_url,
		staticRequired: ['file_url'],
	},
};

const TYPE_NAMES = Object.keys(QR_TYPES);
const STATIC_TYPE_NAMES = TYPE_NAMES.filter((name) => QR_TYPES[name].staticText);
const PAGE_TYPES = ['link_bio', 'event', 'coupon', 'file'];

const isAbsent = (value) => value === undefined || value === null || value === '';

function checkLinks(value, errors) {
	if (!Array.isArray(value) || value.length === 0) {
		errors['payload.links'] = ['payload.links must be a non-empty list of { title, url } objects'];
		return;
	}
	if (value.length > MAX_LINKS) {
		errors['payload.links'] = [`payload.links must hold at most ${MAX_LINKS} links`];
		return;
	}
	value.forEach((link, index) => {
		if (!isPlainObject(link)) {
			errors[`payload.links.${index}`] = [
				`payload.links.${index} must be an object { title, url }`,
			];
			return;
		}
		for (const [name, check] of [
			['title', checkText],
			['url', checkUrl],
		]) {
			const field = `payload.links.${index}.${name}`;
			const error = isAbsent(link[name]) ? 'is required' : check(link[name]);
			if (error) errors[field] = [`${field} ${error}`];
		}
		for (const key of Object.keys(link)) {
			if (key !== 'title' && key !== 'url')
				errors[`payload.links.${index}.${key}`] = [
					`payload.links.${index}.${key} is not a link field`,
				];
		}
	});
}

/**
 * Validates a payload against its type. Optional fields that are empty ('' or null) count as
 * not set and are dropped from the stored payload.
 * @returns {{ errors: object, payload: object }} errors keyed `payload.<field>`
 */
function validatePayload(typeName, payload, { forStatic = false } = {}) {
	const type = QR_TYPES[typeName];
	const errors = {};
	if (!isPlainObject(payload)) {
		return { errors: { payload: ['must be an object with the fields of the type'] }, payload };
	}
	const clean = {};
	for (const [name, field] of Object.entries(type.fields)) {
		const value = payload[name];
		const requiredHere =
			field.required || (forStatic && (type.staticRequired || []).includes(name));
		if (isAbsent(value)) {
			if (requiredHere) {
				errors[`payload.${name}`] = [
					`The payload.${name} field is required for type ${typeName}${field.required ? '' : ' static codes'}.`,
				];
			}
			continue;
		}
		if (field.kind === 'links') {
			checkLinks(value, errors);
		} else {
			const message = FIELD_CHECKS[field.kind](value);
			if (message) errors[`payload.${name}`] = [`payload.${name} ${message}`];
		}
		clean[name] = value;
	}
	for (const name of Object.keys(payload)) {
		if (!type.fields[name]) {
			errors[`payload.${name}`] = [
				`payload.${name} is not a field of type ${typeName}; allowed: ${Object.keys(type.fields).join(', ')}.`,
			];
		}
	}
	return { errors, payload: clean };
}

/** Where the short link leads, for an app_store code chosen by the scanning device. */
function destinationFor(code, { pageUrl, userAgentOs } = {}) {
	const { payload } = code;
	if (code.type === 'app_store' && userAgentOs === 'iOS') return payload.ios_url;
	if (code.type === 'app_store' && userAgentOs === 'Android') return payload.android_url;
	return QR_TYPES[code.type].destination(payload, { pageUrl });
}

module.exports = {
	QR_TYPES,
	TYPE_NAMES,
	STATIC_TYPE_NAMES,
	PAGE_TYPES,
	SOCIAL_PLATFORMS,
	validatePayload,
	destinationFor,
};
