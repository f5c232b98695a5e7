'use strict';
/**
 * Reads the trigger's record of deliveries as saved workflows store it, independently of the
 * package: the format is frozen (workflows saved by released versions hold it), so a reader on
 * the test side pins it. `staticData.deliveries` is a string of fixed-width entries of 18
 * characters: the first 12 characters of sha256(webhook-id) as base64url, then the minute the
 * entry expires (ceil(ms / 60000)) in base 36, left-padded with '0' to 6 characters.
 */
const crypto = require('node:crypto');

const ENTRY_LENGTH = 18;
const HASH_LENGTH = 12;

const minuteOf = (ms) =>
	Math.ceil(ms / 60000)
		.toString(36)
		.padStart(6, '0');

/** Whether the record holds a live (not yet expired) entry for `webhookId` at `nowMs`. */
function isRecorded(staticData, webhookId, nowMs) {
	const record = staticData?.deliveries ?? '';
	const hash = crypto
		.createHash('sha256')
		.update(webhookId)
		.digest('base64url')
		.slice(0, HASH_LENGTH);
	const now = minuteOf(nowMs);
	for (let start = 0; start + ENTRY_LENGTH <= record.length; start += ENTRY_LENGTH) {
		if (
			record.slice(start, start + HASH_LENGTH) === hash &&
			record.slice(start + HASH_LENGTH, start + ENTRY_LENGTH) > now
		) {
			return true;
		}
	}
	return false;
}

module.exports = { isRecorded, ENTRY_LENGTH };
