'use strict';
/**
 * Time passing as it does, for every clock of this test file at once: n8n's (`Date.now()` in the
 * nodes and n8n-core), the sandbox's (real time plus its own offset) and the deliveries'
 * signatures (`new Date()`). Timers still run in real time. Editing stored state instead would
 * hide what the passing of time does (a record that forgets, a silence that is measured).
 */
const { flushDeliveries } = require('./sandbox');

const RealDate = Date;
let offsetMs = 0;

class MovedDate extends RealDate {
	constructor(...args) {
		if (args.length === 0) super(RealDate.now() + offsetMs);
		else super(...args);
	}
	static now() {
		return RealDate.now() + offsetMs;
	}
}

/** Every clock of this file follows the moved time from here on, until the file ends. */
function useMovedTime() {
	beforeAll(() => {
		global.Date = MovedDate;
	});
	afterAll(() => {
		global.Date = RealDate;
		offsetMs = 0;
	});
}

/** `seconds` pass for n8n and the service; the deliveries due by then are attempted. */
async function passTime(sandbox, seconds) {
	offsetMs += seconds * 1000;
	await flushDeliveries(sandbox);
}

module.exports = { useMovedTime, passTime };
