#!/usr/bin/env node
'use strict';
/**
 * Writes the README's pictures from the real editor: n8n (N8N_VERSIONS.current) with the packed
 * package, the sandbox as the service, Debian's Chromium driven through the same helpers as the
 * editor tests (dev/editor/browser.js).
 *
 *   npm run screenshots              # docs/images/{workflow,action-panel,trigger-panel}.png
 *   npm run screenshots -- --out /tmp/shots
 *
 * Installs Chromium with apt-get when it is missing (dev/editor/chromium.js); provisions n8n on
 * first use (minutes). Stops with an error, writing nothing more, when the editor shows
 * an error message, so a broken picture never replaces a good one silently.
 */
const fs = require('node:fs');
const path = require('node:path');

const { startN8n, N8N_VERSIONS } = require('../n8n/instance');
const { ensureChromium } = require('../editor/chromium');
const { launchEditorBrowser, poll } = require('../editor/browser');
const { createCodeWorkflow, triggerWorkflow } = require('../editor/workflows');
const { startSandbox } = require('../sandbox');
const { loadExamples, CREDENTIAL_NAME } = require('../examples');
const { REPO_ROOT } = require('../paths');

const log = (line) => process.stderr.write(`[screenshots] ${line}\n`);

function outputFolder(argv) {
	const index = argv.indexOf('--out');
	return path.resolve(index >= 0 ? argv[index + 1] : path.join(REPO_ROOT, 'docs', 'images'));
}

/** Refuses to keep a picture of an error: n8n shows failures as error toasts. */
async function assertNoErrorShown(editor, picture) {
	const errors = await editor.page
		.locator('.el-notification--error:visible, [data-test-id="node-error-message"]:visible')
		.allInnerTexts();
	if (errors.length) {
		throw new Error(`The editor shows an error while taking ${picture}: ${errors.join(' | ')}`);
	}
}

async function main() {
	const out = outputFolder(process.argv.slice(2));
	fs.mkdirSync(out, { recursive: true });
	await ensureChromium({ log });

	const sandbox = await startSandbox({ port: 0 });
	let n8n;
	let browser;
	try {
		n8n = await startN8n({ version: N8N_VERSIONS.current, log });
		await n8n.createCredential({
			name: CREDENTIAL_NAME,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		browser = await launchEditorBrowser({ log });
		const editor = await browser.signIn(n8n);
		const written = [];
		const save = async (name) => {
			await assertNoErrorShown(editor, name);
			written.push(await editor.screenshot(path.join(out, name)));
			log(`wrote ${path.relative(REPO_ROOT, written[written.length - 1])}`);
		};

		// 1. A workflow after a run: the bulk-create example, every node ticked off.
		const bulk = await n8n.createWorkflow(loadExamples()['bulk-create-qr-codes.json']);
		await editor.openWorkflow(bulk.id);
		await editor.executeWorkflow();
		await editor.waitForNodeSuccess('Create QR code');
		await save('workflow.png');

		// 2. The action node's panel: Create with a type's own fields, run once.
		const action = await n8n.createWorkflow(
			createCodeWorkflow(
				'Create QR code',
				{
					name: 'Table 12: order on WhatsApp',
					type: 'whatsapp',
					payload_whatsapp_phone: '+14155550123',
					payload_whatsapp_message: 'Hello! Table 12 would like to order.',
					additionalFields: { tags: 'restaurant, table', folder: 'Restaurant' },
				},
				{ workflowName: 'Create a WhatsApp QR code' },
			),
		);
		await editor.openWorkflow(action.id);
		await editor.openNode('Create QR code');
		await editor.executeOpenNode();
		await editor.showOutputAs('JSON');
		await save('action-panel.png');
		await editor.closeNode();

		// 3. The trigger's panel after a test event: a scan of one of the codes made above.
		const [code] = (await sandbox.control('GET', '/qr-codes')).data.filter(
			(record) => record.name === 'Spring Flyer',
		);
		if (!code) throw new Error('The bulk-create example made no "Spring Flyer" code');
		const trigger = await n8n.createWorkflow(
			triggerWorkflow('Dynamic QR Trigger', ['scan.created', 'lead.created']),
			{ name: 'Scans and leads to the team' },
		);
		await editor.openWorkflow(trigger.id);
		await editor.openNode('Dynamic QR Trigger');
		await editor.listenForTestEvent();
		const testUrl = `${n8n.url}/webhook-test/${trigger.webhookIds['Dynamic QR Trigger']}/webhook`;
		await poll(
			async () =>
				(await sandbox.control('GET', '/webhooks')).data.some((entry) => entry.url === testUrl),
			{ what: 'the test webhook to be registered at the sandbox', timeoutMs: 60000 },
		);
		await sandbox.control('POST', '/scans', {
			qr_code_id: code.id,
			country: 'DE',
			city: 'Berlin',
			device: 'mobile',
			os: 'iOS',
			browser: 'Safari',
			language: 'de',
		});
		await poll(async () => (await editor.outputText()).includes(code.id), {
			what: 'the scan in the output pane',
			timeoutMs: 60000,
		});
		await editor.showOutputAs('JSON');
		await save('trigger-panel.png');
		await editor.closeNode();

		log(`done: ${written.length} pictures in ${path.relative(REPO_ROOT, out) || out}`);
	} finally {
		await browser?.close();
		await n8n?.stop();
		await sandbox.close();
	}
}

main().catch((error) => {
	log(error.stack || error.message);
	process.exit(1);
});
