'use strict';
// The scan events' cursor (polling/pollState.ts), unit level: its codes packed in one text
// (shared/packedCodes.ts, also the webhook trigger's milestone claims), and its size.
const crypto = require('node:crypto');
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

const { packCodes, unpackCodes } = require(
	path.join(DIST, 'nodes/DynamicQr/shared/packedCodes.js'),
);

/** A 12-character id of letters and digits, as the API's. */
const syntheticId = (n) =>
	crypto
		.createHash('sha256')
		.update(String(n))
		.digest('base64url')
		.replace(/[-_]/g, 'x')
		.slice(0, 12);

function syntheticCodes(count) {
	const codes = new Map();
	for (let i = 0; i < count; i++) {
		// Scans spread like a real account: most codes under a thousand, some far more.
		const scans = i % 50 === 0 ? 250000 + i : (i * 37) % 1000;
		codes.set(syntheticId(i), { count: scans, flag: i % 4 === 0 ? 1 : 0 });
	}
	return codes;
}

test('packs and unpacks every code, its count and flag; an id with , or ; survives', () => {
	const codes = new Map([
		['abcdefghijkl', { count: 0, flag: 0 }],
		['a,b;c%d', { count: 12, flag: 1 }],
		['ABCDEFGHIJKL', { count: 1234567, flag: 0 }],
	]);
	const packed = packCodes(codes);
	expect(packed).toBe('abcdefghijkl,0;a%2Cb%3Bc%25d,12,1;ABCDEFGHIJKL,1234567');
	expect(unpackCodes(packed)).toEqual(codes);
	expect(unpackCodes('')).toEqual(new Map());
	expect(unpackCodes('bad;ok123456789,3;,;x,y')).toEqual(
		new Map([['ok123456789', { count: 3, flag: 0 }]]),
	);
});

test('10,000 codes take well under 500 KB of static data', () => {
	const codes = syntheticCodes(10000);
	expect(codes.size).toBe(10000);
	const cursor = {
		key: 'quietCode|30|{"search":"flyer"}',
		polledMs: Date.now(),
		newestCreatedMs: Date.now(),
		codes: packCodes(codes),
	};
	const bytes = Buffer.byteLength(JSON.stringify({ scanCursor: cursor }));
	process.stdout.write(
		`scanCursor: ${bytes} bytes for 10,000 codes (${Math.round(bytes / 10)} per 1,000)\n`,
	);
	expect(bytes).toBeLessThan(250 * 1000);
	expect(unpackCodes(JSON.parse(JSON.stringify(cursor)).codes)).toEqual(codes);
});
