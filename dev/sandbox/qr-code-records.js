'use strict';

// QR code records: validation of create and update bodies, the public shape, lookups.

const { QR_TYPES, TYPE_NAMES, validatePayload, destinationFor } = require('./qr-types');
const { isPlainObject, checkText } = require('./validators');
const { invalid, notFound } = require('./http-util');

const CREATE_FIELDS = ['type', 'name', 'payload', 'design', 'folder', 'tags', 'domain'];
const UPDATE_FIELDS = ['name', 'payload', 'type', 'design', 'paused'];
const MAX_TAGS = 20;

function publicRecord(code, urls, { withDesign = false } = {}) {
	const record = {
		id: code.id,
		object: 'qr_code',
		name: code.name,
		type: code.type,
		payload: code.payload,
		short_url: urls.shortUrl(code.domain, code.slug),
		domain: code.domain,
		destination: destinationFor(code, { pageUrl: urls.pageUrl(code.id) }),
		status: 'active',
		paused: code.paused,
		scans: code.scans,
		last_scanned_at: code.last_scanned_at,
		archived: code.archived,
		folder: code.folder,
		tags: code.tags,
		created_at: code.created_at,
		updated_at: code.updated_at,
	};
	return withDesign ? { ...record, design: code.design } : record;
}

function findCode(state, workspace, id) {
	const code = state.codes.find(
		(c) => c.id === id && c.workspaceId === workspace.id && !c.deleted_at,
	);
	if (!code) throw notFound('QR code');
	return code;
}

function checkType(errors, type, workspace) {
	if (!TYPE_NAMES.includes(type)) {
		errors.type = `type must be one of: ${TYPE_NAMES.join(', ')}.`;
	} else if (QR_TYPES[type].pro && !workspace.plan.smart_redirects) {
		errors.type = `Type ${type} needs a plan with smart redirects (Pro); this workspace is on ${workspace.plan.name}. Upgrade the plan or choose another type.`;
	}
}

function checkPayload(errors, type, payload) {
	if (!TYPE_NAMES.includes(type)) return payload;
	const result = validatePayload(type, payload);
	Object.assign(errors, result.errors);
	return result.payload;
}

function checkDesign(errors, design, state, workspace) {
	if (!isPlainObject(design)) {
		errors.design = 'design must be an object.';
		return;
	}
	const uploadId = design.logo_upload_id;
	if (uploadId === undefined || uploadId === null) return;
	const known = state.uploads.some(
		(upload) => upload.id === uploadId && upload.workspaceId === workspace.id,
	);
	if (!known) {
		errors['design.logo_upload_id'] =
			`design.logo_upload_id "${uploadId}" is not a logo uploaded to this workspace. Upload it with POST /uploads/logos first.`;
	}
}

function checkUnknownFields(errors, body, allowed, reasonFor) {
	for (const field of Object.keys(body)) {
		if (!allowed.includes(field)) errors[field] = reasonFor(field);
	}
}

/** Notes an error naming `field` when `value` is not acceptable text; true when it is fine. */
function setTextError(errors, field, value, max) {
	const problem = checkText(value, max);
	if (problem) errors[field] = `${field} ${problem}.`;
	return !problem;
}

const throwIfAny = (errors) => {
	if (Object.keys(errors).length) throw invalid(errors);
};

/** A create body checked and normalised: { type, name, payload, design, folder, tags, domain }. */
function validateCreate(body, { state, workspace, urls }) {
	const errors = {};
	checkUnknownFields(
		errors,
		body,
		CREATE_FIELDS,
		(field) => `${field} is not accepted; send only: ${CREATE_FIELDS.join(', ')}.`,
	);
	if (body.type === undefined) errors.type = 'The type field is required.';
	else checkType(errors, body.type, workspace);
	if (body.name === undefined || body.name === null) errors.name = 'The name field is required.';
	else setTextError(errors, 'name', body.name, 255);
	let payload;
	if (body.payload === undefined || body.payload === null)
		errors.payload = 'The payload field is required.';
	else payload = checkPayload(errors, body.type, body.payload);
	if (body.design !== undefined && body.design !== null)
		checkDesign(errors, body.design, state, workspace);
	if (body.folder !== undefined && body.folder !== null)
		setTextError(errors, 'folder', body.folder, 100);
	if (body.tags !== undefined && body.tags !== null) {
		const tagsOk =
			Array.isArray(body.tags) &&
			body.tags.length <= MAX_TAGS &&
			body.tags.every((tag) => !checkText(tag, 50));
		if (!tagsOk)
			errors.tags = `tags must be a list of at most ${MAX_TAGS} non-empty strings (each at most 50 characters).`;
	}
	const domain =
		body.domain === undefined || body.domain === null || body.domain === ''
			? urls.standardDomain
			: body.domain;
	if (!urls.domains.includes(domain)) {
		errors.domain = `domain must be one of the workspace's redirect domains: ${urls.domains.join(', ')}; omit it for the standard short domain.`;
	}
	throwIfAny(errors);
	return {
		type: body.type,
		name: body.name,
		payload,
		design: { logo_upload_id: null, ...(body.design || {}) },
		folder: body.folder || null,
		tags: body.tags ? [...new Set(body.tags)] : [],
		domain,
	};
}

/**
 * The fields a PATCH changes, checked against the resulting type: { name?, type?, payload?, design?,
 * paused? }. A design sent replaces the code's design, or with `mergeDesign` (reading
 * "design-merged") keeps the keys it leaves out.
 */
function validateUpdate(body, code, { state, workspace, mergeDesign = false }) {
	const errors = {};
	checkUnknownFields(errors, body, UPDATE_FIELDS, (field) =>
		field === 'domain'
			? 'The domain cannot be changed after creation.'
			: `${field} cannot be changed through the API; send only: ${UPDATE_FIELDS.join(', ')}.`,
	);
	const changes = {};
	if ('name' in body) {
		if (setTextError(errors, 'name', body.name, 255)) changes.name = body.name;
	}
	if ('type' in body) {
		checkType(errors, body.type, workspace);
		changes.type = body.type;
	}
	const type = changes.type || code.type;
	// A payload sent replaces the old one; a new type without a payload must fit the old payload.
	if ('payload' in body || 'type' in body) {
		const payload = 'payload' in body ? body.payload : code.payload;
		if (payload === null || payload === undefined) errors.payload = 'payload must be an object.';
		else changes.payload = checkPayload(errors, type, payload);
	}
	if ('design' in body) {
		checkDesign(errors, body.design, state, workspace);
		const kept = mergeDesign ? code.design : { logo_upload_id: null };
		changes.design = { ...kept, ...(body.design || {}) };
	}
	if ('paused' in body) {
		if (typeof body.paused !== 'boolean') errors.paused = 'paused must be true or false.';
		else changes.paused = body.paused;
	}
	throwIfAny(errors);
	return changes;
}

module.exports = { publicRecord, findCode, validateCreate, validateUpdate };
