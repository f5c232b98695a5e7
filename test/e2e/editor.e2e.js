'use strict';
/**
 * End-to-end in n8n's editor: the packed package loaded into a real n8n (the current line),
 * looked at in a real browser (Debian's Chromium driven by playwright-core, see
 * dev/editor/browser.js), against the sandbox. What is asserted is what the editor shows a
 * person: which fields a node's panel displays, the issue triangles n8n puts on parameters and
 * nodes, the entries of a searchable list, and the event a trigger receives while listening.
 *
 * Run with `npm run test:e2e`, or alone: `npx jest -c jest.e2e.config.js test/e2e/editor.e2e.js`.
 * Installs Chromium with apt-get when it is missing (dev/editor/chromium.js).
 * EDITOR_E2E_SHOTS=<folder> keeps a screenshot of every test's last state there.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startN8n, N8N_VERSIONS } = require('../../dev/n8n/instance');
const { ensureChromium } = require('../../dev/editor/chromium');
const { launchEditorBrowser, settle } = require('../../dev/editor/browser');
const {
	CONTROL_NODE,
	createCodeWorkflow,
	createCodeWithControlWorkflow,
	getCodeFromListWorkflow,
	startOnlyWorkflow,
	triggerWorkflow,
	triggersWorkflow,
} = require('../../dev/editor/workflows');
const { startSandbox } = require('../../dev/sandbox');
const {
	createSandboxCredentials,
	CREDENTIAL_NAME,
	READ_ONLY_CREDENTIAL_NAME,
} = require('../../dev/n8n/sandbox-credentials');
const { DIST } = require('../../dev/paths');
const { waitFor } = require('../../dev/wait-for');
const { sandboxApi } = require('./helpers');
const { sign, randomSecret } = require('../support/sign');

const { fieldParameterName } = require(path.join(DIST, 'nodes/DynamicQr/actions/payload/names.js'));
const { QR_TYPES } = require(path.join(DIST, 'nodes/DynamicQr/qrTypes.js'));

/** The QR type of each "Fields for the Type" parameter, by its name. */
const typeOfFieldParameter = new Map(
	QR_TYPES.flatMap((type) =>
		type.fields.map((field) => [fieldParameterName(type.value, field.name), type.value]),
	),
);

const version = N8N_VERSIONS.current;
/** The README on GitHub, where every "Docs" link of the package leads (to a section). */
const README = 'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr';
const shotsDir = process.env.EDITOR_E2E_SHOTS || path.join(os.tmpdir(), 'n8n-editor-e2e-shots');

const suiteName = `n8n ${version} editor in Chromium with n8n-nodes-dynamic-qr`;

describe(suiteName, () => {
	let n8n;
	let sandbox;
	let browser;
	let editor;
	/** Every per-type payload parameter of Create: `{ name, type }` (name from fieldParameterName). */
	let payloadParameters;
	const log = (line) => process.stderr.write(`[editor e2e] ${line}\n`);

	beforeAll(
		async () => {
			// First, so a machine without a browser fails (or installs it) before n8n is started.
			await ensureChromium({ log });
			sandbox = await startSandbox({ port: 0 });
			n8n = await startN8n({ version, log });
			// As `npm run dev` makes them: a read-only key, then the read-write one.
			await createSandboxCredentials(n8n, sandbox);
			// Create's per-type fields, from the description n8n serves, each with its type as the
			// package's own naming reads it back (type values contain "_": link_bio).
			const types = await n8n.rest('GET', '/types/nodes.json');
			const action = types.find((type) => type.name === 'n8n-nodes-dynamic-qr.dynamicQr');
			const names = new Set(
				action.properties
					.filter((property) => property.displayOptions?.show?.operation?.includes('create'))
					.map((property) => property.name),
			);
			payloadParameters = [...names].flatMap((name) => {
				const type = typeOfFieldParameter.get(name);
				return type ? [{ name, type }] : [];
			});
			browser = await launchEditorBrowser({ log });
			editor = await browser.signIn(n8n);
		},
		// On a fresh machine: Chromium from apt and n8n from npm (.ci/run provisions both first).
		40 * 60 * 1000,
	);

	afterAll(async () => {
		await browser?.close();
		// E2E_KEEP=1 keeps n8n's user folder (its log and database) to look into.
		await n8n?.stop({ keep: process.env.E2E_KEEP === '1' });
		await sandbox?.close();
	}, 120000);

	/** Keeps the page as it was when a test ended (the first thing to look at when one fails). */
	afterEach(async () => {
		if (!editor) return;
		const name = expect
			.getState()
			.currentTestName.slice(suiteName.length)
			.replace(/[^A-Za-z0-9]+/g, '-')
			.replace(/^-|-$/g, '')
			.slice(0, 90);
		fs.mkdirSync(shotsDir, { recursive: true });
		await editor.page.screenshot({ path: path.join(shotsDir, `${name}.png`) }).catch(() => {});
	});

	/** The open panel's issue marks once n8n has cleared them (as they stand if it never does). */
	const clearedParameterIssues = () =>
		settle(
			() => editor.parameterIssues(),
			(issues) => issues.length === 0,
		);
	/** The per-type payload parameters the open panel shows, by internal name. */
	const shownPayloadParameters = async () =>
		(await editor.visibleParameters())
			.map((parameter) => parameter.name)
			.filter((name) => typeOfFieldParameter.has(name));
	const payloadParametersOf = (type) =>
		payloadParameters
			.filter((parameter) => parameter.type === type)
			.map((parameter) => parameter.name);

	/** Where Dynamic QR is listed (1 = first) when the nodes panel is searched for `query`. */
	const searchPosition = async (query) => {
		// From an empty search (the panel's categories), so the list read is this query's.
		await editor.searchNodesPanel('');
		await settle(
			() => editor.nodesPanelEntries(),
			(list) => !list.some((entry) => entry.name === 'Dynamic QR'),
		);
		await editor.searchNodesPanel(query);
		const entries = await settle(
			() => editor.nodesPanelEntries(),
			(list) => list.some((entry) => entry.name === 'Dynamic QR'),
		);
		log(`nodes panel, "${query}": ${entries.map((entry) => entry.name).join(', ')}`);
		return {
			position: entries.findIndex((entry) => entry.name === 'Dynamic QR') + 1,
			entry: entries.find((entry) => entry.name === 'Dynamic QR'),
		};
	};

	test('Nodes panel: "QR" and "qr code" list Dynamic QR among the first two; its entry, actions, credential and canvas subtitle read in words', async () => {
		const workflow = await n8n.createWorkflow(startOnlyWorkflow('Editor: nodes panel'));
		await editor.openWorkflow(workflow.id);
		await editor.openNodesPanel();

		const qr = await searchPosition('QR');
		const qrCode = await searchPosition('qr code');
		log(
			`Dynamic QR is listed at position ${qr.position} for "QR", ${qrCode.position} for "qr code"`,
		);
		// QRadar stays above for "QR": n8n weighs a match in a node's name (1.3) over one in an alias
		// (1.0), so no alias can outrank a name that starts with "QR". Before the codex: 8th.
		expect(qr.position).toBeLessThanOrEqual(2);
		expect(qrCode.position).toBe(1);
		// n8n shows one entry for the action node and the trigger, with the trigger's description.
		expect(qr.entry.description).toBe(
			'Create and re-point dynamic QR codes, download print files, and start workflows when a code is scanned, a lead arrives or a code changes',
		);

		await editor.pickNodesPanelEntry('Dynamic QR');
		const actions = (
			await settle(
				() => editor.nodesPanelEntries(),
				(list) => list.some((entry) => entry.name === 'Create a QR code'),
			)
		)
			.map((entry) => entry.name)
			.filter((name) => !name.startsWith('Dynamic QR'));
		log(`Dynamic QR's actions: ${actions.join(', ')}`);
		expect(actions).toEqual(
			expect.arrayContaining(['Create a QR code', 'Download a QR code image', 'Get the account']),
		);
		// A new node starts on the read-write credential, the one made last.
		await editor.pickNodesPanelEntry('Create a QR code');
		await editor.ndv.waitFor({ state: 'visible' });
		const credential = await settle(
			() => editor.selectedCredential(),
			(shown) => Boolean(shown),
		);
		expect(credential).toBe(CREDENTIAL_NAME);
		expect(credential).not.toBe(READ_ONLY_CREDENTIAL_NAME);
		expect(await editor.docsLink()).toBe(`${README}#dynamic-qr-action-node`);
		await editor.closeNode();

		const added = (await editor.canvasNodeNames()).find((name) => name !== 'Start');
		const nodeText = await settle(
			() => editor.canvasNodeText(added),
			(text) => text.includes('Create a QR code'),
		);
		expect(nodeText).toMatch(/Create a QR code/);
		expect(nodeText).not.toMatch(/create: qrCode/);
	});

	test('Nodes panel of a new workflow: Dynamic QR’s triggers read "On QR Code Created" …', async () => {
		await editor.page.goto(`${n8n.url}/workflow/new`, { waitUntil: 'domcontentloaded' });
		await editor.page.locator('[data-test-id="canvas-add-button"]').first().click();
		await editor.searchNodesPanel('QR');
		await settle(
			() => editor.nodesPanelEntries(),
			(list) => list.some((entry) => entry.name === 'Dynamic QR'),
		);
		await editor.pickNodesPanelEntry('Dynamic QR');
		const triggers = (
			await settle(
				() => editor.nodesPanelEntries(),
				(list) => list.some((entry) => entry.name.startsWith('On ')),
			)
		).map((entry) => entry.name);
		log(`Dynamic QR's triggers: ${triggers.join(', ')}`);
		expect(triggers).toEqual(
			expect.arrayContaining([
				'On Lead Created',
				'On QR Code Created',
				'On QR Code Deleted',
				'On QR Code Updated',
				'On Scan Created',
			]),
		);
	});

	test('Create, Type URL: the panel shows the URL field and no other type’s fields; no issues once Name and URL are filled', async () => {
		// What the panel is compared with: the description n8n serves has every type's fields.
		expect(payloadParametersOf('url')).toEqual(['payload_url_url']);
		expect(new Set(payloadParameters.map((parameter) => parameter.type)).size).toBe(14);

		const workflow = await n8n.createWorkflow(
			createCodeWorkflow('Create URL code', { type: 'url' }),
		);
		await editor.openWorkflow(workflow.id);
		// Name and URL are required and empty: the canvas flags the node for exactly those two.
		const before = await settle(
			() => editor.nodeIssues('Create URL code'),
			(issues) => issues.length > 0,
		);
		expect(before).toEqual(['Parameter "Name" is required.', 'Parameter "URL" is required.']);

		await editor.openNode('Create URL code');
		const labels = await editor.parameterLabels();
		expect(labels).toEqual(expect.arrayContaining(['Name', 'Type', 'Payload Input', 'URL']));
		expect(labels).not.toContain('Phone Number');
		expect(labels).not.toContain('Message');
		expect(await shownPayloadParameters()).toEqual(['payload_url_url']);
		expect(await editor.parameterIssues()).toEqual([
			{ name: 'name', label: 'Name' },
			{ name: 'payload_url_url', label: 'URL' },
		]);

		await editor.fillParameter('name', 'Spring Flyer 2030');
		await editor.fillParameter('payload_url_url', 'https://example.com/spring-sale');
		expect(await clearedParameterIssues()).toEqual([]);
		await editor.closeNode();
		const after = await settle(
			() => editor.nodeIssues('Create URL code'),
			(issues) => issues.length === 0,
		);
		expect(after).toEqual([]);
	});

	test('Create, Type WhatsApp: the panel shows Phone Number and Message, not URL', async () => {
		const workflow = await n8n.createWorkflow(
			createCodeWorkflow('Create WhatsApp code', {
				name: 'Table 12: order on WhatsApp',
				type: 'whatsapp',
				payload_whatsapp_phone: '+14155550123',
				payload_whatsapp_message: 'Hello, table 12 here',
			}),
		);
		await editor.openWorkflow(workflow.id);
		await editor.openNode('Create WhatsApp code');
		const labels = await editor.parameterLabels();
		expect(labels).toEqual(expect.arrayContaining(['Name', 'Type', 'Phone Number', 'Message']));
		expect(labels).not.toContain('URL');
		expect((await shownPayloadParameters()).sort()).toEqual(payloadParametersOf('whatsapp').sort());
		expect(payloadParametersOf('whatsapp').sort()).toEqual([
			'payload_whatsapp_message',
			'payload_whatsapp_phone',
		]);
		expect(await editor.parameterIssues()).toEqual([]);
		await editor.closeNode();
		expect(await editor.nodeIssues('Create WhatsApp code')).toEqual([]);
	});

	test('Create with Type as an expression and Payload Input JSON: no parameter issues on the node (issue 9)', async () => {
		const workflow = await n8n.createWorkflow(
			createCodeWithControlWorkflow('Create from data', {
				name: '={{ $json.name }}',
				type: '={{ $json.type }}',
				payloadInput: 'json',
				payloadJson: '={{ JSON.stringify($json.payload) }}',
			}),
		);
		await editor.openWorkflow(workflow.id);
		// The control node is flagged once n8n has worked out the issues of the workflow.
		const control = await settle(
			() => editor.nodeIssues(CONTROL_NODE),
			(issues) => issues.length > 0,
		);
		expect(control).toEqual(
			expect.arrayContaining(['Parameter "Name" is required.', 'Parameter "URL" is required.']),
		);
		// n8n cannot know the type before the run, so no type's fields may be counted as missing.
		expect(await editor.nodeIssues('Create from data')).toEqual([]);

		await editor.openNode('Create from data');
		const labels = await editor.parameterLabels();
		expect(labels).toEqual(
			expect.arrayContaining(['Name', 'Type', 'Payload Input', 'Payload (JSON)']),
		);
		expect(await shownPayloadParameters()).toEqual([]);
		expect(await editor.parameterIssues()).toEqual([]);
		await editor.closeNode();
		// Opening the panel makes n8n check the node again.
		expect(await editor.nodeIssues('Create from data')).toEqual([]);
	});

	test('Version 2, Fields for Mixed Types: Payload Fields shows the fields mapped and no other; no parameter issues', async () => {
		const workflow = await n8n.createWorkflow(
			createCodeWithControlWorkflow(
				'Create mixed (v2)',
				{
					name: '={{ $json.name }}',
					type: '={{ $json.type }}',
					payloadInput: 'mixed',
					mixedPayload: { url: '={{ $json.url }}', phone: '={{ $json.phone }}' },
				},
				{ typeVersion: 2 },
			),
		);
		await editor.openWorkflow(workflow.id);
		const control = await settle(
			() => editor.nodeIssues(CONTROL_NODE),
			(issues) => issues.length > 0,
		);
		expect(control.length).toBeGreaterThan(0);
		expect(await editor.nodeIssues('Create mixed (v2)')).toEqual([]);

		await editor.openNode('Create mixed (v2)');
		const labels = await editor.parameterLabels();
		expect(labels).toEqual(
			expect.arrayContaining(['Payload Input', 'Payload Fields', 'URL', 'Phone Number']),
		);
		// Version 1's one parameter per field is not there, nor a field nobody added.
		expect(labels).not.toContain('Email');
		expect(labels).not.toContain('Links');
		expect(await editor.parameterIssues()).toEqual([]);
		await editor.closeNode();
	});

	test('QR Code › Get, From List: the list shows the account’s codes by name, searches, and picks one', async () => {
		const marker = `List ${Date.now().toString(36)}`;
		const names = [
			`${marker} Spring Flyer`,
			`${marker} Shop Window Poster`,
			`${marker} Table Card`,
		];
		const created = [];
		for (const [index, name] of names.entries()) {
			const answer = await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name,
				type: 'url',
				payload: { url: `https://example.com/list-${index}` },
			});
			created.push(answer.data);
		}
		const shown = names.map((name) => `${name} (url)`);

		const workflow = await n8n.createWorkflow(getCodeFromListWorkflow('Get QR code'));
		await editor.openWorkflow(workflow.id);
		await editor.openNode('Get QR code');
		await editor.openResourceList('qrCodeId');
		const listed = await settle(
			() => editor.resourceListItems(),
			(items) => shown.every((name) => items.includes(name)),
			{ timeoutMs: 30000 },
		);
		expect(listed).toEqual(expect.arrayContaining(shown));

		// The search box narrows the list to the codes whose name matches.
		await editor.searchResourceList(`${marker} Shop Window`);
		const searched = await settle(
			() => editor.resourceListItems(),
			(items) => items.length === 1,
			{ timeoutMs: 30000 },
		);
		expect(searched).toEqual([`${marker} Shop Window Poster (url)`]);

		await editor.pickResource(`${marker} Shop Window Poster (url)`);
		expect(await editor.resourceLocatorValue('qrCodeId')).toBe(
			`${marker} Shop Window Poster (url)`,
		);
		expect(await clearedParameterIssues()).toEqual([]);
		await editor.closeNode();
		// n8n saves the edit by itself: the node now holds the picked code's id.
		const stored = await waitFor(
			async () => {
				const node = (await n8n.workflow(workflow.id)).nodes.find(
					(entry) => entry.name === 'Get QR code',
				);
				return node.parameters.qrCodeId?.value ? node.parameters.qrCodeId : null;
			},
			{ what: 'n8n to save the picked code', timeoutMs: 30000 },
		);
		expect(stored).toMatchObject({ mode: 'list', value: created[1].id });
	});

	test('Dynamic QR Trigger v2 and v1 for a dashboard endpoint and the Polling Trigger: each panel shows its fields and Endpoint choice, no warnings once the card is chosen', async () => {
		const signingSecret = `whsec_${Buffer.from('editor-test-secret-32-bytes-long').toString('base64')}`;
		const secret = await n8n.createCredential({
			name: 'Dashboard endpoint secret',
			type: 'dynamicQrSigningSecretApi',
			data: { signingSecret },
		});
		const workflow = await n8n.createWorkflow(triggersWorkflow(secret.name, signingSecret));
		await editor.openWorkflow(workflow.id);
		// The polling trigger has no card yet: once the canvas flags it, n8n has checked both nodes.
		const polling = await settle(
			() => editor.nodeIssues('New leads'),
			(issues) => issues.length > 0,
		);
		expect(polling).toEqual(['Parameter "Card Name or ID" is required.']);
		expect(await editor.nodeIssues('Dashboard endpoint')).toEqual([]);
		expect(await editor.nodeIssues('Version 1 dashboard')).toEqual([]);

		// Version 2 keeps the dashboard secret in a credential: no Signing Secret field. Each Endpoint
		// shows a credential of its own, so n8n offers Endpoint as the credential to connect with:
		// the field lists both kinds, and picking one picks its Endpoint.
		await editor.openNode('Dashboard endpoint');
		expect(await editor.docsLink()).toBe(`${README}#dynamic-qr-trigger`);
		expect(await editor.parameterLabels()).toEqual(['Trigger On', 'Filters']);
		expect(await editor.parameterIssues()).toEqual([]);
		expect(await editor.selectedCredential()).toBe(secret.name);
		const offered = await editor.credentialOptions();
		expect(offered).toContainEqual({ name: CREDENTIAL_NAME, type: 'Dynamic QR API' });
		expect(offered).toContainEqual({
			name: secret.name,
			type: 'Dynamic QR Webhook Signing Secret API',
		});
		await editor.pickCredential(CREDENTIAL_NAME);
		await editor.closeNode();
		const automatic = await waitFor(
			async () => {
				const saved = (await n8n.workflow(workflow.id)).nodes.find(
					(entry) => entry.name === 'Dashboard endpoint',
				);
				return saved.credentials.dynamicQrApi ? saved : null;
			},
			{ what: 'n8n to save the API credential of "Dashboard endpoint"', timeoutMs: 30000 },
		);
		// Register Automatically is the default, which n8n does not store.
		expect(automatic.parameters.endpointMode ?? 'automatic').toBe('automatic');
		expect(Object.keys(automatic.credentials)).toEqual(['dynamicQrApi']);

		// Version 1 keeps Endpoint among its parameters and the secret in its Signing Secret field:
		// no credential for a dashboard endpoint; Register Automatically shows the API credential.
		await editor.openNode('Version 1 dashboard');
		expect(await editor.parameterLabels()).toEqual([
			'Endpoint',
			'Signing Secret',
			'Trigger On',
			'Filters',
		]);
		expect(await editor.parameterIssues()).toEqual([]);
		expect(await editor.ndv.locator('[data-test-id="node-credentials-select"]').count()).toBe(0);
		await editor.selectOption('endpointMode', 'Register Automatically');
		expect(
			await settle(
				() => editor.parameterLabels(),
				(labels) => !labels.includes('Signing Secret'),
			),
		).toEqual(['Endpoint', 'Trigger On', 'Filters']);
		const offeredV1 = await editor.credentialOptions();
		expect(offeredV1).toContainEqual({ name: CREDENTIAL_NAME, type: 'Dynamic QR API' });
		expect(new Set(offeredV1.map((option) => option.type))).toEqual(new Set(['Dynamic QR API']));
		await editor.closeNode();

		await editor.openNode('New leads');
		expect(await editor.docsLink()).toBe(`${README}#dynamic-qr-polling-trigger`);
		expect(await editor.parameterLabels()).toEqual(
			expect.arrayContaining(['Trigger On', 'Card Name or ID']),
		);
		expect(await editor.parameterIssues()).toEqual([{ name: 'cardId', label: 'Card Name or ID' }]);
		// The card list is loaded from the sandbox through the node's getCards method.
		await editor.selectOption('cardId', 'Sandbox Card');
		expect(await clearedParameterIssues()).toEqual([]);
		await editor.closeNode();
		expect(
			await settle(
				() => editor.nodeIssues('New leads'),
				(issues) => issues.length === 0,
			),
		).toEqual([]);
		const stored = await waitFor(
			async () =>
				(await n8n.workflow(workflow.id)).nodes.find((entry) => entry.name === 'New leads')
					.parameters.cardId || null,
			{ what: 'n8n to save the chosen card', timeoutMs: 30000 },
		);
		expect(stored).toBe(sandbox.cardId);
	});

	test('Dynamic QR Trigger: listening for a test event registers a test webhook and shows the scan the service delivers', async () => {
		const code = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: 'Trigger test flyer',
				type: 'url',
				payload: { url: 'https://example.com/trigger-test' },
			})
		).data;
		const workflow = await n8n.createWorkflow(
			triggerWorkflow('Dynamic QR Trigger', ['scan.created']),
		);
		const testUrl = `${n8n.url}/webhook-test/${workflow.webhookIds['Dynamic QR Trigger']}/webhook`;
		await editor.openWorkflow(workflow.id);
		await editor.openNode('Dynamic QR Trigger');
		await editor.listenForTestEvent();

		// The node registers n8n's test URL at the service for the chosen event.
		const endpoint = await waitFor(
			async () =>
				(await sandbox.control('GET', '/webhooks')).data.find((entry) => entry.url === testUrl),
			{ what: `a webhook endpoint for ${testUrl} at the sandbox`, timeoutMs: 60000 },
		);
		expect(endpoint).toMatchObject({ events: ['scan.created'], status: 'active' });

		const scan = (
			await sandbox.control('POST', '/scans', {
				qr_code_id: code.id,
				country: 'DE',
				city: 'Berlin',
				device: 'mobile',
			})
		).data;
		expect(scan).toMatchObject({ qr_code_id: code.id });

		const output = await settle(
			() => editor.outputText().catch(() => ''),
			(text) => text.includes(code.id),
			{ timeoutMs: 60000 },
		);
		expect(output).toContain('scan.created');
		expect(output).toContain(code.id);
		expect(output).toContain('Berlin');
		expect(output).toMatch(/1 item/);

		// n8n removes a test webhook after its event: the node deletes the endpoint it made.
		const left = await settle(
			async () =>
				(await sandbox.control('GET', '/webhooks')).data.filter((entry) => entry.url === testUrl),
			(endpoints) => endpoints.length === 0,
			{ timeoutMs: 30000 },
		);
		expect(left).toEqual([]);
	});

	test('Dynamic QR Trigger: a test delivery refused for its signature or its timestamp ends the listen with an error naming the cause and the fix', async () => {
		const signingSecret = randomSecret();
		const secret = await n8n.createCredential({
			name: 'Refusal test endpoint secret',
			type: 'dynamicQrSigningSecretApi',
			data: { signingSecret },
		});
		const workflow = await n8n.createWorkflow(
			triggerWorkflow('Dashboard trigger', ['scan.created'], { secretCredentialName: secret.name }),
		);
		const testUrl = `${n8n.url}/webhook-test/${workflow.webhookIds['Dashboard trigger']}/webhook`;
		await editor.openWorkflow(workflow.id);
		await editor.openNode('Dashboard trigger');
		fs.mkdirSync(shotsDir, { recursive: true });

		/**
		 * Listens for a test event and sends it a scan.created delivery signed with `key`, stamped
		 * `ageSeconds` ago. Resolves with the sender's answer, what the editor shows once the listen
		 * has ended with `awaited(eventId)` in the output pane (as it stands if it never does; a
		 * screenshot `<shot>.png` of it), and the run n8n recorded last.
		 */
		const listenAndSend = async ({ key, ageSeconds, awaited, shot }) => {
			await editor.dismissOverlays();
			await editor.listenForTestEvent();
			const id = `evt_editor_${Date.now().toString(36)}`;
			const timestamp = Math.floor(Date.now() / 1000) - ageSeconds;
			const body = JSON.stringify({
				id,
				type: 'scan.created',
				created_at: new Date(timestamp * 1000).toISOString(),
				data: { qr_code_id: `qr_${id}`, country: 'DE', city: 'Berlin', device: 'mobile' },
			});
			// n8n can show the listen a moment before its test webhook takes requests (404 until then).
			const answer = await waitFor(
				async () => {
					const response = await fetch(testUrl, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							'webhook-id': id,
							'webhook-timestamp': String(timestamp),
							'webhook-signature': sign(key, id, timestamp, body),
						},
						body,
					});
					if (response.status === 404) return null;
					return { status: response.status, message: (await response.json()).message };
				},
				{ what: `n8n to take a delivery at ${testUrl}`, timeoutMs: 30000 },
			);
			const shown = await settle(
				async () => ({
					listening: await editor.isListening(),
					toasts: (await editor.toasts()).join('\n'),
					output: await editor.outputText().catch(() => ''),
				}),
				(state) => !state.listening && state.toasts && state.output.includes(awaited(id)),
				{ timeoutMs: 30000 },
			);
			await editor.page.screenshot({
				path: path.join(shotsDir, `${shot}.png`),
				animations: 'disabled',
			});
			const [last] = await n8n.executions(workflow.id, { limit: 1 });
			log(
				`${shot}: answered ${answer.status} ${answer.message}; toasts ${JSON.stringify(shown.toasts)}`,
			);
			return { id, answer, ...shown, run: last && (await n8n.execution(last.id)) };
		};

		const refusals = [
			{
				// A secret that is not the credential's: the fix says where the right one goes.
				key: randomSecret(),
				ageSeconds: 0,
				cause: 'no v1 signature in webhook-signature matches the body',
				fix: "The secret in the Dynamic QR Webhook Signing Secret credential is not the one the service signs this endpoint's deliveries with: copy the endpoint's current signing secret (whsec_…) from the service's dashboard into it.",
				shot: 'refused-signature',
			},
			{
				// The credential's own secret, stamped 400 s ago: refused for its timestamp alone.
				key: signingSecret,
				ageSeconds: 400,
				cause: 'the webhook-timestamp is more than 300 seconds old (possible replay)',
				fix: "n8n's clock and the service's differ by more than 5 minutes, or someone sent an old delivery again: check that this machine's clock is set (NTP).",
				shot: 'refused-timestamp',
			},
		];
		for (const { cause, fix, ...delivery } of refusals) {
			const message = `A delivery was refused: ${cause}`;
			const refused = await listenAndSend({ ...delivery, awaited: () => message });
			expect(refused.listening).toBe(false);
			expect(refused.toasts).toContain('Problem in node ‘Dashboard trigger‘');
			expect(refused.toasts).toContain(message);
			expect(refused.output).toContain(message);
			expect(refused.output).toContain(fix);
			expect(refused.output).not.toContain(refused.id);
			expect(refused.answer).toEqual({
				status: 500,
				message: 'Workflow Webhook Error: Workflow could not be started!',
			});
			// The run n8n recorded for the listen failed with the same error.
			expect(refused.run).toMatchObject({ status: 'error', error: { message, description: fix } });
		}

		// The same secret, stamped now: the listen ends with the event, as when nothing is refused.
		const accepted = await listenAndSend({
			key: signingSecret,
			ageSeconds: 0,
			awaited: (id) => id,
			shot: 'accepted',
		});
		expect(accepted.answer).toEqual({ status: 200, message: 'Workflow was started' });
		expect(accepted.listening).toBe(false);
		expect(accepted.toasts).not.toContain('Problem in node');
		expect(accepted.output).toContain(accepted.id);
		expect(accepted.run).toMatchObject({ status: 'success', error: null });
	});
});
