'use strict';
/**
 * The action node against the sandbox answering other readings of what the API reference
 * leaves "not shown" about success answers: the status codes of each operation (200 for a
 * create, 200 with a body for a delete, 204 with none for a change) and the fields of the logo
 * upload answer. Every operation a reading touches runs through n8n-core's engine.
 */
const { PNG } = require('pngjs');
const { useSandbox } = require('../support/action-sandbox');

const ctx = useSandbox();
const byId = (value) => ({ __rl: true, mode: 'id', value });
const qrCode = (operation, extra = {}) => ({ resource: 'qrCode', operation, ...extra });

/** Switches the sandbox to these readings for the tests of one describe block. */
function withReadings(...names) {
	beforeAll(() => ctx.control('PUT', '/readings', { names }));
	afterAll(() => ctx.control('PUT', '/readings', { names: [] }));
}

/** Runs an operation and checks that it ran without error. */
async function runOk(parameters, options) {
	const result = await ctx.run(parameters, options);
	expect(result.error).toBeUndefined();
	return result.items;
}

/** The status the sandbox answered the last request of this method with. */
async function lastStatus(method) {
	const requests = await ctx.requests();
	return requests.filter((request) => request.method === method).pop();
}

afterAll(() => ctx.expectNoKeyLeak());

describe('status-codes-alt: 200 on create, 200 with a body on delete, 204 on change', () => {
	withReadings('status-codes-alt');
	let code;

	test('Create outputs the created code (answered 200)', async () => {
		[{ json: code }] = await runOk(
			qrCode('create', { name: 'Statuses', type: 'url', payload_url_url: 'https://example.com/s' }),
		);
		expect(code).toMatchObject({ name: 'Statuses', type: 'url' });
		expect(code.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(await lastStatus('POST')).toMatchObject({ status: 200 });
	});

	test('Update outputs the changed record although the PATCH answered 204 with no body', async () => {
		const [updated] = await runOk(
			qrCode('update', {
				qrCodeId: byId(code.id),
				updateFields: { name: 'Renamed' },
				payloadInput: 'none',
			}),
		);
		expect(await lastStatus('PATCH')).toMatchObject({ status: 204 });
		expect(updated.json).toMatchObject({ id: code.id, name: 'Renamed', type: 'url' });
	});

	test('Pause and Resume output the record with its new state', async () => {
		const [paused] = await runOk(qrCode('pause', { qrCodeId: byId(code.id) }));
		expect(paused.json).toMatchObject({ id: code.id, paused: true });
		const [resumed] = await runOk(qrCode('resume', { qrCodeId: byId(code.id) }));
		expect(resumed.json).toMatchObject({ id: code.id, paused: false });
		expect(await lastStatus('PATCH')).toMatchObject({ status: 204 });
	});

	test('Delete outputs { deleted: true } when the DELETE answers 200 with a body', async () => {
		const [deleted] = await runOk(qrCode('delete', { qrCodeId: byId(code.id) }));
		expect(deleted.json).toEqual({ deleted: true });
		expect(await lastStatus('DELETE')).toMatchObject({ status: 200 });
		expect((await ctx.allCodes()).find((c) => c.id === code.id).deleted).toBe(true);
	});

	test('Webhook Endpoint Create (answered 200) and Delete (answered 200 { deleted: true })', async () => {
		const [created] = await runOk({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://example.com/hook-status',
			events: ['qr_code.created'],
			includeSecret: true,
		});
		expect(created.json).toMatchObject({ url: 'https://example.com/hook-status' });
		expect(created.json.secret).toMatch(/^whsec_/);
		const [deleted] = await runOk({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookEndpointId: byId(created.json.id),
		});
		expect(deleted.json).toEqual({ deleted: true });
		expect(await lastStatus('DELETE')).toMatchObject({ status: 200 });
	});
});

describe.each(['logo-upload-id-only', 'logo-upload-upload-id'])('%s', (reading) => {
	withReadings(reading);

	test('Logo > Upload outputs the upload with its id as `id`, usable by Create', async () => {
		const png = new PNG({ width: 8, height: 8 });
		png.data.fill(255);
		const base64 = PNG.sync.write(png).toString('base64');
		const [upload] = await runOk(
			{ resource: 'logo', operation: 'upload', binaryPropertyName: 'logo' },
			{
				items: [
					{ json: {}, binary: { logo: { base64, mimeType: 'image/png', fileName: 'logo.png' } } },
				],
			},
		);
		expect(upload.json.id).toMatch(/^[A-Za-z0-9_-]{12}$/);

		const [withLogo] = await runOk(
			qrCode('create', {
				name: 'Logo code',
				type: 'url',
				payload_url_url: 'https://example.com/logo',
				additionalFields: { logoUploadId: upload.json.id },
				simplify: false,
			}),
		);
		expect(withLogo.json.design).toMatchObject({ logo_upload_id: upload.json.id });
	});
});

describe('tags-as-string: tags must be one comma-separated string', () => {
	withReadings('tags-as-string');

	test('Create resends the refused list as a string, under its own key, and outputs the code', async () => {
		const [created] = await runOk(
			qrCode('create', {
				name: 'Tagged',
				type: 'url',
				payload_url_url: 'https://example.com/t',
				additionalFields: { tags: 'spring, print', idempotencyKey: 'row-7' },
				simplify: false,
			}),
		);
		expect(created.json).toMatchObject({ name: 'Tagged', tags: ['spring', 'print'] });
		const posts = (await ctx.requests()).filter(
			(request) => request.method === 'POST' && request.path === '/qr-codes',
		);
		expect(posts.slice(-2)).toEqual([
			expect.objectContaining({ status: 422, idempotency_key: 'row-7' }),
			expect.objectContaining({ status: 201, idempotency_key: 'row-7-tags' }),
		]);
	});
});

/** A code created into a folder no code has named: refused under reading "folder-must-exist". */
const createInUnknownFolder = qrCode('create', {
	name: 'Filed',
	type: 'url',
	payload_url_url: 'https://example.com/f',
	additionalFields: { folder: 'Nowhere' },
});

describe('folder-must-exist: a folder must be made first', () => {
	withReadings('folder-must-exist');

	test('Create into an unknown folder fails naming the field and what to do', async () => {
		const { error } = await ctx.run(createInUnknownFolder);
		expect(error.message).toMatch(/422.*folder: The folder "Nowhere" does not exist/);
		expect(error.description).toMatch(/create the folder in the dashboard/);
		expect(error.description).toMatch(/or leave Folder empty/);
	});

	test('Create into a folder that exists works', async () => {
		await ctx.control('PUT', '/readings', { names: [] });
		await runOk(
			qrCode('create', {
				name: 'First',
				type: 'url',
				payload_url_url: 'https://example.com/f1',
				additionalFields: { folder: 'Flyers' },
			}),
		);
		await ctx.control('PUT', '/readings', { names: ['folder-must-exist'] });
		const [filed] = await runOk(
			qrCode('create', {
				name: 'Second',
				type: 'url',
				payload_url_url: 'https://example.com/f2',
				additionalFields: { folder: 'Flyers' },
				simplify: false,
			}),
		);
		expect(filed.json).toMatchObject({ name: 'Second', folder: 'Flyers' });
	});
});

describe.each(['errors-as-list', 'error-object'])(
	"%s: errors in another shape keep the service's words and the fields it named",
	(reading) => {
		const useReadings = (...names) =>
			ctx.control('PUT', '/readings', { names: [reading, ...names] });
		afterAll(() => ctx.control('PUT', '/readings', { names: [] }));

		test('Create into an unknown folder names the field and what to do', async () => {
			await useReadings('folder-must-exist');
			const { error } = await ctx.run(createInUnknownFolder);
			expect(error.message).toMatch(
				/^The API rejected the request \(422\): folder: The folder "Nowhere" does not exist\./,
			);
			expect(error.description).toMatch(/create the folder in the dashboard/);
		});

		test('a refused tags list is sent again as a string: the refusal is read from its fields', async () => {
			await useReadings('tags-as-string');
			const [created] = await runOk(
				qrCode('create', {
					name: 'Tagged',
					type: 'url',
					payload_url_url: 'https://example.com/t',
					additionalFields: { tags: 'spring, print' },
					simplify: false,
				}),
			);
			expect(created.json).toMatchObject({ name: 'Tagged', tags: ['spring', 'print'] });
			const posts = (await ctx.requests()).filter((request) => request.method === 'POST');
			expect(posts.slice(-2).map((request) => request.status)).toEqual([422, 201]);
		});

		test.each([
			['readOnly', 'The API key is read-only and cannot POST /qr-codes (403)'],
			['noApi', "The workspace's plan has no API access (403)"],
			['revoked', 'The Dynamic QR API refused the API key (401)'],
		])('a %s key gets its own explanation', async (key, message) => {
			await useReadings();
			const { error } = await ctx.run(
				qrCode('create', { name: 'Keyed', type: 'url', payload_url_url: 'https://example.com' }),
				{ key },
			);
			expect(error.message).toBe(message);
		});

		test("an unknown code is named, with the service's answer read", async () => {
			await useReadings();
			const { error } = await ctx.run(qrCode('get', { qrCodeId: byId('AAAAAAAAAAAA') }));
			expect(error.message).toBe(
				'The QR code "AAAAAAAAAAAA" was not found in this workspace (404)',
			);
			expect(error.message).not.toMatch(/\[object Object\]/);
		});
	},
);

// gone-410 comes first: error-object then wraps the 410 it made.
describe.each([[['gone-410']], [['gone-410', 'error-object']]])(
	'%j: a record deleted earlier answers 410',
	(readings) => {
		withReadings(...readings);

		test('QR Code › Delete of a deleted code, and Get of it, name it as deleted', async () => {
			const [{ json: code }] = await runOk(
				qrCode('create', {
					name: 'Short-lived',
					type: 'url',
					payload_url_url: 'https://example.com',
				}),
			);
			await runOk(qrCode('delete', { qrCodeId: byId(code.id) }));
			for (const operation of ['delete', 'get']) {
				const { error } = await ctx.run(qrCode(operation, { qrCodeId: byId(code.id) }));
				expect(error.httpCode).toBe('410');
				expect(error.message).toBe(`The QR code "${code.id}" was deleted (410)`);
			}
		});

		test('Webhook Endpoint › Delete of a deleted endpoint names it as deleted', async () => {
			const [{ json: endpoint }] = await runOk({
				resource: 'webhookEndpoint',
				operation: 'create',
				url: 'https://example.com/hook-gone',
				events: ['scan.created'],
			});
			const remove = {
				resource: 'webhookEndpoint',
				operation: 'delete',
				webhookEndpointId: byId(endpoint.id),
			};
			await runOk(remove);
			const { error } = await ctx.run(remove);
			expect(error.message).toBe(`The webhook endpoint "${endpoint.id}" was deleted (410)`);
		});
	},
);
