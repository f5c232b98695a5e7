'use strict';
// The Standard Webhooks verifier (nodes/DynamicQr/trigger/signature.ts), tested through the built
// package: published vectors, agreement with the `standardwebhooks` and `svix` libraries, and
// more than 10,000 tampered deliveries that must all be rejected. Deliveries are signed by the
// tests' own signer (test/support/sign.js), itself checked against the published vector.
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { Webhook: StandardWebhook } = require('standardwebhooks');
const { verifySignature, FAILURES } = require('../../dist/nodes/DynamicQr/trigger/signature');
const {
	decodeSecret,
	decodeBase64Strict,
	isValidSecret,
} = require('../../dist/nodes/DynamicQr/shared/secrets');
const { sign } = require('../support/sign');
const { mulberry32, randomSecret, randomId, randomBody, shuffle } = require('../support/random');

// ---------------------------------------------------------------------------------------------
// Published test vectors. Source: github.com/standard-webhooks/standard-webhooks,
// libraries/javascript/src/webhook.test.ts ("sign function works", "multi sig payload is valid",
// "invalid signature throws error", "partial signature throws error", "old/new timestamp fails",
// "verification works with and without signature prefix", "empty key raises error").
// ---------------------------------------------------------------------------------------------
const VECTOR = {
	secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
	bareSecret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
	id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
	timestamp: 1614265330,
	payload: '{"test": 2432232314}',
	signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
	decoys: [
		'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
		'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
	],
	invalidSignature: 'v1,dawfeoifkpqwoekfpqoekf',
	toleranceSeconds: 5 * 60,
};

function vectorHeaders(overrides = {}) {
	return {
		'webhook-id': VECTOR.id,
		'webhook-timestamp': String(VECTOR.timestamp),
		'webhook-signature': VECTOR.signature,
		...overrides,
	};
}

describe('Standard Webhooks published vectors', () => {
	test('the tests’ signer reproduces the reference vector', () => {
		expect(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.signature);
	});

	test('accepts the reference vector, with and without the whsec_ prefix, as string and bytes', () => {
		for (const secret of [VECTOR.secret, VECTOR.bareSecret]) {
			for (const body of [VECTOR.payload, Buffer.from(VECTOR.payload)]) {
				expect(verifySignature(secret, vectorHeaders(), body, VECTOR.timestamp)).toEqual({
					valid: true,
					id: VECTOR.id,
					timestamp: VECTOR.timestamp,
				});
			}
		}
	});

	test('multi signature header: decoys (bad v1, v2) around the valid one', () => {
		const header = [VECTOR.decoys[0], VECTOR.decoys[1], VECTOR.signature, VECTOR.decoys[0]].join(
			' ',
		);
		const result = verifySignature(
			VECTOR.secret,
			vectorHeaders({ 'webhook-signature': header }),
			VECTOR.payload,
			VECTOR.timestamp,
		);
		expect(result.valid).toBe(true);
		// the decoys alone never pass
		const decoysOnly = verifySignature(
			VECTOR.secret,
			vectorHeaders({ 'webhook-signature': VECTOR.decoys.join(' ') }),
			VECTOR.payload,
			VECTOR.timestamp,
		);
		expect(decoysOnly).toEqual({ valid: false, reason: 'no_matching_signature' });
	});

	test('missing id, timestamp or signature is rejected', () => {
		for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
			const headers = vectorHeaders();
			delete headers[name];
			expect(verifySignature(VECTOR.secret, headers, VECTOR.payload, VECTOR.timestamp)).toEqual({
				valid: false,
				reason: 'missing_headers',
			});
		}
	});

	test('invalid timestamp "hello" is rejected', () => {
		expect(
			verifySignature(
				VECTOR.secret,
				vectorHeaders({ 'webhook-timestamp': 'hello' }),
				VECTOR.payload,
				VECTOR.timestamp,
			),
		).toEqual({ valid: false, reason: 'invalid_timestamp' });
	});

	test('invalid and partial signatures are rejected', () => {
		for (const signature of [VECTOR.invalidSignature, VECTOR.signature.slice(0, 8), 'v1,']) {
			expect(
				verifySignature(
					VECTOR.secret,
					vectorHeaders({ 'webhook-signature': signature }),
					VECTOR.payload,
					VECTOR.timestamp,
				),
			).toEqual({ valid: false, reason: 'no_matching_signature' });
		}
	});

	test('timestamps beyond the 5 minute tolerance fail, within it pass', () => {
		const t = VECTOR.timestamp;
		const at = (now) => verifySignature(VECTOR.secret, vectorHeaders(), VECTOR.payload, now);
		expect(at(t + VECTOR.toleranceSeconds + 1)).toEqual({
			valid: false,
			reason: 'timestamp_too_old',
		});
		expect(at(t - VECTOR.toleranceSeconds - 1)).toEqual({
			valid: false,
			reason: 'timestamp_too_new',
		});
		expect(at(t + VECTOR.toleranceSeconds).valid).toBe(true);
		expect(at(t - VECTOR.toleranceSeconds).valid).toBe(true);
		expect(at(t + VECTOR.toleranceSeconds + 0.999).valid).toBe(true); // whole seconds
	});

	test('empty and malformed secrets are refused, never throwing', () => {
		for (const secret of [
			'',
			'whsec_',
			undefined,
			null,
			42,
			'whsec_ MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', // bad length
			'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw=', // bad padding
			'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La_aSw', // URL-safe alphabet
			'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n',
			'whsec_not base64!',
			'whsec_QQ==QQ==',
			'whsec_QR==', // non-canonical trailing bits
			'whsec_=',
		]) {
			expect(isValidSecret(secret)).toBe(false);
			expect(verifySignature(secret, vectorHeaders(), VECTOR.payload, VECTOR.timestamp)).toEqual({
				valid: false,
				reason: 'invalid_secret',
			});
		}
		expect(decodeSecret(VECTOR.secret)).toHaveLength(24);
		expect(decodeBase64Strict('QQ==')).toEqual(Buffer.from('A'));
		for (const words of Object.values(FAILURES)) expect(words).not.toMatch(/whsec_[A-Za-z0-9]/);
	});
});

// ---------------------------------------------------------------------------------------------
// Agreement with the reference libraries on what they produce.
// ---------------------------------------------------------------------------------------------
describe('agreement with the standardwebhooks library', () => {
	const rand = mulberry32(0x5eed);
	const now = Math.floor(Date.now() / 1000); // the library reads the real clock

	test('500 random deliveries: same signature, and each side verifies the other', () => {
		for (let i = 0; i < 500; i++) {
			const secret = randomSecret(rand);
			const id = randomId(rand);
			const body = randomBody(rand);
			const timestamp = now - Math.floor(rand() * 200);
			const library = new StandardWebhook(secret);
			const theirs = library.sign(id, new Date(timestamp * 1000), body);
			const ours = sign(secret, id, timestamp, body);
			expect(ours).toBe(theirs);
			const headers = {
				'webhook-id': id,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': theirs,
			};
			expect(verifySignature(secret, headers, Buffer.from(body, 'utf8'), now).valid).toBe(true);
			expect(() => library.verify(body, headers, { jsonParse: false })).not.toThrow();
			// and both reject the same body tampering
			const tampered = body + ' ';
			expect(verifySignature(secret, headers, tampered, now).valid).toBe(false);
			expect(() => library.verify(tampered, headers, { jsonParse: false })).toThrow(
				'No matching signature found',
			);
		}
	});
});

describe('agreement with the svix library', () => {
	test('300 random deliveries signed by svix verify here; ours verify in svix', () => {
		const rand = mulberry32(0x5171);
		const now = Math.floor(Date.now() / 1000);
		const cases = [];
		for (let i = 0; i < 300; i++) {
			cases.push({
				secret: randomSecret(rand),
				id: randomId(rand),
				timestamp: now - Math.floor(rand() * 200),
				payload: randomBody(rand),
			});
		}
		const verifyRequests = cases.map((c) => ({
			secret: c.secret,
			payload: c.payload,
			headers: {
				'webhook-id': c.id,
				'webhook-timestamp': String(c.timestamp),
				'webhook-signature': sign(c.secret, c.id, c.timestamp, c.payload),
			},
		}));
		const forged = verifyRequests.map((r) => ({ ...r, payload: r.payload + 'x' }));
		const out = JSON.parse(
			execFileSync(process.execPath, [path.join(__dirname, '..', 'support', 'svix-sign.mjs')], {
				input: JSON.stringify({ sign: cases, verify: [...verifyRequests, ...forged] }),
				cwd: path.join(__dirname, '..', '..'),
				maxBuffer: 64 * 1024 * 1024,
			}).toString('utf8'),
		);
		expect(out.signatures).toHaveLength(cases.length);
		cases.forEach((c, i) => {
			expect(out.signatures[i]).toBe(sign(c.secret, c.id, c.timestamp, c.payload));
			const headers = {
				'webhook-id': c.id,
				'webhook-timestamp': String(c.timestamp),
				'webhook-signature': out.signatures[i],
			};
			expect(verifySignature(c.secret, headers, Buffer.from(c.payload, 'utf8'), now).valid).toBe(
				true,
			);
		});
		expect(out.verified.slice(0, cases.length).every((v) => v === true)).toBe(true);
		expect(out.verified.slice(cases.length).every((v) => v === false)).toBe(true);
	});
});

// ---------------------------------------------------------------------------------------------
// Tampering: every mutation of a valid delivery is rejected; every valid variant is accepted.
// ---------------------------------------------------------------------------------------------
describe('tampered deliveries', () => {
	const NOW = 1700000000;
	const rand = mulberry32(0xbad5eed);

	function makeDelivery(options = {}) {
		const secret = randomSecret(rand);
		const oldSecret = randomSecret(rand);
		const id = randomId(rand);
		const body = options.body !== undefined ? options.body : randomBody(rand);
		const timestamp = NOW - 300 + Math.floor(rand() * 601); // anywhere inside the tolerance
		const raw = Buffer.from(body, 'utf8');
		const current = sign(secret, id, timestamp, raw);
		// secret rotation: the sender signs with the old and the new key
		const rotated = shuffle(rand, [
			current,
			sign(oldSecret, id, timestamp, raw),
			'v1a,' + crypto.randomBytes(64).toString('base64'),
		]);
		return {
			secret,
			oldSecret,
			id,
			timestamp,
			raw,
			signature: rand() < 0.5 ? current : rotated.join(' '),
			headers() {
				return {
					'webhook-id': this.id,
					'webhook-timestamp': String(this.timestamp),
					'webhook-signature': this.signature,
				};
			},
		};
	}

	function flipChar(text, chars) {
		const i = Math.floor(rand() * text.length);
		let c;
		do c = chars[Math.floor(rand() * chars.length)];
		while (c === text[i]);
		return text.slice(0, i) + c + text.slice(i + 1);
	}
	const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

	function swapCaseOnce(text) {
		const letters = [...text]
			.map((c, i) => [c, i])
			.filter(([c]) => c.toLowerCase() !== c.toUpperCase());
		if (letters.length === 0) return undefined;
		const [c, i] = letters[Math.floor(rand() * letters.length)];
		const swapped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
		return text.slice(0, i) + swapped + text.slice(i + 1);
	}

	function everyV1(signature, fn) {
		return signature
			.split(' ')
			.map((s) => (s.startsWith('v1,') ? 'v1,' + fn(s.slice(3)) : s))
			.join(' ');
	}

	// Each mutation returns { secret, headers, body, now } or undefined when not applicable.
	const mutations = {
		'body: one byte changed': (d) => {
			if (d.raw.length === 0) return undefined;
			const raw = Buffer.from(d.raw);
			const i = Math.floor(rand() * raw.length);
			raw[i] ^= 1 + Math.floor(rand() * 255);
			return { body: raw };
		},
		'body: byte appended': (d) => ({
			body: Buffer.concat([d.raw, Buffer.from([Math.floor(rand() * 256)])]),
		}),
		'body: truncated': (d) =>
			d.raw.length ? { body: d.raw.subarray(0, d.raw.length - 1) } : undefined,
		'body: re-serialised JSON': (d) => {
			try {
				const again = Buffer.from(JSON.stringify(JSON.parse(d.raw.toString('utf8'))), 'utf8');
				return again.equals(d.raw) ? undefined : { body: again };
			} catch (error) {
				return undefined;
			}
		},
		'body: unicode normalised': (d) => {
			const text = d.raw.toString('utf8');
			const other = Buffer.from(text.normalize('NFD'), 'utf8');
			return other.equals(d.raw) ? undefined : { body: other };
		},
		'body: another delivery': (d) => ({ body: Buffer.concat([d.raw, Buffer.from('{}')]) }),
		'id: one character changed': (d) => ({
			headers: { ...d.headers(), 'webhook-id': flipChar(d.id, B64) },
		}),
		'id: case of one letter swapped': (d) => {
			const id = swapCaseOnce(d.id);
			return id && { headers: { ...d.headers(), 'webhook-id': id } };
		},
		'id: suffix': (d) => ({ headers: { ...d.headers(), 'webhook-id': d.id + '_' } }),
		'id: empty': (d) => ({ headers: { ...d.headers(), 'webhook-id': '' } }),
		'id: moved into the body': (d) => {
			// the signed content changes with the id, so a signature for the old id cannot match
			return { headers: { ...d.headers(), 'webhook-id': `${d.id}.${d.timestamp}` } };
		},
		'timestamp: shifted by a second': (d) => ({
			headers: {
				...d.headers(),
				'webhook-timestamp': String(d.timestamp + (rand() < 0.5 ? 1 : -1)),
			},
		}),
		'timestamp: replayed too late': (d) => ({
			now: d.timestamp + 301 + Math.floor(rand() * 100000),
		}),
		'timestamp: too far ahead': (d) => ({ now: d.timestamp - 301 - Math.floor(rand() * 100000) }),
		'timestamp: not canonical': (d) => {
			const variants = [
				'0' + d.timestamp,
				'+' + d.timestamp,
				d.timestamp + '.0',
				d.timestamp + 'abc',
				' ' + d.timestamp,
				d.timestamp + ' ',
				`${d.timestamp}e0`,
				'-' + d.timestamp,
				'',
			];
			return {
				headers: {
					...d.headers(),
					'webhook-timestamp': variants[Math.floor(rand() * variants.length)],
				},
			};
		},
		'timestamp: in milliseconds': (d) => ({
			headers: { ...d.headers(), 'webhook-timestamp': String(d.timestamp * 1000) },
		}),
		'signature: one character changed': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': everyV1(
					d.signature,
					(s) => flipChar(s.slice(0, 43), B64) + s.slice(43),
				),
			},
		}),
		'signature: case of one letter swapped': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': everyV1(d.signature, (s) => swapCaseOnce(s)),
			},
		}),
		'signature: version changed': (d) => {
			const versions = ['v2', 'V1', 'v1a', 'v0', '', 'v1 ', 'v11', 'v1,'];
			const v = versions[Math.floor(rand() * versions.length)];
			return {
				headers: {
					...d.headers(),
					'webhook-signature': d.signature
						.split(' ')
						.map((s) => (s.startsWith('v1,') ? v + s.slice(2) : s))
						.join(' '),
				},
			};
		},
		'signature: no version': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': d.signature
					.split(' ')
					.map((s) => s.replace(/^v1,/, ''))
					.join(' '),
			},
		}),
		'signature: truncated': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': everyV1(d.signature, (s) => s.slice(0, 1 + Math.floor(rand() * 42))),
			},
		}),
		'signature: URL-safe base64': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': everyV1(d.signature, (s) => {
					const urlSafe = s.replace(/\+/g, '-').replace(/\//g, '_');
					return urlSafe !== s ? urlSafe : s.replace(/=$/, '');
				}),
			},
		}),
		'signature: junk after it': (d) => ({
			headers: { ...d.headers(), 'webhook-signature': everyV1(d.signature, (s) => s + ',x') },
		}),
		'signature: comma instead of space between signatures': (d) => {
			const parts = d.signature.split(' ');
			return {
				headers: {
					...d.headers(),
					'webhook-signature': parts.length > 1 ? parts.join(',') : d.signature + ',',
				},
			};
		},
		'signature: empty': (d) => ({
			headers: { ...d.headers(), 'webhook-signature': rand() < 0.5 ? '' : ' ' },
		}),
		'signature: hex instead of base64': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': everyV1(d.signature, (s) => Buffer.from(s, 'base64').toString('hex')),
			},
		}),
		'secret: another secret': (d) => ({ secret: randomSecret(rand) }),
		'secret: only the old rotated secret known... signed by the new only': (d) => ({
			secret: d.oldSecret,
			headers: { ...d.headers(), 'webhook-signature': sign(d.secret, d.id, d.timestamp, d.raw) },
		}),
		'secret: one bit off': (d) => {
			const key = decodeSecret(d.secret);
			key[Math.floor(rand() * key.length)] ^= 1 << Math.floor(rand() * 8);
			return { secret: 'whsec_' + key.toString('base64') };
		},
		'secret: malformed': (d) => ({ secret: d.secret.slice(0, -1) }),
		'secret: empty': () => ({ secret: rand() < 0.5 ? '' : 'whsec_' }),
		'secret: raw text used as key': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature':
					'v1,' +
					crypto
						.createHmac('sha256', d.secret)
						.update(`${d.id}.${d.timestamp}.`)
						.update(d.raw)
						.digest('base64'),
			},
		}),
		'headers: id and timestamp swapped': (d) => ({
			headers: { ...d.headers(), 'webhook-id': String(d.timestamp), 'webhook-timestamp': d.id },
		}),
		'headers: id and signature swapped': (d) => ({
			headers: { ...d.headers(), 'webhook-id': d.signature, 'webhook-signature': d.id },
		}),
		'headers: a second, different webhook-id under another case': (d) => ({
			headers: { ...d.headers(), 'Webhook-Id': randomId(rand) },
		}),
		'headers: repeated as a list': (d) => ({
			headers: {
				...d.headers(),
				'webhook-signature': [d.signature, 'v1,' + crypto.randomBytes(32).toString('base64')],
			},
		}),
		'headers: svix-* names only': (d) => ({
			headers: {
				'svix-id': d.id,
				'svix-timestamp': String(d.timestamp),
				'svix-signature': d.signature,
			},
		}),
	};

	function run(d, m) {
		return verifySignature(
			m.secret !== undefined ? m.secret : d.secret,
			m.headers || d.headers(),
			m.body !== undefined ? m.body : d.raw,
			m.now !== undefined ? m.now : NOW,
		);
	}

	test('at least 10,000 tampered deliveries are all rejected; every untampered one accepted', () => {
		const names = Object.keys(mutations);
		const rejectedBy = Object.fromEntries(names.map((n) => [n, 0]));
		const accepted = [];
		let tampered = 0;
		let valid = 0;
		let deliveries = 0;
		const specialBodies = [
			'',
			'{}',
			'{"emoji":"😀","accents":"café","cjk":"二维码"}',
			'e\u0301',
			'\u00e9',
			' '.repeat(100),
			'\u0000',
			'x'.repeat(100000),
		];
		while (tampered < 12000) {
			const body = deliveries < specialBodies.length ? specialBodies[deliveries] : undefined;
			const d = makeDelivery({ body });
			deliveries++;
			// the untampered delivery, with header names in any case and any order
			const headerVariants = [
				d.headers(),
				Object.fromEntries(shuffle(rand, Object.entries(d.headers()))),
				Object.fromEntries(Object.entries(d.headers()).map(([k, v]) => [k.toUpperCase(), v])),
				Object.fromEntries(
					Object.entries(d.headers()).map(([k, v]) => [
						k.replace(/(^|-)(\w)/g, (s) => s.toUpperCase()),
						v,
					]),
				),
				{ ...d.headers(), 'content-type': 'application/json', 'svix-id': 'ignored' },
			];
			for (const headers of headerVariants) {
				const result = verifySignature(d.secret, headers, d.raw, NOW);
				expect(result).toEqual({ valid: true, id: d.id, timestamp: d.timestamp });
				valid++;
			}
			for (const name of names) {
				const m = mutations[name](d);
				if (!m) continue;
				const result = run(d, m);
				if (result.valid) accepted.push({ name, delivery: d.id });
				else rejectedBy[name]++;
				tampered++;
			}
		}
		expect(accepted).toEqual([]);
		expect(tampered).toBeGreaterThanOrEqual(10000);
		expect(valid).toBeGreaterThan(1000);
		for (const name of names) expect(rejectedBy[name]).toBeGreaterThan(0);
	});

	test('secret rotation: either key alone verifies a twice-signed delivery', () => {
		for (let i = 0; i < 200; i++) {
			const d = makeDelivery();
			const both = [
				sign(d.oldSecret, d.id, d.timestamp, d.raw),
				sign(d.secret, d.id, d.timestamp, d.raw),
			];
			const headers = { ...d.headers(), 'webhook-signature': shuffle(rand, both).join(' ') };
			expect(verifySignature(d.secret, headers, d.raw, NOW).valid).toBe(true);
			expect(verifySignature(d.oldSecret, headers, d.raw, NOW).valid).toBe(true);
			expect(verifySignature(randomSecret(rand), headers, d.raw, NOW).valid).toBe(false);
		}
	});

	test('a signature length mismatch never throws', () => {
		const d = makeDelivery();
		for (const sig of [
			'v1,A',
			'v1,' + 'A'.repeat(1000),
			'v1,' + 'é'.repeat(44),
			'v1,' + '\u0000'.repeat(44),
		]) {
			expect(() =>
				verifySignature(d.secret, { ...d.headers(), 'webhook-signature': sig }, d.raw, NOW),
			).not.toThrow();
			expect(
				verifySignature(d.secret, { ...d.headers(), 'webhook-signature': sig }, d.raw, NOW).valid,
			).toBe(false);
		}
		expect(verifySignature(d.secret, null, d.raw, NOW)).toEqual({
			valid: false,
			reason: 'missing_headers',
		});
	});
});
