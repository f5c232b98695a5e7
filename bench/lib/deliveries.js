'use strict';
/**
 * Signed Standard Webhooks deliveries, made the way the service makes them (with the
 * `standardwebhooks` library), for the verifier micro-benchmark and the trigger load.
 */
const crypto = require('node:crypto');
const { Webhook } = require('standardwebhooks');

function newSecret() {
	return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** A `scan.created` event like the service sends; `padBytes` grows `data.referrer` to a size. */
function scanEvent(index, { padBytes = 0 } = {}) {
	const id = crypto.randomBytes(9).toString('base64url');
	return {
		id: `evt_${id}${index}`,
		type: 'scan.created',
		created_at: new Date().toISOString(),
		data: {
			qr_code: { id: 'Bench0000001', name: 'Bench flyer', type: 'url' },
			short_url: 'http://127.0.0.1/s/Bench0000001',
			scanned_at: new Date().toISOString(),
			country: 'DE',
			city: 'Berlin',
			device: 'mobile',
			os: 'iOS',
			browser: 'Safari',
			language: 'de',
			referrer: padBytes > 0 ? `https://example.com/?q=${'x'.repeat(padBytes)}` : null,
			variant: null,
		},
	};
}

/**
 * `count` deliveries signed now: { id, body (Buffer), headers } each. Signing is done before any
 * timing starts; timestamps are the real time, so use them within 300 s.
 */
function signedDeliveries(secret, count, options = {}) {
	const signer = new Webhook(secret);
	const list = [];
	for (let i = 0; i < count; i++) {
		const event = scanEvent(i, options);
		const body = Buffer.from(JSON.stringify(event), 'utf8');
		const msgId = `msg_${crypto.randomBytes(12).toString('hex')}`;
		const at = new Date();
		const signature = signer.sign(msgId, at, body.toString('utf8'));
		list.push({
			id: msgId,
			body,
			headers: {
				'content-type': 'application/json',
				'webhook-id': msgId,
				'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
				'webhook-signature': signature,
			},
		});
	}
	return list;
}

module.exports = { newSecret, scanEvent, signedDeliveries };
