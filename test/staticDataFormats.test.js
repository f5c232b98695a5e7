'use strict';
/**
 * The static data active workflows hold is written by the version that was installed when it was
 * saved. Here the real code of version 0.1.0 (from the packed release in test/fixtures) writes it
 * and this build reads it, and the other way round: the trigger's delivery record and registered
 * endpoint, and the polling trigger's cursor.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const TARBALL = path.join(__dirname, 'fixtures', 'n8n-nodes-dynamic-qr-0.1.0-c185cf0.tgz');
// Inside node_modules, so that the old code finds n8n-workflow as an installed package would.
const OLD = path.join(ROOT, 'node_modules', '.cache', 'n8n-nodes-dynamic-qr-0.1.0');

beforeAll(() => {
	fs.rmSync(OLD, { recursive: true, force: true });
	fs.mkdirSync(OLD, { recursive: true });
	execFileSync('tar', ['xzf', TARBALL, '-C', OLD, '--strip-components=1']);
});
afterAll(() => fs.rmSync(OLD, { recursive: true, force: true }));

const fresh = (file) => {
	let loaded;
	jest.isolateModules(() => {
		loaded = require(file);
	});
	return loaded;
};
const oldModule = (file) => fresh(path.join(OLD, 'dist', 'nodes', file));
const newModule = (file) => fresh(path.join(ROOT, 'dist', 'nodes', 'DynamicQr', file));

/** A stand-in for the functions n8n hands a trigger: the node's static data and identity. */
function contextWith(staticData) {
	return {
		getWorkflowStaticData: () => staticData,
		getNode: () => ({ id: 'node-1', name: 'Dynamic QR Trigger' }),
		getWorkflow: () => ({ id: 'workflow-1' }),
	};
}

const NOW = Date.parse('2026-11-23T12:00:00Z');

/** A delivery of `id` through this version's ledger, started when new; true for a repeat. */
function deliver(staticData, id, nowMs) {
	const ledger = newModule('trigger/ledger.js').openLedger(contextWith(staticData), nowMs);
	const repeat = ledger.has([id]);
	if (!repeat) ledger.claim(id);
	ledger.settle(true);
	ledger.save();
	return repeat;
}

test('a delivery recorded by 0.1.0 is a repeat for this version, and the record keeps its entries', () => {
	const stored = {};
	const old = oldModule('DynamicQrTrigger/delivery.js');
	for (const id of ['evt_a', 'evt_b', 'evt_c']) {
		expect(old.isRepeatDelivery(stored, 'old-process', id, NOW)).toBe(false);
	}
	const written = stored.deliveries;
	expect(written).toHaveLength(3 * 18);

	const staticData = JSON.parse(JSON.stringify(stored));
	expect(deliver(staticData, 'evt_b', NOW + 60_000)).toBe(true);
	expect(staticData.deliveries).toBe(written);
	expect(deliver(staticData, 'evt_d', NOW + 60_000)).toBe(false);
	expect(staticData.deliveries.startsWith(written)).toBe(true);
	expect(staticData.deliveries).toHaveLength(4 * 18);
});

test('a delivery recorded by this version is a repeat for 0.1.0 (a downgrade keeps working)', () => {
	const staticData = {};
	expect(deliver(staticData, 'evt_new', NOW)).toBe(false);
	const old = oldModule('DynamicQrTrigger/delivery.js');
	expect(old.isRecorded(staticData, 'evt_new', NOW)).toBe(true);
	expect(old.isRepeatDelivery(staticData, 'another-process', 'evt_new', NOW)).toBe(true);
});

test('the endpoint 0.1.0 registered is the endpoint this version knows, with its secret', () => {
	const staticData = {};
	const lifecycle = oldModule('DynamicQrTrigger/lifecycle.js');
	const oldState = lifecycle.endpointState(contextWith(staticData));
	Object.assign(oldState, {
		endpointId: 'a1B2c3D4e5F6',
		secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		url: 'https://n8n.example.com/webhook/abc/webhook',
		events: ['lead.created', 'scan.created'],
	});
	const state = newModule('trigger/state.js');
	expect(state.registeredEndpoint(contextWith(JSON.parse(JSON.stringify(staticData))))).toEqual({
		id: 'a1B2c3D4e5F6',
		secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		url: 'https://n8n.example.com/webhook/abc/webhook',
		events: ['lead.created', 'scan.created'],
	});
});

test("the polling cursor 0.1.0 saved is taken up where it stopped, and this version's by 0.1.0", () => {
	const oldCursor = oldModule('DynamicQrPollingTrigger/cursor.js');
	const leads = [
		{ id: 'lead00000002', created_at: '2026-11-23T11:59:00Z' },
		{ id: 'lead00000001', created_at: '2026-11-23T11:58:00Z' },
	];
	const saved = { key: 'newLead:card00000001', recent: [] };
	oldCursor.advance(saved, leads, NOW);
	const staticData = JSON.parse(JSON.stringify({ cursor: saved }));

	const cursor = newModule('polling/cursor.js');
	const state = newModule('polling/pollState.js');
	const ctx = contextWith(staticData);
	const loaded = state.loadCursor(ctx, 'newLead:card00000001');
	expect(loaded).toEqual(saved);
	expect(state.loadCursor(ctx, 'newLead:card00000002')).toBeUndefined();
	// Seen before the update: not emitted again; a new one is.
	const next = { id: 'lead00000003', created_at: '2026-11-23T12:00:30Z' };
	expect(cursor.advance(loaded, [next, ...leads], NOW + 60_000)).toEqual([next]);
	state.saveCursor(ctx, loaded);

	const back = JSON.parse(JSON.stringify(staticData.cursor));
	expect(oldCursor.advance(back, [next, ...leads], NOW + 120_000)).toEqual([]);
});

test('New Lead on several cards keeps its cursor under leadCursor, in the format saved workflows hold', () => {
	const card = {
		key: 'card00000001',
		recent: [['lead00000001', NOW - 60_000]],
		newestMs: NOW - 60_000,
		fromMs: NOW - 3_600_000,
		readMs: NOW - 30_000,
	};
	const saved = {
		key: 'newLead|all',
		polledMs: NOW - 30_000,
		sinceMs: NOW - 3_600_000,
		cards: [card],
	};
	const ctx = contextWith(JSON.parse(JSON.stringify({ leadCursor: saved })));
	const state = newModule('polling/pollState.js');
	const loaded = state.loadLeadCursor(ctx, 'newLead|all');
	expect(loaded).toEqual(saved);
	expect(state.loadLeadCursor(ctx, 'newLead|chosen|card00000001')).toBeUndefined();
	const leads = [
		{ id: 'lead00000002', created_at: new Date(NOW).toISOString() },
		{ id: 'lead00000001', created_at: new Date(NOW - 60_000).toISOString() },
		{ id: 'lead00000000', created_at: new Date(NOW - 7_200_000).toISOString() },
	];
	expect(newModule('polling/cursor.js').advance(loaded.cards[0], leads, NOW)).toEqual([leads[0]]);
});
