'use strict';
// The pack cache's key (dev/n8n/package.js): a tarball is reused only for the very same sources.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { sourceHash } = require('../package');

let dir;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-hash-'));
	fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"x","version":"1.0.0"}');
	fs.mkdirSync(path.join(dir, 'nodes', 'Deep'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'nodes', 'Deep', 'a.ts'), 'export const a = 1;');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the same sources give the same key; a changed, added or renamed source file another', () => {
	const first = sourceHash(dir);
	expect(sourceHash(dir)).toBe(first);
	fs.writeFileSync(path.join(dir, 'nodes', 'Deep', 'a.ts'), 'export const a = 2;');
	const changed = sourceHash(dir);
	expect(changed).not.toBe(first);
	fs.writeFileSync(path.join(dir, 'package-lock.json'), '{}');
	const locked = sourceHash(dir);
	expect(locked).not.toBe(changed);
	fs.renameSync(path.join(dir, 'nodes', 'Deep', 'a.ts'), path.join(dir, 'nodes', 'Deep', 'b.ts'));
	expect(sourceHash(dir)).not.toBe(locked);
});

test('what the build does not read (tests, dist/, hidden folders) leaves the key alone', () => {
	const first = sourceHash(dir);
	for (const folder of ['test', 'dist', '.git']) {
		fs.mkdirSync(path.join(dir, folder));
		fs.writeFileSync(path.join(dir, folder, 'x.js'), 'changed');
	}
	expect(sourceHash(dir)).toBe(first);
});
