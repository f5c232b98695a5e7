'use strict';
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

/**
 * A module of the built package as a fresh n8n process would have it: loaded anew, so nothing it
 * keeps for the process (see "Kept for the process" in nodes/) is remembered. `file` is relative
 * to dist/nodes/DynamicQr.
 */
function loadInNewProcess(file) {
	let loaded;
	jest.isolateModules(() => {
		loaded = require(path.join(DIST, 'nodes/DynamicQr', file));
	});
	return loaded;
}

module.exports = { loadInNewProcess };
