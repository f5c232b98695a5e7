'use strict';

// /qr-codes: list, create (with Idempotency-Key), get, update, delete.

const { TYPE_NAMES } = require('./qr-types');
const { publicRecord, findCode, validateCreate, validateUpdate } = require('./qr-code-records');
const { createIdempotency } = require('./idempotency');
const { paginate, DEFAULT_PER_PAGE } = require('./pagination');
const { ApiError, invalid, sleep } = require('./http-util');
const { newId, newSlug } = require('./ids');
const { PAGINATION_QUERY, ID_PARAM } = require('./api-docs');

function listFilters(query) {
	const errors = {};
	if (query.type !== undefined && !TYPE_NAMES.includes(query.type)) {
		errors.type = `type must be one of: ${TYPE_NAMES.join(', ')}.`;
	}
	if (query.archived !== undefined && !['true', 'false'].includes(query.archived)) {
		errors.archived = 'archived must be true or false.';
	}
	if (Object.keys(errors).length) throw invalid(errors);
	const search = (query.search || '').toLowerCase();
	if (!search && query.type === undefined && query.archived === undefined) return undefined;
	return (code) =>
		(!search || code.name.toLowerCase().includes(search)) &&
		(query.type === undefined || code.type === query.type) &&
		(query.archived === undefined || String(code.archived) === query.archived);
}

function qrCodeRoutes(ctx) {
	const { state, clock, urls, dispatcher, faults, readings } = ctx;
	const idempotency = createIdempotency(state, clock);
	const record = (code, options) => publicRecord(code, urls, options);
	// A workspace's live codes, newest first, listed again only after a create or a delete (or a
	// reset, which makes a new array): a page of 100,000 codes costs its page, not the list.
	let deletions = 0;
	const listed = new Map();
	const newestFirst = (workspace) => {
		const version = [state.codes, state.codes.length, deletions];
		const cached = listed.get(workspace.id);
		if (cached?.version.every((part, index) => part === version[index])) return cached.codes;
		const codes = state.codes
			.filter((c) => c.workspaceId === workspace.id && !c.deleted_at)
			.reverse();
		listed.set(workspace.id, { version, codes });
		return codes;
	};
	const listOf = (workspace, matches) => {
		const codes = newestFirst(workspace);
		return matches ? codes.filter(matches) : codes;
	};
	const deleteCode = (code) => {
		code.deleted_at = clock.iso();
		deletions++;
	};

	function createCode(workspace, fields) {
		const now = clock.iso();
		const limit = faults.codeLimit();
		if (limit > 0 && newestFirst(workspace).length >= limit) {
			throw invalid({
				plan: `The plan allows ${limit} QR codes and the workspace has ${limit}. Upgrade the plan or delete codes.`,
			});
		}
		if (fields.folder && readings?.isActive('folder-must-exist')) {
			if (!state.folders.get(workspace.id)?.has(fields.folder)) {
				throw invalid({
					folder: `The folder "${fields.folder}" does not exist. Create it in the dashboard first.`,
				});
			}
		}
		if (fields.folder) {
			// Folders are created when a code names one that does not exist yet.
			if (!state.folders.has(workspace.id)) state.folders.set(workspace.id, new Set());
			state.folders.get(workspace.id).add(fields.folder);
		}
		const code = {
			...fields,
			id: newId(),
			workspaceId: workspace.id,
			slug: newSlug(),
			paused: false,
			archived: false,
			scans: 0,
			last_scanned_at: null,
			created_at: now,
			updated_at: now,
			deleted_at: null,
		};
		state.codes.push(code);
		dispatcher.emit(workspace, 'qr_code.created', record(code));
		return code;
	}

	/** The listChurn fault: codes created and deleted while a client pages through the list. */
	function churn(workspace, change) {
		if (!change) return;
		for (let i = 0; i < change.creates; i++) {
			createCode(workspace, {
				name: `churn ${state.codes.length}`,
				type: 'url',
				payload: { url: `https://example.com/churn/${state.codes.length}` },
			});
		}
		for (let i = 0; i < change.deletes; i++) {
			const live = newestFirst(workspace);
			if (!live.length) return;
			const code = live[Math.min(live.length - 1, Math.floor(change.deleteAt * live.length))];
			deleteCode(code);
			dispatcher.emit(workspace, 'qr_code.deleted', record(code));
		}
	}

	return [
		{
			method: 'GET',
			path: '/qr-codes',
			summary: 'List QR codes, newest first',
			query: [
				{ name: 'search', type: 'string', description: 'Case-insensitive part of the name' },
				{ name: 'type', type: 'string', enum: TYPE_NAMES },
				{ name: 'archived', type: 'boolean' },
				...PAGINATION_QUERY,
			],
			success: { status: 200, description: 'A page of QR code records' },
			async handle({ workspace, query, listUrl }) {
				const matches = listFilters(query);
				const failRetryAfter = faults.takeListPageFailure(Number(query.page) || 1);
				if (failRetryAfter !== null) {
					throw new ApiError(
						503,
						'The service is unavailable; try again later.',
						{},
						{
							'Retry-After': String(failRetryAfter),
						},
					);
				}
				const delayMs = faults.listPageDelayMs();
				if (delayMs > 0) {
					const perPage = Number(query.per_page) || DEFAULT_PER_PAGE;
					const pages = Math.ceil(listOf(workspace, matches).length / perPage);
					await sleep(Math.max(0, pages - (Number(query.page) || 1)) * delayMs);
				}
				churn(workspace, faults.takeListChurn());
				const page = paginate(listOf(workspace, matches), query, listUrl);
				return { status: 200, json: { ...page, data: page.data.map((code) => record(code)) } };
			},
		},
		{
			method: 'POST',
			path: '/qr-codes',
			write: true,
			body: 'json',
			summary: 'Create a QR code',
			headers: [
				{ name: 'Idempotency-Key', description: 'Repeat a create safely after a network error' },
			],
			bodySchema: {
				type: 'object',
				required: ['type', 'name', 'payload'],
				properties: {
					type: { type: 'string', enum: TYPE_NAMES },
					name: { type: 'string' },
					payload: { type: 'object' },
					design: { type: 'object', properties: { logo_upload_id: { type: ['string', 'null'] } } },
					folder: { type: 'string' },
					tags: { type: 'array', items: { type: 'string' } },
					domain: { type: 'string' },
				},
			},
			success: { status: 201, description: 'The created QR code with its design' },
			handle({ workspace, body, req }) {
				const key = req.headers['idempotency-key'];
				if (key !== undefined) {
					const remembered = idempotency.replay(workspace.id, key, body);
					if (remembered) {
						return {
							status: remembered.status,
							json: remembered.json,
							headers: { 'Idempotent-Replayed': 'true' },
						};
					}
				}
				const code = createCode(workspace, validateCreate(body, { state, workspace, urls }));
				const answer = { status: 201, json: { data: record(code, { withDesign: true }) } };
				if (key !== undefined) idempotency.remember(workspace.id, key, body, answer);
				// The code is committed; a drop fault now loses only the answer, as a network error would.
				return { ...answer, dropConnection: faults.takeDropAfterCommit() };
			},
		},
		{
			method: 'GET',
			path: '/qr-codes/{id}',
			params: [ID_PARAM],
			summary: 'Get one QR code',
			success: { status: 200, description: 'The QR code record' },
			handle: ({ workspace, params }) => ({
				status: 200,
				json: { data: record(findCode(state, workspace, params.id)) },
			}),
		},
		{
			method: 'PATCH',
			path: '/qr-codes/{id}',
			params: [ID_PARAM],
			write: true,
			body: 'json',
			summary: 'Change only the fields sent (name, type, payload, design, paused)',
			bodySchema: {
				type: 'object',
				properties: {
					name: { type: 'string' },
					type: { type: 'string', enum: TYPE_NAMES },
					payload: { type: 'object' },
					design: { type: 'object' },
					paused: { type: 'boolean' },
				},
			},
			success: { status: 200, description: 'The updated QR code with its design' },
			handle({ workspace, params, body }) {
				const code = findCode(state, workspace, params.id);
				const mergeDesign = readings?.isActive('design-merged');
				const changes = validateUpdate(body, code, { state, workspace, mergeDesign });
				if (faults.takePatchFailure())
					throw new ApiError(500, 'Injected fault: nothing was changed.');
				const before = JSON.stringify(record(code, { withDesign: true }));
				Object.assign(code, changes);
				if (JSON.stringify(record(code, { withDesign: true })) !== before) {
					code.updated_at = clock.iso();
					dispatcher.emit(workspace, 'qr_code.updated', record(code));
				}
				return { status: 200, json: { data: record(code, { withDesign: true }) } };
			},
		},
		{
			method: 'DELETE',
			path: '/qr-codes/{id}',
			params: [ID_PARAM],
			write: true,
			summary: 'Delete a QR code (its short link then shows a not-found page)',
			success: { status: 204, description: 'Deleted' },
			handle({ workspace, params }) {
				const code = findCode(state, workspace, params.id);
				deleteCode(code);
				dispatcher.emit(workspace, 'qr_code.deleted', record(code));
				return { status: 204 };
			},
		},
	];
}

module.exports = { qrCodeRoutes };
