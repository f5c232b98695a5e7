'use strict';

const { newId, newApiKey, newSlug } = require('./ids');

const PLANS = {
	pro: { name: 'Pro', api_access: true, smart_redirects: true },
	basic: { name: 'Basic', api_access: true, smart_redirects: false },
	free: { name: 'Free', api_access: false, smart_redirects: false },
};

function seedWorkspaces(createdAt) {
	const workspace = (name, plan, ownerEmail) => ({
		id: newId(),
		name,
		plan: PLANS[plan],
		owner: { id: newId(), name: `${name} Owner`, email: ownerEmail },
		ownerEmail,
		created_at: createdAt,
	});
	return {
		pro: workspace('Sandbox Pro', 'pro', 'owner@sandbox.test'),
		basic: workspace('Sandbox Basic', 'basic', 'basic-owner@sandbox.test'),
		free: workspace('Sandbox Free', 'free', 'free-owner@sandbox.test'),
	};
}

/**
 * The sandbox's whole memory. Keys, workspaces and one card are seeded once and survive a
 * reset; everything the API or the control API creates is forgotten by `reset()`.
 */
function createState(clock) {
	const workspaces = seedWorkspaces(clock.iso());
	const keys = {
		readWrite: newApiKey(),
		readOnly: newApiKey(),
		noSmartRedirects: newApiKey(),
		noApi: newApiKey(),
		revoked: newApiKey(),
	};
	const keyRecords = new Map([
		[keys.readWrite, { workspace: workspaces.pro, access: 'read_write', revoked: false }],
		[keys.readOnly, { workspace: workspaces.pro, access: 'read_only', revoked: false }],
		[keys.revoked, { workspace: workspaces.pro, access: 'read_write', revoked: true }],
		[keys.noSmartRedirects, { workspace: workspaces.basic, access: 'read_write', revoked: false }],
		[keys.noApi, { workspace: workspaces.free, access: 'read_write', revoked: false }],
	]);
	const card = {
		id: newId(),
		workspaceId: workspaces.pro.id,
		slug: newSlug(),
		name: 'Sandbox Card',
		created_at: clock.iso(),
	};

	const state = {
		workspaces,
		workspaceList: Object.values(workspaces),
		keys,
		keyRecords,
		card,
		reset() {
			state.cards = [card]; // the seeded card; others come from POST /__sandbox/cards
			state.codes = []; // deleted codes stay here with deleted_at, so their short links answer 404
			state.scans = [];
			state.leads = [];
			state.uploads = [];
			state.folders = new Map(); // workspaceId -> Set of folder names
			state.idempotency = new Map(); // `${workspaceId} ${key}` -> remembered answer
			state.requests = [];
		},
		workspaceById: (id) => state.workspaceList.find((workspace) => workspace.id === id),
	};
	state.reset();
	return state;
}

module.exports = { createState, PLANS };
