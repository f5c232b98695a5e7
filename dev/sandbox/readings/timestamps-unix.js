'use strict';

/** Unix seconds of an ISO time; other values pass unchanged. */
function toUnixSeconds(value) {
	const ms = typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isFinite(ms) ? Math.floor(ms / 1000) : value;
}

const withUnixCreatedAt = (record) =>
	record && typeof record === 'object' && 'created_at' in record
		? { ...record, created_at: toUnixSeconds(record.created_at) }
		: record;

/** Routes whose answers carry QR code or lead records. */
const ROUTES = new Set(['/qr-codes', '/qr-codes/{id}', '/cards/{id}/leads']);

/** A service that gives record times as Unix seconds rather than ISO 8601 strings. */
module.exports = {
	name: 'timestamps-unix',
	item: 'Lead fields (Field list: not shown), so the format of `created_at` of leads and QR codes',
	description:
		'created_at of QR codes and leads, in answers and in the data of events, is a number of Unix seconds.',
	after(call, answer) {
		const data = answer.json?.data;
		if (!ROUTES.has(call.route) || !data) return answer;
		const converted = Array.isArray(data) ? data.map(withUnixCreatedAt) : withUnixCreatedAt(data);
		return { ...answer, json: { ...answer.json, data: converted } };
	},
	event(type, data) {
		if (type === 'lead.created' && data.lead)
			return { ...data, lead: withUnixCreatedAt(data.lead) };
		return type.startsWith('qr_code.') || type === 'lead.created' ? withUnixCreatedAt(data) : data;
	},
};
