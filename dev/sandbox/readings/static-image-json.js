'use strict';

/** A service that answers a static code as JSON, the file in base64 under `data.image`. */
module.exports = {
	name: 'static-image-json',
	item: 'Request and response bodies of `/static-qr-codes`: not shown',
	description:
		'POST /static-qr-codes answers 200 { data: { type, format, image } } with the image file in base64, not the file itself.',
	after(call, answer) {
		if (call.route !== '/static-qr-codes' || !answer.buffer) return answer;
		const { type, format } = call.body;
		const image = answer.buffer.toString('base64');
		return { status: 200, json: { data: { type, format, image } } };
	},
};
