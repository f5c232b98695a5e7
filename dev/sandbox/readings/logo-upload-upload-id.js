'use strict';

const { reshapeLogoUpload } = require('../api-uploads');

/** A service whose logo upload names its id `upload_id`. */
module.exports = {
	name: 'logo-upload-upload-id',
	item: 'Content encoding of the logo upload request and fields of its response beyond the id: not shown',
	description: 'POST /uploads/logos answers { data: { upload_id, …the other fields } }: no `id`.',
	after: reshapeLogoUpload(({ id, ...upload }) => ({ data: { upload_id: id, ...upload } })),
};
