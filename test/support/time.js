'use strict';
/**
 * Time passing as it does, for every clock of this test file at once: n8n's (`Date.now()` in the
 * nodes and n8n-core, or a real n8n's through dev/n8n/movable-clock.js), the sandbox's (real time
 * plus its own offset) and the deliveries' signatures (`new Date()`). Timers still run in real
 * time. Editing stored state instead would hide what the passing of time does (a record that
 * forgets, a silence that is measured).
 */
const { flushDeliveries } = require('./sandbox');

const RealDate = Date;
let offsetMs = 0;
/** Real processes' clocks (dev/n8n/movable-clock.js) that move with this file's. */
const movable = new Set();

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
		movable.clear();
	});
}

/** How far this file's time is ahead of real time, in seconds: where a new real n8n starts. */
const movedSeconds = () => offsetMs / 1000;

/** A real process's clock moves with this file's from now on, until `stop()`. */
function movesWith(clock) {
	clock.set(movedSeconds());
	movable.add(clock);
	return () => movable.delete(clock);
}

/** `seconds` pass for n8n and the service; the deliveries due by then are attempted. */
async function passTime(sandbox, seconds) {
	offsetMs += seconds * 1000;
	for (const clock of movable) clock.set(movedSeconds());
	await flushDeliveries(sandbox);
}

module.exports = { useMovedTime, passTime, movedSeconds, movesWith };
