'use strict';
/**
 * The trigger's ledger per delivery, at the sizes it can hold: what one webhook request costs the
 * ledger (open, check, claim, settle, save) plus what n8n does with the static data around it
 * (parse the copy it loads, stringify the copy it saves), in one process, for a ledger of 2,000
 * keys (the record's size before the ledger: the baseline) and of 16,384 keys (its capacity: the
 * service's 8.6 hours of retries at 30 deliveries a minute). Prints the cost of each and the ratio
 * to the baseline measured in the same run. Usage: npm run build && node bench/ledger.js [--quick]
 */
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist', 'nodes', 'DynamicQr', 'trigger', 'ledger.js');
const quick = process.argv.includes('--quick');

const contextOver = (staticData) => ({
	getWorkflowStaticData: () => staticData,
	getNode: () => ({ id: 'node-1', name: 'Dynamic QR Trigger' }),
	getWorkflow: () => ({ id: 'bench' }),
});

/** Microseconds per delivery, for a ledger filled with `keys` keys, in a new process memory. */
function perDelivery(keys, deliveries) {
	delete require.cache[require.resolve(DIST)];
	const { openLedger } = require(DIST);
	let column = '{}';
	const start = Date.parse('2030-01-01T00:00:00Z');
	const deliver = (index) => {
		const copy = JSON.parse(column); // n8n loads the static data for the request
		const ledger = openLedger(contextOver(copy), start + index * 2000);
		const id = `evt_${index}`;
		if (ledger.has([id])) throw new Error(`${id} taken for a repeat`);
		ledger.claim(id);
		ledger.settle(true);
		if (ledger.save()) column = JSON.stringify(copy); // and saves it when changed
	};
	for (let index = 0; index < keys; index++) deliver(index);
	const began = process.hrtime.bigint();
	for (let index = keys; index < keys + deliveries; index++) deliver(index);
	return Number(process.hrtime.bigint() - began) / 1000 / deliveries;
}

const deliveries = quick ? 200 : 1000;
const rounds = quick ? 1 : 5;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const samples = { 2000: [], 16384: [] };
// Alternated, so drift (frequency, GC) hits both alike.
for (let round = 0; round < rounds; round++)
	for (const keys of [2000, 16384]) samples[keys].push(perDelivery(keys, deliveries));
const baseline = median(samples[2000]);
for (const keys of [2000, 16384]) {
	const cost = median(samples[keys]);
	console.log(
		`${String(keys).padStart(6)} keys (${((keys * 18) / 1024).toFixed(0)} KB): ${cost.toFixed(0)} µs per delivery, ${(cost / baseline).toFixed(2)}× the 2,000-key record`,
	);
}
// How much of it is n8n's own parse and stringify of a static data of that size.
const column = JSON.stringify({ deliveries: 'x'.repeat(16384 * 18) });
const began = process.hrtime.bigint();
for (let index = 0; index < deliveries; index++) JSON.stringify(JSON.parse(column));
const json = Number(process.hrtime.bigint() - began) / 1000 / deliveries;
console.log(
	` 16384 keys: of that, n8n's JSON parse and stringify alone: ${json.toFixed(0)} µs, ${(json / baseline).toFixed(2)}× the 2,000-key record`,
);
