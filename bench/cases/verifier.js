'use strict';
/**
 * Case 3b: the verifier's cost per delivery, ours (node:crypto HMAC, strict checks) against the
 * `standardwebhooks` library's `Webhook.verify`, on the same signed deliveries, in one process.
 * Rows alternate within each repeat so drift (CPU frequency, GC) hits both alike.
 */
const { Webhook } = require('standardwebhooks');
const { newSecret, signedDeliveries } = require('../lib/deliveries');
const { loadVerifier } = require('../lib/verifier-module');
const { summary } = require('../lib/stats');

function timeLoop(iterations, deliveries, fn) {
	const n = deliveries.length;
	let ok = 0;
	const start = process.hrtime.bigint();
	for (let i = 0; i < iterations; i++) if (fn(deliveries[i % n])) ok++;
	const elapsed = Number(process.hrtime.bigint() - start);
	if (ok !== iterations) throw new Error(`verifier bench: only ${ok} of ${iterations} deliveries verified`);
	return elapsed / iterations; // ns per delivery
}

async function run({ quick, log }) {
	const { module: ours, from } = loadVerifier();
	const secret = newSecret();
	const shared = new Webhook(secret);
	const now = () => Math.floor(Date.now() / 1000);

	// What a trigger pays per delivery, given the stored secret string and the raw body.
	const impls = [
		{ key: 'ours', label: 'ours: verifySignature()', fn: (d) => ours.verifySignature(secret, d.headers, d.body, now()).valid },
		{
			key: 'sw',
			label: 'standardwebhooks: new Webhook(secret).verify(…, { jsonParse: false })',
			fn: (d) => (new Webhook(secret).verify(d.body, d.headers, { jsonParse: false }), true),
		},
		{
			key: 'swShared',
			label: 'standardwebhooks: one Webhook instance reused, verify(…, { jsonParse: false })',
			fn: (d) => (shared.verify(d.body, d.headers, { jsonParse: false }), true),
		},
		{
			key: 'oursParse',
			label: 'ours + JSON.parse of the body (what our trigger does)',
			fn: (d) => ours.verifySignature(secret, d.headers, d.body, now()).valid && !!JSON.parse(d.body.toString('utf8')),
		},
		{
			key: 'swParse',
			label: 'standardwebhooks: new Webhook(secret).verify(…) (parses the JSON)',
			fn: (d) => !!new Webhook(secret).verify(d.body, d.headers),
		},
	];

	const sizes = [
		{ key: 'typical', label: 'typical `scan.created` event', padBytes: 0, iterations: quick ? 5000 : 20000 },
		{ key: 'large', label: '64 KiB event', padBytes: 64 * 1024, iterations: quick ? 200 : 1000 },
	];
	const repeats = quick ? 3 : 7;
	const results = [];
	for (const size of sizes) {
		const deliveries = signedDeliveries(secret, 500, { padBytes: size.padBytes });
		const bytes = deliveries.reduce((sum, d) => sum + d.body.length, 0) / deliveries.length;
		for (const impl of impls) timeLoop(Math.ceil(size.iterations / 5), deliveries, impl.fn); // warm-up
		const samples = Object.fromEntries(impls.map((impl) => [impl.key, []]));
		for (let r = 0; r < repeats; r++) {
			const order = r % 2 ? [...impls].reverse() : impls;
			for (const impl of order) samples[impl.key].push(timeLoop(size.iterations, deliveries, impl.fn));
		}
		log(`verifier ${size.key}: ${impls.map((i) => `${i.key} ${Math.round(summary(samples[i.key]).median)} ns`).join(', ')}`);
		results.push({ size: size.key, label: size.label, bytes, iterations: size.iterations, repeats, samples });
	}
	return { from, impls: impls.map(({ key, label }) => ({ key, label })), results };
}

module.exports = { run };
