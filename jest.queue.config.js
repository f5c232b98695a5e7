'use strict';
// `npm run test:e2e:queue`: the package in a queue-mode n8n cluster (main, worker, webhook
// processors behind a load balancer) on PostgreSQL and Redis (test/e2e-queue). Slow: starts four
// n8n processes. Run in band.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e-queue'],
	testMatch: ['**/*.e2e.js'],
	// The suites read dist/ too (parameter checks, payload names): rebuilt first when stale.
	globalSetup: '<rootDir>/dev/build/jest-global-setup.js',
	testTimeout: 600000,
	maxWorkers: 1,
	verbose: true,
};
