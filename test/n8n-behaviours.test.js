'use strict';
/**
 * docs/n8n-behaviours.md lists what the trigger's exactly-once layer relies on n8n to do. Each
 * behaviour names the tests that fail when n8n changes it ("pinned") or says what is not pinned;
 * every test it names exists under that name.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'n8n-behaviours.md'), 'utf8');
const behaviours = doc.split(/^## /m).slice(1);

/** A test's name as a string literal in its file, in any of the three quotes. */
const names = (text, name) =>
	[`'${name.replace(/'/g, "\\'")}'`, `"${name}"`, `\`${name}\``].some((quoted) =>
		text.includes(quoted),
	);

test('every behaviour is pinned by a test or says what is not', () => {
	expect(behaviours.length).toBeGreaterThan(5);
	const bare = behaviours.filter((text) => !/^- (pinned|not pinned): /m.test(text));
	expect(bare.map((text) => text.split('\n')[0])).toEqual([]);
});

test('every test named as pinning an n8n behaviour exists under that name', () => {
	const pins = [...doc.matchAll(/^- pinned: `([^`]+)` › (.+)$/gm)];
	expect(pins.length).toBeGreaterThan(10);
	const missing = pins
		.filter(([, file, name]) => {
			const full = path.join(ROOT, file);
			return !fs.existsSync(full) || !names(fs.readFileSync(full, 'utf8'), name);
		})
		.map(([line]) => line);
	expect(missing).toEqual([]);
});
