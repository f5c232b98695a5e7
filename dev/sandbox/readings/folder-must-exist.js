'use strict';

/**
 * A service where a code can only go into a folder made beforehand (in the dashboard). The
 * check itself sits in api-qr-codes.js, which knows the folders; this file names the reading.
 */
module.exports = {
	name: 'folder-must-exist',
	item: 'Type of `tags` and whether `folder` must already exist: not shown',
	description:
		'POST /qr-codes with a folder that does not exist yet is refused with 422 on `folder` (the sandbox otherwise creates it).',
};
