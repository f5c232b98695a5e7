'use strict';
// The sandbox's switchable readings (dev/sandbox/readings): chosen at start, by the control API
// and on the command line; an unknown name is refused; reset returns to the starting set.
const { startSandbox } = require('..');
const { READING_NAMES } = require('../readings');
const { sandboxClient } = require('../client');

async function listPerPage(sandbox) {
	return (await sandboxClient(sandbox).get('/qr-codes?per_page=100')).body.meta.per_page;
}

test('every reading names the "not shown" item it reads and says what it does', () => {
	const { createReadings } = require('../readings');
	const list = createReadings().list();
	expect(list.map((reading) => reading.name).sort()).toEqual([...READING_NAMES].sort());
	for (const reading of list) {
		expect(reading.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
		expect(reading.item).toMatch(/not shown/);
		expect(reading.description.length).toBeGreaterThan(20);
		expect(reading.active).toBe(false);
	}
});

test('a reading chosen at start applies; the control API switches it off, and reset brings it back', async () => {
	const sandbox = await startSandbox({ readings: ['per-page-cap-50'] });
	try {
		expect(await listPerPage(sandbox)).toBe(50);
		const listed = (await sandbox.control('PUT', '/readings', { names: [] })).data;
		expect(listed.find((reading) => reading.name === 'per-page-cap-50').active).toBe(false);
		expect(await listPerPage(sandbox)).toBe(100);
		await sandbox.control('POST', '/reset');
		expect(await listPerPage(sandbox)).toBe(50);
	} finally {
		await sandbox.close();
	}
});

test('an unknown reading is refused, naming the known ones', async () => {
	await expect(startSandbox({ readings: ['no-such-reading'] })).rejects.toThrow(
		/Unknown reading "no-such-reading"\. Known: /,
	);
	const sandbox = await startSandbox();
	try {
		await expect(
			sandbox.control('PUT', '/readings', { names: ['no-such-reading'] }),
		).rejects.toMatchObject({ status: 422 });
		await expect(sandbox.control('PUT', '/readings', { names: 'x' })).rejects.toMatchObject({
			status: 422,
		});
	} finally {
		await sandbox.close();
	}
});
