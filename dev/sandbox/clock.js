'use strict';

// The sandbox clock is real time plus an offset that tests can advance, so retry
// schedules (minutes to hours) and rate-limit refills can be exercised without sleeping.
function createClock(startOffsetMs = 0) {
	let offsetMs = startOffsetMs;
	return {
		now: () => Date.now() + offsetMs,
		advance(ms) {
			offsetMs += ms;
			return Date.now() + offsetMs;
		},
		iso(ms) {
			return new Date(ms === undefined ? Date.now() + offsetMs : ms).toISOString();
		},
	};
}

module.exports = { createClock };
