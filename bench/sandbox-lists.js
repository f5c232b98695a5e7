'use strict';
/**
 * What the sandbox (`npm run sandbox`, and every test and bench case) takes to answer one page of
 * the code list as the list grows: 100 codes a page, for a workspace of 1,000 codes (the
 * baseline), 10,000 and 100,000, the first page and one deep in the list, measured in the same
 * run. A page that costs the whole list would grow with it; the ratios show whether it does.
 * Usage: node bench/sandbox-lists.js [--quick] (about a minute; --quick stops at 10,000)
 */
const { startSandbox } = require('../dev/sandbox');
const { sandboxClient } = require('../dev/sandbox/client');

const SIZES = process.argv.includes('--quick') ? [1000, 10000] : [1000, 10000, 100000];
const READS = 30;

async function main() {
	const sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 1e9 });
	const client = sandboxClient(sandbox);
	let made = 0;
	const rows = [];
	try {
		for (const size of SIZES) {
			const worker = async () => {
				while (made < size) {
					made++;
					const payload = { url: `https://example.com/${made}` };
					await client.call('POST', '/qr-codes', { type: 'url', name: `code ${made}`, payload });
				}
			};
			await Promise.all(Array.from({ length: 64 }, worker));
			for (const page of [1, size / 200]) {
				await client.call('GET', `/qr-codes?page=${page}&per_page=100`); // warm-up
				const start = process.hrtime.bigint();
				for (let i = 0; i < READS; i++)
					await client.call('GET', `/qr-codes?page=${page}&per_page=100`);
				rows.push({ size, page, ms: Number(process.hrtime.bigint() - start) / 1e6 / READS });
			}
		}
	} finally {
		await sandbox.close();
	}
	const baseline = (page) =>
		rows.find((row) => row.size === SIZES[0] && (page === 1) === (row.page === 1)).ms;
	for (const { size, page, ms } of rows) {
		const where = page === 1 ? 'page 1' : `page ${page} (the middle)`;
		const ratio = (ms / baseline(page)).toFixed(2);
		console.log(
			`${String(size).padStart(7)} codes, ${where}: ${ms.toFixed(2)} ms a page, ${ratio}× the ${SIZES[0]}-code list`,
		);
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
