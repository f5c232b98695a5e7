'use strict';
// `npm run test:e2e`: the package loaded into real n8n processes (test/e2e). Slow: the first run
// provisions n8n (minutes); each version's suite starts its own n8n and sandbox. Run in band.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.js'],
	// The suites read dist/ too (parameter checks, payload names): rebuilt first when stale.
	globalSetup: '<rootDir>/dev/build/jest-global-setup.js',
	testTimeout: 300000,
	maxWorkers: 1,
	verbose: true,
};
