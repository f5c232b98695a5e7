'use strict';
// Tests are plain JavaScript: they exercise the built package in dist/, as n8n loads it.
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.js'],
	testTimeout: 60000,
};
