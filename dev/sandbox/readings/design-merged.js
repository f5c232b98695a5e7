'use strict';

/**
 * A service whose PATCH merges the design it is sent into the code's design: keys left out (a
 * logo_upload_id) are kept. The merge itself sits in qr-code-records.js, which knows the code's
 * design; this file names the reading. The sandbox's own reading replaces the whole design.
 */
module.exports = {
	name: 'design-merged',
	item: 'Design fields beyond `design.logo_upload_id`, and what a PATCH with some of them does to the others: not shown',
	description:
		'PATCH /qr-codes/{id} with a design keeps the design keys it leaves out (a logo stays when only a colour is sent); the sandbox otherwise replaces the whole design.',
};
