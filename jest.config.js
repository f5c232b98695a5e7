'use strict';
// Tests are plain JavaScript: they exercise the built package in dist/, as n8n loads it. The
// global setup rebuilds dist/ first when the sources changed since the last build.
// The dev tooling's own tests sit beside it, in a test/ folder next to the module folder they
// test (dev/sandbox/test, dev/n8n/test); only *.test.js files inside a test/ folder run.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/dev'],
	testMatch: ['<rootDir>/test/**/*.test.js', '<rootDir>/dev/**/test/*.test.js'],
	testTimeout: 60000,
	// One worker per core, not Jest's cores − 1: several files mostly wait on real timers (the
	// catch-up's 30 s, the sandbox's latency), so on 2 cores the suites take 296 s instead of 588 s.
	maxWorkers: '100%',
	globalSetup: '<rootDir>/dev/build/jest-global-setup.js',
};
