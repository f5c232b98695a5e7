'use strict';
/**
 * One tab of n8n's editor, as page objects (the way n8n's own Playwright suite is organised),
 * in pages/:
 *
 *   editor.signInPage        SignInPage       signIn()
 *   editor.canvas            CanvasPage       openWorkflow(), node(), nodeNames(), nodeText(),
 *                                             nodeIssues(), executeWorkflow(), waitForNodeSuccess()
 *   editor.nodeDetails       NodeDetailsView  open(), close(), listenForTestEvent(), isListening(),
 *                                             execute(), outputText(), showOutputAs(),
 *                                             selectedCredential(), credentialOptions(),
 *                                             pickCredential(), docsLink()
 *   editor.parameterPanel    ParameterPanel   visible(), labels(), issues(), fill(), selectOption()
 *   editor.resourceLocators  ResourceLocator  field(), openList(), listItems(), search(), pick(),
 *                                             value()
 *   editor.nodeCreator       NodeCreator      open(), search(), entries(), pick()
 *   editor.notifications     Notifications    texts(), dismissAll()
 *
 * The tests and dev/cli/screenshots.js call the same methods under the names of FLAT (e.g.
 * `editor.openNode(name)`); those that returned their page object return the editor, so calls
 * still chain.
 */
const fs = require('node:fs');
const path = require('node:path');

const { SignInPage } = require('./pages/sign-in-page');
const { CanvasPage } = require('./pages/canvas-page');
const { NodeDetailsView } = require('./pages/node-details-view');
const { ParameterPanel } = require('./pages/parameter-panel');
const { ResourceLocator } = require('./pages/resource-locator');
const { NodeCreator } = require('./pages/node-creator');
const { Notifications } = require('./pages/notifications');

/** The editor's own method names: `[page object, its method]` each. */
const FLAT = {
	signIn: ['signInPage', 'signIn'],
	openWorkflow: ['canvas', 'openWorkflow'],
	canvasNode: ['canvas', 'node'],
	canvasNodeNames: ['canvas', 'nodeNames'],
	canvasNodeText: ['canvas', 'nodeText'],
	nodeIssues: ['canvas', 'nodeIssues'],
	executeWorkflow: ['canvas', 'executeWorkflow'],
	waitForNodeSuccess: ['canvas', 'waitForNodeSuccess'],
	openNode: ['nodeDetails', 'open'],
	closeNode: ['nodeDetails', 'close'],
	listenForTestEvent: ['nodeDetails', 'listenForTestEvent'],
	isListening: ['nodeDetails', 'isListening'],
	executeOpenNode: ['nodeDetails', 'execute'],
	outputText: ['nodeDetails', 'outputText'],
	showOutputAs: ['nodeDetails', 'showOutputAs'],
	selectedCredential: ['nodeDetails', 'selectedCredential'],
	credentialOptions: ['nodeDetails', 'credentialOptions'],
	pickCredential: ['nodeDetails', 'pickCredential'],
	docsLink: ['nodeDetails', 'docsLink'],
	visibleParameters: ['parameterPanel', 'visible'],
	parameterLabels: ['parameterPanel', 'labels'],
	parameterIssues: ['parameterPanel', 'issues'],
	fillParameter: ['parameterPanel', 'fill'],
	selectOption: ['parameterPanel', 'selectOption'],
	resourceLocator: ['resourceLocators', 'field'],
	openResourceList: ['resourceLocators', 'openList'],
	resourceListItems: ['resourceLocators', 'listItems'],
	searchResourceList: ['resourceLocators', 'search'],
	pickResource: ['resourceLocators', 'pick'],
	resourceLocatorValue: ['resourceLocators', 'value'],
	openNodesPanel: ['nodeCreator', 'open'],
	searchNodesPanel: ['nodeCreator', 'search'],
	nodesPanelEntries: ['nodeCreator', 'entries'],
	pickNodesPanelEntry: ['nodeCreator', 'pick'],
	dismissOverlays: ['notifications', 'dismissAll'],
	toasts: ['notifications', 'texts'],
};

/** The page objects of one tab (`page`) of the editor of `n8n` (from dev/n8n/instance.js). */
function createEditor(page, n8n, log = () => {}) {
	const canvas = new CanvasPage(page, n8n);
	const nodeDetails = new NodeDetailsView(page, canvas);
	const objects = {
		signInPage: new SignInPage(page, n8n, log),
		canvas,
		nodeDetails,
		parameterPanel: new ParameterPanel(page, nodeDetails),
		resourceLocators: new ResourceLocator(page, nodeDetails),
		nodeCreator: new NodeCreator(page),
		notifications: new Notifications(page),
	};
	const editor = {
		page,
		n8n,
		...objects,
		/** The open node panel (n8n calls it the NDV), its parameter pane and its output pane. */
		ndv: nodeDetails.root,
		parameters: nodeDetails.parameters,
		outputPanel: nodeDetails.outputPanel,

		/** A PNG of the viewport, after the overlays are gone. */
		async screenshot(file) {
			await objects.notifications.dismissAll();
			fs.mkdirSync(path.dirname(file), { recursive: true });
			await page.screenshot({ path: file, animations: 'disabled' });
			return file;
		},
	};
	// A page object's method that returns the page object returns the editor here.
	const toEditor = (owner) => (result) => (result === owner ? editor : result);
	for (const [name, [objectName, method]] of Object.entries(FLAT)) {
		const owner = objects[objectName];
		editor[name] = (...args) => {
			const result = owner[method](...args);
			return result instanceof Promise ? result.then(toEditor(owner)) : toEditor(owner)(result);
		};
	}
	return editor;
}

module.exports = { createEditor };
