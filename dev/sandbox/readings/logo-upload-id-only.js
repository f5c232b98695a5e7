'use strict';

const { reshapeLogoUpload } = require('../api-uploads');

/** A service whose logo upload answers the id alone, unwrapped. */
module.exports = {
	name: 'logo-upload-id-only',
	item: 'Content encoding of the logo upload request and fields of its response beyond the id: not shown',
	description: 'POST /uploads/logos answers { id } alone: no `data` around it, no other field.',
	after: reshapeLogoUpload((upload) => ({ id: upload.id })),
};
