'use strict';
/** Multipart bodies (api/multipart.ts): nothing from a file name or content type adds a header line. */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

const { multipartBody } = require(path.join(DIST, 'nodes/DynamicQr/api/multipart.js'));

describe('multipart parts', () => {
	test('a file name cannot add a header line', () => {
		const { body } = multipartBody(
			'file',
			'logo\r\nX-Injected: 1".png',
			'image/png',
			Buffer.from('x'),
		);
		const head = body.toString('latin1').split('\r\n\r\n')[0];
		expect(head).not.toMatch(/\r\nX-Injected/);
		expect(head.split('\r\n')).toHaveLength(3);
	});

	test('a content type that is not a MIME type is refused', () => {
		expect(() =>
			multipartBody('file', 'logo.png', 'image/png\r\nX-Injected: 1', Buffer.from('x')),
		).toThrow(/Not a MIME type/);
	});
});
