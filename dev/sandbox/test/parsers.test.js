'use strict';

// Unit tests of the sandbox's small parsers: multipart bodies, user agents, logo types.

const { parseMultipart } = require('../multipart');
const { parseUserAgent, isBot, languageOf } = require('../user-agent');
const { detectLogoType } = require('../logo-uploads');
const { USER_AGENTS } = require('./helpers');

describe('parseMultipart', () => {
	const body = Buffer.from(
		'--b0undary\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n' +
			'--b0undary\r\nContent-Disposition: form-data; name="file"; filename="my \\"logo\\".png"\r\nContent-Type: image/png\r\n\r\n' +
			'\x89PNG\r\n\x1a\nrest\r\n--b0undary--\r\n',
		'latin1',
	);

	test('splits fields and files, keeping bytes and CRLFs inside a part', () => {
		const parts = parseMultipart(body, 'multipart/form-data; boundary="b0undary"');
		expect(parts).toHaveLength(2);
		expect(parts[0]).toMatchObject({ name: 'note', filename: undefined });
		expect(parts[0].data.toString()).toBe('hello');
		expect(parts[1]).toMatchObject({
			name: 'file',
			filename: 'my "logo".png',
			contentType: 'image/png',
		});
		expect(parts[1].data.toString('latin1')).toBe('\x89PNG\r\n\x1a\nrest');
	});

	test('answers null without a multipart content type or boundary', () => {
		expect(parseMultipart(body, 'application/json')).toBeNull();
		expect(parseMultipart(body, 'multipart/form-data')).toBeNull();
	});
});

describe('user agents', () => {
	test.each([
		[USER_AGENTS.iphoneSafari, { device: 'mobile', os: 'iOS', browser: 'Safari' }],
		[USER_AGENTS.ipadSafari, { device: 'tablet', os: 'iOS', browser: 'Safari' }],
		[USER_AGENTS.androidChrome, { device: 'mobile', os: 'Android', browser: 'Chrome' }],
		[USER_AGENTS.windowsEdge, { device: 'desktop', os: 'Windows', browser: 'Edge' }],
		[USER_AGENTS.macFirefox, { device: 'desktop', os: 'macOS', browser: 'Firefox' }],
		['', { device: 'desktop', os: 'Other', browser: 'Other' }],
	])('%s', (userAgent, expected) => {
		expect(parseUserAgent(userAgent)).toEqual(expected);
	});

	test('bots and previews are recognised, browsers are not', () => {
		expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
		expect(isBot('Slackbot-LinkExpanding 1.0')).toBe(true);
		expect(isBot(USER_AGENTS.iphoneSafari)).toBe(false);
		expect(isBot(undefined)).toBe(false);
	});

	test('language is the primary subtag of the first Accept-Language entry', () => {
		expect(languageOf('pt-BR,pt;q=0.9')).toBe('pt');
		expect(languageOf('EN')).toBe('en');
		expect(languageOf(undefined)).toBe('unknown');
		expect(languageOf('*')).toBe('unknown');
	});
});

test('logo types are judged by their bytes', () => {
	expect(detectLogoType(Buffer.from('\x89PNG\r\n\x1a\n....', 'latin1'))).toBe('image/png');
	expect(detectLogoType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
	expect(detectLogoType(Buffer.from('\uFEFF<!DOCTYPE svg>\n<svg viewBox="0 0 1 1"/>'))).toBe(
		'image/svg+xml',
	);
	expect(detectLogoType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
	expect(detectLogoType(Buffer.from('GIF89a'))).toBeNull();
});
