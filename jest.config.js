'use strict';
// Tests are plain JavaScript: they exercise the built package in dist/, as n8n loads it. The
// global setup rebuilds dist/ first when the sources changed since the last build.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.js'],
	testTimeout: 60000,
	globalSetup: '<rootDir>/dev/build/jest-global-setup.js',
};
