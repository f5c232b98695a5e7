'use strict';
// Deterministic randomness for the tests: a seeded PRNG, so a failure can be reproduced.

function mulberry32(seed) {
	let a = seed >>> 0;
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function randomBytes(rand, n) {
	const out = Buffer.alloc(n);
	for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
	return out;
}

/** `whsec_` + base64 of 24 to 64 random bytes (the spec allows 24 up to 64). */
function randomSecret(rand) {
	return 'whsec_' + randomBytes(rand, 24 + Math.floor(rand() * 41)).toString('base64');
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomString(rand, n, alphabet = ALNUM) {
	let s = '';
	for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
	return s;
}

function randomId(rand) {
	const id = (rand() < 0.8 ? 'evt_' : 'msg_') + randomString(rand, 12 + Math.floor(rand() * 20));
	// Any printable id is valid under the spec, dots and dashes included.
	return rand() < 0.1 ? `${id}.${randomString(rand, 4)}-x` : id;
}

const WORDS = [
	'scan',
	'lead',
	'café',
	'Zürich',
	'二维码',
	'код',
	'😀',
	'naïve',
	'e\u0301',
	'"quoted"',
	'back\\slash',
	'tab\t',
	'line\nbreak',
	'',
];
function randomBody(rand) {
	const kind = rand();
	if (kind < 0.05) return '';
	if (kind < 0.1) return randomString(rand, Math.floor(rand() * 50), ALNUM + ' .,{}[]":é😀');
	const data = {};
	const n = 1 + Math.floor(rand() * 6);
	for (let i = 0; i < n; i++) {
		const word = WORDS[Math.floor(rand() * WORDS.length)];
		data[`k${i}_${word}`] = rand() < 0.5 ? word + randomString(rand, 4) : Math.floor(rand() * 1e9);
	}
	const envelope = {
		id: randomId(rand),
		type: ['scan.created', 'lead.created', 'qr_code.created', 'qr_code.updated', 'qr_code.deleted'][
			Math.floor(rand() * 5)
		],
		created_at: new Date(1.6e12 + Math.floor(rand() * 1e11)).toISOString(),
		data,
	};
	// Often pretty-printed, so re-serialising changes the bytes (a classic verification bug).
	return rand() < 0.5 ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
}

function shuffle(rand, list) {
	const out = list.slice();
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(rand() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

module.exports = {
	mulberry32,
	randomBytes,
	randomSecret,
	randomString,
	randomId,
	randomBody,
	shuffle,
};
